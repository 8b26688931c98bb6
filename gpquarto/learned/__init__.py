"""Learned players: value models learned by reinforcement (n-tuple networks, tables), the greedy player that
plays from them, and their files (plain arrays and JSON in one ``.npz``, never a pickle).

This package holds what a *learned player* is; :mod:`gpquarto.learning` holds how one is learned. It sits
beside :mod:`gpquarto.gp` (evolved players) so that :mod:`gpquarto.resolve` can load both by path.
"""

from gpquarto.learned.models import NTupleModel, TableModel, ValueModel
from gpquarto.learned.player import LearnedPlayer
from gpquarto.learned.storage import LEARNED_SUFFIX, load_learned_player, read_learned_file, save_learned_player

__all__ = [
    "LEARNED_SUFFIX",
    "LearnedPlayer",
    "NTupleModel",
    "TableModel",
    "ValueModel",
    "load_learned_player",
    "read_learned_file",
    "save_learned_player",
]
