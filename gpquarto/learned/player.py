"""The learned player: greedy over what it learned, with an optional tactical guard (off by default)."""

from __future__ import annotations

import numpy as np

from gpquarto.games.interface import GameState, GameView
from gpquarto.learned.models import ValueModel
from gpquarto.learned.turns import Turn, iter_turns, terminal_value
from gpquarto.players.base import BasePlayer


def hands_over_a_win(afterstate: GameState) -> bool:
    """True when the player due in ``afterstate`` (the opponent of the turn's maker) can win at once."""
    if afterstate.is_over():
        return False
    mover = afterstate.player
    turns = iter_turns(afterstate)
    try:
        return any(terminal_value(afterstate, mover) == 1.0 for _ in turns)
    finally:
        turns.close()  # gives the afterstate back as it was


def pick_turn(state: GameState, model: ValueModel, *, guard: bool = False) -> tuple[Turn, float]:
    """The turn a learned player takes in ``state`` and its value: the best valued (the first of equals);
    with ``guard``, a winning turn if there is one, else the best turn that does not let the opponent win at
    once, when there is such a turn."""
    turns, values = model.turn_values(state)
    if not turns:
        raise ValueError("the game is over: there is no turn to take")
    if not guard:
        best = int(np.argmax(values))
        return turns[best], float(values[best])
    order = np.argsort(-values, kind="stable")
    if values[order[0]] == 1.0:
        return turns[order[0]], 1.0
    for index in order:
        for action in turns[index]:
            state.apply(action)
        unsafe = hands_over_a_win(state)
        for _ in turns[index]:
            state.undo()
        if not unsafe:
            return turns[index], float(values[index])
    return turns[order[0]], float(values[order[0]])


class LearnedPlayer(BasePlayer):
    """Plays the turn whose afterstate its model values most (deterministic: the first of equal values).

    A turn of several actions (Quarto: place, then choose) is decided at its first action and the rest is
    played as planned, unless the position has changed in between.
    """

    def __init__(
        self,
        model: ValueModel,
        *,
        game: str,
        name: str = "learned",
        guard: bool = False,
        metadata: dict | None = None,
    ) -> None:
        self.model = model
        self.game = game
        self.name = name
        self.guard = guard
        self.metadata = dict(metadata or {})
        self._plan: dict[tuple[int, ...], int] = {}

    def new_game(self, seat: int) -> None:
        self._plan = {}

    def decide(self, view: GameView) -> int:
        if view.game_name != self.game:
            raise ValueError(f"{self.name} plays {self.game}, not {view.game_name}")
        state = view.copy()
        history = tuple(state.history)
        planned = self._plan.get(history)
        if planned is not None:
            return planned
        turn, _ = pick_turn(state, self.model, guard=self.guard)
        self._plan = {history + turn[:index]: turn[index] for index in range(1, len(turn))}
        return turn[0]
