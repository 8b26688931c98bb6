"""Which GP binding each game has: its plug-in's :class:`~gpquarto.games.capabilities.GPBinding` (imported on first
use), one added at run time (:func:`register_gp_game`: tests, notebooks), else the *generic* binding over the game
interface (:func:`gpquarto.gp.generic.generic_binding`), whose library adds the generic primitives: specs of the
group ``"generic"`` (they read ``GenericFeatures`` or mention ``Action``) join the library of every generically
bound game and of no other (:func:`accepts`)."""

from __future__ import annotations

from typing import Any, cast

from gpquarto.games.capabilities import GPBinding
from gpquarto.games.registry import DEFAULT_GAME, game_names, get_plugin, plugins
from gpquarto.gp import generic
from gpquarto.gp.binding import GENERIC, GPGame

#: Bindings added at run time by :func:`register_gp_game`.
_GAMES: dict[str, GPGame] = {}
#: The binding of each installed game once asked for: name -> (the plug-in it was made for, the binding). A game
#: registered again with another plug-in (tests, notebooks) gets that plug-in's binding.
_MADE: dict[str, tuple[Any, GPGame]] = {}


def register_gp_game(binding: GPGame) -> None:
    """Make ``binding`` the GP binding of its game at run time (the game must be installed; a game whose plug-in
    offers a binding keeps that one)."""
    plugin = get_plugin(binding.name)
    known = _GAMES.get(binding.name) or (plugin.capability(GPBinding) if plugin.offers(GPBinding) else None)
    if known is not None and known is not binding:
        raise ValueError(f"the game {binding.name!r} already has a GP binding")
    _GAMES[binding.name] = binding


def gp_game(name: str = DEFAULT_GAME) -> GPGame:
    """The GP binding of the game called ``name``: its plug-in's, else the generic binding over the game
    interface (:func:`gpquarto.gp.generic.generic_binding`). ``"generic"`` names the binding that checks the
    generic primitives (:data:`gpquarto.gp.generic.GENERIC_GP`), which is no game's."""
    binding = _GAMES.get(name)
    if binding is not None:
        return binding
    if name == GENERIC:
        return generic.GENERIC_GP
    plugin = get_plugin(name)  # an unknown game is named as such
    made = _MADE.get(name)
    if made is not None and made[0] is plugin:
        return made[1]
    if plugin.offers(GPBinding):
        # a game's GPBinding is a GPGame (games.capabilities names the capability without importing gp)
        made_binding = cast(GPGame, plugin.capability(GPBinding))
    else:
        made_binding = generic.generic_binding(plugin)
    _MADE[name] = (plugin, made_binding)
    return made_binding


def gp_games() -> tuple[GPGame, ...]:
    """Every installed game's GP binding (its own or the generic one), the default game's first."""
    found = {plugin.name: gp_game(plugin.name) for plugin in plugins()}
    for name, binding in _GAMES.items():
        found.setdefault(name, binding)
    order = {name: index for index, name in enumerate(game_names())}  # the default game first
    return tuple(sorted(found.values(), key=lambda binding: (order.get(binding.name, len(order)), binding.name)))


def game_of_features(annotation: object) -> str | None:
    """The game whose features class ``annotation`` is (exactly), ``"generic"`` for
    :class:`~gpquarto.gp.generic.GenericFeatures` (every generically bound game's), or None."""
    if annotation is generic.GenericFeatures:
        return GENERIC
    for binding in gp_games():
        if annotation is binding.features:
            return binding.name
    return None


def game_of_type(type_: type) -> str | None:
    """The game that owns the node type ``type_``, ``"generic"`` for ``Action`` (every generically bound game's),
    or None for a neutral type (``bool``, ``Count``, ``Score``)."""
    if type_ in generic.GENERIC_GP.node_types:
        return GENERIC
    for binding in gp_games():
        if type_ in binding.node_types:
            return binding.name
    return None


def accepts(binding: GPGame, game: str | None) -> bool:
    """A primitive of ``game`` (a spec's ``game``: None for a neutral one) may join ``binding``'s library: a
    neutral one, one of the binding's game, or a generic one when the binding is generic."""
    return game is None or game == binding.name or (binding.generic and game == GENERIC)
