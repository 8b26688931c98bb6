"""Counts read from the board: pieces left, placed, on the diagonals, in the least or most used row/column."""

from __future__ import annotations

from gpquarto.games.quarto.gp.features import (
    ANTI_DIAGONAL_LINE,
    DIAGONAL_LINE,
    FIRST_COLUMN,
    FIRST_ROW,
    GIVEN_NOTHING,
    Features,
    reads_given_piece,
)
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Characteristic, Count

FAMILY = "counts"


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_left(features: Features) -> Count:
    """Pieces still to be given (neither on the board nor in hand)."""
    return features.available.bit_count()


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_placed(features: Features) -> Count:
    """Pieces on the board."""
    return features.placed_count


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_in_diagonal(features: Features) -> Count:
    """Pieces on the diagonal (a1, b2, c3, d4)."""
    return features.line_counts[DIAGONAL_LINE]


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_in_anti_diagonal(features: Features) -> Count:
    """Pieces on the anti-diagonal (d1, c2, b3, a4)."""
    return features.line_counts[ANTI_DIAGONAL_LINE]


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_in_most_used_row(features: Features) -> Count:
    """Pieces in the row holding the most pieces."""
    return features.line_counts[FIRST_ROW + features.most_used_row]


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_in_least_used_row(features: Features) -> Count:
    """Pieces in the row holding the fewest pieces."""
    return features.line_counts[FIRST_ROW + features.least_used_row]


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_in_most_used_column(features: Features) -> Count:
    """Pieces in the column holding the most pieces."""
    return features.line_counts[FIRST_COLUMN + features.most_used_column]


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_in_least_used_column(features: Features) -> Count:
    """Pieces in the column holding the fewest pieces."""
    return features.line_counts[FIRST_COLUMN + features.least_used_column]


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_in_most_used_row_not_complete(features: Features) -> Count:
    """Pieces in the fullest row that still has an empty square (0 when every row is full)."""
    row = features.most_used_row_not_complete
    return features.line_counts[FIRST_ROW + row] if row >= 0 else 0


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_in_most_used_column_not_complete(features: Features) -> Count:
    """Pieces in the fullest column that still has an empty square (0 when every column is full)."""
    column = features.most_used_column_not_complete
    return features.line_counts[FIRST_COLUMN + column] if column >= 0 else 0


@primitive
@reads_given_piece(GIVEN_NOTHING)
def pieces_with(features: Features, characteristic: Characteristic) -> Count:
    """Placed pieces that have the characteristic."""
    return features.characteristic_counts[characteristic]
