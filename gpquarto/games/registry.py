"""The installed games: ``get_game("quarto")``, ``get_plugin("quixo")``, ``game_names()``.

Games are found through the entry-point group ``gpquarto.games``: each entry point names a
:class:`~gpquarto.games.plugin.GamePlugin` (``quarto = "gpquarto.games.quarto.plugin:PLUGIN"``). The built-in
games are declared in gpquarto's own ``pyproject.toml`` exactly like a game from an outside package, so the
registry names no game but the default one. :func:`register_plugin` adds a game at run time (tests,
notebooks). Discovery happens once, on first use; a broken plug-in is named in a one-line error when it is
asked for, and does not hide the other games.
"""

from __future__ import annotations

import importlib.metadata

from gpquarto.games.interface import Game
from gpquarto.games.plugin import GamePlugin, PluginError
from gpquarto.games.provider import GameProvider

#: The game every command plays unless told otherwise.
DEFAULT_GAME = "quarto"
ENTRY_POINT_GROUP = "gpquarto.games"

_PLUGINS: dict[str, GamePlugin] = {}
#: Games whose entry point failed to load: name -> the one-line reason.
_BROKEN: dict[str, str] = {}
#: Game providers by prefix (``openspiel``), and the plug-ins they made, by the names asked for.
_PROVIDERS: dict[str, GameProvider] = {}
_MADE: dict[str, GamePlugin] = {}
_discovered = False


def _discover() -> None:
    """Load every entry point of the group once (sorted by name; the first of two with one name wins)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    found = {(entry.name, entry.value): entry for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    for entry in sorted(found.values(), key=lambda entry: (entry.name, entry.value)):
        if entry.name in _PLUGINS:
            continue
        try:
            plugin = entry.load()
        except Exception as error:  # a broken package must not take the other games down
            _BROKEN[entry.name] = f"the game plug-in {entry.value} cannot be loaded ({type(error).__name__}: {error})"
            continue
        if isinstance(plugin, GameProvider) and plugin.prefix == entry.name:
            _PROVIDERS[entry.name] = plugin
            continue
        if not isinstance(plugin, GamePlugin) or plugin.name != entry.name:
            _BROKEN[entry.name] = (
                f"the entry point {entry.name} = {entry.value} is not a GamePlugin named {entry.name!r} "
                "(nor a GameProvider of that prefix)"
            )
            continue
        _PLUGINS[entry.name] = plugin


def register_plugin(plugin: GamePlugin) -> None:
    """Make ``plugin``'s game known by its name (a game of the same name is replaced only by the same plug-in)."""
    if not isinstance(plugin, GamePlugin):
        raise PluginError(f"register_plugin takes a GamePlugin, got {type(plugin).__name__}")
    _discover()
    known = _PLUGINS.get(plugin.name)
    if known is not None and known is not plugin:
        raise ValueError(f"a game named {plugin.name!r} is already registered")
    _PLUGINS[plugin.name] = plugin
    _BROKEN.pop(plugin.name, None)


def unregister_plugin(name: str) -> None:
    """Forget the game called ``name`` (for tests and interactive sessions); unknown names are ignored."""
    _PLUGINS.pop(name, None)


def providers() -> tuple[GameProvider, ...]:
    """The installed game providers (:mod:`gpquarto.games.provider`), by prefix."""
    _discover()
    return tuple(_PROVIDERS[prefix] for prefix in sorted(_PROVIDERS))


def provided_examples() -> tuple[str, ...]:
    """Some names of the providers' games (``openspiel:connect_four``), for help texts."""
    return tuple(name for provider in providers() for name in provider.examples())


def _provided(key: str) -> GamePlugin | None:
    """The plug-in a provider makes for ``key`` (``PREFIX:...``; kept once made), or None when no provider owns
    the prefix; a provider's one-line ``ValueError`` for a name it cannot make a game of."""
    prefix, colon, _ = key.partition(":")
    if not colon or prefix not in _PROVIDERS:
        return None
    if key not in _MADE:
        plugin = _PROVIDERS[prefix].plugin(key)
        _MADE[key] = _MADE.setdefault(plugin.name, plugin)
    return _MADE[key]


def game_names() -> tuple[str, ...]:
    """The installed games' names, the default first."""
    _discover()
    return tuple(sorted(_PLUGINS, key=lambda name: (name != DEFAULT_GAME, name)))


def plugins() -> tuple[GamePlugin, ...]:
    """Every installed game's plug-in, in :func:`game_names` order."""
    return tuple(_PLUGINS[name] for name in game_names())


def get_plugin(name: str | Game | GamePlugin = DEFAULT_GAME) -> GamePlugin:
    """The plug-in of the game called ``name`` (of a game object, or a plug-in itself); a one-line
    ``ValueError`` naming the installed games for an unknown one."""
    if isinstance(name, GamePlugin):
        return name
    key = name if isinstance(name, str) else name.name
    _discover()
    try:
        return _PLUGINS[key]
    except KeyError:
        pass
    provided = _provided(key)
    if provided is not None:
        return provided
    if key in _BROKEN:
        raise PluginError(f"game {key!r}: {_BROKEN[key]}")
    if not _PLUGINS:
        raise ValueError(
            f"unknown game {key!r}: no game is installed (gpquarto's entry points are missing: "
            'reinstall it with pip install -e ".")'
        )
    known = ", ".join([*game_names(), *(f"{prefix}:NAME" for prefix in sorted(_PROVIDERS))])
    raise ValueError(f"unknown game {str(key)[:40]!r} (known: {known})")


def get_game(name: str | Game = DEFAULT_GAME) -> Game:
    """The game called ``name`` (a game object is returned as it is); ``ValueError`` naming the known games."""
    if not isinstance(name, str):
        return name
    return get_plugin(name).game
