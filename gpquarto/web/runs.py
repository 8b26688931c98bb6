"""Training run folders for the web app's Runs page: ``runs/NAME/`` with its logbook, hall of fame and best player.

Only direct sub-folders of the runs folder are opened, by exact name: a request cannot reach other files.
"""

from __future__ import annotations

import csv
from pathlib import Path

from gpquarto.web.sessions import RequestError

LOGBOOK, HALL_OF_FAME, BEST_PLAYER, FITNESS_PLOT = "logbook.csv", "hall_of_fame.txt", "best_player.json", "fitness.png"
RUN_FILES = (LOGBOOK, HALL_OF_FAME, BEST_PLAYER, FITNESS_PLOT)
MAX_TEXT_BYTES = 2_000_000


def list_runs(root: Path) -> list[dict]:
    """The run folders under ``root`` (those holding at least one run file), newest first."""
    if not root.is_dir():
        return []
    found = [folder for folder in root.iterdir() if folder.is_dir() and any((folder / f).is_file() for f in RUN_FILES)]
    found.sort(key=lambda folder: folder.stat().st_mtime, reverse=True)
    return [{"name": folder.name, "files": [f for f in RUN_FILES if (folder / f).is_file()]} for folder in found]


def run_folder(root: Path, name: str) -> Path:
    """The folder of run ``name``: a direct sub-folder of ``root``; ``RequestError`` 404 otherwise."""
    if root.is_dir() and name not in (".", "..") and "/" not in name and "\\" not in name:
        folder = root / name
        if folder.is_dir():
            return folder
    raise RequestError(f"no run {name!r} in {root}", status=404)


def run_file(root: Path, name: str, filename: str) -> Path:
    """One of the run's files; ``RequestError`` 404 when it is missing."""
    path = run_folder(root, name) / filename
    if not path.is_file():
        raise RequestError(f"run {name!r} has no {filename}", status=404)
    return path


def run_summary(root: Path, name: str) -> dict:
    """What the Runs page shows: the logbook's columns and rows, the hall of fame text, the best player's rules."""
    folder = run_folder(root, name)
    summary: dict = {"name": name, "logbook": None, "hall_of_fame": None, "best_player": None, "problems": []}
    summary["has_plot"] = (folder / FITNESS_PLOT).is_file()
    if (folder / LOGBOOK).is_file():
        summary["logbook"] = read_logbook(folder / LOGBOOK)
    if (folder / HALL_OF_FAME).is_file():
        summary["hall_of_fame"] = _read_text(folder / HALL_OF_FAME)
    if (folder / BEST_PLAYER).is_file():
        try:
            summary["best_player"] = best_player(folder / BEST_PLAYER)
        except ValueError as error:
            summary["problems"].append(str(error))
    return summary


def read_logbook(path: Path) -> dict:
    """``{"columns": [...], "rows": [[...], ...]}`` with numbers as floats (None where a cell is not a number)."""
    with open(path, newline="") as stream:
        table = list(csv.reader(stream))
    if not table:
        return {"columns": [], "rows": []}
    return {"columns": table[0], "rows": [[_number(cell) for cell in row] for row in table[1:]]}


def best_player(path: Path) -> dict:
    """The saved player's name, fitness and rule texts (read by the safe reader, never executed)."""
    from gpquarto.gp.storage import read_player_file

    data = read_player_file(path)
    return {
        "spec": str(path),
        "name": data.get("name", ""),
        "fitness": data.get("fitness", {}),
        "rules": {
            kind: [f"if {condition} then {action}" for condition, action in pairs]
            for kind, pairs in data["rules"].items()
        },
    }


def player_files(root: Path) -> list[str]:
    """Saved best players of the runs under ``root``, as specs the Play and Watch pages accept."""
    return [str(root / run["name"] / BEST_PLAYER) for run in list_runs(root) if BEST_PLAYER in run["files"]]


def _read_text(path: Path) -> str:
    with open(path, encoding="utf-8", errors="replace") as stream:
        return stream.read(MAX_TEXT_BYTES)


def _number(cell: str) -> float | None:
    try:
        return float(cell)
    except ValueError:
        return None
