"""Timing helper: repeat measurements and report median rates (the machine is shared and noisy)."""

from __future__ import annotations

import importlib
import os
import statistics
import sys
from collections.abc import Callable, Mapping
from time import perf_counter

Rates = tuple[float, list[float]]  # the median items per second, and every repeat's rate


def median_rates(
    batches: Mapping[str, Callable[[], int]],
    repeats: int,
    min_seconds: float,
    clock: Callable[[], float] | None = None,
) -> dict[str, Rates]:
    """Run each batch (which returns how many items it did) until a repeat lasts ``min_seconds``, and
    return each batch's median items per second with every repeat's rate. Seconds are read on ``clock``: wall
    time (None, the default), or ``time.process_time`` for the CPU time of this process (one core), which other work on a shared
    machine does not inflate.

    Repeats are interleaved: repeat ``i`` of every batch runs before repeat ``i + 1`` of any, so a slow
    spell of a shared machine lands on all of them alike and their ratios stay fair."""
    clock = clock or perf_counter
    rates: dict[str, list[float]] = {name: [] for name in batches}
    for _ in range(repeats):
        for name, batch in batches.items():
            done = 0
            began = clock()
            while True:
                done += batch()
                elapsed = clock() - began
                if elapsed >= min_seconds:
                    break
            rates[name].append(done / elapsed)
    return {name: (statistics.median(values), values) for name, values in rates.items()}


def reference_module(module_name: str):
    """Import the module named by ``--compare`` (e.g. ``tests.reference``, from a source checkout); a module
    that cannot be imported is a one-line ``ValueError``."""
    try:
        try:
            return importlib.import_module(module_name)
        except ModuleNotFoundError:
            if os.getcwd() in sys.path:
                raise
            sys.path.insert(0, os.getcwd())  # the console script does not put the working directory on the path
            return importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(
            f"--compare {module_name}: cannot import it ({error}); tests.reference needs a source checkout"
        ) from None
