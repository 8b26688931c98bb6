"""Local worker processes (started with ``spawn``, the same on every platform)."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from gpquarto.runner.base import Progress, Runner, RunnerError, batches, gather_in_order, run_batch


def _ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C reaches the whole process group; only the parent should act on it,
    so the workers print no tracebacks and are stopped by the parent instead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProcessRunner(Runner):
    """A pool of ``workers`` local processes, started at the first :meth:`map` and reused until :meth:`close`."""

    name = "processes"

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_interrupts
            )
        return self._pool

    def map(self, function: Callable[[Any], Any], items: Iterable[Any], *, progress: Progress | None = None) -> list:
        items = list(items)
        if not items:
            return []
        parts: dict[int, list[Any]] = {}
        pool = self._executor()
        futures: dict[Future, int] = {}
        try:
            for index, batch in enumerate(batches(items, self.workers)):
                futures[pool.submit(run_batch, function, batch)] = index
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    parts[futures[future]] = future.result()
                    if progress is not None:
                        progress(parts[futures[future]])
        except BrokenProcessPool:
            self._stop()
            raise RunnerError("a worker process died (killed, or out of memory) before its tasks were done") from None
        except BaseException:  # Ctrl-C or a task's exception: stop the workers now, then let it through
            self._stop()
            raise
        return gather_in_order(parts, len(futures))

    def _stop(self) -> None:
        """Stop every worker at once, without waiting for running tasks."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
        if terminate is not None:
            terminate()
        else:  # older Pythons have no public way to stop busy workers
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        """Let the workers finish and exit."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)
