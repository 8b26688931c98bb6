"""``make_runner``: the one place that turns ``--workers``, ``--scheduler`` and ``--dask-workers`` into a runner."""

from __future__ import annotations

import sys
from collections.abc import Callable

from gpquarto.runner.base import Runner, SerialRunner, available_cores


def _note_to_stderr(message: str) -> None:
    print(f"gpquarto: note: {message}", file=sys.stderr)


def make_runner(
    workers: int | None = None,
    *,
    scheduler: str | None = None,
    dask_workers: int | None = None,
    tasks: int | None = None,
    note: Callable[[str], None] | None = _note_to_stderr,
) -> Runner:
    """A runner: on the Dask cluster at ``scheduler``; on a local Dask cluster of ``dask_workers`` processes;
    else on ``workers`` local processes (default: every core), serial when that is one.

    ``workers`` above the cores (or above ``tasks``, the number of tasks the caller will send, when known)
    is capped, and ``note`` is told why.
    """
    if scheduler and dask_workers:
        raise ValueError("give either a scheduler address or a number of local Dask workers, not both")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if dask_workers is not None and dask_workers < 1:
        raise ValueError(f"dask workers must be at least 1, got {dask_workers}")
    if scheduler or dask_workers:
        from gpquarto.runner.dask import DaskRunner

        return DaskRunner(scheduler, local_workers=dask_workers)
    cores = available_cores()
    wanted = cores if workers is None else workers
    capped = min(wanted, cores, tasks if tasks else wanted)
    if workers is not None and capped < workers and note is not None:
        reason = f"{cores} cores" if capped == cores else f"{tasks} tasks"
        note(f"using {capped} worker{'s' if capped != 1 else ''} instead of {workers}: there are only {reason}")
    if capped <= 1:
        return SerialRunner()
    from gpquarto.runner.processes import ProcessRunner

    return ProcessRunner(capped)
