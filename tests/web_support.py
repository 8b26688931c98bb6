"""Shared by the web app's tests: a real server on a free loopback port, JSON calls, a tiny evolved player, a run folder."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.evaluator_files import evaluator_data, save_evaluator
from gpquarto.gp.genome import Genome
from gpquarto.gp.storage import default_library, player_data, save_player
from gpquarto.players.base import BasePlayer

#: The tiny evolved player's rules: choose rule 2 fires while a tall piece is left (rule 1 never does), place
#: rule 1 while a corner is free; otherwise the random fallback decides.
TINY_RULES = {"choose": [["False", "tall_piece"], ["True", "tall_piece"]], "place": [["True", "corner_square"]]}
CORNERS = (0, 3, 12, 15)


class DeafPlayer(BasePlayer):
    """A player that ignores every time budget: it thinks ``seconds`` (default 30) whatever it is told, then plays
    the first legal action (the zoo's searches all stop within their budget: this one stands for a player that
    does not)."""

    name = "deaf"

    def __init__(self, seconds: float = 30.0) -> None:
        self.seconds = seconds

    def decide(self, view) -> int:
        time.sleep(self.seconds)
        return view.legal_actions()[0]


@contextmanager
def running_server(**options) -> Iterator[str]:
    """Serve ``create_app(**options)`` with uvicorn on 127.0.0.1 and a free port; yields the base URL."""
    from gpquarto.web.app import create_app

    with serving(create_app(**options)) as base:
        yield base


@contextmanager
def serving(app) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1 and a free port, in a thread; yields the base URL."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the web server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def call(base: str, method: str, path: str, body: object = None) -> tuple[int, dict]:
    """``(status, JSON answer)`` of one request; ``body`` is sent as JSON (bytes are sent as they are)."""
    data = None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def save_tiny_player(path: Path) -> Genome:
    """Save the tiny evolved player (:data:`TINY_RULES`) to ``path`` (.json); returns its genome."""
    library = default_library(())
    genome = Genome.from_data(TINY_RULES, library.primitive_set())
    save_player(path, player_data(genome, library, name="tiny", fitness={"score": 0.5}))
    return genome


def make_run_folder(root: Path, name: str = "demo") -> Path:
    """A small run folder as ``train`` writes it: logbook, hall of fame, best player, fitness plot."""
    folder = root / name
    folder.mkdir(parents=True)
    rows = ["generation,evaluations,best,mean", "0,10,0.25,0.125", "1,20,0.5,0.25", "2,30,0.75,0.5"]
    (folder / "logbook.csv").write_text("\n".join(rows) + "\n")
    (folder / "hall_of_fame.txt").write_text("# 1. score 0.75\nchoose rules:\n  1. if True then tall_piece\n")
    save_tiny_player(folder / "best_player.json")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(3, 2))
    axes.plot([0, 1, 2], [0.25, 0.5, 0.75])
    figure.savefig(folder / "fitness.png")
    plt.close(figure)
    return folder


#: The simplified form of the tiny player (its never-true first choose rule dropped) and what the file says of it.
SIMPLIFIED_RULES = {"choose": [["True", "tall_piece"]], "place": [["True", "corner_square"]]}
SIMPLIFICATION = {
    "rules_before": {"choose": 2, "place": 1},
    "rules_after": {"choose": 1, "place": 1},
    "nodes_before": 6,
    "nodes_after": 4,
    "removed": {"false condition": ["choose 1"]},
    "checked_positions": 321,
}


def add_simplified_player(folder: Path, report: object = None) -> None:
    """Write ``best_player.simplified.json`` beside the tiny run's player, with ``report`` as its
    ``"simplification"`` (default :data:`SIMPLIFICATION`)."""
    library = default_library(())
    genome = Genome.from_data(SIMPLIFIED_RULES, library.primitive_set())
    data = player_data(genome, library, name="tiny-simplified", fitness={"score": 0.5})
    save_player(folder / "best_player.simplified.json", {**data, "simplification": report or SIMPLIFICATION})


#: The evaluator run's formula and its folded form (what ``train --genome evaluator`` writes beside it).
EVALUATOR_FORMULA, SIMPLIFIED_FORMULA = "plus(safe_piece_count, minus(threats, threats))", "safe_piece_count"


def make_evaluator_run_folder(root: Path, name: str = "evaluator-demo", depth: int = 1) -> Path:
    """A small evaluator run folder as ``train --genome evaluator --depth D`` writes it: logbook, best evaluator
    and its simplified form (no ``config.json``: the page reads the depth from the evaluator file)."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "logbook.csv").write_text("generation,evaluations,best,mean\n0,8,0.5,0.25\n1,16,0.625,0.5\n")
    library = default_library(())
    for filename, formula in (
        ("best_evaluator.json", EVALUATOR_FORMULA),
        ("best_evaluator.simplified.json", SIMPLIFIED_FORMULA),
    ):
        genome = EvaluatorGenome.from_text(formula, library)
        data = evaluator_data(
            genome, library, name=f"{name}-evaluator", config={"depth": depth}, fitness={"score": 0.625}
        )
        save_evaluator(folder / filename, data)
    return folder


@contextmanager
def solutions_cache(folder: Path, *sizes_and_rules: tuple[int, str]) -> Iterator[Path]:
    """``$GPQUARTO_CACHE`` set to ``folder`` for the block (then restored), holding a copy of the cached Quixo
    solutions named (as ``(size, rules)``) from the tests' cache and no other: a test can watch the server
    compute the others."""
    from gpquarto.games.quixo.search import solver

    for size, rules in sizes_and_rules:
        target = solver.solution_path(size, rules, folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(solver.solution_path(size, rules), target)
    before = os.environ.get("GPQUARTO_CACHE")
    os.environ["GPQUARTO_CACHE"] = str(folder)
    try:
        yield folder
    finally:
        if before is None:
            del os.environ["GPQUARTO_CACHE"]
        else:
            os.environ["GPQUARTO_CACHE"] = before
