"""The zoo by name: ``make_named_player("minimax:depth=2")``, the same everywhere (CLI, Python, configs).

A *named spec* is ``NAME`` or ``NAME:key=value,key=value``. Parameters are read from the keyword
arguments of the registered factory (a class or a function), converted by their annotations (int, float,
bool, str), and checked: an unknown name or parameter raises ``ValueError`` with a one-line message.
This registry knows the zoo only; saved player files are loaded by the GP layer, and
:func:`gpquarto.resolve.make_player` turns any player spec (a named spec or a file) into a player.
"""

from __future__ import annotations

import importlib
import inspect
import math
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


_REGISTRY: dict[str, PlayerInfo] = {}
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
        converted = kind(value)
        if kind is float and not math.isfinite(converted):
            raise ValueError
        return converted
    except ValueError:
        what = "a finite number" if kind is float else kind.__name__
        raise ValueError(f"player {player!r}: parameter {name} must be {what}, got {value!r}") from None


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name:key=value,..."`` into the name and a dict of raw values."""
    name, _, rest = spec.strip().partition(":")
    values: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, equals, value = item.partition("=")
            if not equals or not key.strip():
                raise ValueError(f"bad player spec {spec!r}: expected key=value after ':', got {item!r}")
            if key.strip() in values:
                raise ValueError(f"bad player spec {spec!r}: parameter {key.strip()!r} is given twice")
            values[key.strip()] = value.strip()
    return name.strip(), values


def make_named_player(spec: str, *, seed: int | None = None) -> Player:
    """Build a zoo player from a named spec such as ``"random"`` or ``"minimax:depth=2"``."""
    info, kwargs = named_player_recipe(spec, seed=seed)
    try:
        return info.factory(**kwargs)
    except (TypeError, ValueError) as error:
        raise ValueError(f"player {spec!r}: {error}") from None


def named_player_recipe(spec: str, *, seed: int | None = None) -> tuple[PlayerInfo, dict[str, object]]:
    """The registered player a named spec names and the keyword arguments its factory gets (parameters
    converted and checked, ``seed`` included when the factory takes one); ``ValueError`` in one line."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a player spec must be a non-empty string, got {spec!r}")
    load_builtin_players()
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
    return info, kwargs
