"""Quarto's convenient form of a player: ``choose_piece(view)`` and ``place_piece(view, piece)``.

Derive a Quarto player from :class:`QuartoPlayer` and write the two methods; its ``decide`` turns them into actions
for every place that speaks the game interface, and the arena's Quarto loop (:mod:`.form`) calls them directly.
"""

from __future__ import annotations

from gpquarto.games.interface import DecisionKind, GameView
from gpquarto.games.quarto.board import PLACE_OFFSET, BoardView
from gpquarto.players.base import BasePlayer


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
            return self.choose_piece(view)  # type: ignore[arg-type]  # Quarto's view
        return PLACE_OFFSET + self.place_piece(view, view.in_hand)  # type: ignore[arg-type, attr-defined]  # Quarto's view
