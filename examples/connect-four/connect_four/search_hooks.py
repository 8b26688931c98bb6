"""What makes gpquarto's generic alpha-beta (and the players built on it) play Connect Four well: an evaluation and
a move ordering (the capability :class:`~gpquarto.games.capabilities.SearchHooks`).

Both read the bitboards (:mod:`connect_four.bitboard`), a few dozen int operations each:

* **evaluation**, for the side to move: a win on the next move is nearly won; two cells where the opponent wins
  next, nearly lost; otherwise the empty cells that would complete a line of four (*threats*) of each side, a
  threat on a row of the right parity for its owner counting a bit more (X profits from threats on odd rows
  counted from the bottom, O from even ones), the lines of four holding two discs of one side and none of the
  other, and the discs weighted by how many lines of four pass through their cells (the centre is worth most).
* **ordering**: a move that wins now, then one that blocks the opponent's win, then the others from the centre
  outwards, and last the moves that let the opponent win on the cell above.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from connect_four.bitboard import Geometry, completing_cells
from connect_four.game import ConnectFourState
from gpquarto.games.capabilities import SearchHooks

#: Weights of the evaluation (its value is clipped into [-0.95, 0.95]).
THREAT, PARITY_THREAT, TWO, PLACE = 0.08, 0.04, 0.03, 0.004
WIN_NEXT, LOSS_NEXT = 0.9, -0.9


@cache
def _tables(shape: Geometry) -> tuple[tuple[tuple[int, int], ...], tuple[int, int], dict[int, int]]:
    """The cells grouped by how many windows of four pass through them (weight, mask); the rows of each seat's
    good parity (seat 0: rows 1, 3, 5... from the bottom, seat 1: rows 2, 4...); each column's rank from the
    centre."""
    by_count: dict[int, int] = {}
    for column in range(shape.columns):
        for row in range(shape.rows):
            bit = 1 << shape.bit(row, column)
            through = sum(1 for window in shape.windows if window & bit)
            by_count[through] = by_count.get(through, 0) | bit
    odd_rows = sum(1 << shape.bit(row, column) for column in range(shape.columns) for row in range(0, shape.rows, 2))
    return (
        tuple(sorted(by_count.items())),
        (odd_rows, shape.board & ~odd_rows),
        {column: rank for rank, column in enumerate(shape.centre_first)},
    )


class ConnectFourHooks(SearchHooks):
    """The evaluation and move ordering of :mod:`connect_four.search_hooks` (random rollouts stay MCTS's)."""

    mcts_evaluates = False

    def evaluate(self, state: ConnectFourState) -> float:
        shape, mover = state.shape, state.player
        discs = state.discs
        own, other = discs[mover], discs[1 - mover]
        occupied = own | other
        playable = (occupied + shape.bottom) & shape.board
        empty = shape.board & ~occupied
        own_threats = completing_cells(own, shape.height, shape.board) & empty
        if own_threats & playable:
            return WIN_NEXT
        other_threats = completing_cells(other, shape.height, shape.board) & empty
        forced = other_threats & playable
        if forced & (forced - 1):
            return LOSS_NEXT
        places, parity, _ = _tables(shape)
        score = THREAT * (own_threats.bit_count() - other_threats.bit_count())
        score += PARITY_THREAT * (
            (own_threats & parity[mover]).bit_count() - (other_threats & parity[1 - mover]).bit_count()
        )
        for weight, mask in places:
            score += PLACE * weight * ((own & mask).bit_count() - (other & mask).bit_count())
        twos = 0
        for window in shape.windows:
            mine, theirs = own & window, other & window
            if mine and not theirs:
                twos += mine.bit_count() == 2
            elif theirs and not mine:
                twos -= theirs.bit_count() == 2
        score += TWO * twos
        return max(-0.95, min(0.95, score))

    def order(self, state: ConnectFourState, actions: Sequence[int]) -> Sequence[int]:
        shape, mover = state.shape, state.player
        discs = state.discs
        own, other = discs[mover], discs[1 - mover]
        occupied = own | other
        playable = (occupied + shape.bottom) & shape.board
        empty = shape.board & ~occupied
        wins = completing_cells(own, shape.height, shape.board) & playable
        other_threats = completing_cells(other, shape.height, shape.board) & empty
        blocks = other_threats & playable
        gifts = (other_threats >> 1) & playable
        rank = _tables(shape)[2]
        columns = shape.column_masks

        def priority(column: int) -> tuple[int, int]:
            cell = playable & columns[column]
            group = 0 if cell & wins else 1 if cell & blocks else 3 if cell & gifts else 2
            return group, rank[column]

        return sorted(actions, key=priority)


HOOKS = ConnectFourHooks()
