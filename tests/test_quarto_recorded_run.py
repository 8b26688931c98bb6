"""Quarto's evolution stays bit-identical for the same seed: a short seeded training, recorded once, re-run.

The reference files in ``tests/reference/quarto_run/`` were written by this module (``python -m
tests.test_quarto_recorded_run`` records them again: do that only when Quarto's training is changed on
purpose, and say so in the commit). ``logbook.csv`` and ``hall_of_fame.txt`` must match byte for byte.
``best_player.json`` must match once what legitimately differs between two runs of the same config is left
out: the run's identity (``run``: its id and folder), the gpquarto version (``gpquarto_version`` and the
``builtin`` entry of ``library_versions``), and fields that later versions add to the file and to its
``config`` with the value that means "as before" (:data:`ADDED_FIELDS`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from gpquarto.cli import main

REFERENCE = Path(__file__).resolve().parent / "reference" / "quarto_run"
FILES = ("logbook.csv", "hall_of_fame.txt", "best_player.json")
COMMAND = [
    "train",
    "--generations",
    "3",
    "--population",
    "8",
    "--games",
    "8",
    "--final-games",
    "20",
    "--workers",
    "1",
    "--seed",
    "5",
    # The engine path of the recording: every genome plays --games, on a bank of 200 positions, its score without
    # a parsimony term (train's Quarto defaults race, on a larger bank, with a parsimony; tests/test_racing.py and
    # tests/test_parsimony.py hold them to the same run on 1 and 2 workers and after a resume).
    "--no-racing",
    "--accuracy-positions",
    "200",
    "--parsimony",
    "0",
    "--quiet",
]
#: Fields written since the recording, with the value an old Quarto file means: (where, key, value).
ADDED_FIELDS: tuple[tuple[str, str, object], ...] = (
    ("player", "game", "quarto"),
    ("config", "game", "quarto"),
    ("config", "board_size", 0),
    ("config", "game_rules", ""),
    ("config", "openings", 0),
    ("config", "genome", "rules"),
    ("config", "depth", 1),
    ("config", "cost_weight", 0.0),
    ("config", "insertion_mutation", False),
    ("config", "islands", 1),
    ("config", "pooled_fitness", False),
)


def train_into(folder: Path) -> None:
    """Run the recorded training into ``folder`` (its best player's copy stays inside it)."""
    code = main([*COMMAND, "--run-dir", str(folder), "--filename", str(folder / "recorded.p")])
    assert code == 0


def comparable_player(text: str) -> dict:
    """A ``best_player.json`` without what differs between two runs of one config (see the module docstring)."""
    data = json.loads(text)
    data.pop("run", None)
    data.pop("gpquarto_version", None)
    data.get("library_versions", {}).pop("builtin", None)
    for where, key, value in ADDED_FIELDS:
        holder = data if where == "player" else data["config"]
        assert holder.pop(key, value) == value, f"{where} field {key} is not the value the recording means"
    return data


def test_quarto_training_matches_the_recorded_run(tmp_path):
    train_into(tmp_path)
    for name in ("logbook.csv", "hall_of_fame.txt"):
        assert (tmp_path / name).read_bytes() == (REFERENCE / name).read_bytes(), name
    produced = comparable_player((tmp_path / "best_player.json").read_text())
    assert produced == comparable_player((REFERENCE / "best_player.json").read_text())


def record_reference(train: Callable[[Path], None], reference: Path, files: tuple[str, ...]) -> None:
    """Run ``train`` into a fresh folder and keep its ``files`` as the reference files in ``reference``."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        train(Path(folder) / "run")
        reference.mkdir(parents=True, exist_ok=True)
        for name in files:
            (reference / name).write_bytes((Path(folder) / "run" / name).read_bytes())
    print(f"recorded {', '.join(files)} in {reference}", file=sys.stderr)


def record() -> None:
    """Write the reference files again (run it as ``python -m tests.test_quarto_recorded_run``)."""
    record_reference(train_into, REFERENCE, FILES)


if __name__ == "__main__":
    record()
