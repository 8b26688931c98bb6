"""Quarto's training, experiment and learning defaults (:class:`~gpquarto.games.capabilities.TrainingDefaults`).

The evolution config's own defaults are Quarto's (``gpquarto.training.config.EvolutionConfig``) but for three that
``train`` adds for rule genomes: racing (successive halving with common random numbers) and a training bank of
1,000 positions, which together lifted every seed's champion against ``minimax:depth=2`` and its grade
(docs/lab/racing.md), and a parsimony of 0.0002 per node, with which more seeds' champions give and place pieces as
``reply_counter`` does (docs/lab/rules-reply-counter.md). They live here, not in the dataclass, so that a config
file written before them (no ``racing`` or ``parsimony`` key, 200 positions) still reads as the run it was. An experiment measures its players against ``random`` and ``minimax:depth=2``, the yardstick of the
project. The n-tuple learner's defaults were measured in docs/learning.md: a constant step keeps learning where
temporal coherence froze it. The accuracy term's bank is bounded by ``accuracy_max_empties`` (8 empty squares by
default, a bank cheap to solve), and evaluator genomes evolve evaluations of Quarto positions for ``minimax``.
"""

from __future__ import annotations

from gpquarto.games.capabilities import TrainingDefaults

DEFAULTS = TrainingDefaults(
    evolution={"racing": True, "accuracy_positions": 1000, "parsimony": 0.0002},
    evaluation_opponents=("random", "minimax:depth=2"),
    learning={"td-ntuple": {"episodes": 60_000, "alpha": 0.01, "step": "constant", "epsilon_start": 0.2}},
    learning_evaluation="random,minimax:depth=2",
    accuracy_max_empties=True,
    evaluator_genomes=True,
)
