"""Quixo's training, experiment and learning defaults (:class:`~gpquarto.games.capabilities.TrainingDefaults`).

Evolution: half the games against random keep the player sound, half are against the yardstick search,
alphabeta at depth 2; every pair of games starts from 4 random plies, since from the start position a
deterministic search plays only two games, which a champion learns by heart. No accuracy term (on 4x4
``--accuracy-weight`` grades decisions by the exact solution, on 5x5 by a tactical bank of moves proven within a few
plies). 40 generations of 30 genomes x 40 games.
Racing, a heavier share of games against the search, more final games and building blocks nearer the hand-written
lists did not lift the champions, so none of them is a default here. docs/defaults.md gives each default with the
measurement behind it (docs/lab/quixo-defaults.md, quixo-two-turn.md, quixo-target.md).
An experiment measures its players against ``random`` and ``alphabeta:depth=1``; the n-tuple learner's defaults
are those of docs/learning.md.
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
