"""The primitive registry: typed GP primitives declared with a decorator, checked when registered.

A primitive is a plain function whose annotations give its node types::

    @primitive(family="counts")
    def pieces_in_diagonal(features: Features) -> Count:
        \"\"\"Pieces on the diagonal.\"\"\"
        return features.line_counts[DIAGONAL_LINE]

If the first parameter is annotated with a game's features class (:class:`~gpquarto.games.quarto.gp.features.Features` for
Quarto, :class:`~gpquarto.games.quixo.gp.features.QuixoFeatures` for Quixo) it receives the decision's features and
is not a tree child; the other parameters are the tree children. A primitive with no child is
a terminal. Node types are ``bool`` and the markers of :mod:`gpquarto.gp.types`; any other annotation is
refused.

**Games.** A primitive belongs to the game whose features it reads or whose node types it mentions
(:mod:`gpquarto.gp.binding`: Quarto's ``Square``, ``Piece``, ``Characteristic``; Quixo's ``Move``); one that
mentions only ``bool``, ``Count`` and ``Score`` and reads no features is *neutral* and joins every game's
library. One that reads :class:`~gpquarto.gp.generic.GenericFeatures` or mentions ``Action`` is *generic* (its
``game`` is ``"generic"``): it joins the library of every game bound by the generic binding, and is checked on
positions of every installed game; a generically bound game's own primitive (reading its subclass of
``GenericFeatures``) may mention ``Action`` and stays that game's. A primitive that mixes two games is refused. The compiled form of a primitive is the function itself: ``function(features, *children)`` when
``uses_features``, else ``function(*children)``.

**Checks at registration.** For a primitive of a plug-in (a plugin file, an installed package), the decorator calls the primitive on its game's fixed sample positions (Quarto's,
for neutral primitives: classic and advanced rules, early, middle and late game, a choice and a placement due;
Quixo's: 5x5 and 4x4, official and course rules, early to late, one win in reach; built from fixed seeds) with
sample child values of each type (actions legal in the position, or ``NO_ACTION``) and refuses it, with a
one-line :class:`PrimitiveError` naming it and the problem, when it raises, returns a value of the wrong type,
proposes an illegal action, changes the board, or answers differently when called twice. Return values: a predicate must return a real ``bool``; an int-marker node returns a plain ``int``
(no conversion, no marker instance: markers only type the trees) and never a ``bool``; a ``Square`` or
``Piece`` node returns an empty square / an available piece or ``NO_ACTION``, a ``Move`` a legal move or
``NO_ACTION``; a ``Characteristic`` is 0..7. gpquarto's own primitives (``gpquarto_primitives``, the games'
packages under ``gpquarto``) pass the same checks in its test suite (:func:`check_spec`), not in every process that
loads them. Names must be Python identifiers that are not keywords (so ``and_``, not ``and``), unique in a library.

**Where registrations go.** A registration is stored in the defining module (its list
``__gp_primitives__``): a module's primitives are the ones it defines, whatever imports it and however
often. Loaders (:mod:`gpquarto.gp.plugins`, used by :func:`gpquarto.gp.library.load_library`) import a
module and read that list, then stamp each spec with the source they loaded it from; so two libraries loaded
in one process never mix, and a module imported twice registers once. Inside ``with registering() as specs:``
registrations go to ``specs`` instead (for tests and libraries built in code: ``PrimitiveLibrary(specs)``).
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import keyword
import sys
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import cast

from gpquarto.games.interface import GameState
from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.gp.binding import GENERIC
from gpquarto.gp.bindings import accepts, game_of_features, game_of_type, gp_game
from gpquarto.gp.types import (
    EVALUATOR_NODE_TYPES,
    NODE_TYPES,
    SCORE_LIMIT,
    Characteristic,
    Count,
    Score,
    type_name,
)

#: Name of the per-module list that holds the module's registrations.
MODULE_REGISTRY = "__gp_primitives__"
#: Module global a loader may set to give the module's primitives a default family (below ``FAMILY``).
DEFAULT_FAMILY = "__gp_default_family__"
#: Source of specs not yet loaded by a loader.
UNLOADED = "unloaded"
_TYPE_CHOICES = ", ".join(type_name(type_) for type_ in NODE_TYPES)


class PrimitiveError(ValueError):
    """A primitive that cannot be registered, or a library that cannot be assembled."""


class UnknownPrimitiveError(ValueError):
    """A name that the library does not define."""


@dataclass(frozen=True)
class PrimitiveInfo:
    """One registered primitive (or constant). ``arg_types`` lists the tree children only."""

    name: str
    function: Callable[..., int]
    arg_types: tuple[type, ...]
    return_type: type
    family: str
    source: str = UNLOADED
    doc: str = ""
    uses_features: bool = False
    value: int | None = field(default=None)
    #: Former names: tree texts that use them still read (players saved before a rename).
    aliases: tuple[str, ...] = ()
    #: The game the primitive belongs to (by its features and node types), or None: neutral, every game's.
    game: str | None = None

    @property
    def is_terminal(self) -> bool:
        """True when the node has no children."""
        return not self.arg_types

    @property
    def signature(self) -> str:
        """E.g. ``in_diagonal(Characteristic) -> bool``; terminals have no parentheses."""
        arguments = f"({', '.join(type_name(type_) for type_ in self.arg_types)})" if self.arg_types else ""
        return f"{self.name}{arguments} -> {type_name(self.return_type)}"


class Constant:
    """The callable of a constant spec: returns its value (so constants compile like terminals)."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def __call__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Constant({self.value!r})"


