"""Connect Four's own primitives (``connect_four.primitives``), each against a slow implementation written here on a
grid of cells (rows and columns, no bitboards), on seeded positions of several board sizes; and the binding as
gpquarto finds it through the plug-in."""

from __future__ import annotations

import functools
import os
import random

import pytest
from connect_four import gp
from connect_four.game import CONNECT_FOUR
from connect_four.primitives import threats as c4

from gpquarto.games.capabilities import GPBinding
from gpquarto.games.registry import get_plugin
from gpquarto.gp.types import NO_ACTION

SIZES = ((4, 4), (5, 6), (6, 7), (7, 5), (9, 9))
#: Positions per board size (``CONNECT_FOUR_TEST_SCALE=0.2``: a quick run).
PER_SIZE = max(3, round(12 * float(os.environ.get("CONNECT_FOUR_TEST_SCALE", "1"))))
EMPTY = -1


@functools.cache
def lines_of_four(rows: int, columns: int) -> list[list[tuple[int, int]]]:
    """Every line of four cells of the grid, as (row, column) cells."""
    found = []
    for row in range(rows):
        for column in range(columns):
            for d_row, d_column in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                line = [(row + k * d_row, column + k * d_column) for k in range(4)]
                if all(0 <= r < rows and 0 <= c < columns for r, c in line):
                    found.append(line)
    return found


class Grid:
    """A position as a list of rows of cells (0 X, 1 O, -1 empty; row 0 at the bottom), and its lines of four."""

    def __init__(self, state) -> None:
        self.rows, self.columns, self.mover = state.rows, state.columns, state.player
        self.cells = [[state.cell(row, column) for column in range(self.columns)] for row in range(self.rows)]

    def copy(self) -> Grid:
        other = Grid.__new__(Grid)
        other.rows, other.columns, other.mover = self.rows, self.columns, self.mover
        other.cells = [list(row) for row in self.cells]
        return other

    def lines(self) -> list[list[tuple[int, int]]]:
        return lines_of_four(self.rows, self.columns)

    def height(self, column: int) -> int:
        return sum(self.cells[row][column] != EMPTY for row in range(self.rows))

    def legal(self) -> list[int]:
        """The legal columns, centre first (nearest the middle, then the lower)."""
        middle = (self.columns - 1) / 2
        open_ = [column for column in range(self.columns) if self.height(column) < self.rows]
        return sorted(open_, key=lambda column: (abs(column - middle), column))

    def drop(self, column: int, side: int) -> tuple[int, int]:
        cell = (self.height(column), column)
        self.cells[cell[0]][cell[1]] = side
        return cell

    def threats(self, side: int) -> set[tuple[int, int]]:
        """Empty cells that would complete four of ``side``'s discs in a line."""
        found = set()
        for line in self.lines():
            values = [self.cells[r][c] for r, c in line]
            if values.count(side) == 3 and values.count(EMPTY) == 1:
                found.add(line[values.index(EMPTY)])
        return found

    def playable(self) -> set[tuple[int, int]]:
        return {(self.height(column), column) for column in range(self.columns) if self.height(column) < self.rows}

    def wins(self, side: int) -> bool:
        return any(all(self.cells[r][c] == side for r, c in line) for line in self.lines())

    def through(self, cell: tuple[int, int]) -> int:
        return sum(cell in line for line in self.lines())


def good(side: int, row: int) -> bool:
    """Row ``row`` (0 at the bottom) is of ``side``'s parity: rows 1, 3... from the bottom for X, 2, 4... for O."""
    return row % 2 == side


def positions() -> list:
    """Seeded positions of random play on every size, the game still on, some with threats about."""
    found = []
    for rows, columns in SIZES:
        rng = random.Random(rows * 10 + columns)
        for _ in range(PER_SIZE):
            state = CONNECT_FOUR.new_state(rows=rows, columns=columns)
            plies = rng.randrange(rows * columns)
            while len(state.history) < plies and not state.is_over():
                state.apply(rng.choice(state.legal_actions()))
            if state.is_over():
                state.undo()
            found.append(state)
    return found


