"""The benchmark timing helper: interleaved repeats, rates from a clock, medians."""

from __future__ import annotations

import itertools

from gpquarto.bench import timing


def test_repeats_are_interleaved_and_rates_are_items_per_second(monkeypatch):
    ticks = itertools.count()
    monkeypatch.setattr(timing, "perf_counter", lambda: float(next(ticks)))  # each reading one second later
    calls = []

    def batch(name, items):
        def run():
            calls.append(name)
            return items

        return run

    results = timing.median_rates({"a": batch("a", 10), "b": batch("b", 4)}, repeats=3, min_seconds=2.0)
    # A repeat reads the clock at its start and after each batch; it stops once 2 s have passed.
    assert calls == ["a", "a", "b", "b"] * 3
    assert results["a"] == (10.0, [10.0, 10.0, 10.0])  # 20 items in 2 s
    assert results["b"] == (4.0, [4.0, 4.0, 4.0])


def test_the_median_ignores_one_slow_repeat(monkeypatch):
    durations = iter([0.0, 1.0, 0.0, 4.0, 0.0, 1.0])  # start and end readings of three repeats
    monkeypatch.setattr(timing, "perf_counter", lambda: next(durations))
    median, rates = timing.median_rates({"a": lambda: 8}, repeats=3, min_seconds=0.5)["a"]
    assert rates == [8.0, 2.0, 8.0]
    assert median == 8.0
