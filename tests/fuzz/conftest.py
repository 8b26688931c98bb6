"""The fuzz suite's settings: Hypothesis profiles and the figures printed at the end.

``ci`` (the default) is seeded (``derandomize``: the same inputs on every run) and bounded: a few minutes for the
whole suite. ``nightly`` draws new inputs every run, many more of them: ``HYPOTHESIS_PROFILE=nightly
python -m pytest tests/fuzz`` (about an hour; see docs/conventions.md). Every test says how many inputs each
loader was given and how long they took, in a table at the end of the run.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from tests.fuzz.support import STATS

_COMMON = {
    "deadline": None,  # each input's time is checked by the suite itself, against its own budget
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
    "database": None,
}
settings.register_profile("ci", derandomize=True, max_examples=40, **_COMMON)
settings.register_profile("nightly", derandomize=False, max_examples=2000, **_COMMON)
#: Examples per test by profile, for the slow targets (the command line), as a share of ``max_examples``.
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not STATS:
        return
    write = terminalreporter.write_line
    profile = os.environ.get("HYPOTHESIS_PROFILE", "ci")
    write(f"fuzz figures (profile {profile}): inputs tried and seconds, per loader")
    total_inputs = total_seconds = 0.0
    for name, (count, seconds, worst) in sorted(STATS.items()):
        write(f"  {name:<34} {count:6d} inputs {seconds:8.2f} s  (slowest {worst:.2f} s)")
        total_inputs += count
        total_seconds += seconds
    write(f"  {'total':<34} {int(total_inputs):6d} inputs {total_seconds:8.2f} s")