POSITIONS = positions()


def first(columns) -> int:
    return columns[0] if columns else NO_ACTION


def best(scores: dict[int, int]) -> int:
    """The first column (in the dict's centre-first order) of the highest score, or NO_ACTION."""
    top = max(scores.values(), default=None)
    return next((column for column, score in scores.items() if score == top), NO_ACTION)


def slow_unguarded(grid: Grid) -> list[int]:
    them = grid.threats(1 - grid.mover)
    return [column for column in grid.legal() if (grid.height(column) + 1, column) not in them]


def slow_new_threats(grid: Grid, column: int) -> set[tuple[int, int]]:
    before = grid.threats(grid.mover)
    after = grid.copy()
    cell = after.drop(column, grid.mover)
    return {threat for threat in after.threats(grid.mover) if threat not in before and threat != cell}


def slow_double_threat(grid: Grid) -> list[int]:
    found = []
    for column in grid.legal():
        after = grid.copy()
        after.drop(column, grid.mover)
        playable = after.playable()
        if after.threats(1 - grid.mover) & playable:
            continue
        own = after.threats(grid.mover)
        wins = own & playable
        if len(wins) >= 2 or any((row + 1, c) in own for row, c in wins):
            found.append(column)
    return found


def slow_static(grid: Grid, side: int) -> int:
    """:func:`connect_four.gp.static_value` for ``side`` to move, on the grid."""
    other = 1 - side
    mine, theirs, playable = grid.threats(side), grid.threats(other), grid.playable()
    if mine & playable:
        return gp.WON
    forced = theirs & playable
    if len(forced) >= 2 or any((row + 1, c) in theirs for row, c in forced):
        return gp.LOST
    useful_mine = {(r, c) for r, c in mine if (r - 1, c) not in theirs}
    useful_theirs = {(r, c) for r, c in theirs if (r - 1, c) not in mine}
    twos = 0
    for line in grid.lines():
        values = [grid.cells[r][c] for r, c in line]
        if values.count(other) == 0 and values.count(side) == 2:
            twos += 1
        elif values.count(side) == 0 and values.count(other) == 2:
            twos -= 1
    places = sum(
        grid.through((r, c)) * ((grid.cells[r][c] == side) - (grid.cells[r][c] == other))
        for r in range(grid.rows)
        for c in range(grid.columns)
    )
    stacked = [any((r + 1, c) in threats for r, c in threats) for threats in (mine, theirs)]
    return (
        gp.THREAT * (len(mine) - len(theirs))
        + gp.USEFUL_THREAT * (len(useful_mine) - len(useful_theirs))
        + gp.GOOD_THREAT * (sum(good(side, r) for r, _ in useful_mine) - sum(good(other, r) for r, _ in useful_theirs))
        + gp.STACKED * (stacked[0] - stacked[1])
        + gp.TWO * twos
        + gp.PLACE * places
    )


def slow_lookahead(grid: Grid) -> dict[int, int]:
    values = {}
    for column in grid.legal():
        after = grid.copy()
        after.drop(column, grid.mover)
        if after.wins(grid.mover):
            values[column] = gp.WON
            continue
        replies = []
        for reply in after.legal():
            then = after.copy()
            then.drop(reply, 1 - grid.mover)
            replies.append(gp.LOST if then.wins(1 - grid.mover) else slow_static(then, grid.mover))
        values[column] = min(replies, default=0)
    return values


