"""What a drawing of Quarto's board needs, as plain data (the capability
:class:`~gpquarto.games.capabilities.BoardDrawing`)."""

from __future__ import annotations

from gpquarto.games.capabilities import BoardDrawing
from gpquarto.games.quarto.board import BoardQueries
from gpquarto.games.quarto.pieces import NO_PIECE


class QuartoDrawing(BoardDrawing):
    """Cells (a piece, or None), the piece in hand, the pieces left, which decision is due, the winning lines."""

    def board_data(self, state: BoardQueries) -> dict:
        return {
            "cells": [None if piece == NO_PIECE else piece for piece in state.raw_cells],
            "in_hand": None if state.in_hand == NO_PIECE else state.in_hand,
            "available": list(state.available_pieces()),
            "choice_due": state.choice_due,
            "placement_due": state.placement_due,
            "winning_lines": [list(line) for line in state.winning_lines()],
        }


DRAWING = QuartoDrawing()
