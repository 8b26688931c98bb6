"""Reading the files gpquarto writes (players, checkpoints) as plain data only, never running code.

A pickle runs code when loaded, so every pickle gpquarto reads goes through an unpickler that refuses
every global: only dicts, lists, tuples, strings, bytes, numbers, booleans and None come back. JSON is
plain by nature. Any problem (missing, too large, truncated, corrupt or foreign file) is a one-line
``ValueError`` naming the file and what kind of file was expected.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import stat
from collections.abc import Callable
from typing import BinaryIO, TypeVar

T = TypeVar("T")

#: Larger files are refused before they are parsed.
MAX_FILE_BYTES = 20_000_000
#: Deeper containers are refused: no file gpquarto writes nests more than a few levels, and code that walks
#: the data (comparisons, ``repr``, writing it again) recurses.
MAX_DEPTH = 64


class _PlainUnpickler(pickle.Unpickler):
    """Reads only plain data: every global (class, function) is refused, so nothing can run."""

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"it contains a {module}.{name} object, not plain data")


def read_plain_file(path: str | os.PathLike[str], kind: str, *, json_format: bool = False) -> object:
    """The plain data in the pickle (or, with ``json_format``, JSON) file ``path``; ``kind`` names what it
    should be (``"player file"``, ``"checkpoint"``) in the error messages."""
    path = str(path)
    try:
        with open_regular_file(path, kind) as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ValueError(f"{path}: cannot read ({error.strerror or error})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"{path}: file is larger than {MAX_FILE_BYTES} bytes, not a {kind}")
    try:
        data = json.loads(raw.decode("utf-8")) if json_format else _PlainUnpickler(io.BytesIO(raw)).load()
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
    if nesting_depth(data) > MAX_DEPTH:
        raise ValueError(f"{path}: corrupt {kind} (nested more than {MAX_DEPTH} levels deep)")
    return data


def open_regular_file(path: str | os.PathLike[str], kind: str) -> BinaryIO:
    """``path`` opened for reading in binary, once it is known to be a regular file: a pipe, a device or a folder
    is a one-line ``ValueError`` at once (opened without waiting, so a pipe nobody writes cannot hang the reader);
    an ``OSError`` when it cannot be opened."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise ValueError(f"{path}: not a regular file, not a {kind}")
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def one_line(text: str, limit: int = 300) -> str:
    """``text`` as one bounded line: control characters (newlines among them) escaped, cut to ``limit``
    characters with ``...``. Error messages that quote what a file holds go through it."""
    text = str(text)[: 2 * limit]
    text = "".join(character if character.isprintable() else repr(character)[1:-1] for character in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_checked_file(
    path: str | os.PathLike[str],
    kind: str,
    check: Callable[[object], T],
    *,
    json_format: bool = False,
    problem: str = "{error}",
) -> T:
    """:func:`read_plain_file`, then ``check(data)``: its result, or its ``ValueError`` as one line naming the
    file (``problem`` shapes the message, e.g. ``"not a gpquarto player ({error})"``)."""
    data = read_plain_file(path, kind, json_format=json_format)
    try:
        return check(data)
    except ValueError as error:
        raise ValueError(f"{path}: {problem.format(error=one_line(str(error)))}") from None


def _children(item: object) -> list:
    if isinstance(item, dict):
        return [*item.keys(), *item.values()]
    return list(item) if isinstance(item, list | tuple | set | frozenset) else []


def nesting_depth(data: object, limit: int = MAX_DEPTH) -> int:
    """How deeply lists, tuples, sets and dicts nest in ``data`` (0 for a plain value), found without
    recursion; past ``limit`` it stops and says ``limit + 1``. A pickle may share a container many times (it
    is measured once) or hold a cycle (the way back does not count: printing and checking such data is
    bounded elsewhere)."""
    heights: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[object, bool]] = [(data, False)]
    while stack:
        item, children_done = stack.pop()
        key = id(item)
        if children_done:
            on_path.discard(key)
            heights[key] = 1 + max((heights.get(id(child), 0) for child in _children(item)), default=0)
        elif key not in heights and key not in on_path and isinstance(item, dict | list | tuple | set | frozenset):
            on_path.add(key)
            if len(on_path) > limit:
                return limit + 1
            stack.append((item, True))
            stack.extend((child, False) for child in _children(item))
    return heights.get(id(data), 0)


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of the file's content, in hex (an ``OSError`` if it cannot be read)."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
