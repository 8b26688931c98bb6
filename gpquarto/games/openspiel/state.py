"""An OpenSpiel state on gpquarto's game interface (:class:`~gpquarto.games.interface.GameState`).

The ``pyspiel`` state does the rules; this wrapper adds what gpquarto's interface asks beyond OpenSpiel's:

* ``apply`` checks the action first (OpenSpiel's own check is a C++ error), and keeps a clone of the state before
  it, so ``undo`` is one pop (most of OpenSpiel's games have no ``undo_action``, and some that have one do not
  restore everything); a copy starts with no clones and undoes past its start by replaying the history.
* The **position text** is the history from the start, ``"start 3 4 3"``: every OpenSpiel game is defined by its
  actions, whatever its own ``serialize`` writes, and :meth:`OpenSpielGame.from_text` replays it, checking each
  action.
* The **canonical key** is a 128-bit digest of that history (no symmetries; two move orders that reach one board
  have two keys, since some games' ``str`` does not hold every counter their rules read).
* Action names are OpenSpiel's ``action_to_string``; :meth:`parse_action` reads a legal action's name back, or
  its int.
"""

from __future__ import annotations

import hashlib
from typing import Any, Protocol

from gpquarto.games.interface import DecisionKind, IllegalActionError, Outcome, Termination


class OpenSpielGame(Protocol):
    """What a state reads of its game (:class:`gpquarto.games.openspiel.game.OpenSpielGame`)."""

    name: str
    action_count: int
    spiel: Any


#: The first word of every position text.
START = "start"
_WINS = (Outcome(Termination.WIN, 0), Outcome(Termination.WIN, 1))
_DRAW = Outcome(Termination.DRAW)


def position_text(history: list[int] | tuple[int, ...]) -> str:
    """The position text of the position that ``history`` reaches: ``"start 3 4"``."""
    return " ".join([START, *map(str, history)])


class _Queries:
    """What a state and its view both answer; ``_target()`` is the state that holds the position."""

    __slots__ = ()

    def _target(self) -> OpenSpielState:
        raise NotImplementedError

    @property
    def game_name(self) -> str:
        """The game's gpquarto name (``"openspiel:connect_four"``)."""
        return self._target()._game.name

    @property
    def player(self) -> int:
        """The seat to act (after the end: the seat after the last mover)."""
        return self._target().player

    @property
    def history(self) -> tuple[int, ...]:
        """The actions applied since the start (or since :meth:`OpenSpielState.forget_history`)."""
        state = self._target()
        return tuple(state._actions[state._floor :])

    def legal_actions(self) -> list[int]:
        return self._target().legal_actions()

    def decision_kind(self) -> DecisionKind:
        return DecisionKind.MOVE

    def is_over(self) -> bool:
        return self._target()._state.is_terminal()

    def outcome(self) -> Outcome | None:
        return self._target().outcome()

    def text(self) -> str:
        """The position text: ``"start"`` and the actions from the start."""
        return position_text(self._target()._actions)

    def action_name(self, action: int) -> str:
        """OpenSpiel's name of ``action`` for the seat to act (``"x(1,1)"``, ``"e2e4"``...)."""
        state = self._target()
        if action.__class__ is not int or not 0 <= action < state._game.action_count:
            return f"{action!r} (no such action)"
        return str(state._state.action_to_string(state.player, action))

    def parse_action(self, text: str) -> int:
        """The legal action that ``text`` names (its OpenSpiel name, in any case, or its int); ``ValueError``."""
        state = self._target()
        word = str(text).strip()
        names = state.action_names()
        if word in names:
            return names[word]
        folded = {name.lower(): action for name, action in names.items()}
        if word.lower() in folded:
            return folded[word.lower()]
        if word.isascii() and word.isdecimal() and int(word) < state._game.action_count:
            return int(word)
        shown = ", ".join(list(names)[:6]) + (", ..." if len(names) > 6 else "")
        raise ValueError(f"not a move of {state._game.name}: {str(text)[:40]!r} (legal now: {shown or 'none'})")

    def observation(self) -> list[float]:
        """OpenSpiel's observation tensor of the position for seat 0, flat."""
        return list(self._target()._state.observation_tensor(0))

    def canonical_key(self) -> int:
        """A 128-bit int naming the position by its history from the start."""
        digest = hashlib.blake2b(position_text(self._target()._actions).encode(), digest_size=16).digest()
        return int.from_bytes(digest, "big")

    def copy(self) -> OpenSpielState:
        """An independent, mutable copy (with the history)."""
        state = self._target()
        twin = OpenSpielState.__new__(OpenSpielState)
        twin._game, twin._state = state._game, state._state.clone()
        twin._actions, twin._floor, twin._stack = list(state._actions), state._floor, []
        twin._legal, twin._names = state._legal, state._names
        return twin

    def __str__(self) -> str:
        """OpenSpiel's drawing of the position, then who is to act or how the game ended."""
        state = self._target()
        outcome = state.outcome()
        if outcome is None:
            last = f"seat {state.player} to move"
        else:
            last = "draw" if outcome.winner is None else f"seat {outcome.winner} wins"
        return f"{str(state._state).rstrip()}\n{last}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game_name!r}, {self.text()!r})"


