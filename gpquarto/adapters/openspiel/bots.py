"""A gpquarto player as an OpenSpiel bot: :class:`PlayerBot` plays any player (zoo, evolved, learned) in
OpenSpiel's loops (``evaluate_bots``), on gpquarto's games registered with ``pyspiel`` (:mod:`.game`) and on
OpenSpiel's own games that gpquarto wraps (``openspiel:NAME``)."""

from __future__ import annotations

from typing import Any

import pyspiel

from gpquarto.adapters.openspiel.game import SpielState
from gpquarto.games.interface import GameView
from gpquarto.games.registry import get_game
from gpquarto.players.base import Player


class PlayerBot(pyspiel.Bot):
    """OpenSpiel's ``Bot`` over a gpquarto ``player``: ``step(state)`` is the player's decision on the position
    (the player is told its seat when a game starts, :meth:`restart_at`)."""

    def __init__(self, player: Player, seat: int) -> None:
        pyspiel.Bot.__init__(self)
        self.player, self.seat = player, seat
        self._started = False

    def restart_at(self, state: Any) -> None:
        self.player.new_game(self.seat)
        self._started = True

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing: the player reads the whole position at each decision."""

    def step(self, state: Any) -> int:
        if not self._started:
            self.restart_at(state)
        return int(self.player.decide(position_view(state)))


def position_view(state: Any) -> GameView:
    """The gpquarto view of an OpenSpiel state: the position a registered gpquarto game holds, or OpenSpiel's own
    game's state replayed in gpquarto's wrapper (``openspiel:NAME``)."""
    if isinstance(state, SpielState):
        return state.position.view()
    game = get_game("openspiel:" + str(state.get_game()).removesuffix("()"))  # the provider's name of the game
    position = game.new_state()
    for action in state.history():
        position.apply(action)
    return position.view()
