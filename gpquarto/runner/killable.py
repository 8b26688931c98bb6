"""Calls that can be stopped: a small pool of worker processes, each killed and replaced when a call runs late.

A thread cannot be stopped in Python, so work that may run away (a search with a huge budget, a player that
never answers) runs in a :class:`Worker`: a process that starts from a fresh state
(:func:`~gpquarto.runner.processes.worker_context`) and runs one call at a time.
:meth:`Worker.call` waits at most ``limit`` seconds; past that the process is killed (its memory goes with it),
:class:`CallTimeout` is raised, and a fresh process is started in its place. :class:`KillablePool` hands out
at most ``size`` workers at a time (:meth:`KillablePool.lease`), so a caller that leases a worker first, then
starts its clock, never counts the wait for a free worker against its limit. :meth:`KillablePool.close` kills
every worker at once: calls in progress raise :class:`PoolClosed` within about 0.1 s (a server's Ctrl-C).

Functions must be importable module-level functions and their arguments picklable, as for every runner.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any

from gpquarto.runner.processes import setup_worker, worker_context

#: Seconds a new worker may take to start (import its modules) before the call fails.
START_SECONDS = 60.0
#: Seconds between checks for the time limit and for the pool closing while a call runs.
POLL_SECONDS = 0.05
_READY = b"ready"


class PoolClosed(RuntimeError):
    """The pool was closed (the program is stopping) while a call waited or ran."""


class CallTimeout(Exception):
    """A call ran past its limit and its process was killed; ``elapsed`` and ``limit`` are in seconds."""

    def __init__(self, elapsed: float, limit: float) -> None:
        super().__init__(f"stopped after {elapsed:.3f} s, over the {limit:g} s limit")
        self.elapsed = elapsed
        self.limit = limit


class WorkerDied(RuntimeError):
    """The worker process ended during a call (killed from outside, out of memory, a crash)."""


def _serve(connection, environment: dict[str, str]) -> None:
    """A worker's main loop: run each ``(function, args)`` received and send back ``(True, result)`` or
    ``(False, "ExceptionName: message")``."""
    setup_worker(environment)
    connection.send_bytes(_READY)
    while True:
        try:
            data = connection.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            function, args = pickle.loads(data)
            reply = (True, function(*args))
        except BaseException as error:  # the call's failure is the caller's to report, never the worker's end
            reply = (False, f"{type(error).__name__}: {error}")
        try:
            payload = pickle.dumps(reply)
        except Exception as error:
            payload = pickle.dumps((False, f"the result cannot be sent back: {type(error).__name__}: {error}"))
        connection.send_bytes(payload)


class Worker:
    """One worker process; started when first needed, killed and restarted when a call runs late."""

    def __init__(self, closed: threading.Event) -> None:
        self._closed = closed
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: Connection | None = None
        self._ready = False

    @property
    def pid(self) -> int | None:
        """The process id of the current worker process, None before it starts."""
        return None if self._process is None else self._process.pid

    def start(self) -> None:
        """Start the process (if it is not running) without waiting for it to be ready."""
        if self._process is not None and self._process.is_alive():
            return
        context = worker_context()
        parent, child = context.Pipe()
        process = context.Process(target=_serve, args=(child, dict(os.environ)), name="gpquarto-killable", daemon=True)
        process.start()
        child.close()
        self._process, self._connection, self._ready = process, parent, False

    def wait_ready(self) -> None:
        """Start the process if needed and wait until it is ready for calls (:class:`WorkerDied` if it fails)."""
        self.start()
        if self._ready:
            return
        deadline = time.monotonic() + START_SECONDS
        while not self._poll():
            if time.monotonic() > deadline:
                self.kill()
                raise WorkerDied(f"a worker process did not start within {START_SECONDS:g} s")
        if self._receive() != _READY:
            self.kill()
            raise WorkerDied("a worker process started wrongly")
        self._ready = True

    def _poll(self) -> bool:
        if self._closed.is_set():
            raise PoolClosed("stopping: the worker processes are closed")
        try:
            if self._connection is None:
                raise EOFError  # killed meanwhile
            return self._connection.poll(POLL_SECONDS)
        except (EOFError, OSError):
            return True  # the pipe broke: _receive says so

    def _receive(self) -> bytes:
        try:
            if self._connection is None:
                raise EOFError  # killed meanwhile
            return self._connection.recv_bytes()
        except (EOFError, OSError):
            self.kill()
            if self._closed.is_set():
                raise PoolClosed("stopping: the worker processes are closed") from None
            raise WorkerDied("the worker process ended during the call (killed, or out of memory)") from None

    def call(self, function: Callable[..., Any], args: tuple, limit: float) -> Any:
        """``function(*args)`` in the worker, within ``limit`` seconds counted once the worker is ready.

        Raises :class:`CallTimeout` (the process is killed, a new one started), :class:`WorkerDied`,
        :class:`PoolClosed`, or ``RuntimeError("ExceptionName: message")`` when the function raised.
        """
        self.wait_ready()
        assert self._connection is not None  # wait_ready started the process
        started = time.perf_counter()
        self._connection.send_bytes(pickle.dumps((function, args)))
        while not self._poll():
            elapsed = time.perf_counter() - started
            if elapsed > limit:
                self.kill()
                self.start()  # the replacement starts now, ready by the next call
                raise CallTimeout(elapsed, limit)
        ok, result = pickle.loads(self._receive())
        if not ok:
            raise RuntimeError(result)
        return result

    def stop(self) -> None:
        """Kill the process from any thread; a call in progress sees its pipe break and cleans up."""
        process = self._process
        if process is not None:
            process.kill()

    def kill(self) -> None:
        """Kill the process at once (SIGKILL), wait for it to be gone and drop its pipe (the caller's thread)."""
        process, self._process, self._ready = self._process, None, False
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if process is not None:
            process.kill()
            process.join(timeout=5)


class KillablePool:
    """At most ``size`` workers, leased one at a time; see the module docstring."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, got {size}")
        self.size = size
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._idle = [Worker(self._closed) for _ in range(size)]
        self._everyone = list(self._idle)
        self._free = threading.Semaphore(size)

    def start(self) -> None:
        """Start every worker process now (they get ready in the background); none once the pool is closed, and a
        worker whose start was under way when it closed is killed."""
        with self._lock:
            for worker in self._idle:
                if self._closed.is_set():
                    return
                worker.start()
                if self._closed.is_set():
                    worker.stop()
                    return

    def start_in_background(self) -> threading.Thread:
        """:meth:`start` in a thread of its own, so that the caller goes on at once: a server answers the requests
        that need no worker while the processes start (the first start of a forkserver imports the workers'
        modules). A lease waits for its worker to be ready anyway, and starts it again should its start here have
        failed, reporting that failure to its caller."""

        def start() -> None:
            with contextlib.suppress(Exception):  # the first lease of the worker starts it again and reports it
                self.start()

        thread = threading.Thread(target=start, name="killable-pool-start", daemon=True)
        thread.start()
        return thread

    @property
    def pids(self) -> list[int]:
        """Process ids of the running worker processes."""
        return [worker.pid for worker in self._everyone if worker.pid is not None]

    @contextmanager
    def lease(self) -> Iterator[Worker]:
        """A worker for the block, ready for calls, waiting until one is free; :class:`PoolClosed` once the pool
        is closed."""
        while not self._free.acquire(timeout=POLL_SECONDS):
            if self._closed.is_set():
                raise PoolClosed("stopping: the worker processes are closed")
        with self._lock:
            worker = self._idle.pop()
        try:
            worker.wait_ready()
            yield worker
        finally:
            with self._lock:
                self._idle.append(worker)
            self._free.release()

    def close(self) -> None:
        """Kill every worker process; calls in progress and waiting leases raise :class:`PoolClosed`.

        It takes no lock: a server's Ctrl-C handler calls it in whatever the main thread was doing, :meth:`start`
        (which holds the pool's lock) included, where waiting for the lock would wait forever. The list of workers
        never changes after the pool is made."""
        self._closed.set()
        for worker in self._everyone:
            worker.stop()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed.is_set()