def slow(name: str, grid: Grid, action: int = NO_ACTION):
    """What primitive ``name`` returns on ``grid``, by the slow implementation."""
    mover, legal = grid.mover, grid.legal()
    playable = {column: (grid.height(column), column) for column in legal}
    mine, theirs = grid.threats(mover), grid.threats(1 - mover)
    unguarded = slow_unguarded(grid)
    if name == "c4_win_column":
        return first([column for column in legal if playable[column] in mine])
    if name == "c4_block_column":
        return first([column for column in legal if playable[column] in theirs])
    if name == "c4_unguarded_column":
        return first(unguarded)
    if name == "c4_is_unguarded":
        return action in unguarded
    if name == "c4_double_threat_column":
        return first(slow_double_threat(grid))
    if name in ("c4_good_threat_column", "c4_threat_column"):
        scores = {}
        for column in unguarded:
            added = slow_new_threats(grid, column)
            if name == "c4_good_threat_column":
                added = {(r, c) for r, c in added if good(mover, r)}
            if added:
                scores[column] = len(added)
        return best(scores)
    if name == "c4_spoiling_column":
        scores = {}
        for column in unguarded:
            lines = [line for line in grid.lines() if playable[column] in line]
            values = [[grid.cells[r][c] for r, c in line] for line in lines]
            count = sum(1 - mover in line and mover not in line for line in values)
            if count:
                scores[column] = count
        return best(scores)
    if name == "c4_centre_column":
        return first(legal)
    if name == "c4_lookahead_column":
        return best(slow_lookahead(grid))
    if name == "c4_good_threat_count":
        return sum(good(mover, r) for r, _ in mine)
    if name == "c4_opponent_good_threat_count":
        return sum(good(1 - mover, r) for r, _ in theirs)
    if name == "c4_threat_count":
        return len(mine)
    if name == "c4_opponent_threat_count":
        return len(theirs)
    raise AssertionError(f"no slow implementation of {name}")


NAMES = [name for name in vars(c4) if name.startswith("c4_")]


def test_every_primitive_has_a_slow_twin():
    assert len(NAMES) == 14
    grid = Grid(POSITIONS[0])
    for name in NAMES:
        slow(name, grid)


@pytest.mark.parametrize("name", NAMES)
def test_primitive_agrees_with_the_slow_implementation(name):
    function = getattr(c4, name)
    for state in POSITIONS:
        grid = Grid(state)
        if name == "c4_is_unguarded":
            for action in [NO_ACTION, *range(state.columns)]:
                features = gp.ConnectFourFeatures(state.view())
                assert function(features, action) == slow(name, grid, action), (state.text(), action)
        else:
            features = gp.ConnectFourFeatures(state.view())
            assert function(features) == slow(name, grid), (name, state.text())


def test_the_positions_exercise_the_primitives():
    """The seeded positions are not all quiet: some have wins, blocks, guarded columns and double threats."""
    kinds = {"c4_win_column", "c4_block_column", "c4_double_threat_column", "c4_good_threat_column"}
    hits = {name: 0 for name in kinds}
    guarded = 0
    for state in POSITIONS:
        grid = Grid(state)
        for name in kinds:
            hits[name] += slow(name, grid) != NO_ACTION
        guarded += len(slow_unguarded(grid)) < len(grid.legal())
    assert all(hits.values()) and guarded, (hits, guarded)


def test_the_lookahead_values_agree_with_a_slow_minimax():
    """Every column's two-ply value, not only the column chosen."""
    for state in POSITIONS:
        features = gp.ConnectFourFeatures(state.view())
        assert features.lookahead_values == slow_lookahead(Grid(state)), state.text()


def test_the_lookahead_takes_a_win_and_blocks_one():
    win = CONNECT_FOUR.from_text("......./......./......./......./XXX..../OOO.... X")
    assert c4.c4_lookahead_column(gp.ConnectFourFeatures(win.view())) == 3
    block = CONNECT_FOUR.from_text("......./......./......./......./XXX..../OOO...X O")
    assert c4.c4_lookahead_column(gp.ConnectFourFeatures(block.view())) == 3


def test_the_plug_in_offers_the_binding_with_the_family():
    plugin = get_plugin("connect_four")
    assert plugin.offers(GPBinding)
    binding = plugin.capability(GPBinding)
    assert binding is gp.BINDING and binding.features is gp.ConnectFourFeatures
    assert binding.family_package == "connect_four.primitives"
