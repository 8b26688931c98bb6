"""Solver benchmark: time to solve exactly, by number of empty squares and by decision kind.

The positions come from seeded random play (:func:`solver_positions`): for each number of empty squares
(8 to 12 by default) some positions where a piece must be chosen and some where the piece in hand must be
placed, the game not over. Each position is solved once with a fresh table; the table reports the median
and the slowest time and the median number of positions searched, per (empty squares, kind). With
``--compare MODULE`` the module's ``solve`` (e.g. ``tests.reference``: the solver before the lean search) is timed
on the same positions right before the current one; ``--compiled`` times the optional compiled solver
(:mod:`gpquarto.games.quarto.search.compiled`) as the current one. Pure Python takes minutes per position at 12 empty
squares with a choice due.
"""

from __future__ import annotations

import functools
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

from gpquarto.bench.timing import reference_module
from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.search.solver import solve
from gpquarto.seeding import derive_seed

#: Empty squares of the benchmark positions, by default.
EMPTIES = (8, 9, 10, 11, 12)


def solver_positions(
    seed: int = 1, *, empties: tuple[int, ...] = EMPTIES, per_kind: int = 5, rules: Rules | str = Rules.CLASSIC
) -> dict[tuple[int, str], list[Board]]:
    """Positions reached by seeded random play, ``per_kind`` for each (empty squares, decision kind); the
    same arguments always give the same positions."""
    rules = Rules(rules)
    found: dict[tuple[int, str], list[Board]] = {}
    for count in empties:
        if not 1 <= count <= 16:
            raise ValueError(f"empty squares must be 1..16, got {count}")
        for kind in (DecisionKind.CHOOSE, DecisionKind.PLACE):
            found[count, kind] = [_position(seed, count, kind, index, rules) for index in range(per_kind)]
    return found


def _position(seed: int, empties: int, kind: str, index: int, rules: Rules) -> Board:
    for attempt in range(10_000):
        rng = random.Random(derive_seed(seed, "solver", empties, kind, index, attempt))
        board = Board(rules)
        while not board.is_over():
            if 16 - board.placed_count == empties and (
                board.choice_due if kind == DecisionKind.CHOOSE else board.placement_due
            ):
                return board
            board.apply(rng.choice(board.legal_actions()))
    raise RuntimeError(f"no random game reached {empties} empty squares with a {kind} due")  # pragma: no cover


@dataclass
class SolverTiming:
    """Times (seconds) and node counts of one group of positions."""

    empties: int
    kind: str
    times: list[float]
    nodes: list[int]

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def max(self) -> float:
        return max(self.times)


def time_solver(positions: list[Board], solver: Callable[[Board], object] = solve) -> tuple[list[float], list[int]]:
    """Solve each position once (a fresh table each time); return the times and the node counts."""
    times, nodes = [], []
    for position in positions:
        began = perf_counter()
        result = solver(position.copy())
        times.append(perf_counter() - began)
        nodes.append(getattr(result, "nodes", 0))
    return times, nodes


def format_row(timing: SolverTiming, reference: SolverTiming | None = None, label: str = "") -> str:
    """One row of the table: empties, kind, median and max ms, median nodes (and the speed-up)."""
    row = (
        f"{timing.empties:>7}  {timing.kind:<6}  {label:<9}  {1000 * timing.median:>10.1f}  "
        f"{1000 * timing.max:>10.1f}  {statistics.median(timing.nodes):>12,.0f}"
    )
    if reference is not None:
        row += f"  {reference.median / timing.median:>7.1f}x"
    return row


def run_solver_benchmark(args) -> int:
    """``bench solver``: print median and max solve time by empty squares and decision kind, row by row."""
    rules = Rules(args.rules)
    empties = tuple(getattr(args, "empties", None) or EMPTIES)
    groups = solver_positions(empties=empties, per_kind=args.positions, rules=rules)
    compare = getattr(args, "compare", None)
    reference = getattr(reference_module(compare), "solve", None) if compare else None
    if compare and not callable(reference):
        raise ValueError(f"--compare {compare}: the module has no solve(board) to time")
    current = solve
    if getattr(args, "compiled", False):
        from gpquarto.games.quarto.search import compiled

        if not compiled.AVAILABLE:
            raise SystemExit('bench solver --compiled needs numba: pip install "gpquarto[fast]"')
        current = functools.partial(compiled.solve, fresh_table=True)
        current(next(iter(groups.values()))[0])  # compile (or load the cache) before timing
    print(
        f"exact solver{' (compiled)' if current is not solve else ''}, {args.positions} seeded random positions per "
        f"row (fresh table each), {rules.value} rules"
        + (f"; first row of each pair: {compare}.solve on the same positions, right before" if compare else ""),
        flush=True,
    )
    header = f"{'empties':>7}  {'kind':<6}  {'':<9}  {'median ms':>10}  {'max ms':>10}  {'median nodes':>12}"
    print(header + ("  speed-up" if compare else ""), flush=True)
    for (count, kind), positions in groups.items():
        old = SolverTiming(count, kind, *time_solver(positions, reference)) if reference is not None else None
        timing = SolverTiming(count, kind, *time_solver(positions, current))
        if old is None:
            print(format_row(timing), flush=True)
            continue
        print(format_row(old, label=(compare or "").rsplit(".", 1)[-1][:9]), flush=True)
        print(format_row(timing, reference=old, label="current"), flush=True)
    return 0
