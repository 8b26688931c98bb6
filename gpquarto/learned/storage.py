"""Learned players' files: one ``.npz`` holding a JSON header and plain arrays, never a pickle.

``learned_player.npz`` holds:

- ``header``: the UTF-8 bytes of a JSON object: ``format`` (``gpquarto-learned/1``), ``game`` and its
  ``settings``, ``model`` (``ntuple`` or ``table``), ``features`` (the n-tuple features' name), ``name``,
  ``method`` and ``training`` (how it was learned), ``run`` (which run made it), ``gpquarto_version`` and,
  optionally, ``guard`` (true: the player plays with the tactical guard, :func:`~gpquarto.learned.player.pick_turn`);
- ``weights`` (float64, one per feature weight) for an n-tuple model, or ``keys_high``, ``keys_low``
  (uint64: each key is ``high * 2**64 + low``) and ``values`` (float64 in [-1, 1]) for a table.

Files are read by :mod:`gpquarto.learned.npz`, never a pickle: the header and each array's declared dtype and
shape are checked before an array is read (a table of at most :data:`MAX_TABLE_ENTRIES` entries); every field is
checked, and any problem (missing, truncated, corrupt, oversized or foreign file, a player of another game) is a
one-line ``ValueError`` naming the file.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import numpy as np

from gpquarto.atomic import write_bytes_atomic
from gpquarto.games.registry import get_game
from gpquarto.learned.models import NTupleModel, TableModel, make_encoder
from gpquarto.learned.npz import ArrayInfo, NpzArchive, open_npz
from gpquarto.learned.player import LearnedPlayer
from gpquarto.plain_files import MAX_DEPTH, nesting_depth, one_line

LEARNED_FORMAT = "gpquarto-learned/1"
#: The suffix of learned players' files.
LEARNED_SUFFIX = ".npz"
_KEY_BITS = 64
_KEY_LIMIT = 1 << (2 * _KEY_BITS)
#: The most entries a table may hold (a few hundred MB as a Python dict): a larger one is refused before it is read,
#: and tabular learning stops with an error before it saves one.
MAX_TABLE_ENTRIES = 1_000_000
#: The longest JSON header of a learned player's or checkpoint's file.
MAX_HEADER_BYTES = 1_000_000
#: Header fields: name -> type.
_HEADER_FIELDS: dict[str, type | tuple[type, ...]] = {
    "format": str,
    "game": str,
    "settings": dict,
    "model": str,
    "features": (str, type(None)),
    "name": str,
    "method": str,
    "training": dict,
    "run": dict,
    "gpquarto_version": str,
}


def learned_data(
    model: NTupleModel | TableModel,
    *,
    game: str,
    settings: dict[str, object],
    method: str,
    name: str = "learned",
    training: dict | None = None,
    run: dict | None = None,
    guard: bool = False,
) -> tuple[dict, dict[str, np.ndarray]]:
    """The header and arrays that describe ``model`` (what :func:`save_learned_player` writes)."""
    from gpquarto import __version__

    header = {
        "format": LEARNED_FORMAT,
        "game": game,
        "settings": dict(settings),
        "model": model.kind,
        "features": model.encoder.name if isinstance(model, NTupleModel) else None,
        "name": name,
        "method": method,
        "training": dict(training or {}),
        "run": dict(run or {}),
        "gpquarto_version": __version__,
        "guard": guard,
    }
    return header, model_arrays(model)


def model_arrays(model: NTupleModel | TableModel) -> dict[str, np.ndarray]:
    """A model's arrays: its weights, or its table as sorted keys and values."""
    if isinstance(model, NTupleModel):
        return {"weights": model.weights.astype(np.float64)}
    if len(model.table) > MAX_TABLE_ENTRIES:
        raise ValueError(
            f"the table holds {len(model.table):,} entries, more than the {MAX_TABLE_ENTRIES:,} a learned player may hold"
        )
    keys = sorted(model.table)
    for key in keys[:1] + keys[-1:]:
        if not isinstance(key, int) or not 0 <= key < _KEY_LIMIT:
            raise ValueError(f"a table key must be an int in [0, 2**128), got {key!r}")
    mask = (1 << _KEY_BITS) - 1
    return {
        "keys_high": np.array([key >> _KEY_BITS for key in keys], dtype=np.uint64),
        "keys_low": np.array([key & mask for key in keys], dtype=np.uint64),
        "values": np.array([model.table[key] for key in keys], dtype=np.float64),
    }


def table_from_arrays(arrays: dict[str, np.ndarray]) -> dict[int, float]:
    """The table that :func:`model_arrays` wrote (keys back as Python ints)."""
    high = arrays["keys_high"].tolist()
    low = arrays["keys_low"].tolist()
    return {(h << _KEY_BITS) | lo: value for h, lo, value in zip(high, low, arrays["values"].tolist(), strict=True)}


