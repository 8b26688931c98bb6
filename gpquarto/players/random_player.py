"""The uniformly random player."""

from __future__ import annotations

import random

from gpquarto.games.interface import GameView
from gpquarto.games.quarto.board import BoardView
from gpquarto.players.base import QuartoPlayer
from gpquarto.players.registry import register_player


@register_player("random")
class RandomPlayer(QuartoPlayer):
    """Plays a legal action uniformly at random, in any game, from its own seeded generator.

    In Quarto it also speaks the choose/place form (the arena's Quarto loop calls it): a uniform piece, then a
    uniform square, the same draws as :meth:`decide` makes.

    A draw is a 64-bit random integer modulo the number of options: its bias is below 2**-59, less than
    that of scaling a 53-bit float, and it is cheaper.
    """

    name = "random"
    #: Decides in microseconds whatever it is given: the web server plays it in its own threads.
    quick = True
    game = None  # any game

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._bits = self._rng.getrandbits

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    def choose_piece(self, board: BoardView) -> int:
        pieces = board.legal_pieces()
        return pieces[self._bits(64) % len(pieces)]

    def place_piece(self, board: BoardView, piece: int) -> int:
        squares = board.legal_squares()
        return squares[self._bits(64) % len(squares)]

    def decide(self, view: GameView) -> int:
        actions = view.legal_actions()
        return actions[self._bits(64) % len(actions)]
