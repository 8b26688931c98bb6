"""The fuzz suite's figures, printed at the end of the run: how many inputs each loader was given and how long they
took (the profiles are in :mod:`tests.fuzz.support`)."""

from __future__ import annotations

from tests.fuzz.support import PROFILE, STATS


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not STATS:
        return
    write = terminalreporter.write_line
    write(f"fuzz figures (profile {PROFILE}): inputs tried and seconds, per loader")
    total_inputs = total_seconds = 0.0
    for name, (count, seconds, worst) in sorted(STATS.items()):
        write(f"  {name:<34} {count:6d} inputs {seconds:8.2f} s  (slowest {worst:.2f} s)")
        total_inputs += count
        total_seconds += seconds
    write(f"  {'total':<34} {int(total_inputs):6d} inputs {total_seconds:8.2f} s")
