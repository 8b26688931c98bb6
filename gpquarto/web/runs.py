"""Training run folders for the web app's Runs page: ``runs/NAME/`` with its logbook, hall of fame and best player
(a rule run's ``best_player.json``) or best evaluator (an evaluator run's ``best_evaluator.json``, played as
``minimax:depth=D,evaluator=NAME/best_evaluator.json``).

The file names are the training library's (:mod:`gpquarto.training.run`): the layout of a run folder is known
in one place. Folders are shown even without a ``config.json`` (a run being written, or one copied by hand),
which :class:`~gpquarto.training.run.RunFolder` would refuse.

Only direct sub-folders of the runs folder are opened, by exact name, and a symbolic link is followed only
when it stays inside the runs folder: a request cannot reach other files. Numbers that JSON cannot carry
(a run trained with an infinite weight) are sent as null.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import cast

from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.gp.simplify import simplification_text
from gpquarto.gp.storage import player_game, read_player_file
from gpquarto.plain_files import open_regular_file
from gpquarto.training.genome_kinds import BEST_EVALUATOR, SIMPLIFIED_EVALUATOR, SIMPLIFIED_PLAYER
from gpquarto.training.run import BEST_PLAYER_TEXT as BEST_PLAYER
from gpquarto.training.run import CONFIG_FILE, FITNESS_PLOT, HALL_OF_FAME, LOGBOOK, RunError, RunFolder
from gpquarto.web.sessions import RequestError

RUN_FILES = (LOGBOOK, HALL_OF_FAME, BEST_PLAYER, BEST_EVALUATOR, FITNESS_PLOT)
#: The search depth of an evaluator whose file does not say (the evaluator genome's default).
DEFAULT_EVALUATOR_DEPTH = 2
MAX_TEXT_BYTES = 2_000_000
#: The most of a logbook read (about 50,000 generations); the rows past it are not shown.
MAX_LOGBOOK_BYTES = 5_000_000
#: The longest run name looked up (longer ones cannot be folder names).
MAX_NAME = 255


def list_runs(root: Path) -> list[dict]:
    """The run folders under ``root`` (those holding at least one run file), newest first."""
    if not root.is_dir():
        return []
    found = [folder for folder in root.iterdir() if _inside(root, folder) and folder.is_dir()]
    found = [folder for folder in found if any(_run_file(root, folder / name) for name in RUN_FILES)]
    found.sort(key=lambda folder: folder.stat().st_mtime, reverse=True)
    return [{"name": folder.name, "files": [f for f in RUN_FILES if _run_file(root, folder / f)]} for folder in found]


def run_folder(root: Path, name: str) -> Path:
    """The folder of run ``name``: a direct sub-folder of ``root``; ``RequestError`` 404 otherwise."""
    if len(name) <= MAX_NAME and name not in (".", "..") and "/" not in name and "\\" not in name and "\0" not in name:
        folder = root / name
        if _inside(root, folder) and folder.is_dir():
            return folder
    raise RequestError(f"no run {name[:80]!r} in {root}", status=404)


def run_file(root: Path, name: str, filename: str) -> Path:
    """One of the run's files; ``RequestError`` 404 when it is missing."""
    path = run_folder(root, name) / filename
    if not _run_file(root, path):
        raise RequestError(f"run {name!r} has no {filename}", status=404)
    return path


def _inside(root: Path, path: Path) -> bool:
    """True when ``path``, links resolved, is inside ``root`` (and can be looked at)."""
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError, ValueError):
        return False


def _run_file(root: Path, path: Path) -> bool:
    return _inside(root, path) and path.is_file()


def run_summary(root: Path, name: str) -> dict:
    """What the Runs page shows: the game (and its settings), the logbook's columns and rows, the hall of fame
    text, the best player's rules."""
    folder = run_folder(root, name)
    summary: dict = {
        "name": name,
        "game": None,
        "settings": {},
        "logbook": None,
        "hall_of_fame": None,
        "best_player": None,
        "best_evaluator": None,
        "problems": [],
    }
    if _run_file(root, folder / CONFIG_FILE):
        try:
            config = RunFolder.open(folder).config
            summary["game"], summary["settings"] = config.game, config.game_settings()
        except RunError as error:
            summary["problems"].append(str(error))
    summary["has_plot"] = _run_file(root, folder / FITNESS_PLOT)
    if _run_file(root, folder / LOGBOOK):
        summary["logbook"] = read_logbook(folder / LOGBOOK)
    if _run_file(root, folder / HALL_OF_FAME):
        summary["hall_of_fame"] = _read_text(folder / HALL_OF_FAME)
    if _run_file(root, folder / BEST_PLAYER):
        try:
            summary["best_player"] = {**best_player(folder / BEST_PLAYER), "spec": f"{name}/{BEST_PLAYER}"}
            summary["game"] = summary["game"] or summary["best_player"]["game"]
            summary["best_player"]["simplified"] = None
            if _run_file(root, folder / SIMPLIFIED_PLAYER):
                summary["best_player"]["simplified"] = simplified_player(folder / SIMPLIFIED_PLAYER)
        except ValueError as error:
            summary["problems"].append(str(error))
    if _run_file(root, folder / BEST_EVALUATOR):
        try:
            summary["best_evaluator"] = best_evaluator(root, name)
            summary["game"] = summary["game"] or summary["best_evaluator"]["game"]
        except ValueError as error:
            summary["problems"].append(str(error))
    return cast(dict, finite(summary))  # finite keeps a dict a dict