# ---------------------------------------------------------------------- registration
_collector: ContextVar[list[PrimitiveInfo] | None] = ContextVar("gpquarto_primitive_collector", default=None)


@contextlib.contextmanager
def registering() -> Iterator[list[PrimitiveInfo]]:
    """Collect the registrations made inside the block into the yielded list (instead of their modules)."""
    specs: list[PrimitiveInfo] = []
    token = _collector.set(specs)
    try:
        yield specs
    finally:
        _collector.reset(token)


@contextlib.contextmanager
def registering_into_modules() -> Iterator[None]:
    """Store registrations in their modules even inside :func:`registering` (loaders use this)."""
    token = _collector.set(None)
    try:
        yield
    finally:
        _collector.reset(token)


def module_specs(module: object) -> list[PrimitiveInfo]:
    """The specs a module registered, in registration order."""
    return list(getattr(module, MODULE_REGISTRY, ()))


def _is_builtin(module_globals: dict[str, object]) -> bool:
    """Whether a primitive defined in this module is gpquarto's own (``gpquarto_primitives``, ``gpquarto.*``)."""
    module = str(module_globals.get("__name__", ""))
    return module.partition(".")[0] in ("gpquarto_primitives", "gpquarto")


def _store(spec: PrimitiveInfo, module_globals: dict[str, object]) -> None:
    collected = _collector.get()
    if collected is None:
        collected = cast(list[PrimitiveInfo], module_globals.setdefault(MODULE_REGISTRY, []))  # the module's list
    for other in collected:
        clash = {other.name, *other.aliases} & {spec.name, *spec.aliases}
        if clash:
            raise PrimitiveError(
                f"primitive {sorted(clash)[0]!r} is registered twice (families {other.family!r} and {spec.family!r})"
            )
    collected.append(spec)


def primitive(
    function: Callable[..., object] | str | None = None,
    /,
    *,
    family: str | None = None,
    name: str | None = None,
    aliases: Sequence[str] = (),
) -> typing.Any:
    """Register ``function`` as a primitive: ``@primitive``, ``@primitive("family")``, ``@primitive(family=..., name=...)``.

    ``family`` defaults to the module's ``FAMILY`` global, else (plugin files) the file's stem, else the last
    part of the module's name; ``name`` defaults to the function's name. ``aliases`` are former names: tree
    texts that use them still read, and are written with ``name`` from then on (rename a primitive without
    breaking saved players). The spec is checked on the sample positions (see the module doc). Returns the
    function unchanged; raises :class:`PrimitiveError`.
    """
    if isinstance(function, str):
        family, function = function, None

    def register(function: Callable[..., object]) -> Callable[..., object]:
        module_globals = getattr(function, "__globals__", {})
        spec = make_spec(function, family=family or _default_family(module_globals), name=name, aliases=aliases)
        if not _is_builtin(module_globals):  # gpquarto's own are checked by its tests
            check_spec(spec)
        _store(spec, module_globals)
        return function

    return register if function is None else register(function)


