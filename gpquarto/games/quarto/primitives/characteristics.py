"""Characteristics: which ones are present in (absent from) a line, and the most and least used ones.

"Present in a line" means that some piece on the line has the characteristic; "absent" that none has.
Predicates about the most used row or column *not complete* are False when every row (column) is full.
"""

from __future__ import annotations

from gpquarto.games.quarto.gp.features import (
    ANTI_DIAGONAL_LINE,
    DIAGONAL_LINE,
    FIRST_COLUMN,
    FIRST_ROW,
    GIVEN_CHARACTERISTIC,
    GIVEN_NOTHING,
    Features,
    reads_given_piece,
)
from gpquarto.games.quarto.pieces import CHARACTERISTICS, NO_PIECE
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Characteristic

FAMILY = "characteristics"


def _present(features: Features, line: int, characteristic: int) -> bool:
    return bool(features.line_present[line] >> characteristic & 1)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def in_diagonal(features: Features, characteristic: Characteristic) -> bool:
    """Some piece on the diagonal has the characteristic."""
    return _present(features, DIAGONAL_LINE, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def not_in_diagonal(features: Features, characteristic: Characteristic) -> bool:
    """No piece on the diagonal has the characteristic."""
    return not _present(features, DIAGONAL_LINE, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def in_anti_diagonal(features: Features, characteristic: Characteristic) -> bool:
    """Some piece on the anti-diagonal has the characteristic."""
    return _present(features, ANTI_DIAGONAL_LINE, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def not_in_anti_diagonal(features: Features, characteristic: Characteristic) -> bool:
    """No piece on the anti-diagonal has the characteristic."""
    return not _present(features, ANTI_DIAGONAL_LINE, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def in_least_used_row(features: Features, characteristic: Characteristic) -> bool:
    """Some piece in the least used row has the characteristic."""
    return _present(features, FIRST_ROW + features.least_used_row, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def not_in_least_used_row(features: Features, characteristic: Characteristic) -> bool:
    """No piece in the least used row has the characteristic."""
    return not _present(features, FIRST_ROW + features.least_used_row, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def in_least_used_column(features: Features, characteristic: Characteristic) -> bool:
    """Some piece in the least used column has the characteristic."""
    return _present(features, FIRST_COLUMN + features.least_used_column, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def not_in_least_used_column(features: Features, characteristic: Characteristic) -> bool:
    """No piece in the least used column has the characteristic."""
    return not _present(features, FIRST_COLUMN + features.least_used_column, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def in_most_used_row_not_complete(features: Features, characteristic: Characteristic) -> bool:
    """Some piece in the fullest row with an empty square has the characteristic."""
    row = features.most_used_row_not_complete
    return row >= 0 and _present(features, FIRST_ROW + row, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def not_in_most_used_row_not_complete(features: Features, characteristic: Characteristic) -> bool:
    """No piece in the fullest row with an empty square has the characteristic."""
    row = features.most_used_row_not_complete
    return row >= 0 and not _present(features, FIRST_ROW + row, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def in_most_used_column_not_complete(features: Features, characteristic: Characteristic) -> bool:
    """Some piece in the fullest column with an empty square has the characteristic."""
    column = features.most_used_column_not_complete
    return column >= 0 and _present(features, FIRST_COLUMN + column, characteristic)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def not_in_most_used_column_not_complete(features: Features, characteristic: Characteristic) -> bool:
    """No piece in the fullest column with an empty square has the characteristic."""
    column = features.most_used_column_not_complete
    return column >= 0 and not _present(features, FIRST_COLUMN + column, characteristic)


def _shared(features: Features, line: int) -> bool:
    return features.line_counts[line] >= 2 and features.line_shared[line] != 0


@primitive
@reads_given_piece(GIVEN_NOTHING)
def diagonal_shares(features: Features) -> bool:
    """The diagonal holds at least two pieces and they all share a characteristic."""
    return _shared(features, DIAGONAL_LINE)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def anti_diagonal_shares(features: Features) -> bool:
    """The anti-diagonal holds at least two pieces and they all share a characteristic."""
    return _shared(features, ANTI_DIAGONAL_LINE)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def most_used_row_shares(features: Features) -> bool:
    """The fullest row not complete holds at least two pieces and they all share a characteristic."""
    row = features.most_used_row_not_complete
    return row >= 0 and _shared(features, FIRST_ROW + row)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def most_used_column_shares(features: Features) -> bool:
    """The fullest column not complete holds at least two pieces and they all share a characteristic."""
    column = features.most_used_column_not_complete
    return column >= 0 and _shared(features, FIRST_COLUMN + column)


@primitive
@reads_given_piece(GIVEN_CHARACTERISTIC)
def in_hand_has(features: Features, characteristic: Characteristic) -> bool:
    """The piece to place has the characteristic (False when a piece must be chosen)."""
    return features.in_hand != NO_PIECE and bool(CHARACTERISTICS[features.in_hand] >> characteristic & 1)


@primitive
def same_characteristic(a: Characteristic, b: Characteristic) -> bool:
    """The two characteristics are the same."""
    return a == b


@primitive
@reads_given_piece(GIVEN_NOTHING)
def most_used_characteristic(features: Features) -> Characteristic:
    """The characteristic most placed pieces have."""
    return features.most_used_characteristic


@primitive
@reads_given_piece(GIVEN_NOTHING)
def least_used_characteristic(features: Features) -> Characteristic:
    """The characteristic fewest placed pieces have."""
    return features.least_used_characteristic
