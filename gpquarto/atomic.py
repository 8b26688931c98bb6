"""Atomic file writes: a temporary file in the same folder, flushed to disk, then renamed over the target.

A crash or a kill at any moment leaves either the old file or the new one, never a half-written file.
"""

from __future__ import annotations

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
    """Write ``data`` to ``path`` atomically (creating the folder if needed)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        os.fchmod(handle, _FILE_MODE)  # mkstemp makes 0600; a saved file gets the usual mode
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))