def npz_bytes(arrays: dict[str, np.ndarray], header: dict | None = None) -> bytes:
    """An ``.npz`` file's bytes: ``arrays`` plus, when given, ``header`` as JSON bytes."""
    buffer = io.BytesIO()
    extra = {} if header is None else {"header": np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8)}
    np.savez_compressed(buffer, **extra, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
    return buffer.getvalue()


def read_json_header(archive: NpzArchive, name: str = "header") -> object:
    """The JSON in the ``uint8`` array ``name`` of an opened archive, its size and nesting bounded
    (:data:`MAX_HEADER_BYTES`, :data:`~gpquarto.plain_files.MAX_DEPTH`); ``ValueError`` (without the file's
    name) saying what is wrong."""
    info = archive.members.get(name)
    if info is None or info.dtype != np.uint8 or len(info.shape) != 1:
        raise ValueError("no JSON header")
    if info.nbytes > MAX_HEADER_BYTES:
        raise ValueError(f"a header of {info.nbytes:,} bytes, more than {MAX_HEADER_BYTES:,}")
    try:
        header = json.loads(archive.read(name).tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("its header is not JSON") from None
    except RecursionError:
        raise ValueError(f"its header nests more than {MAX_DEPTH} levels deep") from None
    if nesting_depth(header) > MAX_DEPTH:
        raise ValueError(f"its header nests more than {MAX_DEPTH} levels deep")
    return header


def save_learned_player(path: str | os.PathLike[str], header: dict, arrays: dict[str, np.ndarray]) -> None:
    """Write a learned player atomically (checked first, as it will be read)."""
    if Path(path).suffix.lower() != LEARNED_SUFFIX:
        raise ValueError(f"{path}: a learned player's file must end in {LEARNED_SUFFIX}")
    _check(header, arrays)
    write_bytes_atomic(path, npz_bytes(arrays, header))


def read_learned_header(path: str | os.PathLike[str]) -> dict:
    """The checked header of a learned player's file (its game, settings and model), each array's declared dtype and
    shape checked against it, without reading the arrays."""
    with open_npz(path, "learned player") as archive:
        return _checked_header(archive, path)


def _checked_header(archive: NpzArchive, path: str | os.PathLike[str]) -> dict:
    try:
        header = _check_header(read_json_header(archive))
        check_declared_arrays(learned_arrays(header), {k: v for k, v in archive.members.items() if k != "header"})
    except ValueError as error:
        raise ValueError(f"{path}: not a gpquarto learned player ({_short(error)})") from None
    return header


def read_learned_file(path: str | os.PathLike[str]) -> tuple[dict, dict[str, np.ndarray]]:
    """The checked header and arrays of a learned player's file: the header first (:func:`read_learned_header`'s
    checks), and only then the arrays themselves."""
    with open_npz(path, "learned player") as archive:
        header = _checked_header(archive, path)
        arrays = {name: archive.read(name) for name in archive.members if name != "header"}
    try:
        _check(header, arrays)
    except ValueError as error:
        raise ValueError(f"{path}: not a gpquarto learned player ({_short(error)})") from None
    return header, arrays


#: What an array should be: its dtype and its length (None: any length up to :data:`MAX_TABLE_ENTRIES`, one for
#: every array so marked).
Expected = dict[str, tuple[np.dtype, int | None]]


def learned_arrays(header: dict) -> Expected:
    """The arrays a checked header's model needs."""
    if header["model"] == "ntuple":
        encoder = make_encoder(str(header["features"]), header["game"], header["settings"])
        return {"weights": (np.dtype(np.float64), encoder.size)}
    return dict(TABLE_ARRAYS)


#: A table's arrays: sorted keys (high and low 64 bits) and their values, all of one length.
TABLE_ARRAYS: Expected = {
    "keys_high": (np.dtype(np.uint64), None),
    "keys_low": (np.dtype(np.uint64), None),
    "values": (np.dtype(np.float64), None),
}


def check_declared_arrays(expected: Expected, declared: dict[str, ArrayInfo]) -> None:
    """The arrays an archive declares are the ``expected`` ones, of their dtype and length, before any is read; a
    table (the arrays of free length) holds at most :data:`MAX_TABLE_ENTRIES` entries."""
    if set(declared) != set(expected):
        raise ValueError(f"arrays {sorted(declared)[:8]}, expected {sorted(expected)}")
    free = set()
    for name, (dtype, length) in expected.items():
        info = declared[name]
        if info.dtype != dtype or len(info.shape) != 1 or (length is not None and info.shape[0] != length):
            wanted = f"{length} {dtype} numbers" if length is not None else f"a 1-d array of {dtype}"
            raise ValueError(f"{name!r} must be {wanted}, got {info.dtype} {info.shape}")
        if length is None:
            free.add(info.shape[0])
    if len(free) > 1:
        raise ValueError(f"the arrays {', '.join(repr(name) for name in expected)} must be of one length")
    if free and max(free) > MAX_TABLE_ENTRIES:
        raise ValueError(
            f"a table of {max(free):,} entries, more than the {MAX_TABLE_ENTRIES:,} a learned player may hold"
        )


def _check(header: object, arrays: dict[str, np.ndarray]) -> None:
    """Field by field: a ``ValueError`` saying what is wrong."""
    _check_arrays(_check_header(header), arrays)


def _check_header(header: object) -> dict:
    """``header``, once checked."""
    if not isinstance(header, dict):
        raise ValueError("the header is not a JSON object")
    if header.get("format") != LEARNED_FORMAT:
        raise ValueError(f"format is {str(header.get('format'))[:40]!r}, expected {LEARNED_FORMAT!r}")
    for field, kind in _HEADER_FIELDS.items():
        if field not in header:
            raise ValueError(f"the header has no {field!r}")
        if not isinstance(header[field], kind):
            raise ValueError(f"{field!r} has the wrong type ({type(header[field]).__name__})")
    if not isinstance(header.get("guard", False), bool):
        raise ValueError("'guard' must be true or false")
    get_game(header["game"]).check_settings(dict(header["settings"]))  # an unknown game or setting: one line
    if header["model"] not in ("ntuple", "table"):
        raise ValueError(f"unknown model {header['model'][:40]!r} (known: ntuple, table)")
    if header["model"] == "ntuple":
        make_encoder(str(header["features"]), header["game"], header["settings"])
    return header


def _check_arrays(header: dict, arrays: dict[str, np.ndarray]) -> None:
    model = header["model"]
    if model == "ntuple":
        _expect_arrays(arrays, {"weights"})
        encoder = make_encoder(str(header["features"]), header["game"], header["settings"])
        weights = arrays["weights"]
        if weights.dtype != np.float64 or weights.shape != (encoder.size,):
            raise ValueError(f"'weights' must be {encoder.size} float64 numbers, got {weights.dtype} {weights.shape}")
        if not np.isfinite(weights).all():
            raise ValueError("'weights' holds a number that is not finite")
    elif model == "table":
        check_table_arrays(arrays)
    else:
        raise ValueError(f"unknown model {model[:40]!r} (known: ntuple, table)")


def check_table_arrays(arrays: dict[str, np.ndarray]) -> None:
    """A table's arrays (:data:`TABLE_ARRAYS`): of one length up to :data:`MAX_TABLE_ENTRIES`, the keys ascending
    and distinct, the values in [-1, 1]."""
    _expect_arrays(arrays, set(TABLE_ARRAYS))
    high, low, values = arrays["keys_high"], arrays["keys_low"], arrays["values"]
    shapes = {high.shape, low.shape, values.shape}
    if len(shapes) != 1 or len(next(iter(shapes))) != 1:
        raise ValueError("'keys_high', 'keys_low' and 'values' must be 1-d arrays of one length")
    if len(values) > MAX_TABLE_ENTRIES:
        raise ValueError(
            f"a table of {len(values):,} entries, more than the {MAX_TABLE_ENTRIES:,} a learned player may hold"
        )
    if high.dtype != np.uint64 or low.dtype != np.uint64:
        raise ValueError("the table's keys must be uint64")
    if values.dtype != np.float64 or not (np.isfinite(values).all() and (np.abs(values) <= 1).all()):
        raise ValueError("the table's values must be float64 numbers in [-1, 1]")
    ascending = (high[:-1] < high[1:]) | ((high[:-1] == high[1:]) & (low[:-1] < low[1:]))
    if not ascending.all():
        raise ValueError("the table's keys must be ascending and distinct")


def _short(error: Exception) -> str:
    """An error's message as one bounded line (it may quote a value of the file)."""
    return one_line(str(error))


def _expect_arrays(arrays: dict[str, np.ndarray], names: set[str]) -> None:
    if set(arrays) != names:
        raise ValueError(f"arrays {sorted(arrays)}, expected {sorted(names)}")


def model_from_arrays(header: dict, arrays: dict[str, np.ndarray]) -> NTupleModel | TableModel:
    """The model a checked header and arrays describe."""
    if header["model"] == "ntuple":
        encoder = make_encoder(str(header["features"]), header["game"], header["settings"])
        return NTupleModel(encoder, arrays["weights"].copy())
    return TableModel(table_from_arrays(arrays))


def load_learned_player(
    path: str | os.PathLike[str], *, game: str | None = None, guard: bool | None = None, seed: int | None = None
) -> LearnedPlayer:
    """The learned player in ``path``; with ``game``, a player of another game is refused in one line.
    ``guard`` (None: as the file says, its optional ``guard`` field, default off) turns the tactical guard on
    or off.
    ``seed`` is accepted for the player-spec interface (a learned player plays deterministically)."""
    header, arrays = read_learned_file(path)
    if game is not None and header["game"] != get_game(game).name:
        raise ValueError(f"{path}: a learned player of {header['game']}, not {get_game(game).name}")
    return learned_player_from_arrays(header, arrays, guard=guard, source=str(path))


def learned_player_from_arrays(
    header: dict, arrays: dict[str, np.ndarray], *, guard: bool | None = None, source: str = ""
) -> LearnedPlayer:
    """The learned player of a checked header and arrays (what a file holds; workers get players this way)."""
    _check(header, arrays)
    name = header["name"] or (Path(source).stem if source else "learned")
    return LearnedPlayer(
        model_from_arrays(header, arrays),
        game=header["game"],
        name=name,
        guard=bool(header.get("guard", False)) if guard is None else guard,
        metadata=header,
    )
