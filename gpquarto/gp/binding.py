"""How a game plugs into the GP core: one :class:`GPGame` per game, found by the game's name.

The GP core (registration checks, libraries, genomes, variation, screening, rule sets, players, storage) asks
the binding of a genome's game, never the game itself, for what differs between games:

* the **rule kinds** in genome order and the root type of each kind's *then* tree (Quarto: ``choose`` ->
  ``Piece``, ``place`` -> ``Square``; Quixo: ``move`` -> ``Move``);
* the **features** class a decision builds (``features(view)``) and that a primitive's first parameter names;
* the game's own **node types** (a primitive that mentions one belongs to the game);
* where its **built-in primitives** are (``family_package``: the module name of a package holding its own
  ``FAMILY_MODULES``, beside the neutral and Quarto families of the top-level ``gpquarto_primitives``; ``""``:
  those only);
* the **sample positions** primitives are checked on, the **child samples** of its action types and the
  **value check** of an action node (a legal action or ``NO_ACTION``);
* the **legality** of a proposed value, the counted random **fallback**, how a decided value becomes the
  game's **action**, and the compiled **rule set** and **player** of its genomes.

Specs that mention no game's features or node types are *neutral* and belong to every game's library.
A game offers its binding as the capability :class:`~gpquarto.games.capabilities.GPBinding` of its plug-in,
imported on first use; :func:`register_gp_game` adds one at run time (tests, notebooks). A game that offers none
gets the *generic* binding over the game interface (:mod:`gpquarto.gp.generic`), whose library adds the generic
primitives: specs of the group ``"generic"`` (they read ``GenericFeatures`` or mention ``Action``) join the
library of every generically bound game and of no other (:func:`accepts`).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from gpquarto.games.capabilities import GPBinding
from gpquarto.games.interface import GameState, GameView
from gpquarto.games.registry import DEFAULT_GAME, get_plugin, plugins

#: The root type of every *if* tree.
CONDITION_TYPE = bool
#: The group of the generic primitives (a spec's ``game``): they belong to every game bound generically
#: (:mod:`gpquarto.gp.generic`). No installed game may take this name.
GENERIC = "generic"


@dataclass(frozen=True)
class GPGame(GPBinding):
    """What the GP core needs to know about one game (see the module docstring); plain functions and classes."""

    #: The game's name in :mod:`gpquarto.games.registry`.
    name: str
    #: Rule kinds in genome order (the order of ``Genome.to_data`` and of every loop over a genome's rules).
    kinds: tuple[str, ...]
    #: Root type of the *then* tree of each kind.
    then_types: Mapping[str, type]
    #: The class of the decision's features; ``features(view)`` builds them.
    features: type
    #: The game's own node types (besides the neutral ``bool``, ``Count`` and ``Score``).
    node_types: tuple[type, ...]
    #: The package with this game's own ``FAMILY_MODULES`` (``"gpquarto.games.quixo.primitives"``; ``""``: none).
    family_package: str
    #: The fixed positions a primitive of this game is checked on (built once; never mutate them).
    sample_positions: Callable[[], tuple[GameState, ...]]
    #: Sample child values of an action type in a position: ``child_samples(type_, features)``.
    child_samples: Callable[[type, Any], tuple[int, ...]]
    #: Why ``value`` is not an acceptable value of the action type in the position, or None:
    #: ``wrong_value(type_, value, features)``.
    wrong_value: Callable[[type, int, Any], str | None]
    #: Whether a *then* value of ``kind`` is a legal action now: ``is_legal(features, kind, value)``.
    is_legal: Callable[[Any, str, int], bool]
    #: The counted random fallback: a legal value of the decision due, ``fallback(view, kind, rng)`` (``view``: the
    #: game's own view, such as Quarto's ``BoardView``).
    fallback: Callable[[Any, str, random.Random], int]
    #: The game's action for a decided value of ``kind``: ``to_action(view, kind, value)``.
    to_action: Callable[[Any, str, int], int]
    #: Where the class of the game's compiled rule sets is, ``"module:Class"`` (imported when first used: it
    #: imports the GP core, which imports this module).
    rule_set_class: str
    #: Where the class of the game's evolved players is, ``"module:Class"``.
    player_class: str
    #: Game settings training may set, with their defaults (Quixo: size and rules); checked by the game.
    settings: Mapping[str, object] = field(default_factory=dict)
    #: Every legal value of every action type lies in ``range(action_bound)`` (Quarto: 16 squares and pieces);
    #: None when no such bound is known. The simplifier drops a rule whose *then* folds to a value outside it.
    action_bound: int | None = None
    #: Built by :func:`gpquarto.gp.generic.generic_binding`: the library adds the generic primitives (the group
    #: ``"generic"``: ``gpquarto_primitives.GENERIC_FAMILY_MODULES``) to the neutral ones and the game's own.
    generic: bool = False

    def then_type(self, kind: str) -> type:
        """The root type of ``kind``'s *then* trees; ``ValueError`` for a kind of another game."""
        try:
            return self.then_types[kind]
        except KeyError:
            raise ValueError(f"unknown rule kind {kind!r} for {self.name} (kinds: {', '.join(self.kinds)})") from None

    def rule_set(self, genome: Any, library: Any) -> Any:
        """The genome compiled for play by the game's rule set class."""
        return _imported(self.rule_set_class)(genome, library)

    def player(self, genome: Any, library: Any, **options: Any) -> Any:
        """The game's evolved player of ``genome`` (``options``: ``seed``, ``name``, ``metadata``)."""
        return _imported(self.player_class)(genome, library, **options)

    def kind_at(self, state: GameState | GameView) -> str:
        """The rule kind that decides in ``state`` (a game with one kind: that one)."""
        return self.kinds[0] if len(self.kinds) == 1 else state.decision_kind().value

    @property
    def root_types(self) -> tuple[type, ...]:
        """Every root type of a rule tree: ``bool`` and each kind's action type."""
        return (CONDITION_TYPE, *(self.then_types[kind] for kind in self.kinds))


