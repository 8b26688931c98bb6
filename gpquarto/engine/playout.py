"""Fast random playouts, for MCTS rollouts, fitness baselines and benchmarks.

A game between two uniformly random players is the same, in distribution, as placing a uniformly random
order of the remaining pieces on a uniformly random order of the empty squares and stopping at the first
winning line. Both functions here use that fact:

* :func:`random_playout` plays one game from a position in a tight pure-Python loop on the board's
  internals (``random()``-index-and-pop draws, incremental win checks on the lines through the square).
* :func:`random_playouts` plays many games at once with NumPy: it draws all the orders, fills the board,
  and finds for each game the first placement that completes a winning line.

Results are the winning seat (0 or 1) or -1 for a draw.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable

import numpy as np

from gpquarto.engine.board import Board
from gpquarto.engine.lines import ALL_SQUARES_MASK
from gpquarto.engine.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE

DRAW = -1


def random_playout(board: Board, random: Callable[[], float] = _random.random) -> int:
    """Play ``board`` out between two random players without changing it; return winner seat or -1.

    ``random`` is a function returning floats in [0, 1), e.g. ``random.Random(seed).random``.
    """
    if board._winner != NO_PIECE:
        return board._winner
    if board._placed == 16:
        return DRAW
    cells = board._cells[:]
    occupied = board._occupied
    pieces = list(MEMBERS[board._available])
    squares = list(MEMBERS[occupied ^ ALL_SQUARES_MASK])
    lines_through = board._lines_through
    characteristics = CHARACTERISTICS
    player = board._player
    piece = board._in_hand
    if piece == NO_PIECE:
        piece = pieces.pop(int(random() * len(pieces)))
        player ^= 1
    while True:
        square = squares.pop(int(random() * len(squares)))
        cells[square] = piece
        occupied |= 1 << square
        own = characteristics[piece]
        for mask, (a, b, c) in lines_through[square]:
            if (
                occupied & mask == mask
                and own & characteristics[cells[a]] & characteristics[cells[b]] & characteristics[cells[c]]
            ):
                return player
        if not pieces:
            return DRAW
        piece = pieces.pop(int(random() * len(pieces)))
        player ^= 1


_CHARACTERISTICS_ARRAY = np.array(CHARACTERISTICS + (0xFF,), dtype=np.uint8)  # index 16: an empty cell


def random_playouts(board: Board, games: int, rng: np.random.Generator) -> np.ndarray:
    """Play ``games`` random games from ``board`` at once; return an int8 array of winner seats (-1 draw)."""
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if board._winner != NO_PIECE or board._placed == 16:
        return np.full(games, board._winner if board._winner != NO_PIECE else DRAW, dtype=np.int8)
    empty = np.array(MEMBERS[board._occupied ^ ALL_SQUARES_MASK], dtype=np.intp)
    available = np.array(MEMBERS[board._available], dtype=np.int16)
    square_order = empty[np.argsort(rng.random((games, len(empty))), axis=1)]
    piece_order = available[np.argsort(rng.random((games, len(available))), axis=1)]
    return playout_outcomes(board, square_order, piece_order)


def playout_outcomes(board: Board, square_order: np.ndarray, piece_order: np.ndarray) -> np.ndarray:
    """Outcomes of games that give the available pieces in ``piece_order`` (after the piece in hand, if
    any) and place them on the empty squares in ``square_order`` (one row per game)."""
    games, placements = square_order.shape
    if board._in_hand != NO_PIECE:
        first_placer = board._player
        hand = np.full((games, 1), board._in_hand, dtype=np.int16)
        piece_order = np.concatenate([hand, piece_order], axis=1)
    else:
        first_placer = board._player ^ 1
    rows = np.arange(games)[:, None]
    cells = np.tile(np.array([16 if c == NO_PIECE else c for c in board._cells], dtype=np.int16), (games, 1))
    cells[rows, square_order] = piece_order
    when = np.full((games, 16), -1, dtype=np.int16)
    when[rows, square_order] = np.arange(placements, dtype=np.int16)
    lines = np.array(board.rules.lines, dtype=np.intp)
    shared = np.bitwise_and.reduce(_CHARACTERISTICS_ARRAY[cells[:, lines]], axis=2)  # games x lines
    completed_at = when[:, lines].max(axis=2)
    never = np.int16(placements)
    win_time = np.where(shared != 0, completed_at, never).min(axis=1)
    return np.where(win_time == never, DRAW, (first_placer + win_time) % 2).astype(np.int8)
