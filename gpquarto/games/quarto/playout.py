"""Fast random playouts, for MCTS rollouts, fitness baselines and benchmarks.

A game between two uniformly random players is the same, in distribution, as placing a uniformly random
order of the remaining pieces on a uniformly random order of the empty squares and stopping at the first
winning line. Both functions here use that fact:

* :func:`random_playout` plays one game from a position in a tight pure-Python loop on the board's
  internals (every draw a digit of one random integer, win checks only on full lines through the square).
* :func:`random_playouts` plays many games at once with NumPy: it draws all the orders, fills the board,
  and finds for each game the first placement that completes a winning line.

Results are the winning seat (0 or 1) or -1 for a draw.
"""

from __future__ import annotations

import random as _random
from functools import cache
from typing import TYPE_CHECKING

from gpquarto.games.quarto.board import Board, full_line_wins
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, LINE_MASKS_THROUGH
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE

if TYPE_CHECKING:  # NumPy is imported when a batched playout runs: MCTS and the CLI start faster without it
    import numpy as np

#: What a playout returns when nobody wins (otherwise the winning player, 0 or 1).
NO_WINNER = -1
_DEFAULT_RNG = _random.Random()


#: Bits of the one random integer a playout draws. Its mixed-radix digits are the draws: at most
#: 16! * 16! < 2**89 outcomes, so each game's distribution is within 2**-100 of uniform (closer than
#: scaling a 53-bit float would be).
PLAYOUT_RANDOM_BITS = 192


def random_playout(board: Board, rng: _random.Random = _DEFAULT_RNG) -> int:
    """Play ``board`` out between two random players without changing it; return winner seat or -1.

    ``rng`` supplies one :data:`PLAYOUT_RANDOM_BITS`-bit integer per game, whose mixed-radix digits are
    the draws: the next piece is ``pieces.pop(r % len(pieces))``, then ``r //= len(pieces)``, and the
    same for squares. The number of pieces left to give equals the number of empty squares left after
    the placement, so one counter serves both.
    """
    if board.winner_index != NO_PIECE:
        return board.winner_index
    if board.placed_count == 16:
        return NO_WINNER
    cells = list(board.raw_cells)
    empty = board.occupied_mask ^ ALL_SQUARES_MASK
    squares = list(MEMBERS[empty])
    pieces = list(MEMBERS[board.available_mask])
    line_masks = LINE_MASKS_THROUGH[board.rules]
    player = board.player
    piece = board.in_hand
    r = rng.getrandbits(PLAYOUT_RANDOM_BITS)
    left = len(squares)
    if piece == NO_PIECE:
        piece = pieces.pop(r % left)
        r //= left
        player ^= 1
    while True:
        square = squares.pop(r % left)
        r //= left
        cells[square] = piece
        empty ^= 1 << square
        for mask in line_masks[square]:
            if not empty & mask and full_line_wins(cells, mask):
                return player
        left -= 1
        if not left:
            return NO_WINNER
        piece = pieces.pop(r % left)
        r //= left
        player ^= 1


@cache
def _characteristics_array() -> np.ndarray:
    """Characteristics by piece, and 0xFF (neutral for AND) at index 16, which stands for an empty cell."""
    import numpy as np

    return np.array(CHARACTERISTICS + (0xFF,), dtype=np.uint8)


def random_playouts(board: Board, games: int, rng: np.random.Generator) -> np.ndarray:
    """Play ``games`` random games from ``board`` at once; return an int8 array of winner seats (-1 draw)."""
    import numpy as np

    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if board.winner_index != NO_PIECE or board.placed_count == 16:
        return np.full(games, board.winner_index if board.winner_index != NO_PIECE else NO_WINNER, dtype=np.int8)
    empty = np.array(MEMBERS[board.occupied_mask ^ ALL_SQUARES_MASK], dtype=np.intp)
    available = np.array(MEMBERS[board.available_mask], dtype=np.int16)
    square_order = empty[np.argsort(rng.random((games, len(empty))), axis=1)]
    piece_order = available[np.argsort(rng.random((games, len(available))), axis=1)]
    return playout_outcomes(board, square_order, piece_order)


def playout_outcomes(board: Board, square_order: np.ndarray, piece_order: np.ndarray) -> np.ndarray:
    """Outcomes of games that give the available pieces in ``piece_order`` (after the piece in hand, if
    any) and place them on the empty squares in ``square_order`` (one row per game)."""
    import numpy as np

    games, placements = square_order.shape
    if board.in_hand != NO_PIECE:
        first_placer = board.player
        hand = np.full((games, 1), board.in_hand, dtype=np.int16)
        piece_order = np.concatenate([hand, piece_order], axis=1)
    else:
        first_placer = board.player ^ 1
    rows = np.arange(games)[:, None]
    cells = np.tile(np.array([16 if c == NO_PIECE else c for c in board.raw_cells], dtype=np.int16), (games, 1))
    cells[rows, square_order] = piece_order
    when = np.full((games, 16), -1, dtype=np.int16)
    when[rows, square_order] = np.arange(placements, dtype=np.int16)
    lines = np.array(board.rules.lines, dtype=np.intp)
    shared = np.bitwise_and.reduce(_characteristics_array()[cells[:, lines]], axis=2)  # games x lines
    completed_at = when[:, lines].max(axis=2)
    never = np.int16(placements)
    win_time = np.where(shared != 0, completed_at, never).min(axis=1)
    return np.where(win_time == never, NO_WINNER, (first_placer + win_time) % 2).astype(np.int8)
