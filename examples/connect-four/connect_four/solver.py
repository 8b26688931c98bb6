"""Connect Four's exact solver for positions with few enough empty cells (the capability
:class:`~gpquarto.games.capabilities.ExactSolver`).

A negamax with alpha-beta on the bitboards, whose values count how soon the game ends: a side that wins with
its ``k``-th disc on the board is worth ``cells + 1 - k`` to it (a quicker win more), the loser the negative, a
draw 0. So every action's exact value gives the best actions (the quickest win or the slowest loss) and the
distance to the end. What keeps it small enough for pure Python:

* a win on the next move is found without a search, and so is a loss (two cells where the opponent wins next,
  or only moves that put a disc under one);
* a move under a cell where the opponent would win is never tried (it loses at once), and a forced block is the
  only move tried;
* the window is narrowed by the best and worst value still reachable, and by a transposition table of bounds
  (keyed by the side to move's discs and the occupied cells);
* moves are tried by how many new cells of four they make, then from the centre outwards.

A position with more than :data:`MAX_EMPTY` empty cells is refused (:meth:`ConnectFourSolver.why_not`); a solve
gives up with a one-line ``ValueError`` past :data:`MAX_NODES` positions.
"""

from __future__ import annotations

import time

from connect_four.bitboard import Geometry, completing_cells, has_four
from connect_four.game import MARKS, ConnectFourState
from gpquarto.games.capabilities import ExactSolver, Progress, Solution

#: The most empty cells a position may have to be solved: 7x6 positions of this size from sensible play (take a
#: win, block one, never drop under the opponent's winning cell) take seconds, the slowest a quarter of a minute
#: (``measure.py solver``); with four more empty cells, minutes.
MAX_EMPTY = 28
#: The most positions one solve visits before it gives up.
MAX_NODES = 20_000_000
#: The transposition table is emptied when it holds this many positions (a few hundred MB).
TABLE_LIMIT = 1_500_000
_CHECK_EVERY = 1 << 14


class TooLarge(ValueError):
    """A solve that met more positions than its budget (one line)."""


