"""The :class:`~gpquarto.games.capabilities.Board` of an OpenSpiel game whose observation tensor is a grid
(``planes x rows x columns``): a cell's value is 1 + the plane set there, the plane that fills the whole start
position (an "empty" plane) read as 0.

OpenSpiel's planes name no seats in general (tic-tac-toe's are empty, O, X), so ``seat_marks`` is false: the
generic encoder reads the values as they are, and drawings show them as digits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpquarto.games.capabilities import Board


def grid_shape(spiel_game: Any) -> tuple[int, int, int] | None:
    """(planes, rows, columns) of the game's observation tensor where it is a grid, else None."""
    if not spiel_game.get_type().provides_observation_tensor:
        return None
    shape = tuple(spiel_game.observation_tensor_shape())
    if len(shape) != 3 or min(shape) < 1:
        return None
    return shape


class ObservationBoard(Board):
    """The cells of an OpenSpiel game read from its observation tensor (of seat 0).

    Where the tensor has three planes and the game's first two actions each add one mark to a plane of the
    mover's and take one cell from a third (tic-tac-toe, Connect Four, Othello: a placement game), the planes
    are read as the seats' marks (1 for seat 0's, 2 for seat 1's) and the empty cells (0), and ``seat_marks`` is
    true; otherwise a cell is 1 + the plane set there (0 for a plane that fills the start position). Rows are
    given from the top as OpenSpiel draws the board, where its drawing shows which way the tensor's rows run."""

    seat_marks = False

    def __init__(self, spiel_game: Any, shape: tuple[int, int, int]) -> None:
        self.planes, self.rows, self.columns = shape
        start = spiel_game.new_initial_state()
        size = self.rows * self.columns
        tensor = start.observation_tensor(0)
        full = [plane for plane in range(self.planes) if all(tensor[plane * size : (plane + 1) * size])]
        values = list(range(1, self.planes + 1))
        self.empty_plane = full[0] if len(full) == 1 else None
        if self.empty_plane is not None:
            values[self.empty_plane] = 0
            for plane in range(self.empty_plane + 1, self.planes):
                values[plane] -= 1
        marks = _seat_planes(start, self.planes, size)
        if marks is not None:
            self.seat_marks = True
            self.empty_plane = marks[2]
            values = [0] * self.planes
            values[marks[0]], values[marks[1]] = 1, 2
        self._values = values
        #: Whether the tensor's rows run from the bottom up (Connect Four's), read from OpenSpiel's drawing.
        self.upside_down = _rows_upside_down(start, self.planes, self.rows, self.columns)

    def shape(self, settings: Mapping[str, object]) -> tuple[int, int]:
        return self.rows, self.columns

    def cell_values(self, settings: Mapping[str, object]) -> int:
        return max(self._values) + 1

    def cells(self, state: Any) -> tuple[int, ...]:
        """The value of every cell, row by row (the first plane set at a cell; 0 where none is)."""
        tensor = state.observation()
        size = self.rows * self.columns
        cells = [0] * size
        for plane in range(self.planes - 1, -1, -1):
            value, base = self._values[plane], plane * size
            for cell in range(size):
                if tensor[base + cell]:
                    cells[cell] = value
        if self.upside_down:
            columns = self.columns
            cells = [
                cell for row in range(self.rows - 1, -1, -1) for cell in cells[row * columns : (row + 1) * columns]
            ]
        return tuple(cells)


def _seat_planes(start: Any, planes: int, size: int) -> tuple[int, int, int] | None:
    """(seat 0's plane, seat 1's plane, the empty plane) where the first two actions from ``start`` each take
    one cell from one plane and add to a plane of the mover's, else None."""
    if planes != 3:
        return None
    state = start.clone()
    counts = [_counts(state, planes, size)]
    grown = []
    for _ in range(2):
        if state.is_terminal() or not state.legal_actions():
            return None
        state.apply_action(state.legal_actions()[0])
        counts.append(_counts(state, planes, size))
        changes = [after - before for before, after in zip(counts[-2], counts[-1], strict=True)]
        grown.append(max(range(planes), key=changes.__getitem__))
        if changes[grown[-1]] < 1:
            return None
    shrunk = [
        plane
        for plane in range(planes)
        if counts[1][plane] - counts[0][plane] == -1 == counts[2][plane] - counts[1][plane]
    ]
    if grown[0] == grown[1] or len(shrunk) != 1 or shrunk[0] in grown:
        return None
    return grown[0], grown[1], shrunk[0]


def _counts(state: Any, planes: int, size: int) -> list[int]:
    tensor = state.observation_tensor(0)
    return [sum(1 for value in tensor[plane * size : (plane + 1) * size] if value) for plane in range(planes)]


def _rows_upside_down(start: Any, planes: int, rows: int, columns: int) -> bool:
    """True when the first action's cell is in tensor row ``r`` but in line ``rows - 1 - r`` (not ``r``) of
    OpenSpiel's drawing, whose ``rows`` lines of ``columns`` characters are the board (Connect Four's)."""
    if start.is_terminal() or not start.legal_actions() or rows < 2:
        return False
    after = start.clone()
    after.apply_action(start.legal_actions()[0])
    size = rows * columns
    before_tensor, after_tensor = start.observation_tensor(0), after.observation_tensor(0)
    changed = {
        (cell // columns)
        for plane in range(planes)
        for cell in range(size)
        if before_tensor[plane * size + cell] != after_tensor[plane * size + cell]
    }
    old_lines, new_lines = (_board_lines(str(state), rows, columns) for state in (start, after))
    if len(changed) != 1 or old_lines is None or new_lines is None:
        return False
    drawn = [number for number, (old, new) in enumerate(zip(old_lines, new_lines, strict=True)) if old != new]
    row = changed.pop()
    return drawn == [rows - 1 - row] and row != rows - 1 - row


def _board_lines(text: str, rows: int, columns: int) -> list[str] | None:
    """The ``rows`` lines of exactly ``columns`` characters in OpenSpiel's drawing ``text``, or None."""
    lines = [line for line in text.splitlines() if len(line) == columns]
    return lines if len(lines) == rows else None
