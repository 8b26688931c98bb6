"""Hypothesis strategies of hostile inputs: raw bytes mutated from a valid file, JSON data mutated in its
structure, and the values that broke loaders before (deep nesting, huge numbers, NaN, long text)."""

from __future__ import annotations

import json

from hypothesis import strategies as st

#: Chunks that broke parsers: deep nesting, long digit runs, pickle opcodes, zip and .npy magic, NUL bytes.
HOSTILE_CHUNKS = (
    b"[" * 5000,
    b"{" * 3000,
    b"9" * 5000,
    b"\x80\x04\x95",
    b"(" * 1000,
    b"PK\x05\x06" + b"\xff" * 18,
    b"PK\x03\x04",
    b"\x93NUMPY\x02\x00\xff\xff\xff\x7f",
    b"\x00" * 64,
    b"NaN",
    b"Infinity",
    b"-1e999",
    "é\u202e\U0001f600".encode(),
)


def deep_list(depth: int) -> object:
    value: object = []
    for _ in range(depth):
        value = [value]
    return value


def deep_dict(depth: int) -> object:
    value: object = {}
    for _ in range(depth):
        value = {"a": value}
    return value


#: Plain values a loader may find anywhere in its data.
HOSTILE_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 1, 2**31, 2**63, -(2**63), 10**400, 16, 17, 31, 300, 10**9]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["", "x" * 5000, "../../etc/passwd", "\x00", "quarto", "quixo", "classic", "advanced"]),
    st.builds(deep_list, st.sampled_from([65, 100, 3000])),  # built afresh: an edit never changes a shared value
    st.builds(deep_dict, st.sampled_from([65, 100])),
    st.lists(st.integers(min_value=-5, max_value=40), max_size=40),
    st.recursive(
        st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=8),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
        max_leaves=12,
    ),
)


@st.composite
def mutated_bytes(draw, raw: bytes) -> bytes:
    """``raw`` after one to four byte-level edits: cut, deleted range, inserted or overwritten random bytes or a
    hostile chunk, a flipped byte, a duplicated range."""
    data = bytearray(raw)
    for _ in range(draw(st.integers(1, 4))):
        size = len(data)
        at = draw(st.integers(0, size))
        kind = draw(st.sampled_from(["cut", "delete", "insert", "overwrite", "flip", "duplicate", "chunk"]))
        if kind == "cut":
            del data[at:]
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 64))]
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=32))
        elif kind == "overwrite":
            chunk = draw(st.binary(min_size=1, max_size=16))
            data[at : at + len(chunk)] = chunk
        elif kind == "flip" and size:
            where = min(at, size - 1)
            data[where] ^= 1 << draw(st.integers(0, 7))
        elif kind == "duplicate" and size:
            end = min(size, at + draw(st.integers(1, 256)))
            data[at:at] = data[at:end]
        else:
            data[at:at] = draw(st.sampled_from(HOSTILE_CHUNKS))
    return bytes(data)


def _paths(value: object, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside nested dicts and lists (the root's path is ``()``), at most 12 deep."""
    found = [prefix]
    if len(prefix) >= 12:
        return found
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:50]):
            found += _paths(item, (*prefix, index))
    return found


@st.composite
def mutated_data(draw, data: object) -> object:
    """``data`` (plain JSON-like data) after one to three structural edits: a value replaced by a hostile one, a
    key deleted or added, a list's item dropped or repeated."""
    data = json.loads(json.dumps(data))  # a private copy
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        if not path:
            data = draw(HOSTILE_VALUES) if draw(st.integers(0, 9)) == 0 else data
            continue
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        kind = draw(st.sampled_from(["replace", "replace", "delete", "add", "repeat"]))
        if kind == "replace":
            parent[last] = draw(HOSTILE_VALUES)
        elif kind == "delete":
            del parent[last]
        elif kind == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=12))] = draw(HOSTILE_VALUES)
        elif kind == "repeat" and isinstance(parent, list):
            parent.extend([parent[last]] * draw(st.integers(1, 20)))
        else:
            parent[last] = draw(HOSTILE_VALUES)
    return data


def json_bytes(data: object) -> bytes:
    """``data`` as JSON bytes, NaN and infinities as Python writes them; data too deep for ``json`` is written by
    hand (a loader must refuse it, not the test fail to write it)."""
    try:
        return json.dumps(data, allow_nan=True).encode("utf-8", "surrogatepass")
    except RecursionError:
        return b"[" * 5000 + b"]" * 5000
    except ValueError:  # a circular structure cannot come from JSON data
        return b"null"
