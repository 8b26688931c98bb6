"""Bounded reading of ``.npz`` files (learned players, learning checkpoints): sizes are checked before any
array is read.

:func:`open_npz` checks, in this order and from the file's directory records only: the file's size, the
number of members (from the zip's end record, before the zip's directory is parsed), each member's name, its
compression and its declared uncompressed size, and then each member's ``.npy`` header (the first bytes of
the member, at most a few KB inflated): the dtype (one of :data:`DTYPES`, never an object), the shape, and its
byte count, against the member's size and :data:`MAX_ARRAY_BYTES` for the whole file. The caller then checks
the declared shapes against what the file should hold (:attr:`NpzArchive.members`) before it reads an array
(:meth:`NpzArchive.read`), which inflates exactly the declared bytes and no more. Any problem is a one-line
``ValueError`` naming the file; no pickle is ever read.
"""

from __future__ import annotations

import io
import math
import os
import re
import struct
import zipfile
from dataclasses import dataclass
from types import TracebackType

import numpy as np

from gpquarto.plain_files import open_regular_file

#: Larger files are refused before they are opened.
MAX_NPZ_BYTES = 64_000_000
#: The most arrays one file may hold (gpquarto's files hold 2 to 4).
MAX_MEMBERS = 8
#: The most bytes all of a file's arrays may take once read.
MAX_ARRAY_BYTES = 64_000_000
#: The dtypes gpquarto's files hold (bytes of a JSON header, table keys, numbers).
DTYPES = frozenset({np.dtype(np.uint8), np.dtype(np.uint64), np.dtype(np.float64)})
#: The longest ``.npy`` header read (numpy's own files use 128 bytes).
MAX_NPY_HEADER = 4096
_END_RECORD = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"
_END_FORMAT = "<4s4H2LH"
_END_SIZE = struct.calcsize(_END_FORMAT)
#: Whatever reading a zip member or parsing its .npy header raises on a corrupt file (zlib's and tokenize's errors
#: among them): every one is the file's fault, and said in one line.
_READ_ERRORS = (Exception,)
_MEMBER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\.npy")


@dataclass(frozen=True)
class ArrayInfo:
    """What a member declares, from its ``.npy`` header: dtype and shape (nothing of it is read yet)."""

    dtype: np.dtype
    shape: tuple[int, ...]

    @property
    def count(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.count * self.dtype.itemsize


class NpzArchive:
    """An ``.npz`` file opened for bounded reading: :attr:`members` maps each array's name to its declared
    :class:`ArrayInfo`; :meth:`read` reads one array. Use as a context manager (or :meth:`close`)."""

    def __init__(self, path: str, kind: str, zip_file: zipfile.ZipFile, members: dict[str, ArrayInfo]) -> None:
        self.path = path
        self.kind = kind
        self._zip = zip_file
        self.members = members

    def __enter__(self) -> NpzArchive:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None):
        self.close()

    def close(self) -> None:
        self._zip.close()

    def fail(self, problem: str) -> ValueError:
        """A one-line error about this file."""
        return ValueError(f"{self.path}: corrupt or foreign {self.kind} ({problem})")

    def read(self, name: str) -> np.ndarray:
        """The array ``name``: exactly its declared bytes are inflated, into a new writable array."""
        info = self.members[name]
        try:
            with self._zip.open(f"{name}.npy") as stream:
                _read_npy_header(stream)
                array = np.empty(info.count, dtype=info.dtype)
                buffer = array.data.cast("B")
                filled = 0
                while filled < info.nbytes:
                    got = stream.readinto(buffer[filled:])  # type: ignore[attr-defined]  # a ZipExtFile has it
                    if not got:
                        raise self.fail(f"array {name!r} is truncated")
                    filled += got
        except _READ_ERRORS as error:
            if str(error).startswith(self.path):
                raise
            raise self.fail(_detail(error)) from None
        return array.reshape(info.shape)

    def read_all(self) -> dict[str, np.ndarray]:
        """Every array (their sizes are already within the caps)."""
        return {name: self.read(name) for name in self.members}


def open_npz(path: str | os.PathLike[str], kind: str) -> NpzArchive:
    """``path`` opened for bounded reading, its members' names, sizes, dtypes and shapes checked (see the module
    docstring); ``kind`` names the file in errors (``"learned player"``)."""
    path = str(path)
    try:
        stream = open_regular_file(path, kind)  # closed below, or by the archive
    except OSError as error:
        raise ValueError(f"{path}: cannot read ({error.strerror or error})") from None
    try:
        return _open(path, kind, stream)
    except BaseException:
        stream.close()
        raise


def _open(path: str, kind: str, stream) -> NpzArchive:
    def fail(problem: str) -> ValueError:
        return ValueError(f"{path}: corrupt or foreign {kind} ({problem})")

    size = os.fstat(stream.fileno()).st_size
    if size > MAX_NPZ_BYTES:
        raise ValueError(f"{path}: file is larger than {MAX_NPZ_BYTES:,} bytes, not a {kind}")
    _check_end_record(stream, size, fail)
    try:
        archive = zipfile.ZipFile(stream)
    except _READ_ERRORS as error:
        raise fail(_detail(error)) from None
    try:
        members = _members(archive, fail)
    except BaseException:
        archive.close()
        raise
    return NpzArchive(path, kind, archive, members)


