"""Time budgets of searches: a :class:`Deadline` checked inside the search, and the budget of the decision under way.

A search that is given a deadline reads the clock every :data:`CHECK_EVERY` nodes (or a few iterations), never at
every node, and raises :class:`OutOfTime` once it has passed; the player then answers with the best move found so
far (for iterative deepening, the deepest depth completed). A search that completes within its budget decides
exactly as it would without one.

Every searching player takes its own budget per decision the same way, a parameter ``seconds`` (0, the default:
none; at most :data:`MAX_SECONDS`), passed to :func:`decision_deadline`: a search that deepens answers with the
deepest depth completed in time, one that cannot (an exact solver) with its fallback, and a tree search with the
iterations run so far; so a match at equal time is one spec on each side (``alphabeta:depth=0,seconds=1``,
``minimax:depth=16,seconds=1``, ``mcts:iterations=10000000,seconds=1``).

Where a decision has a time limit (a match's ``--time-limit``, the web server's), the arena says so for the whole
game with :func:`time_budget`, and every searching player asks :func:`decision_deadline` when it starts a decision:
the sooner of its own time parameter and :func:`search_share` of the limit (the rest is left for the player's own
bookkeeping and the clock's granularity, so that a decision within budget is never a forfeit).

Example::

    >>> with time_budget(2.0):
    ...     deadline = decision_deadline()
    >>> 0 < deadline.remaining() <= 2.0 * SHARE
    True
    >>> decision_deadline() is None   # no limit outside a timed game
    True
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Iterator
from contextlib import contextmanager

#: Nodes between two readings of the clock in a search (a power of two; a reading costs about as much as a node).
CHECK_EVERY = 512
#: The share of a decision's time limit a search may use.
SHARE = 0.75
#: The largest budget per decision a player's ``seconds`` may give (an hour: far beyond any useful decision).
MAX_SECONDS = 3600.0

_clock = time.perf_counter
_budget: contextvars.ContextVar[float | None] = contextvars.ContextVar("gpquarto_decision_budget", default=None)


class OutOfTime(Exception):
    """A search's deadline passed; the search is abandoned (whatever it left in a transposition table is exact)."""


class Deadline:
    """A moment on :func:`time.perf_counter`'s clock after which a search stops."""

    __slots__ = ("end",)

    def __init__(self, end: float) -> None:
        self.end = end

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """The deadline ``seconds`` from now."""
        return cls(_clock() + seconds)

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return _clock() >= self.end

    def check(self) -> None:
        """Raise :class:`OutOfTime` once the deadline has passed."""
        if _clock() >= self.end:
            raise OutOfTime

    def remaining(self) -> float:
        """Seconds left (negative once passed)."""
        return self.end - _clock()

    def __repr__(self) -> str:
        return f"Deadline(in {self.remaining():.3f} s)"


def check_seconds(seconds: float) -> None:
    """One-line ``ValueError`` unless ``seconds`` is a player's budget per decision: 0 (none) to :data:`MAX_SECONDS`."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds <= MAX_SECONDS:
        raise ValueError(f"seconds must be 0 (no budget) to {MAX_SECONDS:,.0f}, got {seconds!r}")


def search_share(limit: float) -> float:
    """The seconds a search may use of a decision's time ``limit``."""
    return limit * SHARE


@contextmanager
def time_budget(seconds: float | None) -> Iterator[None]:
    """Within the block, every decision's searches have ``seconds`` (None: no budget; see :func:`decision_deadline`)."""
    token = _budget.set(seconds)
    try:
        yield
    finally:
        _budget.reset(token)


def decision_budget() -> float | None:
    """The seconds a decision's searches have in the block of :func:`time_budget` around it (None: no limit)."""
    return _budget.get()


def decision_deadline(seconds: float | None = None) -> Deadline | None:
    """The deadline of a decision starting now: the sooner of ``seconds`` (a player's own time parameter; None or 0:
    none) and the budget of :func:`time_budget`; None when there is neither."""
    budget = _budget.get()
    if seconds and (budget is None or seconds < budget):
        budget = seconds
    return None if budget is None else Deadline.after(budget)
