"""Connect Four's board as a grid of cells (the capability :class:`~gpquarto.games.capabilities.Board`): what
gpquarto's generic encoder, GP features and drawings read."""

from __future__ import annotations

from collections.abc import Mapping

from connect_four.game import CONNECT_FOUR, ConnectFourState
from gpquarto.games.capabilities import Board


class ConnectFourBoard(Board):
    """``rows`` x ``columns`` cells, row by row from the top: 0 empty, 1 an X disc (seat 0), 2 an O disc (seat 1)."""

    seat_marks = True

    def shape(self, settings: Mapping[str, object]) -> tuple[int, int]:
        checked = CONNECT_FOUR.check_settings(dict(settings))
        return checked["rows"], checked["columns"]  # type: ignore[return-value]

    def cell_values(self, settings: Mapping[str, object]) -> int:
        return 3

    def cells(self, state: ConnectFourState) -> tuple[int, ...]:
        shape = state.shape
        first, second = state.discs
        found = []
        for row in range(shape.rows - 1, -1, -1):
            for column in range(shape.columns):
                bit = 1 << shape.bit(row, column)
                found.append(1 if first & bit else 2 if second & bit else 0)
        return tuple(found)


BOARD = ConnectFourBoard()
