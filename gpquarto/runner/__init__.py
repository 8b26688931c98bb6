"""Where independent tasks run: one small interface for serial, local processes and a Dask cluster.

Training, matches, tournaments, grading and experiments all hand their work to a :class:`Runner`:
``runner.map(function, items)`` returns ``[function(item) for item in items]`` in the order of ``items``,
whatever runs them. Functions must be importable module-level functions and items plain, picklable data
(each carrying its own seeds), so every back-end gives the same results. Items are sent in batches, so the
per-task overhead stays small. Example::

    >>> from gpquarto.runner import make_runner
    >>> with make_runner(workers=1) as runner:
    ...     runner.map(abs, [-2, 3, -4])
    [2, 3, 4]

A runner is made once (``make_runner``) and reused for every ``map`` (a training run maps once per
generation); ``close()`` (or leaving the ``with`` block) stops its workers. Ctrl-C stops the workers at
once and raises ``KeyboardInterrupt`` in the caller; a worker that dies or a lost scheduler raises
:class:`RunnerError` with one line saying what happened.
"""

from __future__ import annotations

from gpquarto.runner.base import SERIAL, Progress, Runner, RunnerError, SerialRunner, available_cores, batches
from gpquarto.runner.factory import make_runner

__all__ = ["SERIAL", "Progress", "Runner", "RunnerError", "SerialRunner", "available_cores", "batches", "make_runner"]
