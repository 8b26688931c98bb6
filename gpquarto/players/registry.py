"""The zoo by name: ``make_named_player("minimax:depth=2")``, the same everywhere (CLI, Python, configs).

A *named spec* is ``NAME`` or ``NAME:key=value,key=value``. Parameters are read from the keyword
arguments of the registered factory (a class or a function), converted by their annotations (int, float,
bool, str), and checked: an unknown name or parameter raises ``ValueError`` with a one-line message.
This registry knows the zoo only; saved player files are loaded by the GP layer, and
:func:`gpquarto.resolve.make_player` turns any player spec (a named spec or a file) into a player.

Players are registered under the game they play (``random``, ``alphabeta``, ``mcts`` and ``solver`` play any
game): a spec is looked up among the players of the game being played, so ``minimax`` names Quarto's minimax in
Quarto and Quixo's in Quixo, and a game's own player of a name every game has (an *accelerator*: Quixo's
``alphabeta``) is that game's player of the name.
"""

from __future__ import annotations

import importlib
import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import cast

from gpquarto.games.capabilities import ZooPlayers
from gpquarto.games.registry import DEFAULT_GAME, get_game, plugins, providers
from gpquarto.players.base import Player

#: Modules whose import registers players; each registers itself with :func:`register_player`.
BUILTIN_PLAYER_MODULES = [
    "gpquarto.players.random_player",
    "gpquarto.players.searchers",
    "gpquarto.players.human",
]


@dataclass(frozen=True)
class Parameter:
    """One parameter of a registered player."""

    name: str
    type: type
    default: object
    #: The values allowed (both ends included), for numbers; None: no limit.
    limits: tuple[float, float] | None = None


@dataclass(frozen=True)
class PlayerInfo:
    """A registered player: its name, the game it plays (None: any game), factory, parameters and one-line
    description."""

    name: str
    game: str | None
    factory: Callable[..., Player]
    parameters: tuple[Parameter, ...]
    summary: str
    accepts_seed: bool


#: (game, name) -> the registered player; game None holds the players of every game.
_REGISTRY: dict[tuple[str | None, str], PlayerInfo] = {}
_loaded = False
_UNSET = object()


def register_player(
    name: str, *, game: str | None | object = _UNSET, limits: Mapping[str, tuple[float, float]] | None = None
) -> Callable[[Callable[..., Player]], Callable[..., Player]]:
    """Decorator: register a player class or factory under ``name`` for ``game``.

    ``game`` defaults to the class's ``game`` attribute (a game's name, or None: any game), and
    to the default game for a factory function. Its keyword parameters (with defaults and
    ``int``/``float``/``bool``/``str`` annotations) become the spec's parameters; a parameter called ``seed``
    receives the match seed and is not listed. ``limits`` bounds numeric parameters (``{"depth": (1, 16)}``):
    a spec outside them is refused before the player is built, so a search is never asked for more than the
    game allows.
    """
    limits = dict(limits or {})

    def decorate(factory: Callable[..., Player]) -> Callable[..., Player]:
        played = game if game is not _UNSET else getattr(factory, "game", DEFAULT_GAME)
        if played is not None:
            played = get_game(played).name  # type: ignore[arg-type]  # a name: _UNSET was replaced
        key = (played, name)
        # One name, one player per game; a game's own player of a name that every game has (an accelerator of
        # a generic search) is its player of that name.
        clashes = [info for (other_game, other_name), info in _REGISTRY.items() if (other_game, other_name) == key]
        if any(info.factory is not factory for info in clashes):
            raise ValueError(f"a player named {name!r} is already registered for {played or 'every game'}")
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
                    limits.pop(parameter.name, None),
                )
            )
        if limits:
            raise ValueError(f"player {name!r}: limits for parameters it does not have: {', '.join(limits)}")
        doc = inspect.getdoc(factory) or ""
        _REGISTRY[key] = PlayerInfo(
            name=name,
            game=played,
            factory=factory,
            parameters=tuple(parameters),
            summary=doc.strip().splitlines()[0] if doc.strip() else "",
            accepts_seed="seed" in signature.parameters,
        )
        return factory

    return decorate


def unregister_player(name: str) -> None:
    """Remove the players registered as ``name`` (for tests and interactive sessions); unknown names are
    ignored."""
    for key in [key for key in _REGISTRY if key[1] == name]:
        del _REGISTRY[key]


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
    """Import the modules that register the built-in players, then every installed game's own players (its
    :class:`~gpquarto.games.capabilities.ZooPlayers`) and the players of every game that the game providers bring
    (OpenSpiel's bots), once."""
    global _loaded
    if _loaded:
        return
    for module in BUILTIN_PLAYER_MODULES:
        importlib.import_module(module)
    for plugin in plugins():
        if plugin.offers(ZooPlayers):
            plugin.capability(ZooPlayers).load()
    for provider in providers():
        if provider.players is not None:
            provider.players.load()
    _loaded = True


