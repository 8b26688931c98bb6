"""Players benchmark: time per decision (mean and max) and nodes per second, on a fixed set of positions.

The positions come from seeded random play (:func:`benchmark_positions`): for each stage (0, 4, 8 and 10
pieces placed) some positions where a piece must be chosen and some where the piece in hand must be
placed. Each pass over the positions builds the player afresh, and before each decision it gets ``new_game``
and a derived seed, so every decision starts from a clean state (no transposition table or remembered answer
carried over) and the measurement can be repeated.

Each repeat goes over the positions as many times as needed to last ``seconds`` of wall time (at least
once); a player gets at least one full pass and then stops repeating once it has used ``repeats * seconds``
seconds, so a slow player does not hold the benchmark for long. Means are the median over repeats; the max is the
slowest single decision seen. Players with a cumulative ``nodes`` counter (an int attribute or property)
also get nodes per second: every search player of the zoo (minimax, frontier, mcts, solver) has one.

``--players`` takes zoo specs, saved players (an evolved ``best_player.p`` or ``.json``, a learned ``.npz``) and
searches with an evolved evaluator (``minimax:depth=2,evaluator=FILE``). Rows are printed as soon as each player
is measured. ``--compare MODULE`` (e.g. ``tests.reference``, the
search code before the fast search, from a source checkout) builds each player a second time with
``MODULE.make_player`` and times both with interleaved repeats: the speed-up column is a ratio measured on
the same machine at the same moment.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter

from gpquarto.bench.timing import reference_module
from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.players.form import QUARTO_FORM
from gpquarto.gp.evaluator_player import is_evaluator_spec
from gpquarto.players.registry import available_players, parse_spec
from gpquarto.resolve import is_player_file, make_player
from gpquarto.seeding import derive_seed

#: The players measured, when registered (others are skipped, and the report says so).
BENCH_PLAYERS = ("random", "novice", "minimax:depth=1", "minimax:depth=2", "frontier", "mcts", "solver")
#: Pieces placed in the benchmark positions.
STAGES = (0, 4, 8, 10)


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
        for kind in (DecisionKind.CHOOSE, DecisionKind.PLACE):
            for index in range(per_kind):
                positions.append(_random_position(seed, stage, kind, index, rules))
    return positions


def _random_position(seed: int, stage: int, kind: str, index: int, rules: Rules) -> Board:
    for attempt in range(1000):
        rng = random.Random(derive_seed(seed, stage, kind, index, attempt))
        board = Board(rules)
        while not board.is_over():
            if board.placed_count == stage and (
                board.choice_due if kind == DecisionKind.CHOOSE else board.placement_due
            ):
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


class _Measurement:
    """One player's measurement, repeat by repeat (so that two players' repeats can be interleaved)."""

    def __init__(self, spec: str, positions: list[Board], factory: Callable[..., object], seed: int) -> None:
        self.spec = spec
        self.factory = factory
        self.player = factory(spec, seed=seed)
        self.positions = positions
        self.seed = seed
        self.counts_nodes = counts_nodes_of(self.player)
        self.timing = PlayerTiming(spec)
        self.repeat_means: list[float] = []
        self.stage_times: dict[int, list[float]] = {}
        self.total_time = 0.0
        self.wall_time = 0.0
        self.total_nodes = 0

    def repeat(self, seconds: float) -> None:
        """One repeat: passes over the positions until it lasts ``seconds`` (at least one pass)."""
        timing = self.timing
        repeat_time = 0.0
        repeat_decisions = 0
        began = perf_counter()
        # The repeat's length is wall time: a quick player's decisions last microseconds while setting each
        # one up (new game, seed, a fresh view) does not, and summing decision times alone kept fast
        # players for minutes.
        while repeat_decisions == 0 or perf_counter() - began < seconds:
            # A fresh player for every pass: a player may remember answers by position across games (minimax's
            # root memory does), and a second pass over the same positions would time the memory, not the search.
            self.player = self.factory(self.spec, seed=self.seed)
            for number, position in enumerate(self.positions):
                elapsed, nodes = _decide(self.player, position, derive_seed(self.seed, number), self.counts_nodes)
                repeat_time += elapsed
                repeat_decisions += 1
                self.total_nodes += nodes
                timing.max = max(timing.max, elapsed)
                self.stage_times.setdefault(position.placed_count, []).append(elapsed)
        self.repeat_means.append(repeat_time / repeat_decisions)
        timing.decisions += repeat_decisions
        self.total_time += repeat_time
        self.wall_time += perf_counter() - began

    def result(self) -> PlayerTiming:
        """The timing so far (means are medians over the repeats)."""
        timing = self.timing
        timing.mean = statistics.median(self.repeat_means)
        timing.repeats = len(self.repeat_means)
        timing.stage_means = {stage: statistics.fmean(times) for stage, times in sorted(self.stage_times.items())}
        if self.counts_nodes and self.total_time > 0:
            timing.nodes_per_second = self.total_nodes / self.total_time
        return timing


def time_player(
    spec: str,
    positions: list[Board],
    *,
    repeats: int = 5,
    seconds: float = 1.0,
    seed: int = 1,
    factory: Callable[..., object] | None = None,
) -> PlayerTiming:
    """Measure ``spec`` on ``positions`` (see the module docstring); ``factory(spec, seed=...)`` builds the
    player (default: the registry's ``make_player``)."""
    return compare_players(spec, positions, [factory or make_player], repeats=repeats, seconds=seconds, seed=seed)[0]


def compare_players(
    spec: str,
    positions: list[Board],
    factories: list[Callable[..., object]],
    *,
    repeats: int = 5,
    seconds: float = 1.0,
    seed: int = 1,
) -> list[PlayerTiming]:
    """Measure ``spec`` as built by each factory, repeats interleaved (repeat ``i`` of every version runs
    before repeat ``i + 1`` of any), so a slow spell of a shared machine lands on all of them alike and
    their ratio is fair. Stops after ``repeats`` repeats, or once every version has used ``repeats *
    seconds`` seconds (each gets at least one repeat)."""
    measurements = [_Measurement(spec, positions, factory, seed) for factory in factories]
    while len(measurements[0].repeat_means) < repeats:
        for measurement in measurements:
            measurement.repeat(seconds)
        if all(measurement.wall_time >= repeats * seconds for measurement in measurements):
            break
    return [measurement.result() for measurement in measurements]


def counts_nodes_of(player) -> bool:
    """True when the player has a cumulative search counter ``nodes`` (an int)."""
    return isinstance(getattr(player, "nodes", None), int)


def _decide(player, position: Board, seed: int, counts_nodes: bool) -> tuple[float, int]:
    player.new_game(position.player)
    player.seed(seed)
    view = position.copy().view()
    before = player.nodes if counts_nodes else 0
    began = perf_counter()
    QUARTO_FORM.ask(player, view) if QUARTO_FORM.speaks(player) else player.decide(view)
    elapsed = perf_counter() - began
    return elapsed, (player.nodes - before if counts_nodes else 0)


def registered(specs: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Split ``specs`` into those that name a player (a registered zoo name, a saved player file or a search
    with an evaluator file) and those whose name is not registered. A file that is missing or cannot be
    loaded is a one-line ``ValueError`` rather than a skip: the user named it on purpose."""
    names = {info.name for info in available_players()}
    present = []
    for spec in specs:
        if is_player_file(spec) or is_evaluator_spec(spec):
            make_player(spec)  # loads and checks it now, so a bad file stops the benchmark before any timing
            present.append(spec)
        elif parse_spec(spec)[0] in names:
            present.append(spec)
    return present, [spec for spec in specs if spec not in present]


def format_header(positions: list[Board], rules: Rules, width: int, compare: str | None = None) -> str:
    """The first lines of the ``bench players`` table."""
    stages = sorted({position.placed_count for position in positions})
    stage_header = "  ".join(f"{f'@{stage}':>8}" for stage in stages)
    lines = [
        f"time per decision, {len(positions)} positions ({', '.join(map(str, stages))} pieces placed; choices and "
        f"placements), {rules.value} rules; ms, mean = median over repeats, @N = mean at N pieces placed",
        f"{'player':<{width}}  {'decisions':>9}  {'mean ms':>9}  {'max ms':>9}  {stage_header}  {'nodes/s':>10}",
    ]
    if compare:
        lines.insert(1, f"each player is timed with the reference of {compare} (row 'ref'), repeats interleaved")
        lines[-1] += f"  {'speed-up':>8}"
    return "\n".join(lines)


def format_row(timing: PlayerTiming, positions: list[Board], width: int, reference: PlayerTiming | None = None) -> str:
    """One player's row; with ``reference``, the reference's mean over this one's (the speed-up)."""
    stages = sorted({position.placed_count for position in positions})
    per_stage = "  ".join(f"{1000 * timing.stage_means.get(stage, 0.0):>8.3f}" for stage in stages)
    nodes = "-" if timing.nodes_per_second is None else f"{timing.nodes_per_second:,.0f}"
    row = (
        f"{timing.spec:<{width}}  {timing.decisions:>9}  {1000 * timing.mean:>9.3f}  {1000 * timing.max:>9.3f}  "
        f"{per_stage}  {nodes:>10}"
    )
    if reference is not None:
        row += f"  {reference.mean / timing.mean:>7.1f}x"
    return row


def reference_factory(module_name: str) -> Callable[..., object]:
    """``make_player`` of the module ``module_name``: it builds the reference version of a player spec."""
    factory = getattr(reference_module(module_name), "make_player", None)
    if not callable(factory):
        raise ValueError(f"{module_name} has no make_player(spec, seed=...) to build reference players")
    return factory


def run_players_benchmark(args) -> int:
    """``bench players``: measure every registered player of :data:`BENCH_PLAYERS` (or ``--players``) and
    print the table, a row as soon as it is measured; ``--compare MODULE`` times each zoo player's reference
    version (``MODULE.make_player``) interleaved with it and prints the speed-up (a saved player file or an
    evaluator spec has no reference version: it is timed alone)."""
    rules = Rules(args.rules)
    positions = benchmark_positions(rules=rules)
    specs = tuple(getattr(args, "players", None) or BENCH_PLAYERS)
    present, skipped = registered(specs)
    compare = getattr(args, "compare", None)
    reference = reference_factory(compare) if compare else None
    width = max([6, *(len(spec) + (6 if compare else 0) for spec in present)])
    print(format_header(positions, rules, width, compare), flush=True)
    for spec in present:
        if reference is None or is_player_file(spec) or is_evaluator_spec(spec):
            timing = time_player(spec, positions, repeats=args.repeats, seconds=args.seconds)
            print(format_row(timing, positions, width), flush=True)
            continue
        old, new = compare_players(
            spec, positions, [reference, make_player], repeats=args.repeats, seconds=args.seconds
        )
        old.spec += " (ref)"
        print(format_row(old, positions, width), flush=True)
        print(format_row(new, positions, width, reference=old), flush=True)
    if skipped:
        print(f"skipped (not registered): {', '.join(skipped)}")
    return 0
