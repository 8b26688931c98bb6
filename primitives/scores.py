"""Scores for every game: the constants ``one``, ``two``, ``five``, ``ten``; ``as_score(Count)``; ``plus``, ``minus``,
``times``, ``negative``, ``larger``, ``smaller``; ``above(Score, Score) -> bool``; ``score_if(bool, Score, Score)``.

Scores are integers and every operation saturates at +-``SCORE_LIMIT``, so no tree can build huge numbers. They are
the arithmetic of evaluator trees (Quarto's ``evaluation`` family holds the scores of a position), and, being
neutral, part of every game's library; the family keeps its name, ``evaluation``.
"""

from __future__ import annotations

from gpquarto.gp.compiler import branches
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import SCORE_LIMIT, Count, Score

FAMILY = "evaluation"


def saturate(value: int) -> int:
    """``value`` clamped to +-SCORE_LIMIT."""
    return -SCORE_LIMIT if value < -SCORE_LIMIT else SCORE_LIMIT if value > SCORE_LIMIT else value


# ---------------------------------------------------------------------- constants and conversion
@primitive
def one() -> Score:
    """The score 1."""
    return 1


@primitive
def two() -> Score:
    """The score 2."""
    return 2


@primitive
def five() -> Score:
    """The score 5."""
    return 5


@primitive
def ten() -> Score:
    """The score 10."""
    return 10


@primitive
def as_score(count: Count) -> Score:
    """A count read as a score (saturated)."""
    return saturate(count)


# ---------------------------------------------------------------------- arithmetic and comparisons
@primitive
def plus(a: Score, b: Score) -> Score:
    """a + b, saturated."""
    return saturate(a + b)


@primitive
def minus(a: Score, b: Score) -> Score:
    """a - b, saturated."""
    return saturate(a - b)


@primitive
def times(a: Score, b: Score) -> Score:
    """a * b, saturated."""
    return saturate(a * b)


@primitive
def negative(a: Score) -> Score:
    """-a."""
    return -a


@primitive
def larger(a: Score, b: Score) -> Score:
    """The larger of a and b."""
    return a if a >= b else b


@primitive
def smaller(a: Score, b: Score) -> Score:
    """The smaller of a and b."""
    return a if a <= b else b


@primitive
def above(a: Score, b: Score) -> bool:
    """a > b."""
    return a > b


@primitive
@branches
def score_if(condition: bool, then: Score, otherwise: Score) -> Score:
    """``then`` when the condition holds, else ``otherwise``."""
    return then if condition else otherwise
