"""Connect Four's GP binding: the generic binding (:func:`gpquarto.gp.generic.generic_binding`) with facts of its
own, read by the primitives of :mod:`connect_four.primitives`.

The facts are read from the bitboards (:mod:`connect_four.bitboard`), once per decision. Terms:

* a **threat** of a side is an empty cell that would complete four of its discs in a line;
* a cell is **playable** when it is the lowest empty cell of its column (a disc dropped there lands on it);
* a side's **good rows** are those of its parity, counted from the bottom: rows 1, 3, 5... for the first player
  (X, seat 0), rows 2, 4, 6... for the second (O). A threat on a good row is the one that wins a game filled up
  column by column (the classic odd/even rule of Connect Four);
* a column is **guarded** when the cell above its playable cell is a threat of the opponent: a disc dropped there
  lets the opponent win on top of it. Columns are tried **centre first** (``Geometry.centre_first``), which breaks
  every tie.
"""

from __future__ import annotations

from functools import cache

from connect_four.bitboard import Geometry, completing_cells
from connect_four.game import CONNECT_FOUR
from gpquarto.gp.facts import cached_fact
from gpquarto.gp.generic import GenericFeatures, generic_binding
from gpquarto.gp.types import NO_ACTION

#: The value of a position (for the side to move) that it wins with its next disc, and one it loses.
WON, LOST = 10_000, -10_000
#: Weights of :func:`static_value`: a threat; a threat not right above one of the other side's (*useful*: it can
#: still be filled); a useful threat on a good row (on top); a column holding two threats one above the other; a
#: line of four holding two discs of one side and none of the other; a disc by the lines through its cell.
THREAT, USEFUL_THREAT, GOOD_THREAT, STACKED, TWO, PLACE = 2, 8, 16, 12, 3, 2


@cache
def tables(shape: Geometry) -> tuple[tuple[int, int], tuple[int, ...]]:
    """The good rows of seat 0 and of seat 1 (masks), and each cell's weight: how many lines of four pass through
    it (indexed by bit)."""
    odd = sum(1 << shape.bit(row, column) for column in range(shape.columns) for row in range(0, shape.rows, 2))
    weights = [0] * (shape.columns * shape.height)
    for window in shape.windows:
        for bit in range(len(weights)):
            if window >> bit & 1:
                weights[bit] += 1
    return (odd, shape.board & ~odd), tuple(weights)


def place_value(discs: int, weights: tuple[int, ...]) -> int:
    """The sum of the weights of the cells of ``discs``."""
    total = 0
    while discs:
        low = discs & -discs
        total += weights[low.bit_length() - 1]
        discs ^= low
    return total


def open_twos(own: int, other: int, shape: Geometry) -> int:
    """The lines of four holding two of ``own``'s discs and none of ``other``'s, less the same for ``other``."""
    total = 0
    for window in shape.windows:
        mine, theirs = own & window, other & window
        if mine and not theirs:
            total += mine.bit_count() == 2
        elif theirs and not mine:
            total -= theirs.bit_count() == 2
    return total


def static_value(own: int, other: int, shape: Geometry, good: tuple[int, int], places: int) -> int:
    """The value of the position for the side to move (``own`` its discs, ``good`` its good rows and the
    opponent's, ``places`` the place value of ``own`` less that of ``other``): :data:`WON` if it has a playable
    threat, :data:`LOST` if the opponent has two playable threats or one with another right above it; else, the
    side's less the opponent's, ``THREAT`` per threat, ``USEFUL_THREAT`` per useful threat (not right above a
    threat of the other side), ``GOOD_THREAT`` more per useful threat on a good row, ``STACKED`` for having two
    threats one above the other, ``TWO`` per open line of two discs (:func:`open_twos`), and the place value."""
    occupied = own | other
    empty = shape.board & ~occupied
    playable = (occupied + shape.bottom) & shape.board
    own_threats = completing_cells(own, shape.height, shape.board) & empty
    if own_threats & playable:
        return WON
    other_threats = completing_cells(other, shape.height, shape.board) & empty
    forced = other_threats & playable
    if forced & (forced - 1) or (forced << 1) & other_threats:
        return LOST
    own_useful = own_threats & ~(other_threats << 1)
    other_useful = other_threats & ~(own_threats << 1)
    return (
        THREAT * (own_threats.bit_count() - other_threats.bit_count())
        + USEFUL_THREAT * (own_useful.bit_count() - other_useful.bit_count())
        + GOOD_THREAT * ((own_useful & good[0]).bit_count() - (other_useful & good[1]).bit_count())
        + STACKED * (bool(own_threats & own_threats >> 1) - bool(other_threats & other_threats >> 1))
        + TWO * open_twos(own, other, shape)
        + PLACE * places
    )