class Search:
    """The negamax of one board size, with its transposition table (kept from solve to solve)."""

    def __init__(self, shape: Geometry, max_nodes: int = MAX_NODES) -> None:
        self.shape = shape
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[int, tuple[int, int]] = {}
        self.top_value = shape.cells + 1
        # shifts and masks read in the inner loop
        self._columns = tuple(shape.column_masks[column] for column in shape.centre_first)

    def values(self, own: int, other: int) -> dict[int, int]:
        """The value of every legal column for the side to move (``own`` its discs, ``other`` the opponent's):
        exact for the best columns, an upper bound below the best value for the others."""
        shape = self.shape
        self.nodes = 0
        occupied = own | other
        count = occupied.bit_count()
        playable = (occupied + shape.bottom) & shape.board
        found: dict[int, int] = {}
        best = -self.top_value - 1
        for column in shape.centre_first:
            cell = playable & shape.column_masks[column]
            if not cell:
                continue
            if has_four(own | cell, shape.height):
                value = self.top_value - count - 1
            elif count + 1 == shape.cells:
                value = 0
            else:  # exact when above best - 1: enough to know every action that keeps the best value
                value = -self._negamax(other, own | cell, count + 1, -self.top_value - 1, -(best - 1))
            found[column] = value
            best = max(best, value)
        return found

    def _negamax(self, own: int, other: int, count: int, alpha: int, beta: int) -> int:
        """The value for the side to move (``own``), exact inside (alpha, beta), else a bound on the side that
        failed; the position is not over."""
        self.nodes += 1
        if not self.nodes % _CHECK_EVERY and self.nodes > self.max_nodes:
            raise TooLarge(f"more than {self.max_nodes:,} positions: too large to solve exactly")
        shape = self.shape
        height, board = shape.height, shape.board
        occupied = own | other
        playable = (occupied + shape.bottom) & board
        if completing_cells(own, height, board) & playable:
            return self.top_value - count - 1
        empty = board & ~occupied
        threats = completing_cells(other, height, board) & empty
        forced = threats & playable
        if forced:
            if forced & (forced - 1):
                return -(self.top_value - count - 2)
            playable = forced
        moves = playable & ~(threats >> 1)
        if not moves:
            return -(self.top_value - count - 2)
        if count + 2 >= shape.cells:
            return 0
        lowest = -(self.top_value - count - 4)  # the opponent cannot win on its next move any more
        highest = self.top_value - count - 3  # nor can the side to move
        if lowest >= beta:
            return lowest
        if highest <= alpha:
            return highest
        alpha, beta = max(alpha, lowest), min(beta, highest)
        key = own + occupied + shape.bottom
        bounds = self.table.get(key)
        if bounds is not None:
            low, high = bounds
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        start_alpha, start_beta = alpha, beta
        ordered = []
        for column_mask in self._columns:
            cell = moves & column_mask
            if cell:
                made = completing_cells(own | cell, height, board) & empty & ~cell
                ordered.append((-made.bit_count(), len(ordered), cell))
        ordered.sort()
        best = -self.top_value - 1
        for _, _, cell in ordered:
            value = -self._negamax(other, own | cell, count + 1, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        low, high = bounds if bounds is not None else (-self.top_value - 1, self.top_value + 1)
        if best <= start_alpha:
            high = min(high, best)
        elif best >= start_beta:
            low = max(low, best)
        else:
            low = high = best
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (low, high)
        return best


class ConnectFourSolver(ExactSolver):
    """Connect Four's exact solver as its plug-in offers it (positions with at most :data:`MAX_EMPTY` empty
    cells)."""

    size_word = "empty cells"

    def __init__(self, max_empty: int = MAX_EMPTY, max_nodes: int = MAX_NODES) -> None:
        self.max_empty, self.max_nodes = max_empty, max_nodes
        self._searches: dict[Geometry, Search] = {}

    def size(self, state: ConnectFourState) -> int:
        first, second = state.discs
        return state.shape.cells - (first | second).bit_count()

    def why_not(self, state: ConnectFourState) -> str | None:
        empty = self.size(state)
        if empty > self.max_empty:
            return (
                f"the solver handles positions with at most {self.max_empty} empty cells, this one has {empty} "
                f"(a {state.rows}x{state.columns} board: play some moves first, or choose a smaller board)"
            )
        return None

    def action_values(self, state: ConnectFourState) -> dict[int, int]:
        """The value of every legal column of ``state`` (not over) for its side to move, as the search counts it
        (``cells + 1 - k`` for a win with the ``k``-th disc, negative for a loss, 0 for a draw): exact for the best
        columns, an upper bound below the best value for the others."""
        reason = self.why_not(state)
        if reason:
            raise ValueError(reason)
        if state.is_over():
            raise ValueError("the game is over: nothing to solve")
        search = self._searches.get(state.shape)
        if search is None:
            search = self._searches[state.shape] = Search(state.shape, self.max_nodes)
        discs = state.discs
        return search.values(discs[state.player], discs[1 - state.player])

    def solve(self, state: ConnectFourState, progress: Progress | None = None) -> Solution:
        started = time.perf_counter()
        values = self.action_values(state)
        search = self._searches[state.shape]
        best = max(values.values())
        count = state.shape.cells - self.size(state)
        return Solution(
            value=(best > 0) - (best < 0),
            best_actions=tuple(sorted(column for column, value in values.items() if value == best)),
            distance=search.top_value - abs(best) - count if best else None,
            cost=f"nodes: {search.nodes:,} ({time.perf_counter() - started:.2f} s)",
        )

    def describe_mover(self, state: ConnectFourState) -> str:
        return f"{MARKS[state.player]} (player {state.player}, to move)"


SOLVER = ConnectFourSolver()
