"""Optional compiled random playouts of Quixo (``pip install "gpquarto[fast]"``, which brings numba): many games at
once, with the rules of :func:`gpquarto.games.quixo.playout.random_playout` (official or course rules, the
repetition draw counted since the last blank cube was taken, the ply limit).

:data:`AVAILABLE` says whether numba could be imported; without it :func:`random_playouts` falls back to the
pure-Python playout, game by game. The first call compiles (a few seconds; cached on disk afterwards). The draws
differ from the pure-Python playout's (a xorshift64* generator; a move is drawn among all the actions ever legal
and drawn again while its cube is the opponent's: uniform over the legal ones), so results agree in distribution,
not game by game.
"""

from __future__ import annotations

import random as _random
from typing import TYPE_CHECKING

from gpquarto.games.quixo.board import QuixoBoard, QuixoRules, QuixoView
from gpquarto.games.quixo.playout import random_playout, repetition_window
from gpquarto.games.quixo.tables import mask_has_line, tables

if TYPE_CHECKING:
    import numpy as np

try:
    import numba
    import numpy
except ImportError:  # pragma: no cover - depends on the installed extras
    AVAILABLE = False
else:
    AVAILABLE = True

if AVAILABLE:
    _has_line = numba.njit(cache=True)(mask_has_line)

    @numba.njit(cache=True)
    def _playouts(
        me0, other0, player0, plies_left0, repetitions, window0, n, course, actions, push, lines, masks, games, seed
    ):
        state = numpy.uint64(seed) * numpy.uint64(0x9E3779B97F4A7C15) | numpy.uint64(1)
        action_count = numpy.uint64(len(actions))
        row_starts, col_starts, main, anti = masks[0], masks[1], masks[2], masks[3]
        cells = n * n
        results = numpy.empty(games, dtype=numpy.int8)
        window = numpy.empty(len(window0) + plies_left0 + 1, dtype=numpy.int64)
        for game in range(games):
            me, other, player, plies_left = me0, other0, player0, plies_left0
            size = len(window0)
            window[:size] = window0
            result = -1
            while True:
                while True:  # uniform over the legal actions: draw among all, again while the cube is the opponent's
                    state ^= state >> numpy.uint64(12)
                    state ^= state << numpy.uint64(25)
                    state ^= state >> numpy.uint64(27)
                    draw = (state * numpy.uint64(0x2545F4914F6CDD1D)) >> numpy.uint64(32)
                    action = actions[(draw * action_count) >> numpy.uint64(32)]
                    if not (other >> (action >> 2)) & 1:
                        break
                keep, moved, left, right, dest, taken = push[action]
                blank = (me & taken) == 0
                me = (me & keep) | (((me & moved) << left) >> right) | dest
                other = (other & keep) | (((other & moved) << left) >> right)
                if course:
                    x, o = (me, other) if player == 0 else (other, me)
                    owner = -1
                    for line in lines:
                        if (x & line) == line:
                            owner = 0
                            break
                        if (o & line) == line:
                            owner = 1
                            break
                    if owner >= 0:
                        result = owner
                        break
                else:
                    if _has_line(other, n, row_starts, col_starts, main, anti):
                        result = player ^ 1
                        break
                    if _has_line(me, n, row_starts, col_starts, main, anti):
                        result = player
                        break
                player ^= 1
                me, other = other, me
                key = me | (other << cells) | (player << (2 * cells))
                if blank:
                    size = 0
                    window[0] = key
                    size = 1
                else:
                    seen = 1
                    for k in range(size):
                        if window[k] == key:
                            seen += 1
                    window[size] = key
                    size += 1
                    if seen >= repetitions:
                        break
                plies_left -= 1
                if plies_left == 0:
                    break
            results[game] = result
        return results

    def _arrays(n: int):
        table = tables(n)
        push = numpy.zeros((table.action_count, 6), dtype=numpy.int64)
        for action in table.actions:
            push[action] = table.push[action]  # type: ignore[assignment]  # a legal action's push: never None
        masks = numpy.array([table.row_starts, table.col_starts, table.main, table.anti], dtype=numpy.int64)
        return (
            numpy.array(table.actions, dtype=numpy.int64),
            push,
            numpy.array(table.lines, dtype=numpy.int64),
            masks,
        )

    _ARRAYS = {n: _arrays(n) for n in (3, 4, 5)}


def table_arrays(size: int) -> tuple:
    """The move tables of the ``size`` board as the compiled kernels take them: numpy arrays of the actions, their
    pushes, the lines and the line masks. Only where numba is installed (:data:`AVAILABLE`)."""
    return _ARRAYS[size]


def random_playouts(board: QuixoBoard | QuixoView, games: int, seed: int | None = None) -> np.ndarray:
    """Play ``games`` random games from ``board`` (unchanged); return an int8 array of the winning seats (-1 for a
    draw). Compiled with numba when it is installed, else the pure-Python playout game by game."""
    import numpy as np

    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if seed is None:
        seed = _random.randrange(2**31)
    if board.termination is not None:
        return np.full(games, board.winner_index, dtype=np.int8)
    if not AVAILABLE:
        rng = _random.Random(seed)
        return np.array([random_playout(board, rng) for _ in range(games)], dtype=np.int8)
    player = board.player
    me, other = (board.x_mask, board.o_mask) if player == 0 else (board.o_mask, board.x_mask)
    actions, push, lines, masks = _ARRAYS[board.size]
    return _playouts(
        me,
        other,
        player,
        board.ply_limit - len(board.history),
        board.repetitions,
        np.array(repetition_window(board), dtype=np.int64),
        board.size,
        board.rules is QuixoRules.COURSE,
        actions,
        push,
        lines,
        masks,
        games,
        seed,
    )
