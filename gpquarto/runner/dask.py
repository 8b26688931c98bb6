"""A Dask cluster: an existing scheduler (``--scheduler ADDRESS``) or a local cluster of N worker processes.

Needs the ``distributed`` extra (``pip install "gpquarto[distributed]"``). A worker that dies has its
tasks run again elsewhere by the scheduler (results do not change: every task carries its seeds). While no
worker is connected the runner waits and, after ``idle_warning`` seconds, says so once on stderr.
An unreachable scheduler or one lost during a map raises :class:`RunnerError` with one line (Dask's own
log messages are silenced unless ``quiet=False``).
"""

from __future__ import annotations

import functools
import logging
import os
import queue
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from gpquarto.runner.base import Progress, Runner, RunnerError, batches, gather_in_order, run_batch

#: Seconds to wait for a scheduler to answer before giving up, unless the environment variable named by
#: :data:`CONNECT_TIMEOUT_VARIABLE` gives others (the tests wait one second for a scheduler that is not there).
CONNECT_TIMEOUT = 10.0
CONNECT_TIMEOUT_VARIABLE = "GPQUARTO_DASK_CONNECT_TIMEOUT"
#: Seconds without any worker before the runner warns that it is waiting.
IDLE_WARNING = 30.0
#: Dask settings of a local cluster. Workers sample their threads' stacks every 10 ms by default (the
#: dashboard's profile), and the scheduler, nannies and workers wake every 20 ms to time their event loops,
#: every 100 ms to check the workers' memory and every 500 ms to record system metrics; games are pure Python
#: and hold the GIL, so all this slows them (more CPU per task than on a process pool: ``bench train``).
#: A local cluster has no dashboard to feed: it samples nothing and looks around less often.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
}


def _quiet_dask_logs() -> None:
    """Dask logs connection trouble at length; the runner reports it in one line instead."""
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _distributed():
    try:
        import distributed
    except ImportError:
        raise RunnerError("Dask needs the distributed extra: pip install 'gpquarto[distributed]'") from None
    return distributed


class DaskRunner(Runner):
    """Runs batches of tasks on a Dask cluster."""

    name = "dask"

    def __init__(
        self,
        scheduler: str | None = None,
        *,
        local_workers: int | None = None,
        connect_timeout: float | None = None,
        idle_warning: float = IDLE_WARNING,
        quiet: bool = True,
    ) -> None:
        distributed = _distributed()
        if quiet:
            _quiet_dask_logs()
        self.scheduler = scheduler
        self.idle_warning = idle_warning
        self._cluster = None
        if scheduler:
            if connect_timeout is None:
                connect_timeout = float(os.environ.get(CONNECT_TIMEOUT_VARIABLE) or CONNECT_TIMEOUT)
            try:
                self._client = distributed.Client(scheduler, timeout=connect_timeout, set_as_default=False)
            except (OSError, TimeoutError) as error:
                raise RunnerError(
                    f"cannot reach the Dask scheduler at {scheduler} within {connect_timeout:g} s "
                    f"({type(error).__name__})"
                ) from None
        else:
            import dask

            with dask.config.set(LOCAL_CLUSTER_CONFIG):  # read by the scheduler, nannies and workers as they start
                self._cluster = distributed.LocalCluster(
                    n_workers=local_workers or 1,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    host="127.0.0.1",
                )
            self._client = distributed.Client(self._cluster, set_as_default=False)
        self.workers = max(1, self._count_workers() or (local_workers or 1))

    def _count_workers(self) -> int:
        try:
            return len(self._client.scheduler_info().get("workers", {}))
        except Exception:  # the scheduler is gone; map reports it
            return 0

    def describe(self) -> str:
        where = self.scheduler or "a local cluster"
        return f"dask at {where}, {self._count_workers()} workers connected"

    def map(
        self,
        function: Callable[[Any], Any],
        items: Iterable[Any],
        *,
        progress: Progress | None = None,
        batch_size: int | None = None,
    ) -> list:
        distributed = _distributed()
        items = list(items)
        if not items:
            return []
        self.workers = max(1, self._count_workers())
        parts: dict[int, list[Any]] = {}
        chunks = batches(items, self.workers, size=batch_size)
        client = self._client
        futures = client.map(run_batch, [function] * len(chunks), chunks, pure=False)
        # Finished batches are announced on a queue (Dask calls back from its own thread) and fetched together
        # in one gather: asking each future for its result would cost a round trip per batch.
        finished: queue.SimpleQueue[int] = queue.SimpleQueue()
        for index, future in enumerate(futures):
            future.add_done_callback(functools.partial(_announce, finished, index))
        ready: list[int] = []
        idle_since: float | None = None
        warned = False
        try:
            while len(parts) < len(chunks):
                try:
                    ready.append(finished.get(timeout=1.0))  # waits for a batch, at most a second, then looks around
                except queue.Empty:
                    if client.status != "running":
                        raise RunnerError(
                            f"lost the Dask scheduler at {self.scheduler or 'the local cluster'}"
                        ) from None
                    if self._count_workers() == 0:
                        idle_since = idle_since or time.monotonic()
                        if not warned and time.monotonic() - idle_since >= self.idle_warning:
                            print(
                                f"gpquarto: warning: no Dask worker has been connected for {self.idle_warning:g} s; "
                                "waiting for workers to join (Ctrl-C to stop)",
                                file=sys.stderr,
                            )
                            warned = True
                    else:
                        idle_since = None
                    continue
                idle_since = None
                while not finished.empty():
                    ready.append(finished.get())
                if progress is None and len(parts) + len(ready) < len(chunks):
                    continue  # without a progress hook, one gather at the end is enough
                results = client.gather([futures[index] for index in ready])  # a task's own error is raised here
                for index, result in zip(ready, results, strict=True):
                    parts[index] = result
                    if progress is not None:
                        progress(result)
                ready = []
        except RunnerError:
            raise
        except (KeyboardInterrupt, SystemExit):
            client.cancel([future for index, future in enumerate(futures) if index not in parts])
            raise
        except (OSError, distributed.CancelledError) as error:
            raise RunnerError(
                f"lost the Dask scheduler at {self.scheduler or 'the local cluster'} ({type(error).__name__})"
            ) from None
        return gather_in_order(parts, len(chunks))

    def close(self) -> None:
        """Disconnect, and stop the local cluster if this runner started it."""
        try:
            self._client.close(timeout=5)
        except Exception:  # already gone: nothing left to release
            pass
        if self._cluster is not None:
            self._cluster.close(timeout=10)


def _announce(finished: queue.SimpleQueue, index: int, future: object) -> None:
    """Done callback of a batch's future: put its index on the queue the map waits on."""
    finished.put(index)
