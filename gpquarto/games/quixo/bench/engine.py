"""Quixo benchmarks, run by ``bench engine|players|solver --game quixo``: random games per second (pure Python,
numba, the player API, and the slow reference of the tests side by side), alpha-beta's time per decision and the
rule players' lookahead facts' on positions from real games, and the exact solver's time.

The engine's targets are printed beside the figures: random playouts >= 10,000 games/s in pure Python on one
core and >= 5x the slow reference, >= 200,000 games/s with numba; alpha-beta's median time per decision <= 0.3 s at
depth 4 and <= 3 s at depth 5; the 3x3 board solved in under a minute in pure Python, 4x4 in under 15 minutes with
numba.
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable

from gpquarto.arena.game import play_game
from gpquarto.bench.generic import decision_times, summary
from gpquarto.bench.timing import Rates, median_rates
from gpquarto.games.quixo import compiled as quixo_compiled
from gpquarto.games.quixo.board import QuixoBoard, QuixoRules
from gpquarto.games.quixo.game import QUIXO
from gpquarto.games.quixo.playout import random_playout
from gpquarto.games.quixo.search.alphabeta import QuixoSearch
from gpquarto.players.random_player import RandomPlayer
from gpquarto.players.registry import make_named_player

PURE = "pure Python playout (random_playout)"
NUMBA = "compiled playouts (numba, batches of 20,000)"
API = "player API (play_game, RandomPlayer)"
REFERENCE = "slow reference (MODULE.quixo.random_playout_winner)"
#: Games per second wanted: pure Python on one core, numba, and pure over the reference.
PURE_TARGET, NUMBA_TARGET, REFERENCE_RATIO_TARGET = 10_000, 200_000, 5.0
#: Median seconds per decision wanted of alpha-beta, by depth.
ALPHABETA_TARGETS = {4: 0.3, 5: 3.0}
#: Seconds wanted for solving each board (3x3 in pure Python, 4x4 compiled).
SOLVE_TARGETS = {3: 60.0, 4: 900.0}


def reference_playout(module_name: str) -> Callable[[int, random.Random], int]:
    """``MODULE.quixo.random_playout_winner(size, rng)``: the slow reference's random game (e.g. ``tests.reference``
    from a source checkout); a module that is not there is a one-line ``ValueError``."""
    from gpquarto.bench.timing import reference_module

    reference_module(module_name)
    try:
        playout = getattr(importlib.import_module(f"{module_name}.quixo"), "random_playout_winner", None)
    except ImportError as error:
        raise ValueError(f"--compare {module_name}: cannot import {module_name}.quixo ({error})") from None
    if not callable(playout):
        raise ValueError(f"{module_name}.quixo has no random_playout_winner(size, rng) to time")
    return playout


def playout_rates(
    size: int = 5,
    rules: QuixoRules | str = QuixoRules.OFFICIAL,
    repeats: int = 5,
    min_seconds: float = 1.0,
    reference: Callable[[int, random.Random], int] | None = None,
    clock: Callable[[], float] = time.process_time,
) -> dict[str, Rates]:
    """Random games per second from the empty board, interleaved repeats: the pure-Python playout (one core), the
    compiled one (when numba is installed), whole games through the player API (``play_game`` with two random
    players: every action validated, timed and recorded), and ``reference(size, rng)`` (one game each call).
    Seconds are CPU seconds of this process by default (``clock``): games per second on one core, whatever else
    the machine runs."""
    board = QuixoBoard(size, rules)
    rng = random.Random(0)
    players = (RandomPlayer(1), RandomPlayer(2))
    settings = {"size": size, "rules": QuixoRules(rules).value}

    def pure() -> int:
        for _ in range(200):
            random_playout(board, rng)
        return 200

    def api() -> int:
        for _ in range(20):
            play_game(players, game="quixo", settings=settings)
        return 20

    batches: dict[str, Callable[[], int]] = {PURE: pure}
    if quixo_compiled.AVAILABLE:
        quixo_compiled.random_playouts(board, 10, seed=0)  # compile outside the timing
        seeds = iter(range(1, 10**9))
        batches[NUMBA] = lambda: len(quixo_compiled.random_playouts(board, 20_000, seed=next(seeds)))
    batches[API] = api
    if reference is not None:

        def slow() -> int:
            for _ in range(20):
                reference(size, rng)
            return 20

        batches[REFERENCE] = slow
    return median_rates(batches, repeats, min_seconds, clock)


def format_playout_rates(rates: dict[str, Rates], size: int, rules: str) -> str:
    """The table of ``bench engine --game quixo``, with the targets met or not."""
    width = max(len(name) for name in rates)
    repeats = len(next(iter(rates.values()))[1])
    lines = [
        f"Quixo {size}x{size}, {rules} rules, random vs random: games per CPU second of one core (median of "
        f"{repeats} repeats, interleaved)"
    ]
    for name, (median, values) in rates.items():
        lines.append(f"{name:<{width}}  {median:>12,.0f}   (min {min(values):,.0f} max {max(values):,.0f})")
    if not quixo_compiled.AVAILABLE:
        lines.append("(no numba: pip install 'gpquarto[fast]' to time the compiled playouts)")
    pure = rates[PURE][0]
    targets = [f"pure {pure:,.0f} games/s (target >= {PURE_TARGET:,}: {_met(pure >= PURE_TARGET)})"]
    if NUMBA in rates:
        numba = rates[NUMBA][0]
        targets.append(f"numba {numba:,.0f} (target >= {NUMBA_TARGET:,}: {_met(numba >= NUMBA_TARGET)})")
    if REFERENCE in rates:
        ratio = pure / rates[REFERENCE][0]
        targets.append(
            f"pure / reference {ratio:.1f}x (target >= {REFERENCE_RATIO_TARGET:g}x: "
            f"{_met(ratio >= REFERENCE_RATIO_TARGET)})"
        )
    lines.append("targets (5x5 official rules): " + "; ".join(targets))
    return "\n".join(lines)


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def game_positions(count: int, seed: int = 0, size: int = 5) -> list[QuixoBoard]:
    """``count`` positions from games of ``alphabeta:depth=2`` against itself after four random plies, every
    third position of each game (the games' histories are kept: repetitions count)."""
    rng = random.Random(seed)
    positions: list[QuixoBoard] = []
    player = make_named_player("alphabeta:depth=2", game="quixo")
    while len(positions) < count:
        board = QuixoBoard(size)
        player.new_game(0)
        while not board.is_over() and len(positions) < count:
            if len(board.history) < 4:
                board.apply(rng.choice(board.legal_actions()))
                continue
            if len(board.history) % 3 == 0:
                positions.append(board.copy())
            board.apply(player.decide(board.view()))
    return positions


def alphabeta_times(
    depth: int, positions: list[QuixoBoard], heuristic: str = "lines", clock: Callable[[], float] = time.perf_counter
) -> list[float]:
    """Seconds per decision of a fresh alpha-beta search to ``depth`` on each position (a new table each time),
    read on ``clock`` (``time.process_time`` for the CPU time, which a busy shared machine does not inflate)."""
    times = []
    for board in positions:
        search = QuixoSearch(board.size, board.rules, heuristic)
        began = clock()
        search.search(board, depth)
        times.append(clock() - began)
    return times


#: The lookahead facts whose cost per decision ``bench players --game quixo`` prints (each from a fresh
#: ``QuixoFeatures``, so each figure includes the facts it builds on).
LOOKAHEAD_FACTS = (
    "safe_moves",
    "safe_potential_move",
    "trap_move",
    "trap_proof_potential_move",
    "new_trap_proof_move",
    "opponent_trap_threat",
)


def fact_times(
    fact: str, positions: list[QuixoBoard], repeats: int = 3, clock: Callable[[], float] = time.process_time
) -> list[float]:
    """Seconds to compute ``fact`` of :class:`~gpquarto.games.quixo.gp.features.QuixoFeatures` on each position from a
    fresh object (the best of ``repeats``: what one core does undisturbed), read on ``clock``."""
    from gpquarto.games.quixo.gp.features import QuixoFeatures

    times = []
    for board in positions:
        view = board.view()
        best = float("inf")
        for _ in range(repeats):
            began = clock()
            getattr(QuixoFeatures(view), fact)
            best = min(best, clock() - began)
        times.append(best)
    return times


def micro_summary(times: list[float]) -> str:
    """Median, 90th percentile and maximum of a list of seconds, in microseconds."""
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (
        f"median {1e6 * statistics.median(ordered):,.0f} us, p90 {1e6 * p90:,.0f} us, max {1e6 * ordered[-1]:,.0f} us"
    )


def run_players_benchmark(
    positions: int, seed: int = 0, depths: tuple[int, ...] = (4, 5), players: tuple[str, ...] = ()
) -> str:
    """``bench players --game quixo``: seconds per decision on ``positions`` positions from real games (wall time,
    and the process's CPU time, which other work on a shared machine does not inflate). Without ``players``,
    alpha-beta at each of ``depths`` with the targets; with them, each of those specs (zoo specs or saved player
    files, an evolved ``player.json`` included)."""
    boards = game_positions(positions, seed)
    if players:
        lines = [f"time per decision on {len(boards)} positions from games of alphabeta:depth=2, seed {seed}"]
        for spec in players:
            lines.append(f"{spec}, wall: {summary(decision_times(spec, QUIXO.name, boards, time.perf_counter), 'ms')}")
            lines.append(f"{spec}, CPU:  {summary(decision_times(spec, QUIXO.name, boards), 'ms')}")
        return "\n".join(lines)
    lines = [
        f"alphabeta (lines heuristic, a fresh table per decision) on {len(boards)} positions from games, seed {seed}"
    ]
    for depth in depths:
        wall = alphabeta_times(depth, boards)
        cpu = alphabeta_times(depth, boards, clock=time.process_time)
        target = ALPHABETA_TARGETS.get(depth)
        verdict = "" if target is None else f"; target median <= {target:g} s: {_met(statistics.median(cpu) <= target)}"
        lines.append(f"depth {depth}, wall: {summary(wall)}")
        lines.append(f"depth {depth}, CPU:  {summary(cpu)}{verdict}")
    lines.append("the rule players' lookahead facts, CPU per decision (a fresh QuixoFeatures, best of 3):")
    for fact in LOOKAHEAD_FACTS:
        lines.append(f"{fact}: {micro_summary(fact_times(fact, boards))}")
    return "\n".join(lines)


def solver_time(size: int, rules: QuixoRules | str = QuixoRules.OFFICIAL, compiled: bool = False) -> str:
    """``bench solver --game quixo``: solve the board afresh (not from the cache), pure Python or compiled, and
    say how long it took against the target and what it found."""
    import numpy as np

    from gpquarto.games.quixo.search.solver import compute

    began = time.perf_counter()
    solution = compute(size, rules, compiled=compiled)
    seconds = time.perf_counter() - began
    values, counts = np.unique(solution.values, return_counts=True)
    words = {1: "win", 0: "draw", -1: "loss", 2: "with a line"}
    tally = ", ".join(f"{words[int(v)]} {c:,}" for v, c in zip(values, counts, strict=True))
    how = "compiled (numba)" if compiled else "pure Python"
    target = SOLVE_TARGETS.get(size)
    verdict = "" if target is None else f" (target < {target:g} s: {_met(seconds < target)})"
    return (
        f"Quixo {size}x{size} {QuixoRules(rules).value} rules solved {how} in {seconds:.1f} s{verdict}\n"
        f"start: {solution.start_value()}; positions: {tally}; longest win or loss {solution.dists.max()} plies"
    )
