"""Learning benchmark: episodes per second of each learning method on 1 worker and on 2, medians over repeats.

Each repeat is a fresh learning run of the same config (default opponents: self-play; no learning curve) in a
temporary folder, timed whole: episodes, their updates and the checkpoint after every batch. Repeat ``i`` runs
on every (method, runner) before repeat ``i + 1`` on any, so a slow spell of a shared machine lands on all of
them alike; the speed-up of 2 workers is the median of the per-repeat ratios. Every runner learns the same
model (the runs are deterministic), so the times compare the same work.
"""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter

from gpquarto.learning import LearnConfig, learn
from gpquarto.runner import Runner


@dataclass
class EpisodeRates:
    """One method on one runner: episodes per second of every repeat."""

    method: str
    runner: str
    rates: list[float]

    @property
    def median(self) -> float:
        """Median episodes per second."""
        return statistics.median(self.rates)


def learn_benchmark(
    runners: dict[str, Callable[[], Runner]],
    configs: dict[str, LearnConfig],
    *,
    repeats: int = 3,
) -> list[EpisodeRates]:
    """Episodes per second of every config (by method name) on every runner, ``repeats`` interleaved runs
    each after a warm-up run per runner (workers start and import the game)."""
    made = {label: make() for label, make in runners.items()}
    results = {(method, label): EpisodeRates(method, label, []) for method in configs for label in made}
    try:
        with tempfile.TemporaryDirectory(prefix="gpquarto-bench-learn-") as folder:
            first = next(iter(configs.values()))
            warm = LearnConfig.from_dict({**first.as_dict(), "episodes": min(first.episode_count, first.batch)})
            for number, runner in enumerate(made.values()):
                learn(warm, Path(folder) / f"warm-{number}", runner=runner)
            for repeat in range(repeats):
                for method, config in configs.items():
                    for number, (label, runner) in enumerate(made.items()):
                        began = perf_counter()
                        learn(config, Path(folder) / f"{method}-{number}-{repeat}", runner=runner)
                        results[method, label].rates.append(config.episode_count / (perf_counter() - began))
        return list(results.values())
    finally:
        for runner in made.values():
            runner.close()


def format_learn_benchmark(results: list[EpisodeRates], configs: dict[str, LearnConfig]) -> str:
    """A table of median (min-max) episodes per second by method and runner, with each runner's speed-up over
    the first runner of its method (median of the per-repeat ratios)."""
    config = next(iter(configs.values()))
    lines = [
        f"episodes per second: {config.game} {config.settings}, {config.episodes} episodes per run, opponents "
        f"{config.opponents} (median of {len(results[0].rates)} interleaved repeats; speed-up: median of the "
        "per-repeat ratios)",
        f"{'method':<12} {'runner':<22} {'median':>9} {'min':>9} {'max':>9} {'speed-up':>9}",
    ]
    for method in configs:
        mine = [result for result in results if result.method == method]
        for result in mine:
            speedup = statistics.median(b / a for a, b in zip(mine[0].rates, result.rates, strict=True))
            lines.append(
                f"{method:<12} {result.runner:<22} {result.median:>9.1f} {min(result.rates):>9.1f} "
                f"{max(result.rates):>9.1f} {speedup:>8.2f}x"
            )
    return "\n".join(lines)
