"""Quixo's training, experiment and learning defaults (:class:`~gpquarto.games.capabilities.TrainingDefaults`).

Evolution (docs/lab/quixo-defaults.md and docs/lab/quixo-two-turn.md, three seeds): half the games against random keep the
player sound (99.7% wins on each seed), half against the yardstick search, alphabeta at depth 2; every pair of
games from 4 random plies, since from the start position a deterministic search plays only two games, which a
champion learns by heart (75% from the start, 14% from varied openings). No accuracy term (5x5 is not solved;
on 4x4 ``--accuracy-weight`` grades decisions by the exact solution). 40 generations of 30 genomes x 40 games:
with the two-turn primitives, twice the 20 games of before lifted every seed to >= 50% against alphabeta:depth=2
from varied openings (52.2 / 52.5 / 50.5% against 53.1 / 51.4 / 48.9%), for 450-829 s of CPU.
An experiment measures its players against ``random`` and ``alphabeta:depth=1``; the n-tuple learner's defaults
were measured in docs/learning.md.
"""

from __future__ import annotations

from gpquarto.games.capabilities import TrainingDefaults
from gpquarto.games.defaults import GENERIC_TRAINING_DEFAULTS

DEFAULTS = TrainingDefaults(
    evolution=GENERIC_TRAINING_DEFAULTS.evolution,  # the generic defaults are these, measured on Quixo
    evaluation_opponents=("random", "alphabeta:depth=1"),
    learning={"td-ntuple": {"episodes": 10_000, "alpha": 0.1, "step": "tc", "epsilon_start": 0.1}},
    learning_evaluation="random,minimax:depth=2",
)
