"""The uniformly random player."""

from __future__ import annotations

import random

from gpquarto.games.interface import GameView
from gpquarto.players.base import BasePlayer
from gpquarto.players.registry import register_player


@register_player("random")
class RandomPlayer(BasePlayer):
    """Plays a legal action uniformly at random, in any game, from its own seeded generator.

    Every pick is one draw of :attr:`draw`: a 64-bit random integer modulo the number of options (its bias is below
    2**-59, less than that of scaling a 53-bit float, and it is cheaper). A game's own player form asks it the same
    way (Quarto's: a uniform piece of the legal pieces, then a uniform square), so it decides alike in every loop.
    """

    name = "random"
    #: Decides in microseconds whatever it is given: the web server plays it in its own threads.
    quick = True
    game = None  # any game

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        #: ``draw(64)``: the 64-bit random integer every pick takes (reseeding keeps it).
        self.draw = self._rng.getrandbits

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    def decide(self, view: GameView) -> int:
        actions = view.legal_actions()
        return actions[self.draw(64) % len(actions)]
