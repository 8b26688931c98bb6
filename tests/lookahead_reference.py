"""The lookahead family's facts as they were computed before they were shared, compiled and planned per board
(``gpquarto/games/quarto/primitives/lookahead.py`` at commit 5766d4a), kept as the reference that the faster code must agree with: each
function takes a Board (left as it was) and returns the fact's value."""

from __future__ import annotations

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import SQUARE_COUNT
from gpquarto.games.quarto.pieces import MEMBERS, NO_PIECE
from gpquarto.games.quarto.search import tactics

#: ``gpquarto/games/quarto/primitives/lookahead.py``'s ``REPLY_LOOK_HORIZON``.
REPLY_LOOK_HORIZON = 10
_FEWEST_PLACED_FOR_A_TRAP = 3


def safe_left_after(board: Board) -> dict[int, int]:
    """For each safe, non-winning square of the piece in hand: how many safe pieces are left to give after it."""
    if board.in_hand == NO_PIECE:
        return {}
    board = board.copy()
    winning = tactics.winning_squares(board, board.in_hand)
    left = {}
    for square in MEMBERS[tactics.safe_placements_mask(board, board.in_hand)]:
        if square in winning:
            continue
        board.push_placement(square)
        left[square] = tactics.safe_pieces_mask(board).bit_count()
        board.undo()
    return left


def reply_squares(board: Board) -> dict[int, tuple[int, ...]]:
    """For each safe piece to give (a choice is due): the opponent's safe placements with it."""
    board = board.copy()
    squares = {}
    for piece in MEMBERS[tactics.safe_pieces_mask(board)]:
        board.push_choice(piece)
        squares[piece] = MEMBERS[tactics.safe_placements_mask(board, piece)]
        board.undo()
    return squares


def fewest_reply_placements(board: Board) -> dict[int, tuple[int, int]]:
    """The safe pieces with the fewest safe placements for the opponent, each with (that number, how many of those
    placements leave it an odd number of safe pieces; 0 beyond the horizon)."""
    placements = reply_squares(board)
    board = board.copy()
    fewest = min(map(len, placements.values()), default=0)
    look = SQUARE_COUNT - board.placed_count <= REPLY_LOOK_HORIZON
    replies = {}
    for piece, squares in placements.items():
        if len(squares) != fewest:
            continue
        if not look:
            replies[piece] = (fewest, 0)
            continue
        board.push_choice(piece)
        odd = 0
        for square in squares:
            board.push_placement(square)
            odd += tactics.safe_pieces_mask(board).bit_count() % 2
            board.undo()
        board.undo()
        replies[piece] = (fewest, odd)
    return replies


def square_reply_placements(board: Board) -> dict[int, tuple[int, int]]:
    """For each safe, non-winning square: the best :func:`fewest_reply_placements` value once the piece is there
    (empty when a choice is due or beyond the horizon)."""
    if SQUARE_COUNT - board.placed_count > REPLY_LOOK_HORIZON:
        return {}
    best = {}
    for square in safe_left_after(board):
        placed = board.copy()
        placed.push_placement(square)
        best[square] = min(fewest_reply_placements(placed).values())
    return best


def trap_square(board: Board) -> int:
    """The lowest safe, non-winning square of the piece in hand that sets a trap, or -1."""
    if board.in_hand == NO_PIECE or board.placed_count < _FEWEST_PLACED_FOR_A_TRAP:
        return -1
    board = board.copy()
    for square in sorted(safe_left_after(board)):
        board.push_placement(square)
        available = board.available_mask
        for piece in MEMBERS[tactics.safe_pieces_mask(board)]:
            if available == 1 << piece:
                continue
            board.push_choice(piece)
            trapped = not tactics.safe_placements_mask(board, piece)
            board.undo()
            if trapped:
                board.undo()
                return square
        board.undo()
    return -1
