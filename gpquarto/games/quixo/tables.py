"""Precomputed tables of Quixo for one board size: cells, border, push masks, lines, legal-action lookups.

A board is two bitmasks of ``n*n`` bits (bit ``cell`` with ``cell = n*row + col``, row 0 at the top), one for
X's cubes and one for O's. An action is ``4*cell + direction``; the direction names the end of the cube's line
where it goes back in: ``T``=0 (top of its column), ``B``=1 (bottom), ``L``=2 (left end of its row), ``R``=3.

A push is four mask operations, read from :attr:`Tables.push` (``None`` for an action that is never legal):
``(keep, moved, left, right, dest, taken)``: the cells off the pushed segment (``keep``), the cubes that slide one
step (``moved``: the segment without the taken cell), the slide as a left shift then a right shift (one of
the two is 0), and the bit where the cube goes back in. For the mover's mask ``own`` and the other's ``other``::

    own2 = (own & keep) | ((own & moved) << left >> right) | dest
    other2 = (other & keep) | ((other & moved) << left >> right)
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

SIZES = (3, 4, 5)
TOP, BOTTOM, LEFT, RIGHT = 0, 1, 2, 3
DIRECTION_NAMES = ("top", "bottom", "left", "right")


class Push(NamedTuple):
    """The masks of one action (see the module docstring), and the taken cell's bit."""

    keep: int
    moved: int
    left: int
    right: int
    dest: int
    taken: int


class Tables:
    """Everything about an ``n x n`` board that does not depend on the position."""

    def __init__(self, n: int) -> None:
        if n not in SIZES:
            raise ValueError(f"a Quixo board is 3, 4 or 5 cells a side, got {n!r}")
        self.n = n
        self.cells = n * n
        self.full = (1 << self.cells) - 1
        self.action_count = 4 * self.cells
        self.border_cells = tuple(c for c in range(self.cells) if _on_border(n, c))
        self.border = sum(1 << c for c in self.border_cells)
        self.push: list[Push | None] = [_push(n, a) for a in range(self.action_count)]
        self.actions = tuple(a for a, p in enumerate(self.push) if p is not None)
        rows = [sum(1 << (n * r + c) for c in range(n)) for r in range(n)]
        cols = [sum(1 << (n * r + c) for r in range(n)) for c in range(n)]
        main = sum(1 << (n * i + i) for i in range(n))
        anti = sum(1 << (n * i + n - 1 - i) for i in range(n))
        #: The lines in the course library's scan order: rows, columns, main diagonal, anti-diagonal.
        self.lines = (*rows, *cols, main, anti)
        # has_line's constants: with pairs = m & m >> 1, the n bits from a row start are all set exactly when
        # pairs & pairs >> k2 & m >> k3 is (k2, k3 = 3, 2 on 5x5; 2, 2 on 4x4; 1, 2 on 3x3); the same for
        # columns with every shift times n.
        self.row_shifts = (1, n - 2, 2)
        self.col_shifts = (n, n * (n - 2), 2 * n)
        self.row_starts = sum(1 << (n * r) for r in range(n))
        self.col_starts = rows[0]
        self.main = main
        self.anti = anti
        # Legal actions by the opponent's border cubes, in two halves of the border (each a dict keyed by
        # the masked opponent bits): legal = low[other & low_mask] + high[other & high_mask], ascending.
        half = len(self.border_cells) // 2
        self.low_mask, self.low_legal = self._legal_half(self.border_cells[:half])
        self.high_mask, self.high_legal = self._legal_half(self.border_cells[half:])

    def _legal_half(self, cells: tuple[int, ...]) -> tuple[int, dict[int, tuple[int, ...]]]:
        mask = sum(1 << c for c in cells)
        table: dict[int, tuple[int, ...]] = {}
        for pattern in range(1 << len(cells)):
            taken = sum(1 << c for i, c in enumerate(cells) if pattern >> i & 1)
            table[taken] = tuple(a for c in cells if not taken >> c & 1 for a in self.actions if a >> 2 == c)
        return mask, table

    def legal(self, other: int) -> tuple[int, ...]:
        """The legal actions (ascending) of the player to move when the opponent's cubes are ``other``."""
        return self.low_legal[other & self.low_mask] + self.high_legal[other & self.high_mask]

    def has_line(self, mask: int) -> bool:
        """True when ``mask`` holds a complete row, column or diagonal."""
        return mask_has_line(mask, self.n, self.row_starts, self.col_starts, self.main, self.anti)

    def play(self, own: int, other: int, action: int) -> tuple[int, int]:
        """The masks (the mover's, the other's) after the mover plays ``action`` (assumed legal)."""
        keep, moved, left, right, dest, _ = self.push[action]  # type: ignore[misc]  # legal: never None
        return (own & keep) | ((own & moved) << left >> right) | dest, (other & keep) | (
            (other & moved) << left >> right
        )

    def mover_result(self, own: int, other: int, course: bool) -> int:
        """After a move that left the mover's cubes ``own`` and the other's ``other``: 1 when the mover has won,
        -1 when it has lost, 0 when no line is complete (official rules, or the course's when ``course``)."""
        if course:
            owner = self.first_line_owner(own, other)
            return 0 if owner < 0 else 1 - 2 * owner
        if self.has_line(other):
            return -1
        return 1 if self.has_line(own) else 0

    def first_line_owner(self, x: int, o: int) -> int:
        """The course library's winner: the owner (0 = X, 1 = O) of the first complete line in its scan
        order (rows, columns, main diagonal, anti-diagonal), or -1 when there is none."""
        for line in self.lines:
            if x & line == line:
                return 0
            if o & line == line:
                return 1
        return -1


