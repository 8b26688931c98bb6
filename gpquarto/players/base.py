"""The player protocol: what the arena asks of every player.

A player gets a read-only :class:`~gpquarto.games.quarto.board.BoardView` and answers with a piece (when it
must choose one for the opponent) or a square (when it must place the piece it was given). The engine
validates every answer: an illegal one forfeits the game.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from gpquarto.games.quarto.board import BoardView
from gpquarto.games.quarto.pieces import NO_PIECE


@runtime_checkable
class Player(Protocol):
    """Anything with ``choose_piece`` and ``place_piece`` plays Quarto in gpquarto."""

    def choose_piece(self, board: BoardView) -> int:
        """Return the piece (0..15) to give to the opponent."""
        ...

    def place_piece(self, board: BoardView, piece: int) -> int:
        """Return the square (0..15) where ``piece`` (the one in hand) goes."""
        ...


class BasePlayer:
    """Convenience base class: a name, and no-op ``new_game``/``seed`` hooks.

    Subclasses override :meth:`choose_piece` and :meth:`place_piece`; players that use randomness
    override :meth:`seed` so that matches are reproducible.
    """

    name: str = "player"

    def choose_piece(self, board: BoardView) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def place_piece(self, board: BoardView, piece: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def new_game(self, seat: int) -> None:
        """Called before each game with the seat (0 opens by choosing, 1 places first)."""

    def seed(self, seed: int | None) -> None:
        """Reset the player's random source; the same seed must give the same play."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class PlayerQuit(Exception):
    """Raised by a (human) player who leaves the game; the arena stops instead of recording a forfeit."""


def ask_decision(player: Player, view: BoardView) -> int:
    """The player's answer to the decision due on ``view``: a piece to give, or a square for the piece in hand.

    The answer is not validated; errors the player raises propagate (see :func:`raised_reason`).
    """
    if view.in_hand == NO_PIECE:
        return player.choose_piece(view)
    return player.place_piece(view, view.in_hand)


class ForfeitReason(Exception):
    """Raised instead of an answer when why the player forfeits is already worded (reported as it is): its
    decision failed in another process, say."""


class TimeLimitExceeded(ForfeitReason):
    """Raised instead of an answer by a player stopped at its time limit: it forfeits as too slow."""

    def __init__(self, elapsed: float, limit: float) -> None:
        super().__init__(too_slow_reason(elapsed, limit))


def too_slow_reason(elapsed: float, limit: float) -> str:
    """How a decision over its time limit is described wherever it forfeits."""
    return f"took {elapsed:.3f} s, over the {limit:g} s limit"


def raised_reason(error: BaseException) -> str:
    """How a decision that raised is described wherever it forfeits (matches, grading, the web app)."""
    if isinstance(error, ForfeitReason):
        return str(error)
    return f"raised {type(error).__name__}: {error}"
