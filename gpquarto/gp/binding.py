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
A game offers its binding as the capability :class:`~gpquarto.games.capabilities.GPBinding` of its plug-in; a
game that offers none gets the *generic* binding over the game interface (:mod:`gpquarto.gp.generic`). Which
binding a game has is :mod:`gpquarto.gp.bindings`' business (:func:`~gpquarto.gp.bindings.gp_game`).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gpquarto.games.capabilities import GPBinding
from gpquarto.games.interface import GameState, GameView

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
