"""What every fuzzed input must give: a result or a one-line error, within a time budget and a memory cap.

:func:`outcome` runs one input through a loader and fails the test on anything else: an exception that is not
a ``ValueError`` (a traceback for the user), an error message of more than one line, an input that takes longer
than its budget, or one that allocates more than its cap (measured with :mod:`tracemalloc`, which sees Python's
and NumPy's allocations; for a whole command, ``per_process=True``, by how far the process's peak resident memory
rose, which Linux measures for nothing where tracing every allocation of the command's real work would double its
time). It also counts inputs and time per loader for the figures at the end of the run.
"""

from __future__ import annotations

import os
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, settings

#: The profiles: ``ci`` (the default) is seeded (``derandomize``: the same inputs on every run) and bounded, a minute
#: or two for the whole suite; ``nightly`` draws new inputs every run, 50 times as many
#: (``HYPOTHESIS_PROFILE=nightly python -m pytest tests/fuzz``; docs/conventions.md). They apply to the fuzz tests
#: only (:data:`FUZZ`), never to the other tests' Hypothesis settings.
_COMMON = {
    "deadline": None,  # each input's time is checked by the suite itself, against its own budget
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
    "database": None,
}
settings.register_profile("fuzz-ci", derandomize=True, max_examples=40, **_COMMON)
settings.register_profile("fuzz-nightly", derandomize=False, max_examples=2000, **_COMMON)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
#: The settings of every fuzz test (a decorator).
FUZZ = settings.get_profile("fuzz-nightly" if PROFILE == "nightly" else "fuzz-ci")

#: Loader name -> (inputs tried, seconds, slowest input's seconds).
STATS: dict[str, tuple[int, float, float]] = {}
#: The default budget of one input, and the memory one may allocate.
SECONDS = 5.0
MEMORY = 200_000_000


class Refused(Exception):
    """An input that a loader refused in one line (the message)."""


def outcome(
    name: str,
    call: Callable[[], object],
    *,
    seconds: float = SECONDS,
    memory: int = MEMORY,
    per_process: bool = False,
) -> object:
    """``call()``'s result, or :class:`Refused` holding its one-line ``ValueError``; an ``AssertionError`` for any
    other exception, a message of several lines, a call over ``seconds`` or over ``memory`` bytes (allocated, or
    with ``per_process`` the rise of the process's peak resident memory where Linux gives it)."""
    resident_rise = _resident_peak_rise() if per_process else None
    tracing = resident_rise is None and not tracemalloc.is_tracing()
    if tracing:
        tracemalloc.start()
    if resident_rise is None:
        tracemalloc.reset_peak()
    started = time.perf_counter()
    try:
        result: object = call()
    except ValueError as error:
        message = str(error)
        assert message and "\n" not in message and len(message) < 2000, f"{name}: not a one-line error: {message!r}"
        assert "Traceback" not in message, message
        result = Refused(message)
    finally:
        elapsed = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1] if resident_rise is None else resident_rise()
        if tracing:
            tracemalloc.stop()
        count, total, worst = STATS.get(name, (0, 0.0, 0.0))
        STATS[name] = (count + 1, total + elapsed, max(worst, elapsed))
    assert elapsed < seconds, f"{name}: {elapsed:.1f} s for one input, over its {seconds:g} s budget"
    assert peak < memory, f"{name}: {peak:,} bytes allocated for one input, over its {memory:,} cap"
    return result


def _resident_peak_rise() -> Callable[[], int] | None:
    """Reset this process's peak resident memory and return a function giving how far it rose since, in bytes; None
    where the system cannot (not Linux, or ``/proc/self/clear_refs`` is not writable)."""

    def resident() -> tuple[int, int]:  # (peak, now) in kB
        fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
        return int(fields["VmHWM"].split()[0]), int(fields["VmRSS"].split()[0])

    try:
        Path("/proc/self/clear_refs").write_text("5")  # 5: the peak becomes the current size
        _, start = resident()
    except (OSError, KeyError, ValueError):
        return None
    return lambda: max(0, resident()[0] - start) * 1024
