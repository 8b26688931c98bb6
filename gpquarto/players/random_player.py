"""The uniformly random player."""

from __future__ import annotations

import random

from gpquarto.games.quarto.board import BoardView
from gpquarto.players.base import BasePlayer
from gpquarto.players.registry import register_player


@register_player("random")
class RandomPlayer(BasePlayer):
    """Chooses a legal piece and a legal square uniformly at random, from its own seeded generator.

    A draw is a 64-bit random integer modulo the number of options: its bias is below 2**-59, less than
    that of scaling a 53-bit float, and it is cheaper.
    """

    name = "random"

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
