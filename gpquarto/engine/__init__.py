"""The Quarto engine: board, rules, position text, symmetries, fast playouts."""

from gpquarto.engine.board import PLACE_OFFSET, Board, BoardView, IllegalActionError
from gpquarto.engine.lines import ADVANCED_LINES, CLASSIC_LINES, Rules, parse_square, square_name
from gpquarto.engine.notation import START_TEXT
from gpquarto.engine.pieces import CHARACTERISTICS, NO_PIECE, piece_code, piece_name
from gpquarto.engine.symmetry import canonical_key, square_maps, transform

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
