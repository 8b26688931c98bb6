"""Runners: anything with ``map(function, items) -> list`` (results in the order of ``items``).

Bank building hands its independent jobs (play a game, solve a position) to a runner. Items are plain data
and functions are module-level, so any runner works: :data:`SERIAL` in this process, or
:func:`process_runner` on local processes (the one adapter to swap for a shared runner).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Protocol


class Runner(Protocol):
    """Runs ``function`` on every item and returns the results in order."""

    def map(self, function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]: ...


class SerialRunner:
    """Runs everything in this process, one item after the other."""

    def map(self, function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        return [function(item) for item in items]


#: The default runner.
SERIAL = SerialRunner()


@contextmanager
def process_runner(workers: int) -> Iterator[Runner]:
    """A runner on ``workers`` local processes (:data:`SERIAL` when ``workers`` is 1), closed on exit."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if workers == 1:
        yield SERIAL
        return

    class _PoolRunner:
        def map(self, function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
            items = list(items)
            chunksize = max(1, len(items) // (4 * workers))
            return list(pool.map(function, items, chunksize=chunksize))

    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield _PoolRunner()
