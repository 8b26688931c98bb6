"""The web server's threads: blocking work (a search, a game, a file read) runs there, so the event loop keeps
answering other requests."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from gpquarto.web.decisions import DecisionsStopped

T = TypeVar("T")


class ServerThreads:
    """A pool of ``count`` threads. Once :meth:`stop` is called (Ctrl-C), work that was waiting for a thread is
    dropped and :meth:`run` raises :class:`DecisionsStopped` (a 503, "the server is stopping") where the executor
    would raise ``RuntimeError`` or cancel the request: a request caught by a Ctrl-C answers in one line, and the
    server prints no traceback."""

    def __init__(self, count: int, name: str = "gpquarto-web") -> None:
        self.executor = ThreadPoolExecutor(max_workers=count, thread_name_prefix=name)
        self._stopped = False

    async def run(self, function: Callable[..., T], *args, **kwargs) -> T:
        """``function(*args, **kwargs)`` in one of the threads."""
        if self._stopped:
            raise DecisionsStopped("the server is stopping")
        call = functools.partial(function, *args, **kwargs)
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, call)
        except (RuntimeError, asyncio.CancelledError):
            if self._stopped:  # no new work after the shutdown, and waiting work was cancelled
                raise DecisionsStopped("the server is stopping") from None
            raise

    def stop(self) -> None:
        """Take no more work, and drop the work waiting for a thread (the running work ends on its own)."""
        self._stopped = True
        self.executor.shutdown(wait=False, cancel_futures=True)