def constant(value: int | bool, type_: type, family: str = "constants") -> PrimitiveInfo:
    """Register a constant terminal of ``type_`` (``Count``, ``Characteristic`` or ``bool``) named by its literal.

    Tree text reads ``equal(2, pieces_left)``. Two constants with the same literal in one library clash.
    """
    if type_ is bool:
        if type(value) is not bool:
            raise PrimitiveError(f"constant {value!r}: a bool constant must be True or False")
    elif type_ in (Count, Characteristic):
        if type(value) is not int:
            raise PrimitiveError(f"constant {value!r}: a {type_name(type_)} constant must be a plain int")
        if type_ is Characteristic and not 0 <= value < 8:
            raise PrimitiveError(f"constant {value!r}: a Characteristic is 0..7")
    else:
        raise PrimitiveError(
            f"constant {value!r}: type {type_!r} cannot have constants (use Count, Characteristic or bool)"
        )
    spec = PrimitiveInfo(
        repr(value),
        Constant(value),
        (),
        type_,
        family,
        doc=f"the constant {value!r}",
        value=value,
        game=game_of_type(type_),
    )
    _store(spec, sys._getframe(1).f_globals)
    return spec


def _default_family(module_globals: Mapping[str, object]) -> str:
    for key in ("FAMILY", DEFAULT_FAMILY):
        declared = module_globals.get(key)
        if isinstance(declared, str):
            return declared
    return str(module_globals.get("__name__", "plugin")).rpartition(".")[2]


def make_spec(
    function: Callable[..., object], *, family: str, name: str | None = None, aliases: Sequence[str] = ()
) -> PrimitiveInfo:
    """Read a primitive's types from its annotations (without checking its behaviour)."""
    name = name or cast(str, getattr(function, "__name__", ""))
    if not inspect.isfunction(function):
        raise PrimitiveError(
            f"primitive {name or function!r} must be a plain function (def), not {type(function).__name__}"
        )
    if isinstance(aliases, str):
        raise PrimitiveError(f"primitive {name!r}: aliases must be a list of names, not the string {aliases!r}")
    for candidate in (name, *aliases):
        if not isinstance(candidate, str) or not _is_name(candidate):
            raise PrimitiveError(
                f"primitive name {candidate!r} must be an identifier, not a keyword, not starting with '_'"
            )
    if name in aliases or len(set(aliases)) != len(aliases):
        raise PrimitiveError(f"primitive {name!r}: its aliases {list(aliases)} repeat a name")
    doc = (inspect.getdoc(function) or "").strip().splitlines()
    if not doc:
        raise PrimitiveError(f"primitive {name!r} has no docstring (its first line documents it in listings)")
    try:
        hints = typing.get_type_hints(function)
        parameters = list(inspect.signature(function).parameters.values())
    except Exception as error:  # NameError for unresolved names, TypeError for non-functions...
        raise PrimitiveError(
            f"primitive {name!r}: cannot read its annotations: {type(error).__name__}: {error}"
        ) from None
    features_game = game_of_features(hints.get(parameters[0].name)) if parameters else None
    uses_features = features_game is not None
    arg_types = []
    for parameter in parameters[1:] if uses_features else parameters:
        if parameter.kind not in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            raise PrimitiveError(f"primitive {name!r}: parameter {parameter.name!r} must be positional")
        arg_types.append(_node_type(name, f"parameter {parameter.name!r}", hints.get(parameter.name)))
    return_type = _node_type(name, "return value", hints.get("return"))
    game = _game_of(name, features_game, (return_type, *arg_types))
    return PrimitiveInfo(
        name,
        function,
        tuple(arg_types),
        return_type,
        family,
        doc=doc[0],
        uses_features=uses_features,
        aliases=tuple(aliases),
        game=game,
    )