def _check_end_record(stream, size: int, fail) -> None:
    """The zip's end record, found as :mod:`zipfile` finds it, declares few members and a small directory (so
    parsing the directory is cheap), and the file is no ZIP64."""
    if size < _END_SIZE:
        raise fail("not a zip file")
    stream.seek(size - _END_SIZE)
    tail = stream.read(_END_SIZE)
    start = size - _END_SIZE
    if not (tail[:4] == _END_RECORD and tail[-2:] == b"\x00\x00"):
        first = max(size - (1 << 16) - _END_SIZE, 0)
        stream.seek(first)
        data = stream.read()
        found = data.rfind(_END_RECORD)
        if found < 0 or len(data) - found < _END_SIZE:
            raise fail("not a zip file")
        tail = data[found : found + _END_SIZE]
        start = first + found
    _, disk, cd_disk, on_disk, total, cd_size, _, _ = struct.unpack(_END_FORMAT, tail)
    if start >= 20:
        stream.seek(start - 20)
        if stream.read(4) == _ZIP64_LOCATOR:
            raise fail("a ZIP64 archive")
    if disk or cd_disk or on_disk != total:
        raise fail("a multi-disk zip")
    if total > MAX_MEMBERS:
        raise fail(f"{total:,} members, more than {MAX_MEMBERS}")
    if cd_size > MAX_MEMBERS * 1024:
        raise fail(f"a zip directory of {cd_size:,} bytes")


def _members(archive: zipfile.ZipFile, fail) -> dict[str, ArrayInfo]:
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise fail(f"{len(infos):,} members, more than {MAX_MEMBERS}")
    members: dict[str, ArrayInfo] = {}
    total = 0
    for info in infos:
        name = info.filename
        if not _MEMBER_NAME.fullmatch(name):
            raise fail(f"a member named {name[:40]!r}, not an array")
        if name[:-4] in members:
            raise fail(f"the array {name[:-4]!r} twice")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 1:
            raise fail(f"the array {name[:-4]!r} is compressed or encrypted in a way gpquarto does not write")
        if info.file_size > MAX_ARRAY_BYTES:
            raise fail(f"the array {name[:-4]!r} inflates to {info.file_size:,} bytes, more than {MAX_ARRAY_BYTES:,}")
        try:
            with archive.open(info) as stream:
                dtype, shape, header_size = _read_npy_header(stream)
        except _READ_ERRORS as error:
            raise fail(f"the array {name[:-4]!r}: {_detail(error)}") from None
        if dtype not in DTYPES:
            raise fail(f"the array {name[:-4]!r} holds {dtype}, not a type gpquarto writes")
        member = ArrayInfo(dtype, shape)
        if member.nbytes != info.file_size - header_size:
            raise fail(
                f"the array {name[:-4]!r} declares {member.nbytes:,} bytes but its member holds "
                f"{info.file_size - header_size:,}"
            )
        total += member.nbytes
        if total > MAX_ARRAY_BYTES:
            raise fail(f"its arrays take more than {MAX_ARRAY_BYTES:,} bytes")
        members[name[:-4]] = member
    return members


def _read_npy_header(stream) -> tuple[np.dtype, tuple[int, ...], int]:
    """The dtype, shape and header length of the ``.npy`` data at the start of ``stream`` (C order only); the
    header's declared length is checked before it is read."""
    prefix = _read_exactly(stream, 8)
    if prefix[:6] != b"\x93NUMPY":
        raise ValueError("not an .npy array")
    version = (prefix[6], prefix[7])
    if version not in ((1, 0), (2, 0)):
        raise ValueError(f"an .npy version {version} header")
    length_bytes = 2 if version == (1, 0) else 4
    length_field = _read_exactly(stream, length_bytes)
    length = int.from_bytes(length_field, "little")
    if length > MAX_NPY_HEADER:
        raise ValueError(f"an .npy header of {length:,} bytes")
    whole = prefix + length_field + _read_exactly(stream, length)
    reader = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    buffer = io.BytesIO(whole)
    buffer.seek(8)
    shape, fortran, dtype = reader(buffer, max_header_size=MAX_NPY_HEADER)
    if fortran and len(shape) > 1:
        raise ValueError("a Fortran-ordered array")
    if dtype.hasobject:
        raise ValueError("an array of Python objects")
    if len(shape) > 4 or not all(isinstance(side, int) and side >= 0 for side in shape):
        raise ValueError(f"the shape {str(shape)[:60]}")
    return dtype, tuple(shape), len(whole)


def _read_exactly(stream, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise EOFError("truncated")
    return data


def _detail(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text[:200]
