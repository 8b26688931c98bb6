"""What a drawing of Connect Four's board needs, as plain data (the capability
:class:`~gpquarto.games.capabilities.BoardDrawing`): the web page and the terminal views add it to every position."""

from __future__ import annotations

from connect_four.game import LETTERS, MARKS, ConnectFourState
from gpquarto.games.capabilities import BoardDrawing


class ConnectFourDrawing(BoardDrawing):
    """The board's ``rows`` and ``columns``; ``cells``, row by row from the top, each ``"X"``, ``"O"`` or None;
    the column ``letters``; the ``legal_actions``; the ``last_move`` as ``{"row", "column"}`` (row 0 at the top,
    as in ``cells``) or None; the ``winning_line`` as such cells; and the side ``to_move``."""

    def board_data(self, state: ConnectFourState) -> dict:
        rows, columns = state.rows, state.columns
        cells: list[str | None] = []
        for row in range(rows - 1, -1, -1):
            for column in range(columns):
                owner = state.cell(row, column)
                cells.append(None if owner < 0 else MARKS[owner])
        history = state.history
        last = None
        if history:
            column = history[-1]
            last = {"row": rows - state.height(column), "column": column}
        return {
            "rows": rows,
            "columns": columns,
            "cells": cells,
            "letters": list(LETTERS[:columns]),
            "legal_actions": list(state.legal_actions()),
            "last_move": last,
            "winning_line": [{"row": rows - 1 - row, "column": column} for row, column in state.winning_line()],
            "to_move": None if state.is_over() else MARKS[state.player],
        }


DRAWING = ConnectFourDrawing()
