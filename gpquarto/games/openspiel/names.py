"""Names of OpenSpiel's games as gpquarto names them (``openspiel:breakthrough(rows=5,columns=5)``), loading them
from ``pyspiel`` and checking the traits gpquarto plays.

``pyspiel`` is imported here, lazily (:func:`spiel`): a missing ``open-spiel`` is a one-line error saying how to
install it.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

#: The prefix of OpenSpiel's games in gpquarto (``--game openspiel:connect_four``).
PREFIX = "openspiel"
#: How to install OpenSpiel, for messages.
INSTALL = "pip install 'gpquarto[openspiel]' (or pip install open-spiel)"


def spiel() -> ModuleType:
    """The ``pyspiel`` module; a one-line ``ValueError`` saying how to install it when it is missing."""
    try:
        import pyspiel
    except ImportError:
        raise ValueError(f"OpenSpiel's games need the open-spiel package: {INSTALL}") from None
    return pyspiel


def spiel_name(name: str) -> str:
    """The OpenSpiel part of a gpquarto name: ``"breakthrough(rows=5,columns=5)"`` of
    ``"openspiel:breakthrough(rows=5, columns=5)"`` (spaces dropped); a one-line ``ValueError`` for a name that
    is not ``openspiel:NAME`` or ``openspiel:NAME(param=value,...)``."""
    prefix, colon, rest = str(name).partition(":")
    rest = "".join(rest.split())
    shown = str(name)[:60]
    if prefix != PREFIX or not colon or not rest:
        raise ValueError(f"expected {PREFIX}:NAME or {PREFIX}:NAME(param=value,...), got {shown!r}")
    game, paren, params = rest.partition("(")
    if not game.replace("_", "").isalnum() or (paren and not params.endswith(")")):
        raise ValueError(f"expected {PREFIX}:NAME or {PREFIX}:NAME(param=value,...), got {shown!r}")
    return rest


def canonical_name(spiel_game: Any) -> str:
    """gpquarto's one name of a loaded OpenSpiel game: its parameters as OpenSpiel orders them
    (``openspiel:breakthrough(columns=5,rows=5)``), none shown for a game with its defaults
    (``openspiel:connect_four``)."""
    text = str(spiel_game)
    return f"{PREFIX}:{text.removesuffix('()')}"


#: The largest whole number a game's parameter may be here: every board of the supported games fits far below it,
#: and OpenSpiel allocates a board of any size it is given (``breakthrough(rows=99999999)`` exhausts memory).
MAX_PARAMETER = 100
_NUMBER = re.compile(r"=\s*(-?\d+)")


def load(name: str) -> Any:
    """The ``pyspiel`` game that ``name`` (``openspiel:NAME[(params)]``) names, checked to be one gpquarto plays;
    a one-line ``ValueError`` for an unknown game, bad parameters, or a missing trait."""
    pyspiel = spiel()
    text = spiel_name(name)
    short = text.partition("(")[0]
    if short not in pyspiel.registered_names():
        raise ValueError(
            f"OpenSpiel has no game {short[:40]!r} (see python -c 'import pyspiel; print(pyspiel.registered_names())')"
        )
    for number in _NUMBER.findall(text.partition("(")[2]):
        if abs(int(number[:12])) > MAX_PARAMETER:
            raise ValueError(f"{short!r}: a parameter of {number[:12]} is too large (at most {MAX_PARAMETER} here)")
    try:
        with quiet_stderr():  # OpenSpiel writes its error to the C++ stderr too: gpquarto words it in one line
            game = pyspiel.load_game(text)
    except Exception as error:  # pyspiel.SpielError and the binding's own errors: worded in one line
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise ValueError(f"OpenSpiel cannot load {text[:60]!r}: {first[:120]}") from None
    missing = missing_trait(game)
    if missing:
        raise ValueError(
            f"OpenSpiel's game {short!r} is not {missing}: gpquarto plays two-player, sequential, "
            "deterministic, perfect-information, zero-sum games only"
        )
    return game


def missing_trait(game: Any) -> str | None:
    """The first trait gpquarto needs that ``game`` (a ``pyspiel`` game) lacks, in words, or None."""
    pyspiel = spiel()
    kind = game.get_type()
    checks = (
        (game.num_players() == 2, "two-player"),
        (kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL, "sequential"),
        (kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC, "deterministic"),
        (kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION, "perfect-information"),
        (
            kind.utility in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM),
            "zero-sum",
        ),
        (kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL, "rewarded only at the end"),
    )
    return next((words for ok, words in checks if not ok), None)


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Send what is written to file descriptor 2 (C++ code's ``std::cerr``) to the null device for the block."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
