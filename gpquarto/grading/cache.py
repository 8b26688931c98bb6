"""Banks cached as JSON in the user's cache folder, keyed by their parameters, validated when read.

The folder is ``--cache-dir`` (the ``cache_dir`` argument), else ``$GPQUARTO_CACHE``, else
``$XDG_CACHE_HOME/gpquarto``, else ``~/.cache/gpquarto``; banks go into its ``banks/`` subfolder. A file is
written atomically and carries a checksum of its positions. When read back, everything is checked (format,
parameters, checksum, and each position: parseable, in range, not over, a win or a draw whose optimal
actions are legal and not all of them); a file that fails is rebuilt with a one-line warning.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gpquarto.atomic import write_text_atomic
from gpquarto.cache_dir import cache_folder
from gpquarto.grading.bank import (
    BANK_FORMAT,
    Bank,
    BankParameters,
    BankPosition,
    build_bank_for,
    decision_matters,
)
from gpquarto.runner import SERIAL, Runner


class BankCacheWarning(UserWarning):
    """A cached bank could not be used (unreadable, corrupt or not writable); it is rebuilt or not kept."""


def bank_path(parameters: BankParameters, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the bank of ``parameters`` is cached: a readable name plus a hash of every parameter."""
    p = parameters
    digest = hashlib.sha256(json.dumps(p.to_json(), sort_keys=True).encode()).hexdigest()[:10]
    tag = p.bank.tag(p.settings)
    game = f"{tag}-" if tag else ""
    if p.kind:
        game += f"{p.kind}-"
    name = f"bank-{game}{p.purpose}-seed{p.seed}-n{p.positions}-empty{p.min_empties}-{p.max_empties}-{p.rules}-{digest}.json"
    return cache_folder(cache_dir) / "banks" / name


def _checksum(positions: list[dict]) -> str:
    return hashlib.sha256(json.dumps(positions, sort_keys=True).encode()).hexdigest()


def bank_to_json(bank: Bank) -> str:
    """The bank as JSON text (parameters, positions, their checksum, and how long the build took)."""
    positions = [position.to_json() for position in bank.positions]
    data = {
        "parameters": bank.parameters.to_json(),
        "positions": positions,
        "checksum": _checksum(positions),
        "build_seconds": round(bank.build_seconds, 3),
        "solved": bank.solved,
    }
    return json.dumps(data, indent=0) + "\n"


def bank_from_json(text: str, parameters: BankParameters) -> Bank:
    """Read and validate a bank written by :func:`bank_to_json` for ``parameters``; raises ``ValueError``
    saying what is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error})") from None
    if not isinstance(data, dict):
        raise ValueError("not a bank (expected a JSON object)")
    stored = data.get("parameters")
    if not isinstance(stored, dict) or stored.get("format") != BANK_FORMAT:
        raise ValueError(f"not a bank of format {BANK_FORMAT}")
    if stored != parameters.to_json():
        raise ValueError("made with other parameters")
    raw = data.get("positions")
    if not isinstance(raw, list) or data.get("checksum") != _checksum(raw):
        raise ValueError("positions do not match their checksum")
    if len(raw) != parameters.positions:
        raise ValueError(f"holds {len(raw)} positions, expected {parameters.positions}")
    positions = tuple(_position(item, parameters, number) for number, item in enumerate(raw))
    build_seconds = data.get("build_seconds", 0.0)
    solved = data.get("solved", 0)
    return Bank(
        parameters,
        positions,
        float(build_seconds) if isinstance(build_seconds, int | float) else 0.0,
        solved if isinstance(solved, int) else 0,
        cached=True,
    )


def _position(item: object, parameters: BankParameters, number: int) -> BankPosition:
    """One validated position (``ValueError`` naming it otherwise)."""
    try:
        keys = {"text", "value", "best_actions", "game"}
        if parameters.bank.names_game:
            keys |= {"game_name", "exact_actions"}
        if not isinstance(item, dict) or set(item) != keys:
            raise ValueError(f"expected {', '.join(sorted(keys))}")
        text, value, best, game = item["text"], item["value"], item["best_actions"], item["game"]
        exact = item.get("exact_actions", [])
        if not isinstance(text, str) or not isinstance(game, int) or isinstance(game, bool) or game < 0:
            raise ValueError("bad text or game number")
        if item.get("game_name", parameters.game) != parameters.game:
            raise ValueError(f"not a {parameters.game} position")
        if not all(isinstance(actions, list) and all(type(a) is int for a in actions) for actions in (best, exact)):
            raise ValueError("bad actions")
        if type(value) is not int:
            raise ValueError("bad value")
        settings = tuple(parameters.settings.items())
        board = BankPosition(
            text, value, tuple(best), game, parameters.game, (), settings
        ).board()  # bad text: ValueError
        if any(board.settings().get(name) != value for name, value in parameters.settings.items()) or board.is_over():
            raise ValueError("wrong settings (rules or size), or the game is over")
        position = BankPosition(board.text(), value, tuple(best), game, parameters.game, tuple(exact), settings)
        if position.empties not in parameters.empties_range:
            raise ValueError(f"{position.empties} empty squares")
        legal = board.legal_actions()
        if len(set(best)) != len(best) or not set(best) <= set(legal) or not set(exact) <= set(best):
            raise ValueError("optimal actions that are not legal")
        if not decision_matters(value, position.best_actions, len(legal)):
            raise ValueError("not a decision that matters")
        return position
    except ValueError as error:
        raise ValueError(f"position {number}: {error}") from None


def _warn(message: str) -> None:
    warnings.warn(message, BankCacheWarning, stacklevel=3)


def load_or_build_bank(
    parameters: BankParameters | None = None,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    runner: Runner = SERIAL,
    rebuild: bool = False,
    progress: Callable[[int, int], None] | None = None,
    warn: Callable[[str], None] = _warn,
    **options: Any,  # BankParameters' fields, which it checks
) -> Bank:
    """The bank of ``parameters`` from the cache, or built and cached. Instead of ``parameters``, keyword
    ``options`` (those of :class:`BankParameters`: ``seed``, ``positions``, ``min_empties``, ...) may be given;
    with neither, it is the default grade bank.

    A cached file that cannot be read or fails validation is rebuilt, after ``warn(one line)`` (by default
    a :class:`BankCacheWarning`); so is every bank when ``rebuild``. When the cache cannot be written, the
    bank is returned anyway after a warning.
    """
    if parameters is None:
        parameters = BankParameters(**options)
    elif options:
        raise TypeError("give either parameters or keyword options, not both")
    path = bank_path(parameters, cache_dir)
    if not rebuild and path.exists():
        try:
            return bank_from_json(path.read_text(encoding="utf-8"), parameters)
        except (OSError, UnicodeDecodeError, ValueError) as error:
            warn(f"cached bank {path} is unusable ({error}); rebuilding it")
    bank = build_bank_for(parameters, runner=runner, progress=progress)
    try:
        write_text_atomic(path, bank_to_json(bank))
    except OSError as error:
        warn(f"could not cache the bank in {path} ({error})")
    return bank
