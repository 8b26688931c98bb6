"""Short forced outcomes of Quixo moves: which moves win, or lose, by force within a few plies.

:func:`proven_outcomes` looks ``plies`` plies ahead of a position (the move itself counts as the first) and labels
every legal move by the plies of its fastest forced win (``+d``), its slowest forced loss (``-d``), or ``0`` when
neither is proven within the horizon. Three plies (my move, any reply, my move) see a win in one, a move that
leaves the opponent a win in one (the block it failed to make) and the trap: a move after which every reply loses.

A proof is exact for what it claims: a ``+d`` move wins whatever the opponent does, a ``-d`` move loses whatever
the mover does. A ``0`` move may still win or lose later, beyond the horizon; a draw by repetition or by the ply
limit within the horizon is a ``0`` too (neither a win nor a loss). The rules are the board's, along each line of
play: the repetition draw counts the positions of the game since the last blank cube was taken and those on the
path, and the ply limit ends the game drawn.

The search is a negamax with alpha-beta over the three values win, unknown and loss, the horizon counting as
unknown, on the bitmasks of :mod:`gpquarto.games.quixo.tables`; moves that end the game at once are looked at
before any is searched deeper.
"""

from __future__ import annotations

import functools

from gpquarto.games.quixo.board import QuixoBoard, QuixoRules
from gpquarto.games.quixo.playout import repetition_window
from gpquarto.games.quixo.tables import tables

WON, UNKNOWN, LOST = 1, 0, -1
#: What :func:`trap_screen` says of a position: a win at once, a trap (a forced win within three plies, none at
#: once), neither (the values of :mod:`gpquarto.games.quixo.search.trap_kernels`).
NOTHING, WIN_IN_ONE, TRAP = 0, 1, 2


class _Prover:
    """The three-valued search from one position (its rules, repetitions and ply limit)."""

    def __init__(self, board: QuixoBoard) -> None:
        self.table = tables(board.size)
        self.course = QuixoRules(board.rules) is QuixoRules.COURSE
        cells = self.table.cells
        self.path: dict[int, int] = {}
        for key in repetition_window(board):
            self.path[key] = self.path.get(key, 0) + 1
        self.repetitions = board.repetitions
        self.plies_left = board.ply_limit - len(board.history)
        self.flip = 1 << (2 * cells)
        self.side = board.player << (2 * cells)
        self.own, self.other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)

    def move(self, own: int, other: int, action: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value, for the mover, of ``action`` from (own, other) at ``ply`` with ``depth`` plies left
        (counting this one), within the window (alpha, beta)."""
        table = self.table
        own2, other2 = table.play(own, other, action)
        result = table.mover_result(own2, other2, self.course)
        if result or depth <= 1:
            return result
        if ply + 1 >= self.plies_left:
            return UNKNOWN  # the ply limit: a draw
        key = other2 | own2 << table.cells | (self.side ^ (self.flip if ply % 2 == 0 else 0))
        count = self.path.get(key, 0) + 1
        if count >= self.repetitions:
            return UNKNOWN  # a repetition: a draw
        self.path[key] = count
        try:
            return -self.node(other2, own2, depth - 1, -beta, -alpha, ply + 1)
        finally:
            self.path[key] = count - 1

    def node(self, own: int, other: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value, for the side to move (``own``), of the position with ``depth`` plies left (fail-hard)."""
        table, course = self.table, self.course
        deeper = []
        for action in table.legal(other):
            own2, other2 = table.play(own, other, action)
            result = table.mover_result(own2, other2, course)
            if result > 0:
                return WON
            if result == 0:
                deeper.append(action)
        if not deeper:
            return LOST  # every move completes the opponent's line
        if depth <= 1:
            return UNKNOWN
        best = LOST
        for action in deeper:
            value = self.move(own, other, action, depth, alpha, beta, ply)
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        return best


def proven_outcomes(board: QuixoBoard, plies: int) -> dict[int, int]:
    """For each legal action of ``board`` (not over), ``+d`` when it wins by force within ``plies`` plies (``d``
    the plies of the fastest forced win, the action included), ``-d`` when it loses by force (``d`` the plies of
    the slowest forced loss: the longest the mover can hold out), else ``0``: see the module docstring."""
    if board.is_over():
        raise ValueError("the game is over: there are no moves to prove")
    if plies < 1:
        raise ValueError(f"plies must be >= 1, got {plies}")
    prover = _Prover(board)
    outcomes: dict[int, int] = {}
    for action in board.legal_actions():
        outcome = 0
        for depth in range(1, plies + 1):
            value = prover.move(prover.own, prover.other, action, depth, LOST, WON, 0)
            if value != UNKNOWN:  # a proof within fewer plies holds within more: the first is the distance
                outcome = depth * value
                break
        outcomes[action] = outcome
    return outcomes


def trap_screen(board: QuixoBoard, compiled: bool | None = None) -> int:
    """What :func:`proven_outcomes` at three plies would show of ``board`` (not over), cheaply:
    :data:`WIN_IN_ONE` when a move wins at once, :data:`TRAP` when none does but some move wins by force within
    three plies, else :data:`NOTHING` (see :mod:`gpquarto.games.quixo.search.trap_kernels`). ``compiled`` None:
    numba when it is installed; False: the interpreter (the same answers)."""
    from gpquarto.games.quixo.search import trap_kernels

    if board.is_over():
        raise ValueError("the game is over: there are no moves to screen")
    own, other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)
    plies_left = board.ply_limit - len(board.history)
    course = QuixoRules(board.rules) is QuixoRules.COURSE
    if compiled is None:
        compiled = trap_kernels.COMPILED
    if compiled:
        import numpy

        actions, push, lines, masks = _compiled_tables(board.size)
        window = numpy.array(repetition_window(board), dtype=numpy.int64)
        return int(
            trap_kernels.screen(
                own,
                other,
                board.player,
                plies_left,
                board.repetitions,
                window,
                board.size,
                course,
                actions,
                push,
                lines,
                masks,
            )
        )
    table = tables(board.size)
    masks = (table.row_starts, table.col_starts, table.main, table.anti)
    return _pure_screen()(
        own,
        other,
        board.player,
        plies_left,
        board.repetitions,
        repetition_window(board),
        board.size,
        course,
        table.actions,
        table.push,
        table.lines,
        masks,
    )


@functools.cache
def _pure_screen():
    from gpquarto.games.quixo.search import trap_kernels

    return trap_kernels.pure()


def _compiled_tables(size: int):
    """The board's tables as numpy arrays, as :mod:`gpquarto.games.quixo.compiled` lays them out."""
    from gpquarto.games.quixo import compiled

    return compiled.table_arrays(size)
