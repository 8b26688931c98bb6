"""Constants: small counts and booleans (named by their literal: ``2``, ``True``) and the characteristics by name."""

from __future__ import annotations

from gpquarto.gp.primitives import constant, primitive
from gpquarto.gp.types import Characteristic, Count

FAMILY = "constants"

for _value in range(5):
    constant(_value, Count)
del _value
constant(True, bool)
constant(False, bool)


@primitive
def square() -> Characteristic:
    """The characteristic square (square top)."""
    return 0


@primitive
def solid() -> Characteristic:
    """The characteristic solid."""
    return 1


@primitive
def coloured() -> Characteristic:
    """The characteristic coloured (dark)."""
    return 2


@primitive
def tall() -> Characteristic:
    """The characteristic tall."""
    return 3


@primitive
def round() -> Characteristic:  # the characteristic, shadowing the builtin in this module only
    """The characteristic round (round top)."""
    return 4


@primitive
def hollow() -> Characteristic:
    """The characteristic hollow."""
    return 5


@primitive
def plain() -> Characteristic:
    """The characteristic plain (light)."""
    return 6


@primitive
def short() -> Characteristic:
    """The characteristic short."""
    return 7
