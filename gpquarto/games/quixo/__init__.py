"""The Quixo engine: bitboards with precomputed pushes, official and course rules, position text,
symmetries, fast playouts."""

from gpquarto.games.quixo.board import NO_WINNER, QuixoBoard, QuixoRules, QuixoView
from gpquarto.games.quixo.game import QUIXO, QuixoGame
from gpquarto.games.quixo.notation import cell_name, parse_cell
from gpquarto.games.quixo.symmetry import canonical_key, cell_maps, map_action, map_mask

__all__ = [
    "NO_WINNER",
    "QUIXO",
    "QuixoBoard",
    "QuixoGame",
    "QuixoRules",
    "QuixoView",
    "canonical_key",
    "cell_maps",
    "cell_name",
    "map_action",
    "map_mask",
    "parse_cell",
]
