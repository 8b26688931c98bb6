"""Connect Four's bitboards: one int per side, a column of ``rows + 1`` bits.

Column ``c`` holds bits ``c*(rows+1)`` (the bottom cell) to ``c*(rows+1) + rows - 1`` (the top cell); the bit
above the top cell is never set, so that four bits in a line can be found by shifting without a line wrapping
from one column into the next (the classic bitboard scheme of Connect Four programs)::

    rows = 4, columns = 3        bit of each cell
      top      .  .  .            3  8 13
               .  .  .            2  7 12
               .  .  .            1  6 11
      bottom   .  .  .            0  5 10
                                  (4, 9, 14: the empty row above the board)

Everything here is a function of plain ints and a :class:`Geometry`, shared by the engine, the search hooks and
the exact solver.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

#: The smallest and largest number of rows and of columns.
MIN_SIZE, MAX_SIZE = 4, 9


@dataclass(frozen=True)
class Geometry:
    """The bit layout of a board of ``rows`` x ``columns``: its masks and the windows of four cells."""

    rows: int
    columns: int
    #: Bits per column (``rows + 1``).
    height: int
    #: The bottom cell of every column.
    bottom: int
    #: Every cell of the board (not the empty row above it).
    board: int
    #: ``column_masks[c]``: the cells of column ``c``.
    column_masks: tuple[int, ...]
    #: ``tops[c]``: the bit index just above column ``c``'s top cell (a column is full when its next bit is that).
    tops: tuple[int, ...]
    #: Every line of four cells as a mask (rows, columns and both diagonals).
    windows: tuple[int, ...]
    #: The columns from the centre outwards (the usual first guess of a good move).
    centre_first: tuple[int, ...]
    #: The board's size above the bits of a :func:`position_key`, so that boards of two sizes share no key.
    size_tag: int

    @property
    def cells(self) -> int:
        """How many cells the board has."""
        return self.rows * self.columns

    def bit(self, row: int, column: int) -> int:
        """The bit index of the cell at ``row`` (0 at the bottom) in ``column``."""
        return column * self.height + row


@cache
def geometry(rows: int, columns: int) -> Geometry:
    """The :class:`Geometry` of a ``rows`` x ``columns`` board (made once per size)."""
    height = rows + 1
    column_masks = tuple(((1 << rows) - 1) << (c * height) for c in range(columns))
    windows = []
    for column in range(columns):
        for row in range(rows):
            for d_column, d_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
                end_column, end_row = column + 3 * d_column, row + 3 * d_row
                if 0 <= end_column < columns and 0 <= end_row < rows:
                    windows.append(sum(1 << ((column + k * d_column) * height + row + k * d_row) for k in range(4)))
    middle = (columns - 1) / 2
    return Geometry(
        rows=rows,
        columns=columns,
        height=height,
        bottom=sum(1 << (c * height) for c in range(columns)),
        board=sum(column_masks),
        column_masks=column_masks,
        tops=tuple(c * height + rows for c in range(columns)),
        windows=tuple(windows),
        centre_first=tuple(sorted(range(columns), key=lambda c: (abs(c - middle), c))),
        size_tag=(rows * 16 + columns) << (columns * height),
    )


def has_four(discs: int, height: int) -> bool:
    """True when ``discs`` hold four in a line (vertical, horizontal or either diagonal)."""
    pairs = discs & (discs >> 1)
    if pairs & (pairs >> 2):
        return True
    for shift in (height, height + 1, height - 1):
        pairs = discs & (discs >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


def completing_cells(discs: int, height: int, board: int) -> int:
    """The cells of ``board`` (occupied or not) that would give ``discs`` four in a line."""
    found = (discs << 1) & (discs << 2) & (discs << 3)  # three below
    for shift in (height, height + 1, height - 1):
        two_before = (discs << shift) & (discs << 2 * shift)
        found |= two_before & (discs << 3 * shift)
        found |= two_before & (discs >> shift)
        two_after = (discs >> shift) & (discs >> 2 * shift)
        found |= two_after & (discs << shift)
        found |= two_after & (discs >> 3 * shift)
    return found & board


def playable_cells(occupied: int, shape: Geometry) -> int:
    """The lowest empty cell of every column that is not full."""
    return (occupied + shape.bottom) & shape.board


def position_key(first: int, occupied: int, shape: Geometry) -> int:
    """An int naming the position (the first player's discs and the occupied cells): in each column, the first
    player's discs below one bit set just above the column's discs. Unique for a board size, below
    ``2 ** (columns * (rows + 1))``."""
    return first + occupied + shape.bottom


def mirrored_key(key: int, shape: Geometry) -> int:
    """The :func:`position_key` of the left-right mirror image of the position whose key is ``key``."""
    height, last = shape.height, shape.columns - 1
    column_bits = (1 << height) - 1
    mirrored = 0
    for column in range(shape.columns):
        mirrored |= ((key >> (column * height)) & column_bits) << ((last - column) * height)
    return mirrored
