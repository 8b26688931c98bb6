"""Genomes of if/then rules, and how a genome decides.

A :class:`Genome` holds an ordered list of *choose* rules and one of *place* rules. A :class:`Rule` pairs
an *if* tree (returns ``bool``) with a *then* tree (returns a ``Piece`` for choose rules, a ``Square`` for
place rules), both ``deap.gp.PrimitiveTree``. :class:`RuleSet` is a genome compiled for play: a decision
builds one :class:`~gpquarto.gp.features.Features`, takes the first rule whose *if* is true and whose
*then* yields a legal action, and otherwise falls back to a random legal action, counted.

Genomes never use ``deap.creator``: :class:`GenomeFitness` is an ordinary importable class, so genomes
pickle and deep-copy anywhere. Its values are ``(score, size)`` with weights ``(1, -1)``: fitness compares
by score first and prefers the smaller genome on a tie.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from deap import base, gp

from gpquarto.games.interface import DecisionKind
from gpquarto.gp.compiler import compile_tree
from gpquarto.gp.features import Features
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.textform import format_tree, parse_tree
from gpquarto.gp.types import Piece, Square

#: The two rule kinds, in genome order.
KINDS = (DecisionKind.CHOOSE.value, DecisionKind.PLACE.value)
#: Root type of the *then* tree of each kind of rule; *if* trees return ``bool``.
ACTION_TYPES = {DecisionKind.CHOOSE: Piece, DecisionKind.PLACE: Square}
CONDITION_TYPE = bool


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


@dataclass
class Genome:
    """An individual: ordered choose rules and place rules, plus its fitness and evaluation record."""

    choose_rules: list[Rule]
    place_rules: list[Rule]
    fitness: GenomeFitness = field(default_factory=GenomeFitness, compare=False, repr=False)
    record: dict = field(default_factory=dict, compare=False, repr=False)

    def rules(self, kind: str) -> list[Rule]:
        """The rule list of ``kind`` (``"choose"`` or ``"place"``)."""
        if kind == DecisionKind.CHOOSE:
            return self.choose_rules
        if kind == DecisionKind.PLACE:
            return self.place_rules
        raise ValueError(f"unknown rule kind {kind!r}")

    @property
    def size(self) -> int:
        """Total number of nodes in all trees."""
        return sum(rule.size for kind in KINDS for rule in self.rules(kind))

    def to_data(self) -> dict[str, list[list[str]]]:
        """Plain data: ``{"choose": [[if, then], ...], "place": [...]}`` in safe text form."""
        return {kind: [list(rule.texts()) for rule in self.rules(kind)] for kind in KINDS}

    @classmethod
    def from_data(cls, data: dict, pset: gp.PrimitiveSetTyped) -> Genome:
        """Rebuild a genome from :meth:`to_data` output, parsing each tree safely."""
        if not isinstance(data, dict) or set(data) != set(KINDS):
            raise ValueError(f"a genome must map exactly {', '.join(KINDS)} to rule lists")
        lists = {}
        for kind in KINDS:
            rules = data[kind]
            if not isinstance(rules, list):
                raise ValueError(f"{kind} rules must be a list")
            parsed = []
            for number, pair in enumerate(rules, 1):
                if not isinstance(pair, list | tuple) or len(pair) != 2:
                    raise ValueError(f"{kind} rule {number} must be a pair [if, then]")
                try:
                    condition = parse_tree(pair[0], pset, CONDITION_TYPE)
                    action = parse_tree(pair[1], pset, ACTION_TYPES[kind])
                except ValueError as error:
                    raise ValueError(f"{kind} rule {number}: {error}") from None
                parsed.append(Rule(condition, action))
            lists[kind] = parsed
        return cls(lists[DecisionKind.CHOOSE], lists[DecisionKind.PLACE])

    def with_rules(self, kind: str, rules: list[Rule]) -> Genome:
        """A new genome with the rules of ``kind`` replaced (the other list shared; rules are immutable)."""
        if kind == DecisionKind.CHOOSE:
            return Genome(list(rules), list(self.place_rules))
        if kind == DecisionKind.PLACE:
            return Genome(list(self.choose_rules), list(rules))
        raise ValueError(f"unknown rule kind {kind!r}")

    def clone(self) -> Genome:
        """A copy with its own rule lists, fitness and record (trees are never modified in place, so shared)."""
        copy = Genome(list(self.choose_rules), list(self.place_rules))
        if self.fitness.valid:
            copy.fitness.values = self.fitness.values
        copy.record = dict(self.record)
        return copy

    def __deepcopy__(self, memo: dict) -> Genome:
        return self.clone()

    def key(self) -> tuple:
        """Hashable identity of the rules (their texts)."""
        return tuple(tuple(rule.texts() for rule in self.rules(kind)) for kind in KINDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Genome) and self.key() == other.key()

    __hash__ = None  # mutable

    def describe(self) -> str:
        """Numbered rules, one per line, grouped by kind."""
        lines = []
        for kind in KINDS:
            lines.append(f"{kind} rules:")
            for number, rule in enumerate(self.rules(kind), 1):
                lines.append(f"  {number}. {rule}")
        return "\n".join(lines)


class CompiledRule:
    """A rule compiled to closures, with counters of how often its *if* held and its *then* was legal.

    ``index`` is the rule's position (0-based) in its list.
    """

    __slots__ = ("condition", "action", "true", "legal", "index")

    def __init__(self, rule: Rule, library: PrimitiveLibrary, index: int = 0) -> None:
        self.condition = compile_tree(rule.condition, library)
        self.action = compile_tree(rule.action, library)
        self.true = 0
        self.legal = 0
        self.index = index


class RuleSet:
    """A genome ready to decide: compiled once, with decision, fallback and per-rule counters.

    ``last_rule`` records the last decision (a choice or a placement, whichever method was called last): the
    0-based index of the rule that fired in that kind's list, or None when the random fallback decided (or
    before any decision). It explains a decision after the fact at the cost of one attribute store.
    """

    def __init__(self, genome: Genome, library: PrimitiveLibrary) -> None:
        self.genome = genome
        self.choose_rules = [CompiledRule(rule, library, index) for index, rule in enumerate(genome.choose_rules)]
        self.place_rules = [CompiledRule(rule, library, index) for index, rule in enumerate(genome.place_rules)]
        self.decisions = dict.fromkeys(KINDS, 0)  # plain-string keys: saved files hold them
        self.fallbacks = dict.fromkeys(KINDS, 0)
        self.last_rule: int | None = None

    def reset_counters(self) -> None:
        """Zero every counter."""
        for kind in KINDS:
            self.decisions[kind] = self.fallbacks[kind] = 0
        for rule in self.choose_rules + self.place_rules:
            rule.true = rule.legal = 0

    @property
    def total_decisions(self) -> int:
        """Decisions of both kinds."""
        return self.decisions[DecisionKind.CHOOSE] + self.decisions[DecisionKind.PLACE]

    @property
    def total_fallbacks(self) -> int:
        """Random fallbacks of both kinds."""
        return self.fallbacks[DecisionKind.CHOOSE] + self.fallbacks[DecisionKind.PLACE]

    def choose_piece(self, view, rng: random.Random) -> int:
        """The piece to give: the first rule that fires with a legal piece, else a random legal piece."""
        self.decisions[DecisionKind.CHOOSE] += 1
        features = Features(view)
        available = view.available_mask
        for rule in self.choose_rules:
            if rule.condition(features):
                rule.true += 1
                piece = rule.action(features)
                if 0 <= piece < 16 and available >> piece & 1:
                    rule.legal += 1
                    self.last_rule = rule.index
                    return int(piece)
        self.fallbacks[DecisionKind.CHOOSE] += 1
        self.last_rule = None
        return _pick(view.legal_pieces(), rng)

    def place_piece(self, view, rng: random.Random) -> int:
        """The square for the piece in hand: the first rule that fires with an empty square, else a random one."""
        self.decisions[DecisionKind.PLACE] += 1
        features = Features(view)
        occupied = view.occupied_mask
        for rule in self.place_rules:
            if rule.condition(features):
                rule.true += 1
                square = rule.action(features)
                if 0 <= square < 16 and not occupied >> square & 1:
                    rule.legal += 1
                    self.last_rule = rule.index
                    return int(square)
        self.fallbacks[DecisionKind.PLACE] += 1
        self.last_rule = None
        return _pick(view.legal_squares(), rng)


def _pick(options: Sequence[int], rng: random.Random) -> int:
    return options[int(rng.random() * len(options))]
