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
    return shape  # type: ignore[return-value]


class ObservationBoard(Board):
    """The cells of an OpenSpiel game read from its observation tensor (of seat 0)."""

    seat_marks = False

    def __init__(self, spiel_game: Any, shape: tuple[int, int, int]) -> None:
        self.planes, self.rows, self.columns = shape
        start = spiel_game.new_initial_state().observation_tensor(0)
        size = self.rows * self.columns
        full = [plane for plane in range(self.planes) if all(start[plane * size : (plane + 1) * size])]
        #: The plane read as an empty cell (None: none fills the start position).
        self.empty_plane = full[0] if len(full) == 1 else None
        values = list(range(1, self.planes + 1))
        if self.empty_plane is not None:
            values[self.empty_plane] = 0
            for plane in range(self.empty_plane + 1, self.planes):
                values[plane] -= 1
        self._values = values

    def shape(self, settings: Mapping[str, object]) -> tuple[int, int]:
        return self.rows, self.columns

    def cell_values(self, settings: Mapping[str, object]) -> int:
        return self.planes + (0 if self.empty_plane is not None else 1)

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
        return tuple(cells)
