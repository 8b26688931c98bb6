"""Reading the files gpquarto writes (players, checkpoints) as plain data only, never running code.

A pickle runs code when loaded, so every pickle gpquarto reads goes through an unpickler that refuses
every global: only dicts, lists, tuples, strings, bytes, numbers, booleans and None come back. JSON is
plain by nature. Any problem (missing, too large, truncated, corrupt or foreign file) is a one-line
``ValueError`` naming the file and what kind of file was expected.
"""

from __future__ import annotations

import io
import json
import os
import pickle

#: Larger files are refused before they are parsed.
MAX_FILE_BYTES = 20_000_000


class _PlainUnpickler(pickle.Unpickler):
    """Reads only plain data: every global (class, function) is refused, so nothing can run."""

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"it contains a {module}.{name} object, not plain data")


def read_plain_file(path: str | os.PathLike[str], kind: str, *, json_format: bool = False) -> object:
    """The plain data in the pickle (or, with ``json_format``, JSON) file ``path``; ``kind`` names what it
    should be (``"player file"``, ``"checkpoint"``) in the error messages."""
    path = str(path)
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ValueError(f"{path}: cannot read ({error.strerror or error})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"{path}: file is larger than {MAX_FILE_BYTES} bytes, not a {kind}")
    try:
        if json_format:
            return json.loads(raw.decode("utf-8"))
        return _PlainUnpickler(io.BytesIO(raw)).load()
    except RecursionError:
        raise ValueError(f"{path}: corrupt {kind} (nested too deeply)") from None
    except (
        ValueError,
        pickle.UnpicklingError,
        EOFError,
        IndexError,
        KeyError,
        TypeError,
        AttributeError,
        OverflowError,
        MemoryError,
    ) as error:
        what = "truncated" if isinstance(error, EOFError) else "corrupt"
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"{path}: {what} or foreign {kind} ({detail})") from None
