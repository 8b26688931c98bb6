"""The runner interface, the serial runner and batching shared by every back-end."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

#: Called with the results just finished, in no particular order (for progress bars).
Progress = Callable[[list], None]

#: Guided batching: each batch takes this share of what is left, divided among the workers (``1 / (2 w)``).
#: Batches start large (little overhead) and shrink to single items at the end of a map, so the workers
#: finish together instead of one waiting for the other's last large batch.
GUIDED_SHARE = 2


class RunnerError(RuntimeError):
    """The runner could not finish: a worker died, the scheduler is unreachable or was lost."""


def available_cores() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def batches(items: Sequence[Any], workers: int, *, size: int | None = None) -> list[list[Any]]:
    """Cut ``items`` into contiguous batches (never an empty one): of ``size`` items each, or else guided, each
    batch ``ceil(left / (GUIDED_SHARE * workers))`` items long, where ``left`` is what the batches before it
    leave over."""
    if not items:
        return []
    if size is not None:
        return [list(items[start : start + size]) for start in range(0, len(items), size)]
    share = GUIDED_SHARE * max(1, workers)
    cut: list[list[Any]] = []
    start = 0
    while start < len(items):
        length = -(-(len(items) - start) // share)
        cut.append(list(items[start : start + length]))
        start += length
    return cut


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

        Items travel in guided batches (large first, single items last); ``batch_size`` fixes their size
        instead, for callers whose items are already large (``1``: each item is a task).
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