def _game_of(name: str, features_game: str | None, types: Sequence[type]) -> str | None:
    """The one game a primitive's features and node types belong to, or None (neutral); mixing is refused."""
    games = {features_game} if features_game else set()
    owners = {type_name(type_): game_of_type(type_) for type_ in types}
    games.update(game for game in owners.values() if game)
    if len(games) == 2 and GENERIC in games:  # a generically bound game's own primitive may mention Action
        (own,) = games - {GENERIC}
        if gp_game(own).generic:
            return own
    if len(games) > 1:
        parts = [f"{features_game} features"] if features_game else []
        parts += [f"{type_} ({game})" for type_, game in owners.items() if game]
        raise PrimitiveError(
            f"primitive {name!r} mixes the games {' and '.join(sorted(games))}: {', '.join(parts)}; "
            "a primitive belongs to one game (or to none)"
        )
    return games.pop() if games else None


def _is_name(text: str) -> bool:
    return text.isidentifier() and not keyword.iskeyword(text) and not text.startswith("_")


def _node_type(name: str, what: str, annotation: object) -> type:
    if annotation is None:
        raise PrimitiveError(f"primitive {name!r}: {what} has no type annotation (use one of {_TYPE_CHOICES})")
    if annotation not in NODE_TYPES:
        shown = getattr(annotation, "__name__", repr(annotation))
        raise PrimitiveError(
            f"primitive {name!r}: {what} is annotated {shown}, not a node type (use one of {_TYPE_CHOICES})"
        )
    return annotation


# ---------------------------------------------------------------------- checks
def sample_positions(game: str = DEFAULT_GAME) -> tuple[GameState, ...]:
    """The fixed positions the primitives of ``game`` (default Quarto, which also checks neutral primitives)
    are checked on: the binding's (:mod:`gpquarto.gp.binding`); never mutate them."""
    return gp_game(game).sample_positions()


_COUNT_SAMPLES = (0, 1, 4, 16, -3)
_SCORE_SAMPLES = (0, 1, -7, 100, SCORE_LIMIT, -SCORE_LIMIT)
_CHARACTERISTIC_SAMPLES = (0, 3, 4, 7)
_MAX_COMBINATIONS = 36


_FIXED_SAMPLES: dict[type, tuple] = {
    bool: (False, True),
    Count: _COUNT_SAMPLES,
    Characteristic: _CHARACTERISTIC_SAMPLES,
    Score: _SCORE_SAMPLES,
}


def _child_samples(type_: type, features: object, game: str) -> tuple[int, ...]:
    fixed = _FIXED_SAMPLES.get(type_)
    return fixed if fixed is not None else gp_game(game).child_samples(type_, features)


def _child_combinations(spec: PrimitiveInfo, features: object, game: str) -> list[tuple[int, ...]]:
    combinations = list(itertools.product(*(_child_samples(type_, features, game) for type_ in spec.arg_types)))
    if len(combinations) > _MAX_COMBINATIONS:
        step = len(combinations) / _MAX_COMBINATIONS
        combinations = [combinations[int(index * step)] for index in range(_MAX_COMBINATIONS)] + [combinations[-1]]
    return combinations


def _call(spec: PrimitiveInfo, features: object, children: tuple[int, ...]) -> object:
    if spec.uses_features:
        return spec.function(features, *children)
    return spec.function(*children)


