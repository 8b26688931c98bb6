"""Players by name: ``make_player("minimax:depth=2")``, the same everywhere (CLI, Python, configs).

A player *spec* is ``NAME`` or ``NAME:key=value,key=value``. Parameters are read from the keyword
arguments of the registered factory (a class or a function), converted by their annotations (int, float,
bool, str), and checked: an unknown name or parameter raises ``ValueError`` with a one-line message.
A spec that names an existing file (e.g. ``best_player.p``) is handed to the loader registered for its
suffix (the GP storage registers ``.p`` and ``.json``).
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass

from gpquarto.players.base import Player

#: Modules whose import registers players; each registers itself with :func:`register_player`.
BUILTIN_PLAYER_MODULES = [
    "gpquarto.players.random_player",
    "gpquarto.players.solver_player",
    "gpquarto.players.mcts",
    "gpquarto.players.novice",
    "gpquarto.players.minimax",
    "gpquarto.players.frontier",
    "gpquarto.players.human",
    "gpquarto.gp.storage",
]


@dataclass(frozen=True)
class Parameter:
    """One parameter of a registered player."""

    name: str
    type: type
    default: object


@dataclass(frozen=True)
class PlayerInfo:
    """A registered player: its name, factory, parameters and one-line description."""

    name: str
    factory: Callable[..., Player]
    parameters: tuple[Parameter, ...]
    summary: str
    accepts_seed: bool


#: Suffixes that always mean "a saved player file", even before a loader is registered for them.
PLAYER_FILE_SUFFIXES = (".p", ".json", ".dill", ".pkl", ".pickle")

_REGISTRY: dict[str, PlayerInfo] = {}
_FILE_LOADERS: dict[str, Callable[[str], Player]] = {}
_loaded = False


def register_player(name: str) -> Callable[[Callable[..., Player]], Callable[..., Player]]:
    """Decorator: register a player class or factory under ``name``.

    Its keyword parameters (with defaults and ``int``/``float``/``bool``/``str`` annotations) become the
    spec's parameters; a parameter called ``seed`` receives the match seed and is not listed.
    """

    def decorate(factory: Callable[..., Player]) -> Callable[..., Player]:
        if name in _REGISTRY and _REGISTRY[name].factory is not factory:
            raise ValueError(f"a player named {name!r} is already registered")
        signature = inspect.signature(factory)
        hints = _annotations(factory)
        parameters = []
        for parameter in signature.parameters.values():
            if parameter.name in ("self", "seed") or parameter.kind in (
                parameter.VAR_POSITIONAL,
                parameter.VAR_KEYWORD,
            ):
                continue
            kind = hints.get(
                parameter.name, type(parameter.default) if parameter.default is not parameter.empty else str
            )
            parameters.append(
                Parameter(
                    parameter.name,
                    _plain_type(kind),
                    None if parameter.default is parameter.empty else parameter.default,
                )
            )
        doc = inspect.getdoc(factory) or ""
        _REGISTRY[name] = PlayerInfo(
            name=name,
            factory=factory,
            parameters=tuple(parameters),
            summary=doc.strip().splitlines()[0] if doc.strip() else "",
            accepts_seed="seed" in signature.parameters,
        )
        return factory

    return decorate


def unregister_player(name: str) -> None:
    """Remove a registered player (for tests and interactive sessions); unknown names are ignored."""
    _REGISTRY.pop(name, None)


def register_file_loader(suffix: str, loader: Callable[[str], Player]) -> None:
    """Let specs that are paths ending in ``suffix`` (e.g. ``".p"``) be loaded by ``loader(path)``."""
    _FILE_LOADERS[suffix.lower()] = loader


def _annotations(factory: Callable[..., Player]) -> dict[str, object]:
    target = factory.__init__ if inspect.isclass(factory) else factory
    try:
        return inspect.get_annotations(target, eval_str=True)
    except Exception:  # annotations that cannot be resolved fall back to the defaults' types
        return {}


def _plain_type(kind: object) -> type:
    for candidate in (bool, int, float, str):
        if kind is candidate or (isinstance(kind, type) and issubclass(kind, candidate)):
            return candidate
    text = str(kind)
    for candidate in (bool, int, float, str):
        if candidate.__name__ in text:
            return candidate
    return str


def load_builtin_players() -> None:
    """Import the modules that register the built-in players (once)."""
    global _loaded
    if _loaded:
        return
    for module in BUILTIN_PLAYER_MODULES:
        importlib.import_module(module)
    _loaded = True


def available_players() -> list[PlayerInfo]:
    """Every registered player, sorted by name."""
    load_builtin_players()
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def _convert(value: str, kind: type, name: str, player: str) -> object:
    try:
        if kind is bool:
            lowered = value.lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError
        return kind(value)
    except ValueError:
        raise ValueError(f"player {player!r}: parameter {name} must be {kind.__name__}, got {value!r}") from None


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value,..."`` into the name and a dict of raw values."""
    name, _, rest = spec.strip().partition(":")
    values: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, equals, value = item.partition("=")
            if not equals or not key.strip():
                raise ValueError(f"bad player spec {spec!r}: expected key=value after ':', got {item!r}")
            values[key.strip()] = value.strip()
    return name.strip(), values


def make_unattended_player(spec: str, *, seed: int | None = None) -> Player:
    """:func:`make_player` for matches and tournaments, which run with nobody at the terminal: a player that
    needs a person (its class sets ``interactive = True``, like ``human``) is refused with a one-line
    ``ValueError``."""
    player = make_player(spec, seed=seed)
    if getattr(player, "interactive", False):
        raise ValueError(f"player {spec!r} needs a person at the terminal: play it with 'python -m gpquarto play'")
    return player


def make_player(spec: str, *, seed: int | None = None) -> Player:
    """Build a player from a spec such as ``"random"``, ``"minimax:depth=2"`` or ``"best_player.p"``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a player spec must be a non-empty string, got {spec!r}")
    load_builtin_players()
    suffix = os.path.splitext(spec)[1].lower()
    if suffix in _FILE_LOADERS or suffix in PLAYER_FILE_SUFFIXES or os.path.sep in spec or os.path.isfile(spec):
        if not os.path.isfile(spec):
            raise ValueError(f"player file not found: {spec}")
        if suffix not in _FILE_LOADERS:
            raise ValueError(
                f"cannot load a player from {spec!r}: no loader for files ending in {suffix or '(no suffix)'!r}"
            )
        player = _FILE_LOADERS[suffix](spec)
        if seed is not None and hasattr(player, "seed"):
            player.seed(seed)
        return player
    name, raw = parse_spec(spec)
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown player {name!r} (known: {known}; or a saved player file)")
    info = _REGISTRY[name]
    by_name = {parameter.name: parameter for parameter in info.parameters}
    kwargs: dict[str, object] = {}
    for key, value in raw.items():
        if key not in by_name:
            allowed = ", ".join(by_name) or "none"
            raise ValueError(f"player {name!r} has no parameter {key!r} (parameters: {allowed})")
        kwargs[key] = _convert(value, by_name[key].type, key, name)
    if info.accepts_seed:
        kwargs["seed"] = seed
    try:
        return info.factory(**kwargs)
    except (TypeError, ValueError) as error:
        raise ValueError(f"player {spec!r}: {error}") from None
