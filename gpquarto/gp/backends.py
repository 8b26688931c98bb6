"""Where evaluations run: one ``map(function, items) -> list`` for serial, local processes and Dask.

Results come back in the order of ``items``. Functions and items must be picklable: pass module-level
functions and plain data (tree texts and seeds), never ``deap.creator`` classes. Every back-end gives the
same results because each item carries its own seeds.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable
from typing import Any

#: Back-end names accepted by :func:`make_backend`.
BACKENDS = ("serial", "processes", "dask")


class SerialBackend:
    """Runs everything in this process."""

    name = "serial"

    def map(self, function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        """``[function(item) for item in items]``."""
        return [function(item) for item in items]

    def close(self) -> None:
        """Nothing to release."""

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class ProcessBackend(SerialBackend):
    """A pool of local worker processes started with ``spawn`` (the same on every platform)."""

    name = "processes"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")
        self._pool = multiprocessing.get_context("spawn").Pool(self.workers)

    def map(self, function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        items = list(items)
        chunk = max(1, len(items) // (self.workers * 4))
        return self._pool.map(function, items, chunksize=chunk)

    def close(self) -> None:
        """Stop the workers."""
        self._pool.close()
        self._pool.join()


class DaskBackend(SerialBackend):
    """A Dask cluster: the one at ``scheduler`` (``host:port``), or a local one with ``workers`` processes."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise ValueError(
                "the dask backend needs dask and distributed: pip install 'gpquarto[distributed]'"
            ) from None
        if scheduler:
            self._cluster = None
            self._client = Client(scheduler)
        else:
            self._cluster = LocalCluster(
                n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self._client = Client(self._cluster)

    def map(self, function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        # client.map returns futures: gather them (registering client.map as DEAP's map would not work).
        return self._client.gather(self._client.map(function, list(items), pure=False))

    def close(self) -> None:
        """Disconnect (and stop the local cluster if this back-end started it)."""
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_backend(name: str = "serial", *, workers: int | None = None, scheduler: str | None = None) -> SerialBackend:
    """The back-end called ``name`` (``serial``, ``processes`` or ``dask``)."""
    if name == "serial":
        return SerialBackend()
    if name == "processes":
        return ProcessBackend(workers)
    if name == "dask":
        return DaskBackend(scheduler, workers)
    raise ValueError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