def _wrong_value(spec: PrimitiveInfo, value: object, features: object, game: str) -> str | None:
    """Why ``value`` is not an acceptable result of ``spec`` in the position, or None if it is."""
    declared = spec.return_type
    if declared is bool:
        return None if type(value) is bool else f"returned {value!r} ({type(value).__name__}) where bool was declared"
    if not isinstance(value, int) or isinstance(value, bool):
        return f"returned {value!r} ({type(value).__name__}) where {type_name(declared)} (an int) was declared"
    binding = gp_game(game)
    if declared in binding.node_types:
        return binding.wrong_value(declared, value, features)
    if declared is Score and not -SCORE_LIMIT <= value <= SCORE_LIMIT:
        return f"returned score {value}, outside +-{SCORE_LIMIT} (saturate: see gpquarto.gp.types.SCORE_LIMIT)"
    return None


def check_spec(spec: PrimitiveInfo) -> None:
    """Call ``spec`` on the sample positions of its game (Quarto's for a neutral spec); raise
    :class:`PrimitiveError` (one line) on the first problem."""
    game = spec.game or DEFAULT_GAME
    make_features = gp_game(game).features
    for sample in sample_positions(game):
        board = sample.copy()  # a misbehaving primitive may change it: keep the samples intact
        view = board.view()
        before = (board.text(), board.history)
        features = make_features(view)
        for children in _child_combinations(spec, features, game):
            try:
                first = _call(spec, features, children)
                second = _call(spec, make_features(view), children)
            except Exception as error:
                problem: str | None = f"raised {type(error).__name__}: {error}"
            else:
                problem = _wrong_value(spec, first, features, game)
                if problem is None and (first != second or type(first) is not type(second)):
                    problem = f"is not deterministic: returned {first!r} then {second!r}"
                if problem is None and (board.text(), board.history) != before:
                    problem = "changed the board"
            if problem is not None:
                raise PrimitiveError(
                    f"primitive {spec.name!r} {problem} in position {board.text()!r} with children {children}"
                )


# ---------------------------------------------------------------------- libraries
def _types_of(spec: PrimitiveInfo) -> tuple[type, ...]:
    """Every node type a spec mentions: its return type and its children's."""
    return (spec.return_type, *spec.arg_types)


