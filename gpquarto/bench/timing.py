"""Timing helper: repeat a measurement and report the median rate (the machine is shared and noisy)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from time import perf_counter


def median_rate(batch: Callable[[], int], repeats: int, min_seconds: float) -> tuple[float, list[float]]:
    """Run ``batch`` (which returns how many items it did) until each repeat lasts ``min_seconds``;
    return the median items per second and all the repeat rates."""
    rates = []
    for _ in range(repeats):
        done = 0
        began = perf_counter()
        while True:
            done += batch()
            elapsed = perf_counter() - began
            if elapsed >= min_seconds:
                break
        rates.append(done / elapsed)
    return statistics.median(rates), rates
