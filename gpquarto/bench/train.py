"""Training benchmark: seconds per generation of a training config on several runners, measured in one run.

Each runner gets its own run of the same config and seed; after a warm-up generation (workers start,
libraries load), repeat ``i`` times one generation on every runner before repeat ``i + 1`` on any, so a
slow spell of a shared machine lands on all of them alike. Every runner gives the same generations (the
results do not depend on the runner), so the times compare the same work.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

from gpquarto.gp.library import get_library
from gpquarto.runner import Runner
from gpquarto.training import Evolution, EvolutionConfig


@dataclass
class GenerationTimes:
    """One runner's seconds per generation (every repeat), and the median."""

    label: str
    seconds: list[float]

    @property
    def median(self) -> float:
        """Median seconds per generation."""
        return statistics.median(self.seconds)


def train_benchmark(
    runners: dict[str, Callable[[], Runner]],
    config: EvolutionConfig | None = None,
    *,
    repeats: int = 5,
    on_result: Callable[[str], None] | None = None,
) -> list[GenerationTimes]:
    """Median seconds per generation of ``config`` (default: the default training) on each runner."""
    config = config or EvolutionConfig()
    library = get_library(config.library())
    made = {label: make() for label, make in runners.items()}
    try:
        runs = {label: Evolution.start(config, library, runner) for label, runner in made.items()}
        for label, runner in made.items():
            runs[label].step(runner)  # warm-up: workers start and load the library
        times = {label: GenerationTimes(label, []) for label in made}
        for _ in range(repeats):
            for label, runner in made.items():
                began = perf_counter()
                runs[label].step(runner)
                times[label].seconds.append(perf_counter() - began)
        if on_result is not None:
            for label in made:
                on_result(label)
        return list(times.values())
    finally:
        for runner in made.values():
            runner.close()


def paired_speedup(reference: GenerationTimes, result: GenerationTimes) -> float:
    """Median over repeats of ``reference / result`` for the same generation, timed one right after the other.

    On a shared machine a slow spell lengthens whole repeats; a ratio within a repeat cancels it, where a ratio
    of medians would not (and each repeat is the same generation's work on both runners)."""
    return statistics.median(
        slow / fast for slow, fast in zip(reference.seconds, result.seconds, strict=True) if fast > 0
    )


def format_train_benchmark(results: list[GenerationTimes], config: EvolutionConfig) -> str:
    """A table of median (min-max) seconds per generation, and each runner's speed-up over the first (median of
    the per-generation ratios, :func:`paired_speedup`)."""
    reference = results[0]
    lines = [
        f"seconds per generation: population {config.population}, {config.games} games each, "
        f"opponents {config.opponents} (median of {len(results[0].seconds)} interleaved repeats; "
        "speed-up: median of the per-repeat ratios)",
        f"{'runner':<28} {'median':>8} {'min':>8} {'max':>8} {'speed-up':>9}",
    ]
    for result in results:
        lines.append(
            f"{result.label:<28} {result.median:>8.3f} {min(result.seconds):>8.3f} {max(result.seconds):>8.3f} "
            f"{paired_speedup(reference, result):>8.2f}x"
        )
    return "\n".join(lines)
