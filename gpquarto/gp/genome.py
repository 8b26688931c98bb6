"""Genomes of if/then rules, and how a genome decides.

A :class:`Genome` holds one ordered list of rules per rule kind of its game (:mod:`gpquarto.gp.binding`):
Quarto's *choose* and *place* rules (``choose_rules``/``place_rules``), Quixo's *move* rules. A :class:`Rule`
pairs an *if* tree (returns ``bool``) with a *then* tree (returns the kind's action type: a ``Piece`` for
choose rules, a ``Square`` for place rules, a ``Move`` for move rules), both ``deap.gp.PrimitiveTree``. A
genome compiled for play (:func:`compile_rules`) decides by building the decision's features once, taking the
first rule whose *if* is true and whose *then* yields a legal action, and otherwise falling back to a random
legal action, counted: :class:`GameRuleSet` through the game's binding, or the rule set a game writes for its own
decisions (Quarto's :class:`~gpquarto.games.quarto.gp.rule_set.RuleSet`, the evolution's hot path).

Genomes never use ``deap.creator``: :class:`GenomeFitness` is an ordinary importable class, so genomes
pickle and deep-copy anywhere. Its values are ``(score, size)`` with weights ``(1, -1)``: fitness compares
by score first and prefers the smaller genome on a tie.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from deap import base, gp

from gpquarto.games.interface import DecisionKind
from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.gp.binding import CONDITION_TYPE, GPGame
from gpquarto.gp.bindings import gp_game
from gpquarto.gp.compiler import compile_tree
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.textform import format_tree, parse_tree
from gpquarto.gp.types import Piece, Square

#: Quarto's two rule kinds, in genome order (a genome of any game: ``genome.kinds``).
KINDS = (DecisionKind.CHOOSE.value, DecisionKind.PLACE.value)
#: Root type of the *then* tree of each kind of Quarto rule; *if* trees return ``bool``.
ACTION_TYPES = {DecisionKind.CHOOSE: Piece, DecisionKind.PLACE: Square}
__all__ = [
    "ACTION_TYPES",
    "CONDITION_TYPE",
    "KINDS",
    "CompiledRules",
    "GameRuleSet",
    "Genome",
    "Rule",
    "compile_rules",
]


class GenomeFitness(base.Fitness):
    """``(score, size)``: a higher score wins, a smaller genome breaks ties."""

    weights = (1.0, -1.0)


@dataclass
class Rule:
    """``if condition then action``: two typed trees (never modified in place: operators build new rules).

    ``screened`` marks a rule that has been through rule screening (see :mod:`gpquarto.gp.screening`).
    The texts are written once and kept (training compares genomes by their texts many times a generation).
    """

    condition: gp.PrimitiveTree
    action: gp.PrimitiveTree
    screened: bool = field(default=False, compare=False, repr=False)
    _texts: tuple[str, str] | None = field(default=None, init=False, compare=False, repr=False)

    @property
    def size(self) -> int:
        """Number of nodes in both trees."""
        return len(self.condition) + len(self.action)

    @property
    def height(self) -> int:
        """Height of the taller tree."""
        return max(self.condition.height, self.action.height)

    def texts(self) -> tuple[str, str]:
        """The safe text form of the *if* and *then* trees."""
        if self._texts is None:
            self._texts = (format_tree(self.condition), format_tree(self.action))
        return self._texts

    def __str__(self) -> str:
        condition, action = self.texts()
        return f"if {condition} then {action}"


class Genome:
    """An individual: one ordered rule list per rule kind of its game, plus its fitness and evaluation record.

    ``Genome(choose_rules, place_rules)`` is a Quarto genome; ``Genome.of(game, {kind: rules})`` one of any game.
    Rules are never modified in place, so operators share them between genomes.
    """

    __slots__ = ("game", "rule_lists", "fitness", "record")

    def __init__(
        self,
        choose_rules: list[Rule] | None = None,
        place_rules: list[Rule] | None = None,
        *,
        game: str = DEFAULT_GAME,
        rules: Mapping[str, list[Rule]] | None = None,
    ) -> None:
        binding = gp_game(game)
        if rules is None:
            if binding.kinds != KINDS:
                raise ValueError(f"a {binding.name} genome is made with rules={{kind: rules}}, not choose/place lists")
            rules = {KINDS[0]: choose_rules or [], KINDS[1]: place_rules or []}
        elif choose_rules is not None or place_rules is not None or set(rules) != set(binding.kinds):
            raise ValueError(f"a {binding.name} genome has rules of the kinds {', '.join(binding.kinds)} only")
        self.game: str = binding.name
        #: The rule list of each kind, in the game's kind order.
        self.rule_lists: dict[str, list[Rule]] = {kind: list(rules[kind]) for kind in binding.kinds}
        self.fitness = GenomeFitness()
        self.record: dict = {}

    @classmethod
    def of(cls, game: str, rules: Mapping[str, list[Rule]]) -> Genome:
        """A genome of ``game`` with the given rule list of each of its kinds."""
        return cls(game=game, rules=rules)

    @property
    def binding(self) -> GPGame:
        """The GP binding of the genome's game."""
        return gp_game(self.game)

    @property
    def kinds(self) -> tuple[str, ...]:
        """The game's rule kinds, in genome order."""
        return tuple(self.rule_lists)

    @property
    def choose_rules(self) -> list[Rule]:
        """Quarto's choose rules."""
        return self.rules(DecisionKind.CHOOSE.value)

    @property
    def place_rules(self) -> list[Rule]:
        """Quarto's place rules."""
        return self.rules(DecisionKind.PLACE.value)

    def rules(self, kind: str) -> list[Rule]:
        """The rule list of ``kind`` (``"choose"`` or ``"place"`` for Quarto, ``"move"`` for Quixo)."""
        try:
            return self.rule_lists[kind]
        except KeyError:
            raise ValueError(f"unknown rule kind {kind!r} for a {self.game} genome") from None

    def all_rules(self) -> list[Rule]:
        """Every rule, kind by kind in genome order."""
        return [rule for rules in self.rule_lists.values() for rule in rules]

    @property
    def size(self) -> int:
        """Total number of nodes in all trees."""
        return sum(rule.size for rules in self.rule_lists.values() for rule in rules)

    def to_data(self) -> dict[str, list[list[str]]]:
        """Plain data: ``{kind: [[if, then], ...]}`` in safe text form, kinds in genome order (Quarto:
        ``{"choose": [...], "place": [...]}``; Quixo: ``{"move": [...]}``)."""
        return {kind: [list(rule.texts()) for rule in rules] for kind, rules in self.rule_lists.items()}

    @classmethod
    def from_data(cls, data: object, pset: gp.PrimitiveSetTyped, game: str = DEFAULT_GAME) -> Genome:
        """Rebuild a genome of ``game`` from :meth:`to_data` output, parsing each tree safely."""
        binding = gp_game(game)
        kinds = binding.kinds
        if not isinstance(data, dict) or set(data) != set(kinds):
            raise ValueError(f"a {binding.name} genome must map exactly {', '.join(kinds)} to rule lists")
        lists = {}
        for kind in kinds:
            rules = data[kind]
            if not isinstance(rules, list):
                raise ValueError(f"{kind} rules must be a list")
            parsed = []
            for number, pair in enumerate(rules, 1):
                if not isinstance(pair, list | tuple) or len(pair) != 2:
                    raise ValueError(f"{kind} rule {number} must be a pair [if, then]")
                try:
                    condition = parse_tree(pair[0], pset, CONDITION_TYPE)
                    action = parse_tree(pair[1], pset, binding.then_types[kind])
                except ValueError as error:
                    raise ValueError(f"{kind} rule {number}: {error}") from None
                parsed.append(Rule(condition, action))
            lists[kind] = parsed
        return cls(game=binding.name, rules=lists)

    def with_rules(self, kind: str, rules: list[Rule]) -> Genome:
        """A new genome with the rules of ``kind`` replaced (the other lists shared; rules are immutable)."""
        self.rules(kind)  # an unknown kind is refused
        return Genome(game=self.game, rules={**self.rule_lists, kind: list(rules)})

    def clone(self) -> Genome:
        """A copy with its own rule lists, fitness and record (trees are never modified in place, so shared)."""
        copy = Genome(game=self.game, rules=self.rule_lists)
        if self.fitness.valid:
            copy.fitness.values = self.fitness.values
        copy.record = dict(self.record)
        return copy

    def __deepcopy__(self, memo: dict) -> Genome:
        return self.clone()

    def __getstate__(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def key(self) -> tuple:
        """Hashable identity of the rules (their texts)."""
        return tuple(tuple(rule.texts() for rule in rules) for rules in self.rule_lists.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Genome) and self.game == other.game and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable: no hash

    def __repr__(self) -> str:
        counts = ", ".join(f"{len(rules)} {kind}" for kind, rules in self.rule_lists.items())
        return f"<Genome {self.game}: {counts} rules>"

    def describe(self) -> str:
        """Numbered rules, one per line, grouped by kind."""
        lines = []
        for kind, rules in self.rule_lists.items():
            lines.append(f"{kind} rules:")
            for number, rule in enumerate(rules, 1):
                lines.append(f"  {number}. {rule}")
        return "\n".join(lines)


class CompiledRule:
    """A rule compiled to closures, with counters of how often its *if* held and its *then* was legal.

    ``index`` is the rule's position (0-based) in its list.
    """

    __slots__ = ("condition", "action", "true", "legal", "index", "_rule", "_compiled")

    def __init__(self, rule: Rule, library: PrimitiveLibrary, index: int = 0) -> None:
        self._rule = rule
        self.condition = compile_tree(rule.condition, library)
        self.action = compile_tree(rule.action, library)
        self._compiled = (self.condition, self.action)
        self.true = 0
        self.legal = 0
        self.index = index

    def remember_values(self, remember: bool) -> None:
        """Look each tree's value up among the values of the trees evaluated at the decision's position
        (``features.trees``, keyed by the tree's text: the same text is the same tree, of the same value there)
        before evaluating it, and note it there; or evaluate it every time (``remember`` false)."""
        condition, action = self._compiled
        if remember:
            condition_text, action_text = self._rule.texts()
            condition, action = _remembered(condition, condition_text), _remembered(action, action_text)
        self.condition, self.action = condition, action


def _remembered(tree: Callable[[Any], int], text: str) -> Callable[[Any], int]:
    """``tree``, its value at a position taken from (and noted in) the position's ``features.trees`` (features that
    keep the values of the trees evaluated there: Quarto's shared position facts)."""

    def value(features: Any) -> int:
        values = features.trees
        try:
            return values[text]
        except KeyError:
            found = values[text] = tree(features)
            return found

    return value


class CompiledRules:
    """What every compiled rule set shares: the compiled rules of each kind and the counters.

    ``decisions``/``fallbacks`` count decisions and random fallbacks per kind (plain-string keys: saved files
    hold them); each :class:`CompiledRule` counts how often its *if* held and its *then* was legal.
    ``last_rule`` records the last decision: the 0-based index of the rule that fired in that kind's list, or
    None when the random fallback decided (or before any decision); ``last_kind`` its kind.
    """

    def __init__(self, genome: Genome, library: PrimitiveLibrary) -> None:
        self.genome = genome
        #: The compiled rules of each kind, in genome order.
        self.compiled: dict[str, list[CompiledRule]] = {
            kind: [CompiledRule(rule, library, index) for index, rule in enumerate(rules)]
            for kind, rules in genome.rule_lists.items()
        }
        self.decisions = dict.fromkeys(genome.kinds, 0)
        self.fallbacks = dict.fromkeys(genome.kinds, 0)
        self.last_rule: int | None = None
        self.last_kind: str | None = None

    def reset_counters(self) -> None:
        """Zero every counter."""
        for kind, rules in self.compiled.items():
            self.decisions[kind] = self.fallbacks[kind] = 0
            for rule in rules:
                rule.true = rule.legal = 0

    def decide(self, view: Any, rng: random.Random) -> int:
        """The game's action for the decision due in ``view`` (each game's rule set decides its own way)."""
        raise NotImplementedError

    @property
    def total_decisions(self) -> int:
        """Decisions of every kind."""
        return sum(self.decisions.values())

    @property
    def total_fallbacks(self) -> int:
        """Random fallbacks of every kind."""
        return sum(self.fallbacks.values())


class GameRuleSet(CompiledRules):
    """A genome of any game ready to decide through its binding: :meth:`decide` takes the first rule of the
    decision's kind whose *if* holds and whose *then* is a legal action, else a counted random legal action."""

    def __init__(self, genome: Genome, library: PrimitiveLibrary) -> None:
        super().__init__(genome, library)
        binding = genome.binding
        self._features = binding.features
        self._is_legal = binding.is_legal
        self._fallback = binding.fallback
        self._to_action = binding.to_action
        self._kind_at = binding.kind_at

    def decide(self, view, rng: random.Random) -> int:
        """The game's action for the decision due in ``view``."""
        kind = self._kind_at(view)
        self.decisions[kind] += 1
        self.last_kind = kind
        features = self._features(view)
        is_legal = self._is_legal
        for rule in self.compiled[kind]:
            if rule.condition(features):
                rule.true += 1
                value = rule.action(features)
                if is_legal(features, kind, value):
                    rule.legal += 1
                    self.last_rule = rule.index
                    return self._to_action(view, kind, int(value))
        self.fallbacks[kind] += 1
        self.last_rule = None
        return self._to_action(view, kind, self._fallback(view, kind, rng))


def compile_rules(genome: Genome, library: PrimitiveLibrary) -> CompiledRules:
    """The genome compiled for play by its game's binding (its ``rule_set_class``)."""
    return genome.binding.rule_set(genome, library)
