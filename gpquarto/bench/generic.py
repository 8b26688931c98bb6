"""The benchmarks of every game, over the game interface: random games per second, the time per decision of
players on positions from seeded random games, and the exact solver's time on positions of given sizes. A game's
own :class:`~gpquarto.games.capabilities.Benchmarks` may replace any of them with its fast paths.

Every figure is a median (the machine may be shared), on CPU seconds of this process (``time.process_time``),
which other work does not inflate, and on wall seconds beside it where a player may use threads.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence

from gpquarto.bench.timing import Rates, median_rates
from gpquarto.games.interface import GameState
from gpquarto.games.registry import get_plugin
from gpquarto.search.exact import exact_solver

RANDOM_GAMES = "random games over the game interface"


def random_game_rates(
    game: str,
    settings: Mapping[str, object],
    repeats: int = 5,
    min_seconds: float = 1.0,
    clock: Callable[[], float] = time.process_time,
) -> dict[str, Rates]:
    """Random games per second from the start position (``legal_actions`` and ``apply`` only), median of
    interleaved repeats, on ``clock``."""
    start = get_plugin(game).game.new_state(**settings)
    rng = random.Random(0)

    def batch() -> int:
        for _ in range(20):
            state = start.copy()
            while not state.is_over():
                actions = state.legal_actions()
                state.apply(actions[int(rng.random() * len(actions))])
        return 20

    return median_rates({RANDOM_GAMES: batch}, repeats, min_seconds, clock)


def format_random_game_rates(rates: dict[str, Rates], title: str) -> str:
    lines = [f"{title}: games per second (CPU of one process, median of {len(next(iter(rates.values()))[1])})"]
    for name, (median, _) in rates.items():
        lines.append(f"{name}: {median:,.0f} games/s")
    return "\n".join(lines)


def game_positions(game: str, settings: Mapping[str, object], count: int, seed: int = 0) -> list[GameState]:
    """``count`` positions of seeded random games that are not over, from early to late (each game stops at a ply
    drawn between 0 and the game's length, so every stage of a game occurs)."""
    rng = random.Random(seed)
    start = get_plugin(game).game.new_state(**settings)
    positions: list[GameState] = []
    while len(positions) < count:
        state = start.copy()
        stop = rng.randrange(64)
        while not state.is_over() and len(state.history) < stop:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        if not state.is_over():
            positions.append(state)
    return positions


def positions_of_size(
    game: str, settings: Mapping[str, object], size: int, count: int, seed: int = 0, tries: int = 10_000
) -> list[GameState]:
    """``count`` positions of seeded random games whose exact-solver size (empty cells) is ``size``; a one-line
    ``ValueError`` when random games rarely reach it."""
    solver = exact_solver(get_plugin(game))
    rng = random.Random(seed)
    start = get_plugin(game).game.new_state(**settings)
    found: list[GameState] = []
    for _ in range(tries):
        if len(found) == count:
            return found
        state = start.copy()
        while not state.is_over() and solver.size(state) > size:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        if not state.is_over() and solver.size(state) == size:
            found.append(state)
    raise ValueError(f"random games of {game} reached only {len(found)} positions of {size} {solver.size_word}")


def decision_times(
    spec: str, game: str, positions: Sequence[GameState], clock: Callable[[], float] = time.process_time
) -> list[float]:
    """Seconds per decision of the player ``spec`` on each position, read on ``clock``; the player is built afresh
    for every position (outside the timing), so nothing it remembers from one decision serves the next."""
    from gpquarto.resolve import make_player

    times = []
    for number, state in enumerate(positions):
        player = make_player(spec, seed=number, game=game)
        player.new_game(state.player)
        view = state.view()
        began = clock()
        player.decide(view)
        times.append(clock() - began)
    return times


def summary(times: list[float], unit: str = "s") -> str:
    """Median, quartiles and maximum of a list of seconds, in seconds (``"s"``) or milliseconds (``"ms"``)."""
    scale = {"s": 1.0, "ms": 1000.0}[unit]
    q1, median, q3 = statistics.quantiles(times, n=4) if len(times) > 1 else (times[0],) * 3
    q1, median, q3, most = (scale * value for value in (q1, median, q3, max(times)))
    return f"median {median:.3f} {unit} (quartiles {q1:.3f}-{q3:.3f}, max {most:.3f}) over {len(times)}"


#: The players ``bench players`` times unless told: the generic searches at a few depths and budgets.
DEFAULT_PLAYERS = ("alphabeta:depth=2", "alphabeta:depth=4", "mcts:iterations=1000")


def players_benchmark(
    game: str, settings: Mapping[str, object], specs: tuple[str, ...], positions: int, seed: int = 0
) -> str:
    """The time per decision of each spec (CPU and wall) on ``positions`` positions of seeded random games."""
    boards = game_positions(game, settings, positions, seed)
    lines = [f"time per decision on {len(boards)} positions of seeded random games (seed {seed})"]
    for spec in specs or DEFAULT_PLAYERS:
        lines.append(f"{spec}, CPU:  {summary(decision_times(spec, game, boards), 'ms')}")
        lines.append(f"{spec}, wall: {summary(decision_times(spec, game, boards, time.perf_counter), 'ms')}")
    return "\n".join(lines)


def solver_benchmark(game: str, settings: Mapping[str, object], sizes: list[int], positions: int, seed: int = 0) -> str:
    """The exact solver's CPU time per position, by position size (positions of seeded random games)."""
    solver = exact_solver(get_plugin(game))
    lines = [f"exact solver ({type(solver).__name__}): CPU seconds per position, seed {seed}"]
    for size in sizes:
        boards = positions_of_size(game, settings, size, positions, seed)
        times = []
        for state in boards:
            began = time.process_time()
            solver.solve(state)
            times.append(time.process_time() - began)
        lines.append(f"{size} {solver.size_word}: {summary(times)}")
    return "\n".join(lines)
