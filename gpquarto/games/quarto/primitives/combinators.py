"""Combinators of two proposals: ``first_...`` (the first if legal, else the second) and comparisons.

A comparison returns the proposal that scores higher (``..._fuller_...``, ``..._more_like_...``,
``more_common_piece``) or lower (``..._emptier_...``, ``..._less_like_...``, ``rarer_piece``); the first one
on ties; the other one when a proposal is NO_ACTION. Square scores are the pieces on the square's column,
row, or diagonal (0 for a square off that diagonal). A piece's likeness to a line is the number of
characteristics it shares with every piece on the line (0 for an empty line, or when there is no such
line); its commonness is how many placed pieces share each of its four characteristics, summed.

The names before November 2026 (``possible_square``, ``colmore``, ``lessunique``...: those of the GP seed
report) are aliases: saved players that use them still load, and are shown with today's names.
"""

from __future__ import annotations

from collections.abc import Callable

from gpquarto.games.quarto.gp.features import ANTI_DIAGONAL_LINE, DIAGONAL_LINE, FIRST_COLUMN, FIRST_ROW, Features
from gpquarto.games.quarto.lines import ANTI_DIAGONAL, DIAGONAL
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Piece, Square, better

FAMILY = "combinators"


@primitive(aliases=["possible_square"])
def first_free_square(features: Features, a: Square, b: Square) -> Square:
    """The first square if it is free, else the second."""
    return a if features.is_legal_square(a) else b


@primitive(aliases=["possible_piece"])
def first_available_piece(features: Features, a: Piece, b: Piece) -> Piece:
    """The first piece if it is available, else the second."""
    return a if features.is_legal_piece(a) else b


# ---------------------------------------------------------------------- squares
def _column_count(features: Features) -> Callable[[int], int]:
    return lambda square: features.line_counts[FIRST_COLUMN + square % 4]


def _row_count(features: Features) -> Callable[[int], int]:
    return lambda square: features.line_counts[FIRST_ROW + square // 4]


def _diagonal_count(features: Features) -> Callable[[int], int]:
    return lambda square: features.line_counts[DIAGONAL_LINE] if square in DIAGONAL else 0


def _anti_diagonal_count(features: Features) -> Callable[[int], int]:
    return lambda square: features.line_counts[ANTI_DIAGONAL_LINE] if square in ANTI_DIAGONAL else 0


@primitive(aliases=["colmore"])
def square_in_fuller_column(features: Features, a: Square, b: Square) -> Square:
    """The square whose column holds more pieces."""
    return better(a, b, _column_count(features), higher=True)


@primitive(aliases=["colless"])
def square_in_emptier_column(features: Features, a: Square, b: Square) -> Square:
    """The square whose column holds fewer pieces."""
    return better(a, b, _column_count(features), higher=False)


@primitive(aliases=["rowmore"])
def square_in_fuller_row(features: Features, a: Square, b: Square) -> Square:
    """The square whose row holds more pieces."""
    return better(a, b, _row_count(features), higher=True)


@primitive(aliases=["rowless"])
def square_in_emptier_row(features: Features, a: Square, b: Square) -> Square:
    """The square whose row holds fewer pieces."""
    return better(a, b, _row_count(features), higher=False)


@primitive(aliases=["diagmore"])
def square_on_fuller_diagonal(features: Features, a: Square, b: Square) -> Square:
    """The square whose diagonal holds more pieces (0 off the diagonal)."""
    return better(a, b, _diagonal_count(features), higher=True)


@primitive(aliases=["diagless"])
def square_on_emptier_diagonal(features: Features, a: Square, b: Square) -> Square:
    """The square whose diagonal holds fewer pieces (0 off the diagonal)."""
    return better(a, b, _diagonal_count(features), higher=False)


@primitive(aliases=["antidiagmore"])
def square_on_fuller_anti_diagonal(features: Features, a: Square, b: Square) -> Square:
    """The square whose anti-diagonal holds more pieces (0 off the anti-diagonal)."""
    return better(a, b, _anti_diagonal_count(features), higher=True)


@primitive(aliases=["antidiagless"])
def square_on_emptier_anti_diagonal(features: Features, a: Square, b: Square) -> Square:
    """The square whose anti-diagonal holds fewer pieces (0 off the anti-diagonal)."""
    return better(a, b, _anti_diagonal_count(features), higher=False)


# ---------------------------------------------------------------------- pieces
def similarity(features: Features, line: int) -> Callable[[int], int]:
    """Score of a piece: characteristics it shares with every piece on named line ``line`` (-1: no line)."""
    shared = features.line_shared[line] if line >= 0 else 0
    return lambda piece: (CHARACTERISTICS[piece] & shared).bit_count()


def commonness(features: Features) -> Callable[[int], int]:
    """Score of a piece: placed pieces sharing each of its characteristics, summed."""
    counts = features.characteristic_counts
    return lambda piece: sum(counts[characteristic] for characteristic in MEMBERS[CHARACTERISTICS[piece]])


def _row_line(features: Features) -> int:
    row = features.most_used_row_not_complete
    return FIRST_ROW + row if row >= 0 else -1


def _column_line(features: Features) -> int:
    column = features.most_used_column_not_complete
    return FIRST_COLUMN + column if column >= 0 else -1


@primitive(aliases=["similarinmostusedrow"])
def piece_more_like_fullest_row(features: Features, a: Piece, b: Piece) -> Piece:
    """The piece sharing more characteristics with the pieces of the fullest row not complete."""
    return better(a, b, similarity(features, _row_line(features)), higher=True)


@primitive(aliases=["differentinmostusedrow"])
def piece_less_like_fullest_row(features: Features, a: Piece, b: Piece) -> Piece:
    """The piece sharing fewer characteristics with the pieces of the fullest row not complete."""
    return better(a, b, similarity(features, _row_line(features)), higher=False)


@primitive(aliases=["similarinmostusedcolumn"])
def piece_more_like_fullest_column(features: Features, a: Piece, b: Piece) -> Piece:
    """The piece sharing more characteristics with the pieces of the fullest column not complete."""
    return better(a, b, similarity(features, _column_line(features)), higher=True)


@primitive(aliases=["differentinmostusedcolumn"])
def piece_less_like_fullest_column(features: Features, a: Piece, b: Piece) -> Piece:
    """The piece sharing fewer characteristics with the pieces of the fullest column not complete."""
    return better(a, b, similarity(features, _column_line(features)), higher=False)


@primitive(aliases=["differentindiagonal"])
def piece_less_like_diagonal(features: Features, a: Piece, b: Piece) -> Piece:
    """The piece sharing fewer characteristics with the pieces of the diagonal."""
    return better(a, b, similarity(features, DIAGONAL_LINE), higher=False)


@primitive(aliases=["differentinantidiagonal"])
def piece_less_like_anti_diagonal(features: Features, a: Piece, b: Piece) -> Piece:
    """The piece sharing fewer characteristics with the pieces of the anti-diagonal."""
    return better(a, b, similarity(features, ANTI_DIAGONAL_LINE), higher=False)


@primitive(aliases=["lessunique"])
def more_common_piece(features: Features, a: Piece, b: Piece) -> Piece:
    """The piece whose characteristics are more common among the placed pieces."""
    return better(a, b, commonness(features), higher=True)


@primitive(aliases=["moreunique"])
def rarer_piece(features: Features, a: Piece, b: Piece) -> Piece:
    """The piece whose characteristics are rarer among the placed pieces."""
    return better(a, b, commonness(features), higher=False)
