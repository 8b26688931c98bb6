"""Learned players' files: one ``.npz`` holding a JSON header and plain arrays, never a pickle.

``learned_player.npz`` holds:

- ``header``: the UTF-8 bytes of a JSON object: ``format`` (``gpquarto-learned/1``), ``game`` and its
  ``settings``, ``model`` (``ntuple`` or ``table``), ``features`` (the n-tuple features' name), ``name``,
  ``method`` and ``training`` (how it was learned), ``run`` (which run made it), ``gpquarto_version`` and,
  optionally, ``guard`` (true: the player plays with the tactical guard, :func:`~gpquarto.learned.player.pick_turn`);
- ``weights`` (float64, one per feature weight) for an n-tuple model, or ``keys_high``, ``keys_low``
  (uint64: each key is ``high * 2**64 + low``) and ``values`` (float64 in [-1, 1]) for a table.

Arrays are read with ``allow_pickle=False``; every field is checked, and any problem (missing, truncated,
corrupt or foreign file, a player of another game) is a one-line ``ValueError`` naming the file.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import numpy as np

from gpquarto.atomic import write_bytes_atomic
from gpquarto.games.registry import get_game
from gpquarto.learned.models import NTupleModel, TableModel, make_encoder
from gpquarto.learned.player import LearnedPlayer
from gpquarto.plain_files import MAX_FILE_BYTES

LEARNED_FORMAT = "gpquarto-learned/1"
#: The suffix of learned players' files.
LEARNED_SUFFIX = ".npz"
_KEY_BITS = 64
_KEY_LIMIT = 1 << (2 * _KEY_BITS)
#: Header fields: name -> type.
_HEADER_FIELDS = {
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
    np.savez_compressed(buffer, **extra, **arrays)
    return buffer.getvalue()


def read_npz(path: str | os.PathLike[str], kind: str) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` file ``path``, read without pickles; ``kind`` names the file in errors."""
    path = str(path)
    try:
        if os.path.getsize(path) > MAX_FILE_BYTES * 10:
            raise ValueError(f"{path}: file is larger than {MAX_FILE_BYTES * 10} bytes, not a {kind}")
        with np.load(path, allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}
    except OSError as error:
        raise ValueError(f"{path}: cannot read ({error.strerror or error})") from None
    except (ValueError, zipfile.BadZipFile, EOFError, KeyError, TypeError) as error:
        if str(error).startswith(path):
            raise
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"{path}: corrupt or foreign {kind} ({detail})") from None


def save_learned_player(path: str | os.PathLike[str], header: dict, arrays: dict[str, np.ndarray]) -> None:
    """Write a learned player atomically (checked first, as it will be read)."""
    if Path(path).suffix.lower() != LEARNED_SUFFIX:
        raise ValueError(f"{path}: a learned player's file must end in {LEARNED_SUFFIX}")
    _check(header, arrays)
    write_bytes_atomic(path, npz_bytes(arrays, header))


def read_learned_file(path: str | os.PathLike[str]) -> tuple[dict, dict[str, np.ndarray]]:
    """The checked header and arrays of a learned player's file."""
    arrays = read_npz(path, "learned player")
    try:
        raw = arrays.pop("header", None)
        if raw is None or raw.dtype != np.uint8 or raw.ndim != 1:
            raise ValueError("no JSON header")
        try:
            header = json.loads(raw.tobytes().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ValueError("its header is not JSON") from None
        _check(header, arrays)
    except ValueError as error:
        raise ValueError(f"{path}: not a gpquarto learned player ({error})") from None
    return header, arrays


def _check(header: object, arrays: dict[str, np.ndarray]) -> None:
    """Field by field: a ``ValueError`` saying what is wrong."""
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
    get_game(header["game"])  # an unknown game is a one-line error
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
        _expect_arrays(arrays, {"keys_high", "keys_low", "values"})
        shapes = {arrays[name].shape for name in ("keys_high", "keys_low", "values")}
        if len(shapes) != 1 or len(next(iter(shapes))) != 1:
            raise ValueError("'keys_high', 'keys_low' and 'values' must be 1-d arrays of one length")
        if arrays["keys_high"].dtype != np.uint64 or arrays["keys_low"].dtype != np.uint64:
            raise ValueError("the table's keys must be uint64")
        values = arrays["values"]
        if values.dtype != np.float64 or not (np.isfinite(values).all() and (np.abs(values) <= 1).all()):
            raise ValueError("the table's values must be float64 numbers in [-1, 1]")
        keys = arrays["keys_high"].astype(object) * (1 << _KEY_BITS) + arrays["keys_low"].astype(object)
        if len(keys) > 1 and not all(a < b for a, b in zip(keys[:-1], keys[1:], strict=True)):
            raise ValueError("the table's keys must be ascending and distinct")
    else:
        raise ValueError(f"unknown model {model[:40]!r} (known: ntuple, table)")


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
