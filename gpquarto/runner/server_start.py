"""The first module a forkserver of worker processes imports (:func:`gpquarto.runner.processes.worker_context`),
before the heavy ones: from here on, Ctrl-C leaves the server and its workers alone, and a worker whose program
stopped while it was starting ends without a traceback.

* The server and its workers ignore Ctrl-C (a fork starts with the server's handlers): the program acts on it and
  stops them, and a server or worker still starting when Ctrl-C arrives must not print a traceback.
* A worker whose program stopped while the worker was starting finds the program's semaphores gone as it reads its
  start-up data: that worker ends without a report (the program has said why it stopped). Every other failure of
  a starting worker is reported as before.
"""

import signal
import sys
from types import TracebackType

signal.signal(signal.SIGINT, signal.SIG_IGN)


def _is_abandoned_start(error: BaseException, traceback: TracebackType | None) -> bool:
    """Whether ``error`` is a starting worker's read of a semaphore its program has already removed."""
    if not isinstance(error, FileNotFoundError):
        return False
    last = None
    while traceback is not None:
        last, traceback = traceback.tb_frame.f_code, traceback.tb_next
    return last is not None and last.co_name == "__setstate__" and "synchronize" in last.co_filename


def _report_unless_abandoned(kind: type[BaseException], error: BaseException, traceback: TracebackType | None) -> None:
    if not _is_abandoned_start(error, traceback):
        sys.__excepthook__(kind, error, traceback)


sys.excepthook = _report_unless_abandoned
