"""Local worker processes, each starting from a fresh state, the same on every platform (:func:`worker_context`)."""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from gpquarto.runner.base import Progress, Runner, RunnerError, batches, gather_in_order, run_batch

#: Batches waiting or running per worker process.
IN_FLIGHT_PER_WORKER = 2


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C back until the block is done (it is raised right after)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        # Inside the try: a Ctrl-C already caught (by another thread) is raised by this very call, and the
        # block must not outlive it (every later Ctrl-C of the process, and of the commands it starts, would wait).
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


#: Seconds the parent waits for a batch before it looks at its signals again: a Ctrl-C that the kernel hands to
#: another thread of the parent (any thread that does not block it may take it) does not wake the main thread from
#: its wait, so the wait must end by itself for the KeyboardInterrupt to be raised.
SIGNAL_CHECK_SECONDS = 0.25
#: Seconds between checks that the parent is alive, for a worker not started by multiprocessing.
PARENT_CHECK_SECONDS = 1.0
#: The module a forkserver imports last: it loads the compiled code of the modules before it.
PRELOAD = "gpquarto.runner.preload"
#: The module a forkserver imports first (see :mod:`gpquarto.runner.server_start`).
SERVER_START = "gpquarto.runner.server_start"


def _watch_parent() -> None:
    """Exit as soon as the process that started this worker is gone (killed without the chance to stop it).

    The worker's parent in the process table may be a forkserver, which outlives the program while workers hold
    it open; the pipe from the program that multiprocessing gives every child closes when that program ends."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()
    else:  # not started by multiprocessing: watch the process that started it
        started_by = os.getppid()
        while os.getppid() == started_by:
            time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def _preloaded_modules() -> list[str]:
    """The modules a forkserver imports once for all its workers: first :data:`SERVER_START` (Ctrl-C left to the
    program), then the gpquarto modules this process has loaded (those its workers will need; never a ``__main__``,
    which would run a program) and the libraries they build on, and last :data:`PRELOAD`, which loads the machine
    code numba cached for them and freezes the server's objects."""
    ours = [name for name in sys.modules if name.split(".")[0] == "gpquarto" and not name.endswith("__main__")]
    return [SERVER_START, "numpy", "deap", "dill", *sorted(set(ours) - {PRELOAD, SERVER_START}), PRELOAD]


def worker_context() -> multiprocessing.context.ForkServerContext | multiprocessing.context.SpawnContext:
    """How worker processes start: ``forkserver`` on Linux, else ``spawn`` (Python 3.14's defaults: on macOS a fork,
    even a forkserver's, may break system libraries that the imports started).

    Either way a worker starts from a fresh state, none of the parent's memory: its modules are imported anew
    (a spawned worker imports them itself; a forkserver worker is a fork of a server process that imported them
    once, at the first worker of this process, so it is ready in milliseconds instead of a fraction of a second),
    and it takes the parent's current environment variables (:func:`setup_worker`), as a spawned one does."""
    if not sys.platform.startswith("linux"):
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_preloaded_modules())  # read when the server starts, at the first worker
    return context


def setup_worker(environment: Mapping[str, str] | None = None) -> None:
    """Worker initializer. Ctrl-C reaches the whole process group; only the parent should act on it, so the
    workers ignore it (no tracebacks) and are stopped by the parent. A parent killed outright (SIGKILL, SIGTERM)
    cannot stop them, so each worker also leaves by itself as soon as its parent is gone:
    orphans would otherwise keep computing for nobody. ``environment`` (the parent's variables when it started the
    worker) replaces the worker's own: a forkserver's workers would otherwise see the server's, from its start."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if environment is not None:
        os.environ.clear()
        os.environ.update(environment)
    threading.Thread(target=_watch_parent, name="parent-watch", daemon=True).start()


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
                self.workers, mp_context=worker_context(), initializer=setup_worker, initargs=(dict(os.environ),)
            )
        return self._pool

    def map(
        self,
        function: Callable[[Any], Any],
        items: Iterable[Any],
        *,
        progress: Progress | None = None,
        batch_size: int | None = None,
    ) -> list:
        items = list(items)
        if not items:
            return []
        parts: dict[int, list[Any]] = {}
        pool = self._executor()
        chunks = batches(items, self.workers, size=batch_size)
        futures: dict[Future, int] = {}
        pending: set[Future] = set()
        next_chunk = 0
        try:
            while next_chunk < len(chunks) or pending:
                # A few batches in flight per worker: memory stays small and Ctrl-C lands in wait(), not in
                # submit(), which holds the executor's lock (shutting down from there would deadlock).
                while next_chunk < len(chunks) and len(pending) < IN_FLIGHT_PER_WORKER * self.workers:
                    with _interrupts_deferred():
                        future = pool.submit(run_batch, function, chunks[next_chunk])
                    futures[future] = next_chunk
                    pending.add(future)
                    next_chunk += 1
                done, pending = wait(pending, timeout=SIGNAL_CHECK_SECONDS, return_when=FIRST_COMPLETED)
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
        return gather_in_order(parts, len(chunks))

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
