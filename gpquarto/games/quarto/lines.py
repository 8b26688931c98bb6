"""Squares, lines and rule sets.

Squares are ints 0..15, row-major (``square = 4*row + col``, row 0 at the top). Classic rules have ten
lines (four rows, four columns, the diagonal and the anti-diagonal); advanced rules add the nine 2x2
blocks.
"""

from __future__ import annotations

import enum

from gpquarto.games.quarto.indices import check_index

SQUARE_COUNT = 16
ALL_SQUARES_MASK = (1 << SQUARE_COUNT) - 1

ROWS = tuple(tuple(4 * row + col for col in range(4)) for row in range(4))
COLUMNS = tuple(tuple(4 * row + col for row in range(4)) for col in range(4))
DIAGONAL = (0, 5, 10, 15)
ANTI_DIAGONAL = (3, 6, 9, 12)
BLOCKS = tuple(
    (4 * row + col, 4 * row + col + 1, 4 * row + col + 4, 4 * row + col + 5) for row in range(3) for col in range(3)
)
CLASSIC_LINES = ROWS + COLUMNS + (DIAGONAL, ANTI_DIAGONAL)
ADVANCED_LINES = CLASSIC_LINES + BLOCKS
CORNERS = (0, 3, 12, 15)
INSIDE = (5, 6, 9, 10)


class Rules(enum.Enum):
    """Which groups of four squares win: ``CLASSIC`` (10 lines) or ``ADVANCED`` (also the 2x2 blocks)."""

    CLASSIC = "classic"
    ADVANCED = "advanced"

    # Members are singletons, so identity hashing is exact. It keeps lookups in the tables keyed by rule
    # set in C: Enum's own __hash__ is a Python function, and those lookups sit on hot paths.
    __hash__ = object.__hash__

    @property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The winning lines of this rule set, as tuples of four squares."""
        return ADVANCED_LINES if self is Rules.ADVANCED else CLASSIC_LINES


def square_name(square: int) -> str:
    """Name of a square as column letter and row number, e.g. ``square_name(0) == "a1"`` (top left)."""
    row, col = divmod(square, 4)
    return "abcd"[col] + str(row + 1)


def parse_square(text: str) -> int:
    """Inverse of :func:`square_name`; also accepts a plain index ``"0".."15"``."""
    text = text.strip().lower()
    if len(text) == 2 and text[0] in "abcd" and text[1] in "1234":
        return 4 * (int(text[1]) - 1) + "abcd".index(text[0])
    if text.isdigit() and 0 <= int(text) < SQUARE_COUNT:
        return int(text)
    raise ValueError(f"not a square: {text!r} (use a1..d4 or 0..15)")


def check_square(square: object) -> int:
    """``square`` as an int if it is a valid square index (see :func:`check_index`), else ``ValueError``."""
    return check_index(square, "a square", SQUARE_COUNT)


def _lines_through(lines: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """For each square: (mask of the line's squares, the other three squares) for each line through it."""
    table = []
    for square in range(SQUARE_COUNT):
        entries = []
        for line in lines:
            if square in line:
                mask = sum(1 << s for s in line)
                entries.append((mask, tuple(s for s in line if s != square)))
        table.append(tuple(entries))
    return tuple(table)


LINES_THROUGH = {rules: _lines_through(rules.lines) for rules in Rules}

#: Per rule set and square: the masks of the lines through the square (for quick "is it full" tests).
LINE_MASKS_THROUGH = {
    rules: tuple(tuple(mask for mask, _ in entries) for entries in LINES_THROUGH[rules]) for rules in Rules
}

#: The four squares of every line of either rule set, by line mask.
LINE_OF_MASK = {sum(1 << s for s in line): line for line in ADVANCED_LINES}
