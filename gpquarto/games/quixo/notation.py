"""Quixo's position text and action names.

Position text: the rows top to bottom separated by ``/``, each cell ``X``, ``O`` or ``.`` (blank), a space and
the side to move (``X`` or ``O``), then `` course`` under the course library's rules. The board size is the
number of rows (3, 4 or 5). The empty 5x5 board with X to move is ``...../...../...../...../..... X``.

Cells are named like Quarto's squares: a column letter and a row number, ``a1`` at the top left. An action's
name is the cube's cell and the end of its line where it goes back in: ``"b1 to bottom"`` (take the cube at
b1 and push it in at the bottom of column b). :func:`parse_action` also reads ``"b1 bottom"``, ``"b1 b"``,
``"b1b"``, ``"b1 from the bottom"``, the plain int (``"7"``) and ``"#7"``.
"""

from __future__ import annotations

import re

from gpquarto.games.quixo.tables import DIRECTION_NAMES, SIZES

SYMBOLS = "XO"
BLANK = "."
COURSE_SUFFIX = "course"


def cell_name(n: int, cell: int) -> str:
    """``"a1"`` for the top-left cell, ``"b1"`` right of it, ``"a2"`` below it."""
    row, col = divmod(cell, n)
    return "abcde"[col] + str(row + 1)


def parse_cell(n: int, text: str) -> int:
    """The cell named ``text`` (``"a1"``..) on an ``n x n`` board; ``ValueError`` when there is none."""
    text = text.strip().lower()
    if len(text) == 2 and text[0] in "abcde"[:n] and text[1] in "12345"[:n]:
        return n * (int(text[1]) - 1) + "abcde".index(text[0])
    last = "abcde"[n - 1] + str(n)
    raise ValueError(f"not a cell of the {n}x{n} board: {text!r} (use a1..{last})")


def action_name(n: int, action: int) -> str:
    """``"b1 to bottom"``: the cube taken and the end where it goes back in (no legality check)."""
    cell, direction = divmod(action, 4)
    if not 0 <= cell < n * n:
        return f"invalid action {action}"
    return f"{cell_name(n, cell)} to {DIRECTION_NAMES[direction]}"


#: The longest position text and action text read (a 5x5 position's own text is 33 to 40 characters).
MAX_TEXT = 1000
MAX_ACTION_TEXT = 100
_ACTION = re.compile(r"^([a-z][0-9])\s*(?:(?:to|from)\s+)?(?:the\s+)?(top|bottom|left|right|t|b|l|r)$")


def parse_action_text(n: int, text: str) -> int:
    """The action that ``text`` names (see the module docstring); ``ValueError`` when it names none. The
    action is not checked for legality."""
    if len(text) > MAX_ACTION_TEXT:
        raise ValueError(f"a Quixo action is at most {MAX_ACTION_TEXT} characters, got {len(text):,}")
    words = text.strip().lower()
    plain = words[1:] if words.startswith("#") else words
    if plain.isdigit():
        return int(plain)
    match = _ACTION.match(words)
    if match is None:
        raise ValueError(f"cannot read a Quixo action from {text!r} (e.g. 'b1 to bottom', 'b1 b' or its int)")
    cell = parse_cell(n, match.group(1))
    return 4 * cell + "tblr".index(match.group(2)[0])


def format_position(n: int, x: int, o: int, player: int, course: bool) -> str:
    """The position text of the masks ``x``, ``o`` with ``player`` (0 = X) to move."""
    rows = []
    for r in range(n):
        rows.append("".join("X" if x >> c & 1 else "O" if o >> c & 1 else BLANK for c in range(n * r, n * r + n)))
    return "/".join(rows) + " " + SYMBOLS[player] + (" " + COURSE_SUFFIX if course else "")


def parse_position(text: str) -> tuple[int, int, int, int, bool]:
    """``(n, x, o, player, course)`` from position text; ``ValueError`` saying what is wrong and where."""
    if not isinstance(text, str):
        raise ValueError(f"a Quixo position is text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:  # and so every message below quotes a bounded text
        raise ValueError(f"a Quixo position is at most {MAX_TEXT:,} characters, got {len(text):,}")
    words = text.split()
    if len(words) not in (2, 3):
        raise ValueError(f"a Quixo position is 'ROWS SIDE [course]' (rows split by '/'), got {text!r}")
    if len(words) == 3 and words[2] != COURSE_SUFFIX:
        raise ValueError(f"unknown rules {words[2]!r} at the end of {text!r} (only 'course' may follow the side)")
    rows = words[0].split("/")
    n = len(rows)
    if n not in SIZES:
        raise ValueError(f"a Quixo board has 3, 4 or 5 rows, got {n} in {words[0]!r}")
    x = o = 0
    for r, row in enumerate(rows):
        if len(row) != n:
            raise ValueError(f"row {r + 1} of {words[0]!r} has {len(row)} cells, not {n}")
        for c, symbol in enumerate(row):
            if symbol == "X":
                x |= 1 << (n * r + c)
            elif symbol == "O":
                o |= 1 << (n * r + c)
            elif symbol != BLANK:
                raise ValueError(f"cell {cell_name(n, n * r + c)} is {symbol!r}, not X, O or '.'")
    if words[1] not in SYMBOLS:
        raise ValueError(f"the side to move is X or O, got {words[1]!r}")
    return n, x, o, SYMBOLS.index(words[1]), len(words) == 3