class OpenSpielState(_Queries):
    """A position of an OpenSpiel game and its history (the interface's ``GameState``); ``spiel_state`` is the
    ``pyspiel`` state (read it, do not change it)."""

    __slots__ = ("_game", "_state", "_actions", "_floor", "_stack", "_legal", "_names")

    def __init__(self, game: OpenSpielGame) -> None:
        self._game = game
        self._state: Any = game.spiel.new_initial_state()
        self._actions: list[int] = []
        #: How many actions of the history :meth:`forget_history` made the start.
        self._floor = 0
        #: Clones of the states before the last actions (as many as this object applied since it was made).
        self._stack: list[Any] = []
        self._legal: list[int] | None = None
        self._names: dict[str, int] | None = None

    def _target(self) -> OpenSpielState:
        return self

    @property
    def spiel_state(self) -> Any:
        """The ``pyspiel`` state of the position (for OpenSpiel's algorithms: clone it before changing it)."""
        return self._state

    @property
    def player(self) -> int:
        """The seat to act (after the end: the seat after the last mover)."""
        current = self._state.current_player()
        if current >= 0:
            return current
        if not self._actions:
            return 0
        before = self._stack[-1] if self._stack else self._replayed(len(self._actions) - 1)
        return 1 - before.current_player()

    def legal_actions(self) -> list[int]:
        """The legal actions, ascending; empty once the game is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = list(self._state.legal_actions())
        return legal[:]

    def action_names(self) -> dict[str, int]:
        """OpenSpiel's name of every legal action -> the action (kept until the position changes)."""
        names = self._names
        if names is None:
            player, spiel = self.player, self._state
            names = self._names = {spiel.action_to_string(player, action): action for action in self.legal_actions()}
        return names

    def outcome(self) -> Outcome | None:
        """A win for the seat with the larger return, a draw where they are equal; None while the game goes on."""
        state = self._state
        if not state.is_terminal():
            return None
        first, second = state.returns()
        return _DRAW if first == second else _WINS[0 if first > second else 1]

    def apply(self, action: int) -> None:
        """Play ``action``; :class:`IllegalActionError` (and no change) when it is not legal now."""
        legal = self._legal
        if legal is None:
            legal = self._legal = list(self._state.legal_actions())
        if action.__class__ is not int or action not in legal:
            raise IllegalActionError(f"{action!r} is not a legal action of {self._game.name} in {self.text()[:60]!r}")
        self._stack.append(self._state.clone())
        self._state.apply_action(action)
        self._actions.append(action)
        self._legal = self._names = None

    def undo(self) -> int:
        """Take back the last action and return it; :class:`IllegalActionError` when there is none."""
        if len(self._actions) <= self._floor:
            raise IllegalActionError("no action to take back")
        action = self._actions.pop()
        self._state = self._stack.pop() if self._stack else self._replayed(len(self._actions))
        self._legal = self._names = None
        return action

    def _replayed(self, plies: int) -> Any:
        """A fresh ``pyspiel`` state after the first ``plies`` actions of the history."""
        state = self._game.spiel.new_initial_state()
        for action in self._actions[:plies]:
            state.apply_action(action)
        return state

    def view(self) -> OpenSpielView:
        """A read-only view that follows this state."""
        return OpenSpielView(self)

    def forget_history(self) -> None:
        """Make the current position the start of :attr:`history` and of :meth:`undo` (the position text still
        holds every action, since it is how the position is written)."""
        self._floor = len(self._actions)
        self._stack = []

    def settings(self) -> dict[str, object]:
        """``{}``: an OpenSpiel game's parameters are in its name."""
        return {}


class OpenSpielView(_Queries):
    """The read-only face of an :class:`OpenSpielState`."""

    __slots__ = ("_of",)

    def __init__(self, state: OpenSpielState) -> None:
        self._of = state

    def _target(self) -> OpenSpielState:
        return self._of
