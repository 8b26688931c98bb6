"""One ``train`` process per run folder: an OS lock on a file in the folder, held while the process works.

The lock is ``fcntl.flock`` on ``train.lock``: the operating system releases it when the process ends, however
it ends (``kill -9`` included), so a dead process never leaves a folder locked; the file itself may stay.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_FILE = "train.lock"


class FolderInUse(ValueError):
    """Another process holds the folder's lock (one line saying which)."""


@contextmanager
def folder_lock(folder: str | os.PathLike[str]) -> Iterator[None]:
    """Hold ``folder``'s lock for the ``with`` block (the folder must exist); :class:`FolderInUse` at once if
    another process holds it. The holder's process id is written in the file, for the message."""
    path = Path(folder) / LOCK_FILE
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(handle, 20, 0).decode("ascii", "replace").strip()
            who = f"process {holder}" if holder.isdigit() else "another process"
            raise FolderInUse(f"{folder} is in use: {who} is training in it (wait for it to end, or stop it)") from None
        os.ftruncate(handle, 0)
        os.pwrite(handle, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(handle)  # releases the lock
