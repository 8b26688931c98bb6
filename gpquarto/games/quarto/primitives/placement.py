"""Placement proposals: the first free square (lowest index) of a group of squares, or NO_ACTION."""

from __future__ import annotations

from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.lines import ANTI_DIAGONAL, COLUMNS, CORNERS, DIAGONAL, INSIDE, ROWS
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Square

FAMILY = "placement"

#: The eight squares of the border that are not corners.
EDGES = (1, 2, 4, 7, 8, 11, 13, 14)


def first_empty(features: Features, squares: tuple[int, ...]) -> int:
    """The lowest empty square among ``squares``, or ``NO_ACTION``."""
    occupied = features.occupied
    for square in sorted(squares):
        if not occupied >> square & 1:
            return square
    return NO_ACTION


@primitive
def diagonal_square(features: Features) -> Square:
    """A free square on the diagonal."""
    return first_empty(features, DIAGONAL)


@primitive
def anti_diagonal_square(features: Features) -> Square:
    """A free square on the anti-diagonal."""
    return first_empty(features, ANTI_DIAGONAL)


@primitive
def corner_square(features: Features) -> Square:
    """A free corner."""
    return first_empty(features, CORNERS)


@primitive
def inside_square(features: Features) -> Square:
    """A free square of the central 2x2 block."""
    return first_empty(features, INSIDE)


@primitive
def edge_square(features: Features) -> Square:
    """A free square of the border that is not a corner."""
    return first_empty(features, EDGES)


@primitive
def least_used_row_square(features: Features) -> Square:
    """A free square in the row holding the fewest pieces."""
    return first_empty(features, ROWS[features.least_used_row])


@primitive
def least_used_column_square(features: Features) -> Square:
    """A free square in the column holding the fewest pieces."""
    return first_empty(features, COLUMNS[features.least_used_column])


@primitive
def most_used_row_square(features: Features) -> Square:
    """A free square in the fullest row that is not complete."""
    row = features.most_used_row_not_complete
    return first_empty(features, ROWS[row]) if row >= 0 else NO_ACTION


@primitive
def most_used_column_square(features: Features) -> Square:
    """A free square in the fullest column that is not complete."""
    column = features.most_used_column_not_complete
    return first_empty(features, COLUMNS[column]) if column >= 0 else NO_ACTION
