"""Atomic file writes: a temporary file in the same folder, flushed to disk, then renamed over the target.

A crash or a kill at any moment leaves either the old file or the new one, never a half-written file.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


def _usual_file_mode() -> int:
    """0666 less the process umask: the mode ``open(path, "w")`` would give a new file."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_FILE_MODE = _usual_file_mode()


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (creating the folder if needed). An ``OSError`` (a full disk, a
    read-only folder) names ``path``."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise OSError(error.errno, f"cannot write {target}: {error.strerror}") from None
    try:
        os.fchmod(handle, _FILE_MODE)  # mkstemp makes 0600; a saved file gets the usual mode
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        if os.path.exists(temporary):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise OSError(error.errno, f"cannot write {target}: {error.strerror}") from None
        raise


def check_writable_folder(folder: str | os.PathLike[str]) -> None:
    """Make sure a file can be written atomically in ``folder`` (or, when it does not exist yet, in the
    nearest folder above it that does), by writing and removing a temporary file there: a one-line
    ``OSError`` if not (a missing or read-only folder, a file in the way, ``/proc``), before any work is done.
    """
    place = Path(folder).absolute()
    while not place.exists() and place != place.parent:
        place = place.parent
    if not place.is_dir():
        raise OSError(errno.ENOTDIR, f"cannot write in {folder}: {place} is not a folder")
    try:
        handle, temporary = tempfile.mkstemp(dir=place, prefix=".gpquarto-probe.", suffix=".tmp")
    except OSError as error:
        raise OSError(error.errno, f"cannot write in {folder}: {error.strerror}") from None
    os.close(handle)
    os.unlink(temporary)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))
