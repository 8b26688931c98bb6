"""``bench engine --game openspiel:NAME``: random games per second through gpquarto's game interface and through
OpenSpiel's own Python loop over ``pyspiel`` (``legal_actions``, ``apply_action``, ``is_terminal``), in turn in one
process, and the wrapper's overhead (how many times slower the interface is)."""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from gpquarto.bench.generic import RANDOM_GAMES, random_game_rates
from gpquarto.bench.timing import median_rates
from gpquarto.games.capabilities import Benchmarks
from gpquarto.games.registry import get_plugin

#: The row of OpenSpiel's own loop.
SPIEL_LOOP = "random games of OpenSpiel's Python loop over pyspiel"


def spiel_game_rates(
    spiel_game: Any, repeats: int, min_seconds: float
) -> dict[str, tuple[float, list[float]]]:  # pyspiel: untyped
    """Random games per second of OpenSpiel's own loop (the same draws as gpquarto's), median of repeats."""
    rng = random.Random(0)

    def batch() -> int:
        for _ in range(20):
            state = spiel_game.new_initial_state()
            while not state.is_terminal():
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
        return 20

    return median_rates({SPIEL_LOOP: batch}, repeats, min_seconds, time.process_time)


class OpenSpielBenchmarks(Benchmarks):
    """``engine``: gpquarto's interface beside OpenSpiel's own loop, repeat by repeat."""

    targets = ("engine",)

    def run(self, target: str, args: argparse.Namespace) -> int:
        plugin = get_plugin(args.game)
        title = plugin.title
        ours: dict[str, list[float]] = {}
        theirs: dict[str, list[float]] = {}
        for _ in range(args.repeats):  # in turn, so that a drift of the machine's speed touches both alike
            ours = _merge(ours, random_game_rates(plugin.name, {}, 1, args.seconds))
            theirs = _merge(theirs, spiel_game_rates(plugin.game.spiel, 1, args.seconds))  # type: ignore[attr-defined]  # an OpenSpielGame
        print(f"{title}: games per second (CPU of one process, median of {args.repeats}, in turn)")
        mine, spiel = _median(ours[RANDOM_GAMES]), _median(theirs[SPIEL_LOOP])
        print(f"{RANDOM_GAMES}: {mine:,.0f} games/s")
        print(f"{SPIEL_LOOP}: {spiel:,.0f} games/s")
        print(f"overhead of gpquarto's interface: {spiel / mine:.2f}x (target: within 3x)")
        return 0


def _merge(into: dict[str, list[float]], rates: dict[str, tuple[float, list[float]]]) -> dict[str, list[float]]:
    merged = dict(into)
    for name, (_, every) in rates.items():
        merged[name] = [*merged.get(name, []), *every]
    return merged


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


BENCHMARKS = OpenSpielBenchmarks()
