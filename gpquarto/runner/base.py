"""The runner interface, the serial runner and batching shared by every back-end."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

#: Called with the results just finished, in no particular order (for progress bars).
Progress = Callable[[list], None]

#: Batches per worker and map: enough to balance uneven tasks, few enough to keep the overhead small.
BATCHES_PER_WORKER = 4


class RunnerError(RuntimeError):
    """The runner could not finish: a worker died, the scheduler is unreachable or was lost."""


def available_cores() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def batches(
    items: Sequence[Any], workers: int, *, per_worker: int = BATCHES_PER_WORKER, size: int | None = None
) -> list[list[Any]]:
    """Cut ``items`` into contiguous batches of ``size`` items, or about ``per_worker`` per worker (never an
    empty batch)."""
    if not items:
        return []
    if size is None:
        size = max(1, -(-len(items) // (max(1, workers) * per_worker)))
    return [list(items[start : start + size]) for start in range(0, len(items), size)]


def run_batch(function: Callable[[Any], Any], batch: list[Any]) -> list[Any]:
    """``[function(item) for item in batch]``: what a worker runs (module-level, so it pickles)."""
    return [function(item) for item in batch]


class Runner:
    """Runs ``function`` over many items. Subclasses override :meth:`map` (and :meth:`close`)."""

    #: Short name of the back-end (``serial``, ``processes``, ``dask``).
    name = "runner"
    #: How many tasks run at once.
    workers = 1

    def map(
        self,
        function: Callable[[Any], Any],
        items: Iterable[Any],
        *,
        progress: Progress | None = None,
        batch_size: int | None = None,
    ) -> list:
        """``[function(item) for item in items]``, in order; ``progress(results)`` as items finish.

        Items travel in batches (about four per worker); ``batch_size`` sets their size instead, for callers
        whose items are already large (``1``: each item is a task).
        """
        raise NotImplementedError

    def describe(self) -> str:
        """One line saying where tasks run."""
        return f"{self.name}, {self.workers} worker{'s' if self.workers != 1 else ''}"

    def close(self) -> None:
        """Release the workers (a closed runner may not be used again)."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class SerialRunner(Runner):
    """Runs everything in this process, one item after the other."""

    name = "serial"

    def map(
        self,
        function: Callable[[Any], Any],
        items: Iterable[Any],
        *,
        progress: Progress | None = None,
        batch_size: int | None = None,
    ) -> list:
        results = []
        for item in items:
            result = function(item)
            results.append(result)
            if progress is not None:
                progress([result])
        return results


def gather_in_order(parts: dict[int, list[Any]], count: int) -> list[Any]:
    """Concatenate the results of batches ``0 .. count - 1`` (a dict filled as batches finish)."""
    results: list[Any] = []
    for index in range(count):
        results.extend(parts[index])
    return results


#: A serial runner for default arguments (it holds no state).
SERIAL = SerialRunner()
