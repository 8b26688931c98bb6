"""Arithmetic on counts and comparisons between counts (formerly ``eq``, ``ne``, ``gt``, ``lte``: aliases)."""

from __future__ import annotations

from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Count

FAMILY = "arithmetic"

#: ``mul`` saturates at +-LIMIT so that deep trees cannot build huge numbers.
LIMIT = 10_000


@primitive
def add(a: Count, b: Count) -> Count:
    """a + b."""
    return a + b


@primitive
def sub(a: Count, b: Count) -> Count:
    """a - b."""
    return a - b


@primitive
def mul(a: Count, b: Count) -> Count:
    """a * b, saturated at +-10000."""
    return max(-LIMIT, min(LIMIT, a * b))


@primitive(aliases=["eq"])
def equal(a: Count, b: Count) -> bool:
    """a == b."""
    return a == b


@primitive(aliases=["ne"])
def not_equal(a: Count, b: Count) -> bool:
    """a != b."""
    return a != b


@primitive(aliases=["gt"])
def greater_than(a: Count, b: Count) -> bool:
    """a > b."""
    return a > b


@primitive(aliases=["lte"])
def at_most(a: Count, b: Count) -> bool:
    """a <= b."""
    return a <= b
