"""The player protocol: what the arena asks of every player, in every game.

A player gets a read-only view of the game (:class:`~gpquarto.games.interface.GameView`) and answers with an
action (an int of the game's encoding). Before each game the arena calls ``seed`` (when the game is seeded)
and ``new_game``: both are part of the protocol, and :class:`BasePlayer` gives them defaults that do nothing.
The engine validates every answer: an illegal one forfeits the game.

A game may have a form of its own that its players speak besides ``decide`` (Quarto's ``choose_piece`` and
``place_piece``: :class:`gpquarto.games.quarto.players.base.QuartoPlayer`); the arena and ``grade`` use it through
the game's :class:`~gpquarto.games.capabilities.PlayerForm`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from gpquarto.games.interface import GameView


@runtime_checkable
class Player(Protocol):
    """Anything with a ``name``, the ``game`` it plays (None: any game), ``decide`` and the two lifecycle hooks
    plays in gpquarto."""

    name: str

    @property
    def game(self) -> str | None:
        """The game the player plays, None for any game (read only: a class may pin it to one game)."""
        ...

    def decide(self, view: GameView) -> int:
        """The action to play in the position ``view`` shows (the engine validates it)."""
        ...

    def new_game(self, seat: int) -> None:
        """Called before each game with the player's seat (0 moves first), off the clock: under a time limit,
        :func:`~gpquarto.search.budget.decision_budget` already gives each decision's budget, so a player that will
        search within it can prepare here (load compiled code, size its tables)."""
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
        """Called before each game with the seat (0 moves first; in Quarto, 0 opens by choosing), off the clock;
        under a time limit, :func:`~gpquarto.search.budget.decision_budget` already gives each decision's budget."""

    def seed(self, seed: int | None) -> None:
        """Reset the player's random source; the same seed must give the same play."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class PlayerQuit(Exception):
    """Raised by a (human) player who leaves the game; the arena stops instead of recording a forfeit."""


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
