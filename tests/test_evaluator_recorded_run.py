"""Evaluator training stays bit-identical for the same seed: a short seeded run, recorded once, re-run; and
where the one evolution loop runs the algorithm of the evaluator loop it replaced, it gives that loop's results.

The reference files in ``tests/reference/evaluator_run/`` were written by this module (``python -m
tests.test_evaluator_recorded_run`` records them again: only when evaluator training is changed on purpose, and
say so in the commit). They were recorded when evaluator training joined the loop of rule training: the run plays
``hof`` opponents, so it follows the shared hall of fame's rules (one member per generation, a tree already in
the hall not entered again: that generation's next best takes its place), which the loop before had not (its
hall was each generation's best tree, once, the earlier on a tie). Recorded again when the evaluator primitives
``safe_pair_count`` and ``forced_win`` joined the vocabulary (the random trees changed). The building blocks
that came after (``forced_loss``, ``forced_outcome``, ``safe_pair_parity``) are left out by
``--no-evaluator-blocks``, so the run replays as recorded. ``logbook.csv`` and ``hall_of_fame.txt`` must
match byte for byte, ``best_evaluator.json`` once the run's identity and the gpquarto version are left out.

:data:`BEFORE_THE_FOLD` is what the evaluator loop before the fold logged and chose for a run without ``hof``
opponents (``train --genome evaluator --depth 1 --generations 3 --population 8 --games 8 --seed 3
--final-games 8``, recorded with that loop): the same scores, sizes and champion.
"""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

from gpquarto.cli import main
from gpquarto.gp import library, plugins
from tests.test_quarto_recorded_run import record_reference

REFERENCE = Path(__file__).resolve().parent / "reference" / "evaluator_run"
FILES = ("logbook.csv", "hall_of_fame.txt", "best_evaluator.json")
COMMON = [
    *("train", "--genome", "evaluator", "--depth", "1", "--population", "8", "--games", "8", "--final-games", "8"),
    *("--islands", "1", "--hall-of-fame", "5"),
    "--no-evaluator-blocks",  # the library of the recording (the default): the building blocks came later
]
COMMAND = [
    *COMMON,
    *("--generations", "4", "--seed", "5", "--opponents", "minimax:depth=1:1,hof:1", "--cost-weight", "0.01"),
]
#: (generation, best, mean, best_size, mean_size) and the champion (tree, final score, wins, draws, losses) of
#: the loop before the fold, seed 3, no ``hof`` opponents.
BEFORE_THE_FOLD = (
    [(0, 0.75, 0.4765625, 6, 6.25), (1, 0.75, 0.515625, 7, 4.625), (2, 0.6875, 0.5390625, 4, 4.0)],
    ("larger(open_lines_sharing(hollow), two)", 0.4375, 2, 3, 3),
)


def train_into(folder: Path, command: list[str]) -> None:
    """Run ``command`` into ``folder`` on one worker."""
    assert main([*command, "--workers", "1", "--quiet", "--run-dir", str(folder)]) == 0


#: Config fields written since the recording, with the value that means "as before": (key, value).
ADDED_CONFIG_FIELDS: tuple[tuple[str, object], ...] = (
    ("openings", 0),
    ("insertion_mutation", False),
    ("islands", 1),
    ("pooled_fitness", False),
)


def comparable_evaluator(text: str) -> dict:
    """A ``best_evaluator.json`` without the run's identity, the gpquarto version and the config fields added
    since the recording (:data:`ADDED_CONFIG_FIELDS`, which must hold the value that means "as before")."""
    data = json.loads(text)
    data.pop("run", None)
    data.pop("gpquarto_version", None)
    data.get("library_versions", {}).pop("builtin", None)
    for key, value in ADDED_CONFIG_FIELDS:
        assert data["config"].pop(key, value) == value, f"config field {key} is not the value the recording means"
    return data


def test_evaluator_training_matches_the_recorded_run(tmp_path):
    train_into(tmp_path / "run", COMMAND)
    for name in ("logbook.csv", "hall_of_fame.txt"):
        assert (tmp_path / "run" / name).read_bytes() == (REFERENCE / name).read_bytes(), name
    produced = comparable_evaluator((tmp_path / "run" / "best_evaluator.json").read_text())
    assert produced == comparable_evaluator((REFERENCE / "best_evaluator.json").read_text())


#: Evaluator primitives added since the loop before the fold: its run is replayed without them.
ADDED_PRIMITIVES = frozenset({"safe_pair_count", "forced_win"})


def test_without_hof_opponents_the_loop_gives_the_results_of_the_evaluator_loop_it_replaced(tmp_path, monkeypatch):
    load_builtin = plugins.load_builtin

    def builtin_of_the_fold(*args, **kwargs):
        loaded = load_builtin(*args, **kwargs)
        return replace(loaded, specs=tuple(spec for spec in loaded.specs if spec.name not in ADDED_PRIMITIVES))

    monkeypatch.setattr(plugins, "load_builtin", builtin_of_the_fold)
    monkeypatch.setattr(library, "_SHARED_LIBRARIES", {})  # a library loaded before this test is not reused
    # the loop before the fold played minimax:depth=D, the evaluator default then
    train_into(tmp_path / "run", [*COMMON, "--generations", "3", "--seed", "3", "--opponents", "minimax:depth=1"])
    with open(tmp_path / "run" / "logbook.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    logged = [
        (int(row["generation"]), float(row["best"]), float(row["mean"]), int(row["best_size"]), float(row["mean_size"]))
        for row in rows
    ]
    assert logged == BEFORE_THE_FOLD[0]
    saved = json.loads((tmp_path / "run" / "best_evaluator.json").read_text())
    fitness = saved["fitness"]
    champion = (saved["tree"]["evaluator"], fitness["score"], fitness["wins"], fitness["draws"], fitness["losses"])
    assert champion == BEFORE_THE_FOLD[1]


def record() -> None:
    """Write the reference files again (run it as ``python -m tests.test_evaluator_recorded_run``)."""
    record_reference(lambda folder: train_into(folder, COMMAND), REFERENCE, FILES)


if __name__ == "__main__":
    record()
