"""GP primitives about the four corners (a1, d1, a4, d4), registered through the ``gpquarto.primitives`` entry point."""

from __future__ import annotations

from gpquarto.games.quarto.gp.features import Features
from gpquarto.gp import primitive
from gpquarto.gp.types import NO_ACTION, Count, Square

FAMILY = "corners"

#: The corners, and the corner diagonally opposite each one.
CORNERS = (0, 3, 12, 15)
OPPOSITE = {0: 15, 3: 12, 12: 3, 15: 0}


@primitive
def free_corners(features: Features) -> Count:
    """Corners still empty (0 to 4)."""
    return sum(1 for square in CORNERS if not features.occupied >> square & 1)


@primitive
def opposite_corner_square(features: Features) -> Square:
    """A free corner whose opposite corner holds a piece, or -1."""
    occupied = features.occupied
    for square in CORNERS:
        if not occupied >> square & 1 and occupied >> OPPOSITE[square] & 1:
            return square
    return NO_ACTION


@primitive
def last_corner_square(features: Features) -> Square:
    """The free corner of highest index (d4 first), or -1."""
    return next((square for square in reversed(CORNERS) if not features.occupied >> square & 1), NO_ACTION)
