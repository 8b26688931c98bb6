"""A position drawn as text for the terminal, for every game: the state's own drawing (``str``) where its class
has one, else its :class:`~gpquarto.games.capabilities.Board` as a grid above its position text, else its
position text."""

from __future__ import annotations

from gpquarto.games.capabilities import Board
from gpquarto.games.interface import GameView
from gpquarto.games.registry import get_plugin

#: How a cell of a board is drawn: empty, then the seats' marks (where ``Board.seat_marks``).
CELL_MARKS = ".XO"
#: Other cell values, in base 36.
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def text_drawing(state: GameView) -> str:
    """``state`` drawn for the terminal (see the module docstring)."""
    if type(state).__str__ is not object.__str__:
        return str(state)
    board = get_plugin(state.game_name).capability_or(Board, None)
    if board is None:
        return state.text()
    settings = state.settings() if hasattr(state, "settings") else state.copy().settings()  # a view has none
    rows, columns = board.shape(settings)
    cells = board.cells(state)
    marks = CELL_MARKS if board.seat_marks else "."
    grid = [" ".join(_mark(cells[row * columns + column], marks) for column in range(columns)) for row in range(rows)]
    return "\n".join([*grid, state.text()])


def _mark(value: int, marks: str) -> str:
    return marks[value] if value < len(marks) else DIGITS[value % len(DIGITS)]