def finite(value: object) -> object:
    """``value`` with every float that is not finite replaced by None (JSON has no infinity)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(item) for item in value]
    return value


def read_logbook(path: Path) -> dict:
    """``{"columns": [...], "rows": [[...], ...]}`` with numbers as floats (None where a cell is not a number)."""
    with open_regular_file(path, "logbook") as stream:  # no pipe, and a bounded read: a run folder may be shared
        text = stream.read(MAX_LOGBOOK_BYTES).decode("utf-8", "replace")
    table = list(csv.reader(io.StringIO(text, newline="")))
    if not table:
        return {"columns": [], "rows": []}
    return {"columns": table[0], "rows": [[_number(cell) for cell in row] for row in table[1:]]}


def best_player(path: Path) -> dict:
    """The saved player's name, game, fitness and rule texts (read by the safe reader, never executed); the page
    names it by ``RUN/best_player.json`` (see :class:`~gpquarto.web.players.RequestPlayers`)."""
    return _player_summary(read_player_file(path))


def simplified_player(path: Path) -> dict:
    """The simplified champion's rule texts and what was removed, in one line (``show``'s words); the file is read
    by the safe reader and its report bounded, never trusted."""
    data = read_player_file(path)
    report = data.get("simplification")
    return {
        "rules": _player_summary(data)["rules"],
        "summary": simplification_text(report) if isinstance(report, dict) else "",
    }


def _player_summary(data: dict) -> dict:
    return {
        "name": data.get("name", ""),
        "game": player_game(data),
        "fitness": data.get("fitness", {}),
        "rules": {
            kind: [f"if {condition} then {action}" for condition, action in pairs]
            for kind, pairs in data["rules"].items()
        },
    }


def evaluator_game(data: dict) -> str:
    """The game an evaluator file's run trained for (files of runs before other games name none: the default)."""
    game = data.get("config", {}).get("game")
    return game if isinstance(game, str) and game else DEFAULT_GAME


def evaluator_spec(name: str, data: dict) -> str:
    """The player spec of run ``name``'s best evaluator: the game's search it was trained for (Quarto's minimax), at
    the depth it was trained for."""
    from gpquarto.gp.evaluator_player import trained_search_spec

    depth = data.get("config", {}).get("depth", DEFAULT_EVALUATOR_DEPTH)
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
        depth = DEFAULT_EVALUATOR_DEPTH
    return trained_search_spec(evaluator_game(data), depth, f"{name}/{BEST_EVALUATOR}")


def best_evaluator(root: Path, name: str) -> dict:
    """Run ``name``'s best evaluator (read by the safe reader, never executed): its name, fitness, formula, the
    simplified formula when the run wrote one, and the spec that plays it; ``ValueError`` (one line) for a file
    that is not an evaluator or names primitives this server does not have."""
    from gpquarto.gp.evaluator_files import evaluator_from_data, read_evaluator_file
    from gpquarto.gp.storage import default_library

    folder = run_folder(root, name)
    data = read_evaluator_file(folder / BEST_EVALUATOR)
    game = evaluator_game(data)
    library = default_library(game=game)
    formula = evaluator_from_data(data, library, source=f"{name}/{BEST_EVALUATOR}").genome.describe()
    simplified = None
    if _run_file(root, folder / SIMPLIFIED_EVALUATOR):
        shorter = read_evaluator_file(folder / SIMPLIFIED_EVALUATOR)
        simplified = evaluator_from_data(shorter, library, source=f"{name}/{SIMPLIFIED_EVALUATOR}").genome.describe()
    return {
        "game": game,
        "name": data.get("name", ""),
        "fitness": data.get("fitness", {}),
        "formula": formula,
        "simplified": simplified,
        "spec": evaluator_spec(name, data),
    }


def _read_text(path: Path) -> str:
    with open_regular_file(path, "text file") as stream:
        return stream.read(MAX_TEXT_BYTES).decode("utf-8", "replace")


def _number(cell: str) -> float | None:
    """The cell as a finite number, or None."""
    try:
        number = float(cell)
    except ValueError:
        return None
    return number if math.isfinite(number) else None