def mask_has_line(mask: int, n: int, row_starts: int, col_starts: int, main: int, anti: int) -> bool:
    """True when ``mask`` holds a complete line of the ``n x n`` board (the constants are a :class:`Tables`'s).

    With ``pairs = m & m >> 1`` (two neighbours set), the ``n`` bits from a row start are all set exactly when
    ``pairs & pairs >> (n - 2) & m >> 2`` is; the same for columns with every shift times ``n``. Plain
    arithmetic, so numba compiles it as it is (:mod:`gpquarto.games.quixo.compiled`, the solver); the pure
    playout inlines it."""
    pairs = mask & (mask >> 1)
    if pairs & (pairs >> (n - 2)) & (mask >> 2) & row_starts:
        return True
    pairs = mask & (mask >> n)
    if pairs & (pairs >> (n * (n - 2))) & (mask >> (2 * n)) & col_starts:
        return True
    return (mask & main) == main or (mask & anti) == anti


def _on_border(n: int, cell: int) -> bool:
    row, col = divmod(cell, n)
    return row in (0, n - 1) or col in (0, n - 1)


def _push(n: int, action: int) -> Push | None:
    """The push of ``action`` on an ``n x n`` board, or None when the action is never legal (an inner cube, or
    a cube going back in where it was taken)."""
    cell, direction = divmod(action, 4)
    row, col = divmod(cell, n)
    if not _on_border(n, cell):
        return None
    if direction == TOP:
        if row == 0:
            return None
        segment = [n * r + col for r in range(row + 1)]
        dest, left, right = col, n, 0
    elif direction == BOTTOM:
        if row == n - 1:
            return None
        segment = [n * r + col for r in range(row, n)]
        dest, left, right = n * (n - 1) + col, 0, n
    elif direction == LEFT:
        if col == 0:
            return None
        segment = [n * row + c for c in range(col + 1)]
        dest, left, right = n * row, 1, 0
    else:
        if col == n - 1:
            return None
        segment = [n * row + c for c in range(col, n)]
        dest, left, right = n * row + n - 1, 0, 1
    full = (1 << (n * n)) - 1
    seg = sum(1 << c for c in segment)
    return Push(full & ~seg, seg & ~(1 << cell), left, right, 1 << dest, 1 << cell)


@cache
def tables(n: int) -> Tables:
    """The tables of the ``n x n`` board (built once)."""
    return Tables(n)


def dest_cell(n: int, action: int) -> int:
    """The cell where the cube of ``action`` goes back in."""
    push = tables(n).push[action]
    if push is None:
        raise ValueError(f"action {action} is never legal on a {n}x{n} board")
    return push.dest.bit_length() - 1
