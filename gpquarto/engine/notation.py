"""Position text and the human-readable board drawing.

Position text: the four rows separated by ``/``, each cell a hex digit (a piece) or ``.``; a space and
the piece in hand (hex digit, or ``-`` when a choice is due); optionally `` advanced``.
The start position is ``"..../..../..../.... -"``.
"""

from __future__ import annotations

from collections.abc import Sequence

from gpquarto.engine.board import Board
from gpquarto.engine.lines import SQUARE_COUNT, Rules, square_name
from gpquarto.engine.pieces import ALL_PIECES_MASK, NO_PIECE, check_piece, piece_code

START_TEXT = "..../..../..../.... -"
_HEX = "0123456789abcdefABCDEF"


def format_position(board: Board) -> str:
    """The position text of ``board``."""
    cells = board.raw_cells
    rows = [
        "".join("." if cells[4 * r + c] == NO_PIECE else f"{cells[4 * r + c]:X}" for c in range(4)) for r in range(4)
    ]
    hand = "-" if board.in_hand == NO_PIECE else f"{board.in_hand:X}"
    suffix = " advanced" if board.rules is Rules.ADVANCED else ""
    return "/".join(rows) + " " + hand + suffix


def parse_position(text: str) -> Board:
    """Parse position text into a :class:`Board`; ``ValueError`` names what is wrong and where."""
    if not isinstance(text, str):
        raise ValueError(f"position text must be a string, got {type(text).__name__}")
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
    return position_from_cells(cells, in_hand, rules)


def position_from_cells(cells: Sequence[int], in_hand: int, rules: Rules) -> Board:
    """Build and validate a position from 16 cells (piece or -1) and the piece in hand; ``cells`` is copied."""
    if len(cells) != SQUARE_COUNT:
        raise ValueError(f"a board has 16 cells, got {len(cells)}")
    cells = list(cells)  # normalised below: ints, -1 for empty
    used = 0
    for square, piece in enumerate(cells):
        if piece == NO_PIECE:
            cells[square] = NO_PIECE
            continue
        try:
            piece = cells[square] = check_piece(piece)
        except ValueError:
            raise ValueError(f"cell {square_name(square)} holds {piece!r}, not a piece 0..15") from None
        if used & (1 << piece):
            raise ValueError(f"piece {piece:X} appears twice on the board (again at {square_name(square)})")
        used |= 1 << piece
    if in_hand == NO_PIECE:
        in_hand = NO_PIECE  # normalised, like empty cells: -1.0 is -1
    else:
        try:
            in_hand = check_piece(in_hand)
        except ValueError:
            raise ValueError(f"piece in hand must be 0..15 or -1, got {in_hand!r}") from None
        if used & (1 << in_hand):
            raise ValueError(f"piece in hand {in_hand:X} is already on the board")
    board = Board(rules)
    placed = sum(1 for piece in cells if piece != NO_PIECE)
    if placed == SQUARE_COUNT and in_hand != NO_PIECE:
        raise ValueError("the board is full, so no piece can be in hand")
    board.raw_cells = list(cells)
    board.occupied_mask = sum(1 << s for s, piece in enumerate(cells) if piece != NO_PIECE)
    board.available_mask = ALL_PIECES_MASK ^ used ^ (0 if in_hand == NO_PIECE else 1 << in_hand)
    board.in_hand = in_hand
    board.placed_count = placed
    # The placer of the k-th piece (k = 0, 1, ...) is player (k + 1) % 2, and chooses right after.
    board.player = placed % 2 if in_hand == NO_PIECE else (placed + 1) % 2
    wins = board.winning_lines()
    if wins:
        if in_hand != NO_PIECE:
            raise ValueError("the position has a winning line, so the game is over and no piece can be in hand")
        common = set(wins[0]).intersection(*wins[1:])
        if not common:
            raise ValueError("the position has winning lines that no single last placement could have made")
        board.winner_index = placed % 2
    return board


def render(board: Board) -> str:
    """A drawing of the board with coordinates (columns a-d, rows 1-4) and four-letter piece codes."""
    cells = board.raw_cells
    lines = ["   " + " ".join(f"{name:^6}" for name in "abcd")]
    for row in range(4):
        codes = []
        for col in range(4):
            piece = cells[4 * row + col]
            codes.append("  ..  " if piece == NO_PIECE else f"{piece:X}:{piece_code(piece)}")
        lines.append(f"{row + 1}  " + " ".join(codes).rstrip())
    if board.is_over():
        winner = board.winner
        lines.append("draw" if winner is None else f"player {winner} won")
    elif board.in_hand != NO_PIECE:
        lines.append(f"player {board.player} places {board.in_hand:X}:{piece_code(board.in_hand)}")
    else:
        lines.append(f"player {board.player} chooses a piece")
    return "\n".join(lines)
