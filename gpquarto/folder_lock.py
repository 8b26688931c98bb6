"""One process at a time in a run folder: an OS lock on a file in the folder, held while the process works.

The lock is ``fcntl.flock`` on ``train.lock`` (``learn.lock`` for learning runs): the operating system releases it
when the process ends, however it ends (``kill -9`` included), so a dead process never leaves a folder locked; the
file itself may stay. A run folder is something people share, so the lock file is opened without following a
link, and one that is a link (symbolic or hard) or not a plain file is refused: the process id written in it
never lands in another file.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_FILE = "train.lock"


class FolderInUse(ValueError):
    """Another process holds the folder's lock (one line saying which)."""


class LockFileRefused(ValueError):
    """The lock file is a link or not a plain file, so nothing is written through it (one line saying so)."""


def open_lock_file(path: Path) -> int:
    """A descriptor of the plain file ``path`` (created if missing), opened without following a symbolic link;
    :class:`LockFileRefused` for a link of either kind, a folder, a device or a pipe."""
    refused = LockFileRefused(
        f"{path} is a link or not a plain file: gpquarto writes nothing through it (remove it, then run again)"
    )
    try:
        handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.EMLINK):
            raise refused from None
        raise
    details = os.fstat(handle)
    if not stat.S_ISREG(details.st_mode) or details.st_nlink != 1:
        os.close(handle)
        raise refused
    return handle


@contextmanager
def folder_lock(folder: str | os.PathLike[str], lock_file: str = LOCK_FILE, doing: str = "training") -> Iterator[None]:
    """Hold ``folder``'s lock (the file ``lock_file`` in it) for the ``with`` block (the folder must exist):
    :class:`FolderInUse` at once if another process holds it, :class:`LockFileRefused` if the file is a link. The
    holder's process id is written in the file, for the message, which says what the holder is ``doing``."""
    handle = open_lock_file(Path(folder) / lock_file)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(handle, 20, 0).decode("ascii", "replace").strip()
            who = f"process {holder}" if holder.isdigit() else "another process"
            raise FolderInUse(f"{folder} is in use: {who} is {doing} in it (wait for it to end, or stop it)") from None
        os.ftruncate(handle, 0)
        os.pwrite(handle, f"{os.getpid()}\n".encode("ascii"), 0)
        yield
    finally:
        os.close(handle)  # releases the lock
