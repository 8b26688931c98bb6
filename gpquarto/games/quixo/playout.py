"""Fast random playouts of Quixo, for MCTS rollouts and benchmarks.

:func:`random_playout` plays one game between two uniformly random players from a position, in a tight
pure-Python loop on the bitmasks: the legal actions come from two table lookups on the opponent's border cubes,
a push is four mask operations, and the line test is a handful of shifts (every complete row at once, every
complete column at once, then the two diagonals). It follows every rule of the board: official or course rules,
the repetition draw (positions are compared only since the last blank cube was taken: the number of blank cubes
never grows, so no earlier position can come back) and the ply limit.

With numba installed (``pip install "gpquarto[fast]"``), :mod:`gpquarto.games.quixo.compiled` plays many games
at once in compiled code. Results are the winning seat (0 or 1) or -1 for a draw.
"""

from __future__ import annotations

import random as _random

from gpquarto.games.quixo.board import NO_WINNER, QuixoBoard, QuixoRules, QuixoView
from gpquarto.games.quixo.tables import tables

_DEFAULT_RNG = _random.Random()


def repetition_window(board: QuixoBoard | QuixoView) -> list[int]:
    """The keys ``mover | other << cells | player << 2*cells`` (``mover`` the side to move's cubes) of the
    positions since the last blank cube was taken, the current one last: the only ones that can come back."""
    n2 = board.size * board.size
    full = (1 << n2) - 1
    cubes = (board.x_mask | board.o_mask).bit_count()
    window = []
    for key in reversed(board.position_keys()):
        x, o, player = key & full, key >> n2 & full, key >> (2 * n2)
        if (x | o).bit_count() != cubes:
            break
        mover, other = (o, x) if player else (x, o)
        window.append(mover | other << n2 | player << (2 * n2))
    window.reverse()
    return window


def random_playout(board: QuixoBoard | QuixoView, rng: _random.Random = _DEFAULT_RNG) -> int:
    """Play ``board`` out between two uniformly random players without changing it; return the winning seat or
    -1 for a draw (a repetition or the ply limit).

    Each move is ``legal[int(rng.random() * len(legal))]`` with ``legal`` the position's legal actions in
    ascending order, so a board replaying the same draws meets the same game.
    """
    if board.termination is not None:
        return board.winner_index
    n = board.size
    table = tables(n)
    if board.rules is QuixoRules.COURSE:
        return _slow_playout(board, rng)
    push = table.push
    low, low_mask, high, high_mask = table.low_legal, table.low_mask, table.high_legal, table.high_mask
    s1, s2, s3 = table.row_shifts
    c1, c2, c3 = table.col_shifts
    row_starts, col_starts, main, anti = table.row_starts, table.col_starts, table.main, table.anti
    cells = table.cells
    random = rng.random
    player = board.player
    me, other = (board.x_mask, board.o_mask) if player == 0 else (board.o_mask, board.x_mask)
    seen = repetition_window(board)
    repetitions = board.repetitions
    plies_left = board.ply_limit - len(board.history)
    side = player << (2 * cells)
    flip = 1 << (2 * cells)
    while True:
        legal = low[other & low_mask] + high[other & high_mask]
        keep, moved, left, right, dest, taken = push[legal[int(random() * len(legal))]]  # type: ignore[misc]  # legal
        blank = not me & taken
        me = (me & keep) | ((me & moved) << left >> right) | dest
        shifted = other & moved
        if shifted:
            other = (other & keep) | (shifted << left >> right)
            m = other
            pairs = m & (m >> s1)
            if pairs & (pairs >> s2) & (m >> s3) & row_starts or m & main == main or m & anti == anti:
                return player ^ 1
            pairs = m & (m >> c1)
            if pairs & (pairs >> c2) & (m >> c3) & col_starts:
                return player ^ 1
        m = me
        pairs = m & (m >> s1)
        if pairs & (pairs >> s2) & (m >> s3) & row_starts or m & main == main or m & anti == anti:
            return player
        pairs = m & (m >> c1)
        if pairs & (pairs >> c2) & (m >> c3) & col_starts:
            return player
        player ^= 1
        side ^= flip
        me, other = other, me
        key = me | other << cells | side
        if blank:
            seen = [key]
        else:
            seen.append(key)
            if seen.count(key) >= repetitions:
                return NO_WINNER
        plies_left -= 1
        if not plies_left:
            return NO_WINNER


def _slow_playout(board: QuixoBoard | QuixoView, rng: _random.Random) -> int:
    """:func:`random_playout` on a copy of the board through its own ``apply`` (the course rules' scan order
    is not worth a second fast loop)."""
    state = board.copy()
    random = rng.random
    while state.termination is None:
        legal = state.legal_actions()
        state.apply(legal[int(random() * len(legal))])
    return state.winner_index