def available_players(game: str = DEFAULT_GAME) -> list[PlayerInfo]:
    """The registered players of ``game`` (those of every game included), sorted by name."""
    load_builtin_players()
    return sorted(_players_of(get_game(game).name).values(), key=lambda info: info.name)


def _players_of(game: str) -> dict[str, PlayerInfo]:
    """Name -> player for ``game``: its own players, over those of every game."""
    found = {name: info for (played, name), info in _REGISTRY.items() if played is None}
    found.update({name: info for (played, name), info in _REGISTRY.items() if played == game})
    return found


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
    """Split ``"name:key=value,..."`` into the name and a dict of raw values.

    A value may hold commas (a file path such as ``evaluator=runs/a,b/best.json``): text after a comma that has
    no ``=`` continues the value before it.
    """
    name, _, rest = spec.strip().partition(":")
    values: dict[str, str] = {}
    if rest:
        key = None
        for item in rest.split(","):
            new_key, equals, value = item.partition("=")
            if not equals and key is not None:
                values[key] += "," + item.rstrip()
                continue
            key = new_key.strip()
            if not equals or not key:
                raise ValueError(f"bad player spec {spec!r}: expected key=value after ':', got {item!r}")
            if key in values:
                raise ValueError(f"bad player spec {spec!r}: parameter {key!r} is given twice")
            values[key] = value.strip()
    return name.strip(), values


def format_limits(bounds: tuple[float, float]) -> str:
    """``(1, 16)`` as ``"1 to 16"`` (whole numbers with thousands separators)."""
    return " to ".join(f"{int(end):,}" if float(end).is_integer() else f"{end:g}" for end in bounds)


def make_named_player(
    spec: str, *, seed: int | None = None, game: str = DEFAULT_GAME, overrides: dict[str, object] | None = None
) -> Player:
    """Build a zoo player of ``game`` from a named spec such as ``"random"`` or ``"minimax:depth=2"``.

    ``overrides`` are keyword arguments given as objects rather than text (an evolved evaluator's heuristic for
    ``minimax``: :mod:`gpquarto.gp.evaluator_player`); they replace what the spec says.
    """
    info, kwargs = named_player_recipe(spec, seed=seed, game=game, overrides=overrides)
    try:
        return info.factory(**kwargs)
    except (TypeError, ValueError) as error:
        raise ValueError(f"player {spec!r}: {error}") from None


def named_player_recipe(
    spec: str, *, seed: int | None = None, game: str = DEFAULT_GAME, overrides: dict[str, object] | None = None
) -> tuple[PlayerInfo, dict[str, object]]:
    """The registered player of ``game`` a named spec names and the keyword arguments its factory gets
    (parameters converted and checked, ``overrides`` applied, ``seed`` included when the factory takes one);
    ``ValueError`` in one line."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a player spec must be a non-empty string, got {spec!r}")
    load_builtin_players()
    game = get_game(game).name
    name, raw = parse_spec(spec)
    players = _players_of(game)
    if name not in players:
        known = ", ".join(sorted(players))
        elsewhere = sorted(played for (played, other) in _REGISTRY if other == name and played is not None)
        if elsewhere:
            raise ValueError(
                f"player {name!r} plays {' and '.join(elsewhere)}, not {game} (players of {game}: {known})"
            )
        raise ValueError(f"unknown player {name!r} (known: {known}; or a saved player file)")
    info = players[name]
    by_name = {parameter.name: parameter for parameter in info.parameters}
    kwargs: dict[str, object] = {}
    for key, value in raw.items():
        if key not in by_name:
            allowed = ", ".join(by_name) or "none"
            raise ValueError(f"player {name!r} has no parameter {key!r} (parameters: {allowed})")
        kwargs[key] = _convert(value, by_name[key].type, key, name)
        bounds = by_name[key].limits
        if bounds is not None and not bounds[0] <= cast(float, kwargs[key]) <= bounds[1]:  # limits bound numbers
            raise ValueError(f"player {name!r}: parameter {key} must be {format_limits(bounds)}, got {value}")
    kwargs.update(overrides or {})
    if info.accepts_seed:
        kwargs["seed"] = seed
    return info, kwargs
