"""Boolean connectives for if-trees (named with a trailing underscore: ``and``, ``or``, ``not`` are keywords)."""

from __future__ import annotations

from gpquarto.gp.primitives import primitive

FAMILY = "logic"


@primitive(name="and_")
def both(a: bool, b: bool) -> bool:
    """Both conditions hold."""
    return a and b


@primitive(name="or_")
def either(a: bool, b: bool) -> bool:
    """At least one condition holds."""
    return a or b


@primitive(name="not_")
def negation(a: bool) -> bool:
    """The condition does not hold."""
    return not a
