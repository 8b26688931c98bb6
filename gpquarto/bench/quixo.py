"""Quixo benchmarks: random playouts per second (pure Python, numba, and any reference given), alpha-beta's time
per decision on positions from real games, the exact solver's time, and strength against the random player.

Run them with ``python examples/quixo_bench.py`` (which also times the slow reference of the tests).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from gpquarto.arena.game import play_game
from gpquarto.arena.stats import wilson_interval
from gpquarto.bench.timing import Rates, median_rates
from gpquarto.games.quixo import compiled as quixo_compiled
from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.games.quixo.playout import random_playout
from gpquarto.players.registry import make_named_player
from gpquarto.search.quixo.alphabeta import QuixoSearch


def playout_rates(
    size: int = 5,
    repeats: int = 5,
    min_seconds: float = 1.0,
    reference: Callable[[random.Random], int] | None = None,
) -> dict[str, Rates]:
    """Random games per second from the empty board (official rules), interleaved repeats: ``pure`` (one core),
    ``numba`` (batches of 20,000, when numba is installed) and ``reference`` (``reference(rng)`` plays one game)."""
    board = QuixoBoard(size)
    rng = random.Random(0)

    def pure() -> int:
        for _ in range(200):
            random_playout(board, rng)
        return 200

    batches: dict[str, Callable[[], int]] = {"pure": pure}
    if quixo_compiled.AVAILABLE:
        quixo_compiled.random_playouts(board, 10, seed=0)  # compile outside the timing
        seeds = iter(range(1, 10**9))
        batches["numba"] = lambda: len(quixo_compiled.random_playouts(board, 20_000, seed=next(seeds)))
    if reference is not None:

        def slow() -> int:
            for _ in range(20):
                reference(rng)
            return 20

        batches["reference"] = slow
    return median_rates(batches, repeats, min_seconds)


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


def strength(spec: str, games: int = 1000, seed: int = 0, size: int = 5, opponent: str = "random") -> dict:
    """``spec`` against ``opponent`` over ``games`` games, seats alternating: wins, draws, losses, the score rate
    and its Wilson 95% interval, and the wall time."""
    player = make_named_player(spec, game="quixo", seed=seed)
    other = make_named_player(opponent, game="quixo", seed=seed + 1)
    wins = draws = 0
    began = time.perf_counter()
    for index in range(games):
        seat = index % 2
        players = (player, other) if seat == 0 else (other, player)
        record = play_game(players, game="quixo", settings={"size": size}, seed=seed + index)
        outcome = record.outcome
        if outcome.winner is None:
            draws += 1
        elif outcome.winner == seat:
            wins += 1
    score = wins + draws / 2
    return {
        "spec": spec,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "score_rate": score / games if games else 0.0,
        "interval": wilson_interval(score, games),
        "seconds": time.perf_counter() - began,
    }


def summary(times: list[float]) -> str:
    """Median, quartiles and maximum of a list of seconds, as text."""
    q1, median, q3 = statistics.quantiles(times, n=4) if len(times) > 1 else (times[0],) * 3
    return f"median {median:.3f} s (quartiles {q1:.3f}-{q3:.3f}, max {max(times):.3f}) over {len(times)}"
