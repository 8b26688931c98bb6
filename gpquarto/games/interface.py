"""The game interface: what every game gives the rest of gpquarto, in the manner of OpenSpiel's ``State``.

A *state* holds a position and its history. Actions are ints (each game documents its encoding); a state
lists its legal actions, applies one (validated: an illegal action raises :class:`IllegalActionError` and
leaves the state unchanged) and undoes the last, says whose turn it is (``player``, 0 or 1), whether the game
is over and how it ended (one :class:`Outcome` type), reads and writes position text, names an action
readably and parses the name back, and knows its canonical key (the same for every symmetric image of the
position). A *view* is the read-only face of a state that players get. A :class:`Game` describes one game:
its name, its rule sets, and how to make a state from settings or from position text.

The arena, records, matches, tournaments, grading, the web app and the CLI speak only this interface;
Quarto's ``choose``/``place`` stays as its convenient form on top (see ``docs/games.md``).

Example::

    >>> from gpquarto.games import get_game
    >>> quarto = get_game("quarto")
    >>> state = quarto.new_state()
    >>> state.apply(5)                   # choose piece 5 for the opponent
    >>> state.action_name(16), state.decision_kind()
    ('place a1', <DecisionKind.PLACE: 'place'>)
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this position. The state is left unchanged."""


class DecisionKind(enum.StrEnum):
    """What a player decides at a turn: Quarto's two decisions, and Quixo's one.

    The members are strings (``DecisionKind.CHOOSE == "choose"``), so they serialise as themselves.
    """

    CHOOSE = "choose"  # Quarto: give the opponent a piece
    PLACE = "place"  # Quarto: put the piece in hand on a square
    MOVE = "move"  # Quixo: take a border cube and push it back in


class Termination(enum.StrEnum):
    """How a game ended. The game itself ends by ``WIN``, ``DRAW``, ``REPETITION`` or ``PLY_LIMIT``; the arena
    adds ``FORFEIT`` (an illegal action, an exception, or a decision over the time limit)."""

    WIN = "win"
    DRAW = "draw"  # no win possible any more (Quarto: sixteen pieces placed without a winning line)
    REPETITION = "repetition"  # a position (board and side to move) occurred for the n-th time (Quixo)
    PLY_LIMIT = "ply_limit"  # the game reached its ply limit (Quixo)
    FORFEIT = "forfeit"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the termination, the winning seat (None for every kind of draw) and, on a forfeit,
    the seat that forfeited and why."""

    termination: Termination
    winner: int | None = None
    forfeited_by: int | None = None
    reason: str = ""

    def __post_init__(self) -> None:
        if self.winner not in (None, 0, 1) or self.forfeited_by not in (None, 0, 1):
            raise ValueError(f"seats are 0 or 1, got winner {self.winner!r}, forfeited_by {self.forfeited_by!r}")
        decisive = self.termination in (Termination.WIN, Termination.FORFEIT)
        if decisive != (self.winner is not None):
            raise ValueError(f"a {self.termination.value} outcome {'needs' if decisive else 'has no'} winner")
        if (self.termination is Termination.FORFEIT) != (self.forfeited_by is not None):
            raise ValueError("forfeited_by must name a seat on a forfeit, and only then")
        if self.forfeited_by is not None and self.forfeited_by == self.winner:
            raise ValueError("on a forfeit, the winner is the other seat")

    @property
    def is_draw(self) -> bool:
        """True when nobody won (a full board, a repetition or the ply limit)."""
        return self.winner is None

    def score(self, seat: int) -> float:
        """The seat's score: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return 0.5 if self.winner is None else float(self.winner == seat)


@runtime_checkable
class GameView(Protocol):
    """The read-only face of a game state: everything a player may look at, nothing it may change."""

    @property
    def game_name(self) -> str:
        """The game's registered name (``"quarto"``, ``"quixo"``)."""
        ...

    @property
    def player(self) -> int:
        """The seat (0 or 1) whose decision is due."""
        ...

    def legal_actions(self) -> Sequence[int]:
        """The legal actions, ascending; empty when the game is over."""
        ...

    def decision_kind(self) -> DecisionKind:
        """The kind of the decision due (meaningless once the game is over)."""
        ...

    def is_over(self) -> bool:
        """True when the game has ended (a win or any kind of draw)."""
        ...

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        ...

    def text(self) -> str:
        """The position text, which the game's :meth:`Game.from_text` reads back."""
        ...

    def action_name(self, action: int) -> str:
        """A readable name of ``action`` (``"place a1"``, ``"b1 push from the bottom"``...)."""
        ...

    def parse_action(self, text: str) -> int:
        """The action named by ``text`` (an action name or the plain int); ``ValueError`` when it names none."""
        ...

    def canonical_key(self) -> Hashable:
        """A key that every symmetric image of this position shares, and no other position has."""
        ...

    def copy(self) -> GameState:
        """An independent, mutable copy of the position (for players that search)."""
        ...


@runtime_checkable
class GameState(GameView, Protocol):
    """A mutable game state: a view that can also apply and undo actions."""

    @property
    def history(self) -> tuple[int, ...]:
        """The actions applied since the start position."""
        ...

    def apply(self, action: int) -> None:
        """Play ``action``; raises :class:`IllegalActionError` (and changes nothing) when it is not legal."""
        ...

    def undo(self) -> int:
        """Take back the last action and return it; :class:`IllegalActionError` when there is none."""
        ...

    def view(self) -> GameView:
        """A read-only view that follows this state as it changes."""
        ...

    def forget_history(self) -> None:
        """Make the current position the start: :meth:`undo` goes back no further, and (in games with a
        repetition rule) positions before it no longer count."""
        ...

    def settings(self) -> dict[str, object]:
        """The game's settings of this state (rules and the like), as plain data: ``from_text(text(),
        **settings())`` gives the same position under the same settings."""
        ...


class Game(Protocol):
    """One game: its name, rule sets, action space, and the states it makes.

    ``settings`` are the game's keyword settings (Quarto: ``rules``; Quixo: ``rules``, ``size``,
    ``ply_limit``, ``repetitions``); unknown or bad ones raise ``ValueError`` in one line.
    """

    name: str
    #: The rule sets by name, the default first.
    rule_sets: tuple[str, ...]
    #: Every action is an int in ``range(action_count)`` for the default settings.
    action_count: int
    #: The decision kinds of the game, in the order a turn makes them.
    decision_kinds: tuple[DecisionKind, ...]

    def new_state(self, **settings: object) -> GameState:
        """The start position under ``settings``."""
        ...

    def from_text(self, text: str, **settings: object) -> GameState:
        """The position that ``text`` describes; ``ValueError`` saying what is wrong and where."""
        ...

    def check_settings(self, settings: dict[str, object]) -> dict[str, object]:
        """``settings`` checked and completed with the defaults; ``ValueError`` in one line when one is bad."""
        ...
