"""A slow, obvious Connect Four for the tests: a list of lists, a win found by looking at every line of four.

Written from the rules alone (no bitboards), so that the engine's bitboard tricks are checked against something
that cannot share their mistakes.
"""

from __future__ import annotations

MARKS = "XO"


class SlowConnectFour:
    """``board[row][column]`` with row 0 at the bottom: None, 0 (X) or 1 (O)."""

    def __init__(self, rows: int = 6, columns: int = 7) -> None:
        self.rows, self.columns = rows, columns
        self.board: list[list[int | None]] = [[None] * columns for _ in range(rows)]
        self.player = 0
        self.moves: list[int] = []

    def copy(self) -> SlowConnectFour:
        twin = SlowConnectFour(self.rows, self.columns)
        twin.board = [row[:] for row in self.board]
        twin.player, twin.moves = self.player, self.moves[:]
        return twin

    def winner(self) -> int | None:
        """The seat with four in a line, or None (both having one is impossible in a real game)."""
        found = set()
        for row in range(self.rows):
            for column in range(self.columns):
                for d_row, d_column in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                    cells = [(row + k * d_row, column + k * d_column) for k in range(4)]
                    if all(0 <= r < self.rows and 0 <= c < self.columns for r, c in cells):
                        owners = {self.board[r][c] for r, c in cells}
                        if len(owners) == 1 and None not in owners:
                            found |= owners
        assert len(found) <= 1, "both sides have four in a line"
        return found.pop() if found else None

    def full(self) -> bool:
        return all(cell is not None for cell in self.board[-1])

    def over(self) -> bool:
        return self.winner() is not None or self.full()

    def legal(self) -> list[int]:
        if self.over():
            return []
        return [column for column in range(self.columns) if self.board[-1][column] is None]

    def drop(self, column: int) -> None:
        assert column in self.legal()
        row = next(r for r in range(self.rows) if self.board[r][column] is None)
        self.board[row][column] = self.player
        self.player = 1 - self.player
        self.moves.append(column)

    def text(self) -> str:
        rows = [
            "".join("." if cell is None else MARKS[cell] for cell in self.board[row])
            for row in range(self.rows - 1, -1, -1)
        ]
        return "/".join(rows) + " " + MARKS[self.player]

    def mirror_text(self) -> str:
        rows, side = self.text().split()
        return "/".join(row[::-1] for row in rows.split("/")) + " " + side
