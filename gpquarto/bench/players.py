"""Players benchmark: time per decision (mean and max) and nodes per second, on a fixed set of positions.

The positions come from seeded random play (:func:`benchmark_positions`): for each stage (0, 4, 8 and 10
pieces placed) some positions where a piece must be chosen and some where the piece in hand must be
placed. Before each decision the player gets ``new_game`` and a derived seed, so every decision starts
from a clean state (no transposition table carried over) and the measurement can be repeated.

Each repeat goes over the positions as many times as needed to last ``seconds`` (at least once); a player
gets at least one full pass and then stops repeating once it has used ``repeats * seconds`` seconds, so a
slow player does not hold the benchmark for long. Means are the median over repeats; the max is the
slowest single decision seen. Players with a cumulative ``nodes`` counter (an int attribute or property)
also get nodes per second: every search player of the zoo (minimax, frontier, mcts, solver) has one.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field
from time import perf_counter

from gpquarto.engine.board import Board
from gpquarto.engine.lines import Rules
from gpquarto.players.registry import available_players, parse_spec
from gpquarto.resolve import make_player
from gpquarto.seeding import derive_seed

#: The players measured, when registered (others are skipped, and the report says so).
BENCH_PLAYERS = ("random", "novice", "minimax:depth=1", "minimax:depth=2", "frontier", "mcts", "solver")
#: Pieces placed in the benchmark positions.
STAGES = (0, 4, 8, 10)
CHOOSE, PLACE = "choose", "place"


def benchmark_positions(
    seed: int = 1, *, stages: tuple[int, ...] = STAGES, per_kind: int = 4, rules: Rules | str = Rules.CLASSIC
) -> list[Board]:
    """Positions reached by seeded random play: for each stage, ``per_kind`` positions where a choice is due
    and ``per_kind`` where a placement is due, with that many pieces placed and the game not over.
    The same arguments always give the same positions."""
    rules = Rules(rules)
    positions = []
    for stage in stages:
        if not 0 <= stage < 16:
            raise ValueError(f"a stage is a number of pieces placed, 0..15, got {stage}")
        for kind in (CHOOSE, PLACE):
            for index in range(per_kind):
                positions.append(_random_position(seed, stage, kind, index, rules))
    return positions


def _random_position(seed: int, stage: int, kind: str, index: int, rules: Rules) -> Board:
    for attempt in range(1000):
        rng = random.Random(derive_seed(seed, stage, kind, index, attempt))
        board = Board(rules)
        while not board.is_over():
            if board.placed_count == stage and (board.choice_due if kind == CHOOSE else board.placement_due):
                return board
            if board.choice_due:
                board.choose(rng.choice(board.legal_pieces()))
            else:
                board.place(rng.choice(board.legal_squares()))
    raise RuntimeError(f"no random game reached {stage} pieces placed with a {kind} due")  # pragma: no cover


@dataclass
class PlayerTiming:
    """What one player's measurement found (times in seconds)."""

    spec: str
    decisions: int = 0
    mean: float = 0.0
    max: float = 0.0
    stage_means: dict[int, float] = field(default_factory=dict)
    nodes_per_second: float | None = None
    repeats: int = 0


def time_player(
    spec: str, positions: list[Board], *, repeats: int = 5, seconds: float = 1.0, seed: int = 1
) -> PlayerTiming:
    """Measure ``spec`` on ``positions`` (see the module docstring)."""
    player = make_player(spec, seed=seed)
    counts_nodes = counts_nodes_of(player)
    timing = PlayerTiming(spec)
    repeat_means: list[float] = []
    stage_times: dict[int, list[float]] = {}
    total_time = 0.0
    total_nodes = 0
    while len(repeat_means) < repeats:
        repeat_time = 0.0
        repeat_decisions = 0
        while repeat_decisions == 0 or repeat_time < seconds:
            for number, position in enumerate(positions):
                elapsed, nodes = _decide(player, position, derive_seed(seed, number), counts_nodes)
                repeat_time += elapsed
                repeat_decisions += 1
                total_nodes += nodes
                timing.max = max(timing.max, elapsed)
                stage_times.setdefault(position.placed_count, []).append(elapsed)
        repeat_means.append(repeat_time / repeat_decisions)
        timing.decisions += repeat_decisions
        total_time += repeat_time
        if total_time >= repeats * seconds:
            break
    timing.mean = statistics.median(repeat_means)
    timing.repeats = len(repeat_means)
    timing.stage_means = {stage: statistics.fmean(times) for stage, times in sorted(stage_times.items())}
    if counts_nodes and total_time > 0:
        timing.nodes_per_second = total_nodes / total_time
    return timing


def counts_nodes_of(player) -> bool:
    """True when the player has a cumulative search counter ``nodes`` (an int)."""
    return isinstance(getattr(player, "nodes", None), int)


def _decide(player, position: Board, seed: int, counts_nodes: bool) -> tuple[float, int]:
    hook = getattr(player, "new_game", None)
    if hook is not None:
        hook(position.player)
    hook = getattr(player, "seed", None)
    if hook is not None:
        hook(seed)
    view = position.copy().view()
    before = player.nodes if counts_nodes else 0
    began = perf_counter()
    if position.choice_due:
        player.choose_piece(view)
    else:
        player.place_piece(view, position.in_hand)
    elapsed = perf_counter() - began
    return elapsed, (player.nodes - before if counts_nodes else 0)


def registered(specs: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Split ``specs`` into those whose player is registered and those that are not."""
    names = {info.name for info in available_players()}
    present = [spec for spec in specs if parse_spec(spec)[0] in names]
    return present, [spec for spec in specs if spec not in present]


def format_players_benchmark(
    timings: list[PlayerTiming], skipped: list[str], positions: list[Board], rules: Rules
) -> str:
    """The table printed by ``bench players``."""
    stages = sorted({position.placed_count for position in positions})
    width = max([6, *(len(timing.spec) for timing in timings)])
    stage_header = "  ".join(f"{f'@{stage}':>8}" for stage in stages)
    lines = [
        f"time per decision, {len(positions)} positions ({', '.join(map(str, stages))} pieces placed; choices and "
        f"placements), {rules.value} rules; ms, mean = median over repeats, @N = mean at N pieces placed",
        f"{'player':<{width}}  {'decisions':>9}  {'mean ms':>9}  {'max ms':>9}  {stage_header}  {'nodes/s':>10}",
    ]
    for timing in timings:
        per_stage = "  ".join(f"{1000 * timing.stage_means.get(stage, 0.0):>8.3f}" for stage in stages)
        nodes = "-" if timing.nodes_per_second is None else f"{timing.nodes_per_second:,.0f}"
        lines.append(
            f"{timing.spec:<{width}}  {timing.decisions:>9}  {1000 * timing.mean:>9.3f}  {1000 * timing.max:>9.3f}  {per_stage}  {nodes:>10}"
        )
    if skipped:
        lines.append(f"skipped (not registered): {', '.join(skipped)}")
    return "\n".join(lines)


def run_players_benchmark(args) -> int:
    """``bench players``: measure every registered player of :data:`BENCH_PLAYERS` and print the table."""
    rules = Rules(args.rules)
    positions = benchmark_positions(rules=rules)
    present, skipped = registered(BENCH_PLAYERS)
    timings = [time_player(spec, positions, repeats=args.repeats, seconds=args.seconds) for spec in present]
    print(format_players_benchmark(timings, skipped, positions, rules))
    return 0
