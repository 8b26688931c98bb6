"""What a drawing of Quixo's board needs, as plain data (the capability
:class:`~gpquarto.games.capabilities.BoardDrawing`)."""

from __future__ import annotations

from gpquarto.games.capabilities import BoardDrawing
from gpquarto.games.quixo.board import QuixoQueries
from gpquarto.games.quixo.notation import SYMBOLS
from gpquarto.games.quixo.tables import tables


class QuixoDrawing(BoardDrawing):
    """The size, cells (``"X"``, ``"O"`` or None), the legal actions, the complete lines (as lists of cells), the
    plies played and the ply limit, and how often the position occurred."""

    def board_data(self, state: QuixoQueries) -> dict:
        n = state.size
        table = tables(n)
        masks = (state.x_mask, state.o_mask)
        return {
            "size": n,
            "cells": [None if cell < 0 else SYMBOLS[cell] for cell in state.cells],
            "legal_actions": list(state.legal_actions()),
            "winning_lines": [
                [cell for cell in range(n * n) if line >> cell & 1]
                for line in table.lines
                if any(mask & line == line for mask in masks)
            ],
            "plies": len(state.history),
            "ply_limit": state.ply_limit,
            "repetition": state.repetition_count(),
        }


DRAWING = QuixoDrawing()