class ConnectFourFeatures(GenericFeatures):
    """The generic facts, and Connect Four's threats, parity and columns (see the module docstring)."""

    @cached_fact
    def geometry(self) -> Geometry:
        """The board's size and bit layout."""
        return self.view.shape

    @cached_fact
    def own_discs(self) -> int:
        """The mover's discs (a bitboard)."""
        return self.view.discs[self.mover]

    @cached_fact
    def opponent_discs(self) -> int:
        """The opponent's discs (a bitboard)."""
        return self.view.discs[1 - self.mover]

    @cached_fact
    def empty(self) -> int:
        """The empty cells."""
        return self.geometry.board & ~(self.own_discs | self.opponent_discs)

    @cached_fact
    def column_cells(self) -> dict[int, int]:
        """For each legal column, centre first: the bit of the cell a disc dropped there lands on."""
        shape = self.geometry
        playable = ((self.own_discs | self.opponent_discs) + shape.bottom) & shape.board
        legal = self.legal_set
        return {column: playable & shape.column_masks[column] for column in shape.centre_first if column in legal}

    @cached_fact
    def own_threats(self) -> int:
        """The mover's threats (empty cells completing four of its discs)."""
        shape = self.geometry
        return completing_cells(self.own_discs, shape.height, shape.board) & self.empty

    @cached_fact
    def opponent_threats(self) -> int:
        """The opponent's threats."""
        shape = self.geometry
        return completing_cells(self.opponent_discs, shape.height, shape.board) & self.empty

    @cached_fact
    def good_rows(self) -> tuple[int, int]:
        """The mover's good rows and the opponent's (masks)."""
        rows = tables(self.geometry)[0]
        return rows[self.mover], rows[1 - self.mover]

    @cached_fact
    def win_columns(self) -> tuple[int, ...]:
        """The columns whose playable cell is a threat of the mover (a win now), centre first."""
        threats = self.own_threats
        return tuple(column for column, cell in self.column_cells.items() if cell & threats)

    @cached_fact
    def block_columns(self) -> tuple[int, ...]:
        """The columns whose playable cell is a threat of the opponent, centre first."""
        threats = self.opponent_threats
        return tuple(column for column, cell in self.column_cells.items() if cell & threats)

    @cached_fact
    def unguarded_columns(self) -> tuple[int, ...]:
        """The legal columns whose cell above the playable one is not a threat of the opponent, centre first."""
        threats = self.opponent_threats
        return tuple(column for column, cell in self.column_cells.items() if not (cell << 1) & threats)

    @cached_fact
    def new_threats(self) -> dict[int, tuple[int, int]]:
        """For each legal column: the threats of the mover a disc there adds (empty cells afterwards that were not
        threats before), and how many of them are on its good rows."""
        shape, own, empty, before, good = self.geometry, self.own_discs, self.empty, self.own_threats, self.good_rows[0]
        found = {}
        for column, cell in self.column_cells.items():
            added = completing_cells(own | cell, shape.height, shape.board) & empty & ~cell & ~before
            found[column] = (added.bit_count(), (added & good).bit_count())
        return found

    @cached_fact
    def double_threat_columns(self) -> tuple[int, ...]:
        """The columns, centre first, after which the opponent cannot win at once but the mover has two playable
        threats, or a playable threat with another threat right above it (one block cannot stop both)."""
        shape, own, other = self.geometry, self.own_discs, self.opponent_discs
        found = []
        for column, cell in self.column_cells.items():
            occupied = own | other | cell
            empty = shape.board & ~occupied
            playable = (occupied + shape.bottom) & shape.board
            if self.opponent_threats & playable:
                continue
            threats = completing_cells(own | cell, shape.height, shape.board) & empty
            wins = threats & playable
            if wins & (wins - 1) or (wins << 1) & threats:
                found.append(column)
        return tuple(found)

    @cached_fact
    def spoiled_lines(self) -> dict[int, int]:
        """For each legal column: the lines of four through its playable cell that hold discs of the opponent and
        none of the mover's (lines a disc there takes from the opponent)."""
        own, other, windows = self.own_discs, self.opponent_discs, self.geometry.windows
        return {
            column: sum(1 for window in windows if window & cell and window & other and not window & own)
            for column, cell in self.column_cells.items()
        }

    @cached_fact
    def lookahead_values(self) -> dict[int, int]:
        """For each legal column: its value for the mover by two plies of minimax, the opponent's best reply
        assumed, positions then valued by :func:`static_value` for the mover (:data:`WON` for a disc that wins,
        :data:`LOST` when a reply wins, 0 for a full board)."""
        shape, own, other = self.geometry, self.own_discs, self.opponent_discs
        good, weights = self.good_rows, tables(shape)[1]
        own_wins = completing_cells(own, shape.height, shape.board)
        other_wins = completing_cells(other, shape.height, shape.board)
        base = place_value(own, weights) - place_value(other, weights)
        found = {}
        for column, cell in self.column_cells.items():
            if cell & own_wins:
                found[column] = WON
                continue
            mine, occupied = own | cell, own | other | cell
            playable = (occupied + shape.bottom) & shape.board
            places = base + weights[cell.bit_length() - 1]
            worst = None
            while playable:
                reply = playable & -playable
                playable ^= reply
                if reply & other_wins:
                    worst = LOST
                    break
                value = static_value(mine, other | reply, shape, good, places - weights[reply.bit_length() - 1])
                worst = value if worst is None else min(worst, value)
            found[column] = 0 if worst is None else worst
        return found


def best_column(scores: dict[int, int], columns: tuple[int, ...] | list[int]) -> int:
    """The first of ``columns`` (centre first) with the highest score, or ``NO_ACTION``."""
    best, best_score = NO_ACTION, 0
    for column in columns:
        score = scores[column]
        if best == NO_ACTION or score > best_score:
            best, best_score = column, score
    return best


BINDING = generic_binding(CONNECT_FOUR, features=ConnectFourFeatures, family_package="connect_four.primitives")