def _imported(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def pick(options: Sequence[int], rng: random.Random) -> int:
    """A random one of ``options`` from one draw of ``rng`` (what every counted fallback does)."""
    return options[int(rng.random() * len(options))]


#: Bindings added at run time by :func:`register_gp_game`.
_GAMES: dict[str, GPGame] = {}
#: The binding of each installed game once asked for: name -> (the plug-in it was made for, the binding). A game
#: registered again with another plug-in (tests, notebooks) gets that plug-in's binding.
_MADE: dict[str, tuple[Any, GPGame]] = {}


def _generic() -> Any:
    """The module of the generic binding (imported on first use: it builds on this one)."""
    return importlib.import_module("gpquarto.gp.generic")


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
    generic = _generic()
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
    return tuple(sorted(found.values(), key=lambda binding: (binding.name != DEFAULT_GAME, binding.name)))


def game_of_features(annotation: object) -> str | None:
    """The game whose features class ``annotation`` is (exactly), ``"generic"`` for
    :class:`~gpquarto.gp.generic.GenericFeatures` (every generically bound game's), or None."""
    if annotation is _generic().GenericFeatures:
        return GENERIC
    for binding in gp_games():
        if annotation is binding.features:
            return binding.name
    return None


def game_of_type(type_: type) -> str | None:
    """The game that owns the node type ``type_``, ``"generic"`` for ``Action`` (every generically bound game's),
    or None for a neutral type (``bool``, ``Count``, ``Score``)."""
    if type_ in _generic().GENERIC_GP.node_types:
        return GENERIC
    for binding in gp_games():
        if type_ in binding.node_types:
            return binding.name
    return None


def accepts(binding: GPGame, game: str | None) -> bool:
    """A primitive of ``game`` (a spec's ``game``: None for a neutral one) may join ``binding``'s library: a
    neutral one, one of the binding's game, or a generic one when the binding is generic."""
    return game is None or game == binding.name or (binding.generic and game == GENERIC)
