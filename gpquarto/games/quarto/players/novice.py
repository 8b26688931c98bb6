"""The novice: random play, except that it takes an immediate win and never hands over a winning piece.

This is the "novice" of the 2012 minimax paper (seed 002): a one-ply tactician. When it places, it puts the
piece on a winning square if there is one; when it chooses, it gives a piece the opponent cannot win with
at once, as long as such a piece exists. Everything else is uniformly random from its own seeded generator.
"""

from __future__ import annotations

import random

from gpquarto.games.quarto.board import BoardView
from gpquarto.games.quarto.pieces import MEMBERS
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.games.quarto.search import tactics
from gpquarto.players.registry import register_player


@register_player("novice")
class NovicePlayer(QuartoPlayer):
    """Wins at once when it can, never gives a winning piece while a safe one exists, else plays at random."""

    name = "novice"
    #: Decides in microseconds whatever it is given: the web server plays it in its own threads.
    quick = True

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    def choose_piece(self, board: BoardView) -> int:
        safe = MEMBERS[tactics.safe_pieces_mask(board)]
        return self._rng.choice(safe or board.legal_pieces())

    def place_piece(self, board: BoardView, piece: int) -> int:
        winning = tactics.winning_squares(board, piece)
        return self._rng.choice(winning or board.legal_squares())