class PrimitiveLibrary:
    """A set of primitives with unique names: what a GP run, a saved player or the parser resolve names in.

    ``specs`` maps name to spec in registration order; ``aliases`` maps each former name to today's;
    ``versions`` maps each source to its version; ``game`` is the game whose trees it builds (its specs are
    that game's and neutral ones; a spec of another game is refused).
    """

    def __init__(
        self,
        specs: Iterable[PrimitiveInfo] = (),
        versions: Mapping[str, str] | None = None,
        *,
        game: str = DEFAULT_GAME,
    ) -> None:
        binding = gp_game(game)
        self.game = binding.name
        self.specs: dict[str, PrimitiveInfo] = {}
        self.aliases: dict[str, str] = {}
        owners: dict[str, PrimitiveInfo] = {}  # every name and alias, with the spec that holds it
        for spec in specs:
            if not accepts(binding, spec.game):
                raise PrimitiveError(
                    f"primitive {spec.name!r} is a {spec.game} primitive: it cannot join a {self.game} library"
                )
            for name in (spec.name, *spec.aliases):
                other = owners.get(name)
                if other is not None:
                    raise PrimitiveError(
                        f"primitive {name!r} is defined twice: by {other.source} (family {other.family}) "
                        f"and by {spec.source} (family {spec.family})"
                    )
                owners[name] = spec
            self.specs[spec.name] = spec
            self.aliases.update(dict.fromkeys(spec.aliases, spec.name))
        self.versions: dict[str, str] = dict(versions or {})
        self._primitive_set: object | None = None
        self._evaluator_set: object | None = None

    def __len__(self) -> int:
        return len(self.specs)

    def __iter__(self) -> Iterator[PrimitiveInfo]:
        return iter(self.specs.values())

    def __contains__(self, name: object) -> bool:
        return name in self.specs or name in self.aliases

    def __repr__(self) -> str:
        return f"PrimitiveLibrary({self.game}, {len(self.specs)} primitives, sources {sorted(self.versions) or ['-']})"

    def get(self, name: str) -> PrimitiveInfo:
        """The spec called ``name`` (or formerly called so); raises :class:`UnknownPrimitiveError` saying where
        it might come from."""
        spec = self.specs.get(self.aliases.get(name, name))
        if spec is None:
            sources = ", ".join(sorted(self.versions)) or "none"
            raise UnknownPrimitiveError(
                f"unknown primitive {name!r}: not in the loaded {self.game} library (sources: {sources}); it may be "
                "another game's, or come from a plugin file (--plugin FILE), an installed package (entry point "
                "group gpquarto.primitives), or the 'tactical' family if it was left out"
            )
        return spec

    def families(self) -> tuple[str, ...]:
        """Family names, in registration order."""
        return tuple(dict.fromkeys(spec.family for spec in self.specs.values()))

    def without_families(self, *families: str) -> PrimitiveLibrary:
        """A copy without the primitives of the given families."""
        left_out = set(families)
        kept = [spec for spec in self.specs.values() if spec.family not in left_out]
        sources = {spec.source for spec in kept}
        return PrimitiveLibrary(
            kept, {source: version for source, version in self.versions.items() if source in sources}, game=self.game
        )

    def returning(self, type_: type) -> tuple[PrimitiveInfo, ...]:
        """Specs whose node type is ``type_``, in registration order."""
        return tuple(spec for spec in self.specs.values() if spec.return_type is type_)

    def primitive_set(self) -> typing.Any:
        """The ``deap.gp.PrimitiveSetTyped`` of rule trees (built once): every primitive that never mentions
        ``Score``; constants are terminals named by their literal."""
        if self._primitive_set is None:
            self._primitive_set = self._build_set(lambda spec: Score not in _types_of(spec), bool)
        return self._primitive_set

    def evaluator_primitive_set(self) -> typing.Any:
        """The ``deap.gp.PrimitiveSetTyped`` of evaluator trees (built once): every primitive whose types are
        all among :data:`~gpquarto.gp.types.EVALUATOR_NODE_TYPES` (no squares or pieces)."""
        if self._evaluator_set is None:
            self._evaluator_set = self._build_set(lambda spec: set(_types_of(spec)) <= set(EVALUATOR_NODE_TYPES), Score)
        return self._evaluator_set

    def _build_set(self, keep: Callable[[PrimitiveInfo], bool], root: type) -> typing.Any:
        from deap import gp

        pset = gp.PrimitiveSetTyped("gpquarto", [], root)
        pset.game = self.game  # named by the parser's messages
        for spec in self.specs.values():
            if not keep(spec):
                continue
            if spec.value is not None:
                pset.addTerminal(spec.value, spec.return_type, name=spec.name)
            elif spec.arg_types:
                pset.addPrimitive(spec.function, list(spec.arg_types), spec.return_type, name=spec.name)
            else:
                pset.addTerminal(spec.function, spec.return_type, name=spec.name)
        for alias, name in self.aliases.items():
            if name in pset.mapping:
                pset.mapping[alias] = pset.mapping[name]  # read under a former name, written under today's
        return pset

    def check_reachable(self, root_types: Sequence[type]) -> None:
        """Start-up check: every root type has a node, and every type reachable from the roots has a terminal.

        Raises :class:`PrimitiveError` naming the type and the primitive through which it is reached.
        """
        reached_through: dict[type, str] = {}
        pending = []
        for root in root_types:
            if root not in reached_through:
                reached_through[root] = "a root"
                pending.append(root)
        while pending:
            type_ = pending.pop()
            returning = self.returning(type_)
            if not returning:
                raise PrimitiveError(f"no primitive returns {type_name(type_)}, needed as {reached_through[type_]}")
            if not any(spec.is_terminal for spec in returning):
                raise PrimitiveError(
                    f"no terminal returns {type_name(type_)} (needed as {reached_through[type_]}): trees of that type could never end"
                )
            for spec in returning:
                for argument in spec.arg_types:
                    if argument not in reached_through:
                        reached_through[argument] = f"a child of {spec.signature}"
                        pending.append(argument)
