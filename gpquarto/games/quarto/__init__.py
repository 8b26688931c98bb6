"""The Quarto engine: board, rules, position text, symmetries, fast playouts."""

from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView, IllegalActionError, transform
from gpquarto.games.quarto.lines import ADVANCED_LINES, CLASSIC_LINES, Rules, parse_square, square_name
from gpquarto.games.quarto.notation import START_TEXT
from gpquarto.games.quarto.pieces import CHARACTERISTICS, NO_PIECE, piece_code, piece_name
from gpquarto.games.quarto.symmetry import canonical_key, square_maps

__all__ = [
    "ADVANCED_LINES",
    "Board",
    "BoardView",
    "CHARACTERISTICS",
    "CLASSIC_LINES",
    "IllegalActionError",
    "NO_PIECE",
    "PLACE_OFFSET",
    "Rules",
    "START_TEXT",
    "canonical_key",
    "parse_square",
    "piece_code",
    "piece_name",
    "square_maps",
    "square_name",
    "transform",
]
