"""Helpers shared by the tests."""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.players.base import QuartoPlayer

#: The public raw state of a Board (everything but its history), as search code reads it.
RAW_STATE_FIELDS = (
    "rules",
    "raw_cells",
    "occupied_mask",
    "available_mask",
    "in_hand",
    "player",
    "winner_index",
    "placed_count",
)


class LowestPlayer(QuartoPlayer):
    """Deterministic: lowest legal piece, lowest legal square."""

    name = "lowest"

    def choose_piece(self, board):
        return board.legal_pieces()[0]

    def place_piece(self, board, piece):
        return board.legal_squares()[0]


def play_randomly(rng: random.Random, actions: int, rules: Rules | str = Rules.CLASSIC) -> Board:
    """The position after up to ``actions`` random legal actions from the start (fewer if the game ends)."""
    board = Board(rules)
    for _ in range(actions):
        if board.is_over():
            break
        board.apply(rng.choice(board.legal_actions()))
    return board


def random_positions(
    seed: int,
    count: int,
    rules: Rules | str = Rules.CLASSIC,
    *,
    min_actions: int = 1,
    max_actions: int = 31,
    keep_over: bool = False,
) -> list[Board]:
    """Positions reached by seeded random play, stopped after ``min_actions..max_actions`` actions
    (exclusive upper bound); finished games are skipped unless ``keep_over``."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = play_randomly(rng, rng.randrange(min_actions, max_actions), rules)
        if keep_over or not board.is_over():
            found.append(board)
    return found


# --------------------------------------------------------------------------- isolated installs
REPO = Path(__file__).resolve().parent.parent
#: gpquarto's runtime dependencies, borrowed from this interpreter by isolated environments.
DEPENDENCIES = ("deap", "dill", "numpy", "matplotlib", "tqdm")


def run_checked(command: list[str], **options) -> subprocess.CompletedProcess:
    """Run ``command``, capturing its output; a failure asserts with the command and the end of its output."""
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, **options)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result


def copy_sources(target: Path) -> Path:
    """A copy of what a gpquarto wheel is built from (building in the checkout would leave files in it)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for folder in ("gpquarto", "primitives"):
        shutil.copytree(REPO / folder, target / folder, ignore=ignore)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, target / name)
    return target


def build_gpquarto_wheel(folder: Path) -> Path:
    """Build gpquarto's wheel from a copy of the sources under ``folder``; returns the wheel's path."""
    source = copy_sources(folder / "source")
    run_checked([sys.executable, "-m", "build", "--wheel", "--outdir", str(folder / "dist"), str(source)])
    (wheel,) = (folder / "dist").glob("gpquarto-*.whl")
    return wheel


def isolated_environment(folder: Path, *installs: str | Path, offline: bool = True) -> tuple[Path, Path]:
    """A fresh virtual environment at ``folder`` with ``installs`` (wheels or project folders) installed
    without their dependencies, which it borrows from this interpreter through a ``.pth`` file.

    ``offline=False`` lets pip fetch a project's build backend (from its cache or the package index).
    Returns the environment's python and its site-packages folder.
    """
    run_checked([sys.executable, "-m", "venv", "--without-pip", str(folder)])
    python = folder / "bin" / "python"
    index = ["--no-index"] if offline else []
    run_checked(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", *index, "--quiet"]
        + [str(path) for path in installs]
    )
    site_packages = Path(
        run_checked([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    )
    borrowed = {str(Path(importlib.util.find_spec(name).origin).parents[1]) for name in DEPENDENCIES}
    (site_packages / "borrowed_dependencies.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    return python, site_packages


def environment_without_checkout() -> dict[str, str]:
    """This process's environment without ``PYTHONPATH``, so that a subprocess cannot see the checkout."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def installed_package_environment() -> dict[str, str]:
    """The environment of commands run where a plug-in package is installed: without the checkout
    (:func:`environment_without_checkout`), and with gpquarto's numba-compiled functions run as plain Python
    (``NUMBA_DISABLE_JIT``). numba would compile them afresh in each new environment (its cache lives beside the
    installed files) for nothing the package tests check; they are compiled, and checked against their pure
    versions, where the checkout runs."""
    return dict(environment_without_checkout(), NUMBA_DISABLE_JIT="1")


def first_quixo_rule_move(genome, library, state) -> int | None:
    """The move of a Quixo genome's first rule whose condition holds and whose move is legal in ``state``, its trees
    compiled afresh (the slow reference of the rule sets); None when no rule decides (the fallback would)."""
    from gpquarto.games.quixo.gp.features import QuixoFeatures
    from gpquarto.gp.compiler import compile_tree

    features = QuixoFeatures(state.view())
    for rule in genome.rules("move"):
        if compile_tree(rule.condition, library)(features):
            move = compile_tree(rule.action, library)(features)
            if move in state.legal_actions():
                return move
    return None
