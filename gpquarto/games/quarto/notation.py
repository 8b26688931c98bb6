"""Position text and the human-readable board drawing, as plain strings: no :class:`Board` here.

Position text: the four rows separated by ``/``, each cell a hex digit (a piece) or ``.``; a space and
the piece in hand (hex digit, or ``-`` when a choice is due); optionally `` advanced``.
The start position is ``"..../..../..../.... -"``.

These functions work on the raw state (16 cells, the piece in hand, the rules); the board builds on them
(:meth:`Board.text <gpquarto.games.quarto.board.BoardQueries.text>`, :meth:`Board.from_text
<gpquarto.games.quarto.board.Board.from_text>`, ``str(board)``), so imports run one way: board -> notation.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpquarto.games.quarto.lines import Rules, square_name
from gpquarto.games.quarto.pieces import NO_PIECE, piece_code

START_TEXT = "..../..../..../.... -"
_HEX = "0123456789abcdefABCDEF"


def format_position(cells: Sequence[int], in_hand: int, rules: Rules) -> str:
    """The position text of 16 cells (a piece or ``NO_PIECE``), the piece in hand and the rules."""
    rows = [
        "".join("." if cells[4 * r + c] == NO_PIECE else f"{cells[4 * r + c]:X}" for c in range(4)) for r in range(4)
    ]
    hand = "-" if in_hand == NO_PIECE else f"{in_hand:X}"
    suffix = " advanced" if rules is Rules.ADVANCED else ""
    return "/".join(rows) + " " + hand + suffix


#: The longest position text read (a position's own text is 21 to 30 characters).
MAX_POSITION_TEXT = 1000


def parse_position(text: str) -> tuple[list[int], int, Rules]:
    """The cells, the piece in hand and the rules that position text spells; ``ValueError`` names what is
    wrong and where. Only the spelling is checked here: :func:`gpquarto.games.quarto.board.position_from_cells`
    checks that the position can arise."""
    if not isinstance(text, str):
        raise ValueError(f"position text must be a string, got {type(text).__name__}")
    if len(text) > MAX_POSITION_TEXT:  # and so every message below quotes a bounded text
        raise ValueError(f"position text is at most {MAX_POSITION_TEXT:,} characters, got {len(text):,}")
    fields = text.split()
    if len(fields) not in (2, 3):
        raise ValueError(f"position text needs 'ROWS HAND [advanced]', got {len(fields)} field(s): {text!r}")
    rules = Rules.CLASSIC
    if len(fields) == 3:
        if fields[2].lower() not in ("advanced", "classic"):
            raise ValueError(f"third field must be 'advanced' or 'classic', got {fields[2]!r}")
        rules = Rules(fields[2].lower())
    rows = fields[0].split("/")
    if len(rows) != 4:
        raise ValueError(f"board needs 4 rows separated by '/', got {len(rows)} in {fields[0]!r}")
    cells: list[int] = []
    for row_index, row in enumerate(rows):
        if len(row) != 4:
            raise ValueError(f"row {row_index + 1} must have 4 cells, got {len(row)}: {row!r}")
        for col_index, char in enumerate(row):
            if char == ".":
                cells.append(NO_PIECE)
            elif char in _HEX:
                cells.append(int(char, 16))
            else:
                where = square_name(4 * row_index + col_index)
                raise ValueError(
                    f"cell {where} (row {row_index + 1}, column {col_index + 1}) must be a hex digit or '.', got {char!r}"
                )
    hand = fields[1]
    if hand == "-":
        in_hand = NO_PIECE
    elif len(hand) == 1 and hand in _HEX:
        in_hand = int(hand, 16)
    else:
        raise ValueError(f"piece in hand must be a hex digit or '-', got {hand!r}")
    return cells, in_hand, rules


def render(cells: Sequence[int], status: str) -> str:
    """A drawing of 16 cells with coordinates (columns a-d, rows 1-4) and four-letter piece codes, and a
    last line ``status`` (whose turn it is, or how the game ended)."""
    lines = ["   " + " ".join(f"{name:^6}" for name in "abcd")]
    for row in range(4):
        codes = []
        for col in range(4):
            piece = cells[4 * row + col]
            codes.append("  ..  " if piece == NO_PIECE else f"{piece:X}:{piece_code(piece)}")
        lines.append(f"{row + 1}  " + " ".join(codes).rstrip())
    lines.append(status)
    return "\n".join(lines)
