"""The player protocol: what the arena asks of every player, in every game.

A player gets a read-only view of the game (:class:`~gpquarto.games.interface.GameView`) and answers with an
action (an int of the game's encoding). Before each game the arena calls ``seed`` (when the game is seeded)
and ``new_game``: both are part of the protocol, and :class:`BasePlayer` gives them defaults that do nothing.
The engine validates every answer: an illegal one forfeits the game.

Quarto players usually keep Quarto's convenient form: derive from :class:`QuartoPlayer` and write
``choose_piece(view)`` and ``place_piece(view, piece)``; its ``decide`` turns them into actions.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from gpquarto.games.interface import DecisionKind, GameView
from gpquarto.games.quarto.board import PLACE_OFFSET, BoardView
from gpquarto.games.quarto.pieces import NO_PIECE


@runtime_checkable
class Player(Protocol):
    """Anything with a ``name``, the ``game`` it plays (None: any game), ``decide`` and the two lifecycle hooks
    plays in gpquarto."""

    name: str
    game: str | None

    def decide(self, view: GameView) -> int:
        """The action to play in the position ``view`` shows (the engine validates it)."""
        ...

    def new_game(self, seat: int) -> None:
        """Called before each game with the player's seat (0 moves first)."""
        ...

    def seed(self, seed: int | None) -> None:
        """Reset the player's random source; the same seed must give the same play."""
        ...


class BasePlayer:
    """Base class of players: a name, and ``new_game``/``seed`` hooks that do nothing.

    Subclasses write :meth:`decide`; players that use randomness override :meth:`seed` so that matches are
    reproducible. ``game`` names the game the player plays (``None``: any game, like ``random``).
    """

    name: str = "player"
    game: str | None = None

    def decide(self, view: GameView) -> int:  # pragma: no cover - abstract
        raise NotImplementedError(f"{type(self).__name__} does not implement decide(view)")

    def new_game(self, seat: int) -> None:
        """Called before each game with the seat (0 moves first; in Quarto, 0 opens by choosing)."""

    def seed(self, seed: int | None) -> None:
        """Reset the player's random source; the same seed must give the same play."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class QuartoPlayer(BasePlayer):
    """A Quarto player in Quarto's convenient form: :meth:`choose_piece` and :meth:`place_piece`.

    The arena's Quarto loop calls the two methods directly; :meth:`decide` makes the player speak the
    interface everywhere else.
    """

    game = "quarto"

    def choose_piece(self, board: BoardView) -> int:  # pragma: no cover - abstract
        """Return the piece (0..15) to give to the opponent."""
        raise NotImplementedError

    def place_piece(self, board: BoardView, piece: int) -> int:  # pragma: no cover - abstract
        """Return the square (0..15) where ``piece`` (the one in hand) goes."""
        raise NotImplementedError

    def decide(self, view: GameView) -> int:
        """The choice or placement due, as an action: a piece, or ``16 + square``."""
        if view.decision_kind() is DecisionKind.CHOOSE:
            return self.choose_piece(view)  # type: ignore[arg-type]
        return PLACE_OFFSET + self.place_piece(view, view.in_hand)  # type: ignore[arg-type, attr-defined]


class PlayerQuit(Exception):
    """Raised by a (human) player who leaves the game; the arena stops instead of recording a forfeit."""


def ask_decision(player: QuartoPlayer, view: BoardView) -> int:
    """A Quarto player's answer in Quarto's form: a piece to give, or a square for the piece in hand.

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
