"""Choice proposals: the first available piece (lowest index) with a characteristic, or NO_ACTION."""

from __future__ import annotations

from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.pieces import CHARACTERISTICS
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Characteristic, Piece

FAMILY = "choice"


def first_available(features: Features, characteristic: int, *, having: bool = True) -> int:
    """The lowest available piece that has (or lacks) the characteristic, or ``NO_ACTION``."""
    for piece in features.available_pieces:
        if bool(CHARACTERISTICS[piece] >> characteristic & 1) == having:
            return piece
    return NO_ACTION


@primitive
def square_piece(features: Features) -> Piece:
    """An available piece with a square top."""
    return first_available(features, 0)


@primitive
def solid_piece(features: Features) -> Piece:
    """An available solid piece."""
    return first_available(features, 1)


@primitive
def coloured_piece(features: Features) -> Piece:
    """An available coloured (dark) piece."""
    return first_available(features, 2)


@primitive
def tall_piece(features: Features) -> Piece:
    """An available tall piece."""
    return first_available(features, 3)


@primitive
def round_piece(features: Features) -> Piece:
    """An available piece with a round top."""
    return first_available(features, 4)


@primitive
def hollow_piece(features: Features) -> Piece:
    """An available hollow piece."""
    return first_available(features, 5)


@primitive
def plain_piece(features: Features) -> Piece:
    """An available plain (light) piece."""
    return first_available(features, 6)


@primitive
def short_piece(features: Features) -> Piece:
    """An available short piece."""
    return first_available(features, 7)


@primitive
def piece_with(features: Features, characteristic: Characteristic) -> Piece:
    """An available piece that has the characteristic."""
    return first_available(features, characteristic)


@primitive
def piece_without(features: Features, characteristic: Characteristic) -> Piece:
    """An available piece that lacks the characteristic."""
    return first_available(features, characteristic, having=False)
