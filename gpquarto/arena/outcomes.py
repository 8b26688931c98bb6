"""How a game ends in the arena: a draw, a win, or a forfeit worded the same in every loop (the arena's own and a
game's :class:`~gpquarto.games.capabilities.PlayerForm` loop)."""

from __future__ import annotations

from gpquarto.games.interface import Outcome, Termination
from gpquarto.players.base import raised_reason, too_slow_reason

DRAW = Outcome(Termination.DRAW)
#: The win of seat 0 and of seat 1.
WINS = (Outcome(Termination.WIN, 0), Outcome(Termination.WIN, 1))


def forfeit(seat: int, reason: str) -> Outcome:
    """The player in ``seat`` loses for ``reason``."""
    return Outcome(Termination.FORFEIT, 1 - seat, seat, reason)


def raised(seat: int, error: BaseException) -> Outcome:
    """The player in ``seat`` raised ``error`` instead of answering."""
    return forfeit(seat, raised_reason(error))


def too_slow(seat: int, elapsed: float, limit: float) -> Outcome:
    """The player in ``seat`` answered after ``elapsed`` seconds, over the ``limit``."""
    return forfeit(seat, too_slow_reason(elapsed, limit))
