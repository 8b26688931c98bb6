"""Engine benchmark: random-vs-random games per second through three paths.

* ``player API``: :func:`gpquarto.arena.game.play_game` with two :class:`RandomPlayer` objects: every
  decision goes through the player protocol, is validated by the engine, timed and recorded.
* ``fast playout``: :func:`gpquarto.games.quarto.playout.random_playout`, one game at a time (MCTS rollouts).
* ``batched playouts``: :func:`gpquarto.games.quarto.playout.random_playouts`, NumPy, many games per call.
"""

from __future__ import annotations

import random

import numpy as np

from gpquarto.arena.game import play_game
from gpquarto.bench.timing import Rates, median_rates
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.playout import random_playout, random_playouts
from gpquarto.players.random_player import RandomPlayer


def engine_benchmark(
    *, repeats: int = 5, seconds: float = 1.0, rules: Rules = Rules.CLASSIC, seed: int = 1
) -> dict[str, Rates]:
    """Median games per second (and every repeat's rate) for each path; repeats are interleaved."""
    players = (RandomPlayer(seed), RandomPlayer(seed + 1))
    board = Board(rules)
    rng = random.Random(seed)
    generator = np.random.default_rng(seed)

    def api_batch() -> int:
        for _ in range(200):
            play_game(players, rules=rules)
        return 200

    def playout_batch() -> int:
        for _ in range(1000):
            random_playout(board, rng)
        return 1000

    def batched() -> int:
        random_playouts(board, 20000, generator)
        return 20000

    batches = {
        "player API (play_game, RandomPlayer)": api_batch,
        "fast playout (random_playout)": playout_batch,
        "batched playouts (random_playouts, numpy)": batched,
    }
    return median_rates(batches, repeats, seconds)


def format_engine_benchmark(results: dict[str, Rates], rules: Rules) -> str:
    """The table printed by ``bench engine``."""
    width = max(len(name) for name in results)
    lines = [
        f"random vs random, {rules.value} rules: games per second (median of {len(next(iter(results.values()))[1])} repeats)"
    ]
    for name, (median, rates) in results.items():
        spread = f"min {min(rates):,.0f} max {max(rates):,.0f}"
        lines.append(f"{name:<{width}}  {median:>12,.0f}   ({spread})")
    return "\n".join(lines)
