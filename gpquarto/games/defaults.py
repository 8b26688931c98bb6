"""The training, experiment and learning defaults of a game: its plug-in's
:class:`~gpquarto.games.capabilities.TrainingDefaults`, else the generic ones."""

from __future__ import annotations

from gpquarto.games.capabilities import TrainingDefaults
from gpquarto.games.registry import get_plugin

#: The defaults of a game whose plug-in offers no :class:`~gpquarto.games.capabilities.TrainingDefaults`: those
#: that suited the second game the tool learned (docs/lab/quixo-defaults.md): half the
#: games against random, half against generic alpha-beta at depth 2, every pair from 4 random plies (a
#: deterministic search from the start position plays only two games), no accuracy term (an exact solver may not
#: reach the game's endgames), 40 generations of 30 genomes x 40 games, 200 final games.
GENERIC_TRAINING_DEFAULTS = TrainingDefaults(
    evolution={
        "generations": 40,
        "population": 30,
        "games": 40,
        "openings": 4,
        "opponents": "random:1,alphabeta:depth=2:1",
        "accuracy_weight": 0.0,
        "final_games": 200,
    },
)


def training_defaults(game: str) -> TrainingDefaults:
    """The game's :class:`~gpquarto.games.capabilities.TrainingDefaults`, else :data:`GENERIC_TRAINING_DEFAULTS`."""
    plugin = get_plugin(game)
    return plugin.capability_or(TrainingDefaults, GENERIC_TRAINING_DEFAULTS)
