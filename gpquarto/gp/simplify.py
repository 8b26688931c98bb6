"""Readable champions: a rule genome or an evaluator tree simplified without changing what it decides.

Trees (:func:`simplify_tree`) are rewritten bottom-up:

* *constant folding*: a subtree that reads no position (every node a constant or a primitive that does not
  take the features) is computed once and replaced by the smallest constant of its type with that value
  (``at_most(3, 3)`` becomes ``True``, ``smaller(one, ten)`` becomes ``one``), when such a constant exists;
* *algebra*: identities of the built-in logic, comparisons and arithmetic (``and_(True, x)`` is ``x``,
  ``score_if(c, a, a)`` is ``a``, ``equal(x, x)`` is ``True``, ``times(x, one)`` is ``x``, ``minus(x, x)`` is 0,
  ``larger(x, x)`` is ``x``, ``negative(negative(x))`` is ``x``, every built-in combinator of two equal
  arguments (``first_free_square(x, x)``, ``square_in_emptier_row(x, x)``, Quixo's ``move_or(x, x)``) is ``x``, ``add(x, 0)`` is ``x``...). Every value of an evaluation primitive lies within +-``SCORE_LIMIT``, so dropping a saturation that
  cannot act is exact.

A genome (:func:`simplify_genome`) then loses, per rule list, the rules that can never decide: a condition that
folds to ``False``; an action that folds to a value that is never legal; a rule identical to an earlier one, or
with the same action as an earlier rule whose condition is the same or always true (where the later one's
condition holds, the earlier one already decided, or its action, the same, was illegal). Finally the rules that
never decided in a seeded set of games (``usage`` positions) are dropped too, but only as long as the result
decides exactly like the original at every position of a second, larger seeded set (``check`` positions): a rule
needed there is kept. :func:`decides_alike` is that check; a simplification that fails it is not used.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from deap import gp

from gpquarto.games.interface import GameState
from gpquarto.gp.binding import GPGame
from gpquarto.gp.compiler import compile_tree
from gpquarto.gp.genome import CONDITION_TYPE, Genome, Rule, compile_rules
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.textform import parse_tree
from gpquarto.safe_text import MAX_METADATA_CHARACTERS, bounded_text, printable

#: A tree as nested tuples: (name, children).
Node = tuple[str, tuple]

_TRUE, _FALSE = ("True", ()), ("False", ())


def _nested(tree: gp.PrimitiveTree) -> Node:
    """``tree`` (prefix list) as nested tuples."""
    stack: list[tuple[str, int, list]] = []
    for node in tree:
        stack.append((node.name, node.arity, []))
        while len(stack[-1][2]) == stack[-1][1]:
            name, _arity, children = stack.pop()
            built = (name, tuple(children))
            if not stack:
                return built
            stack[-1][2].append(built)
    raise ValueError("malformed tree: not exactly one root")


def _text(node: Node) -> str:
    name, children = node
    return f"{name}({', '.join(_text(child) for child in children)})" if children else name


def _size(node: Node) -> int:
    return 1 + sum(_size(child) for child in node[1])


class _Folder:
    """Bottom-up rewriting of trees over one primitive set (see the module docstring)."""

    def __init__(self, library: PrimitiveLibrary, pset: gp.PrimitiveSetTyped) -> None:
        self.library = library
        self.pset = pset
        self.constants: dict[tuple[type, object], Node] = {}
        for type_, terminals in pset.terminals.items():
            for terminal in terminals:
                spec = library.get(terminal.name)
                if not spec.uses_features:
                    self._offer(type_, (terminal.name, ()))
        for type_, primitives in pset.primitives.items():
            for primitive in primitives:
                spec = library.get(primitive.name)
                if primitive.arity == 1 and not spec.uses_features:  # e.g. as_score(0): the only Score zero
                    for terminal in pset.terminals.get(primitive.args[0], []):
                        if not library.get(terminal.name).uses_features:
                            self._offer(type_, (primitive.name, ((terminal.name, ()),)))

    def _offer(self, type_: type, node: Node) -> None:
        value = self.value(node)
        known = self.constants.get((type_, _key(value)))
        if known is None or (_size(node), _text(node)) < (_size(known), _text(known)):
            self.constants[type_, _key(value)] = node

    def value(self, node: Node) -> object:
        """The value of a constant subtree."""
        return compile_tree(gp.PrimitiveTree(self._nodes(node)), self.library)(None)

    def _nodes(self, node: Node) -> list:
        found = [self.pset.mapping[node[0]]]
        for child in node[1]:
            found += self._nodes(child)
        return found

    def is_constant(self, node: Node) -> bool:
        return not self.library.get(node[0]).uses_features and all(self.is_constant(child) for child in node[1])

    def fold(self, node: Node, sample: Sequence = ()) -> Node:
        """``node`` rewritten bottom-up. With a ``sample`` of features, a subtree that takes one value at all of
        them is replaced by a constant of that value too (``open_lines_holding(0)`` is always 0): evidence, not
        proof, so the caller checks the result on other positions."""
        name, children = node
        node = (name, tuple(self.fold(child, sample) for child in children))
        node = _rewrite(node, self)
        if not node[1]:
            return node
        if self.is_constant(node):
            key = _key(self.value(node))
        elif sample:
            evaluate = compile_tree(gp.PrimitiveTree(self._nodes(node)), self.library)
            keys = {_key(evaluate(features)) for features in sample}
            if len(keys) != 1:
                return node
            key = keys.pop()
        else:
            return node
        constant = self.constants.get((self.library.get(node[0]).return_type, key))
        return constant if constant is not None and _size(constant) <= _size(node) else node

    def constant_value(self, node: Node) -> tuple[bool, object]:
        """(True, value) for a constant subtree, else (False, None)."""
        return (True, self.value(node)) if self.is_constant(node) else (False, None)

    def zero(self, type_: type) -> Node | None:
        return self.constants.get((type_, _key(0)))


def _key(value: object) -> tuple[str, object]:
    return (type(value).__name__, value)  # True and 1 are different constants


#: The arithmetic of scores (saturating, but every score is within the bounds) and of counts (exact but ``mul``).
_ARITHMETIC = {
    "plus": "sum",
    "add": "sum",
    "minus": "difference",
    "sub": "difference",
    "times": "product",
    "mul": "product",
}
#: For ``and_`` and ``or_``: the constant that leaves the other side as it is, and the one that decides alone.
_LOGIC = {"and_": (_TRUE, _FALSE), "or_": (_FALSE, _TRUE)}


#: Built-in families whose primitives of two arguments of their own type return one of them (Quarto's square and
#: piece combinators; Quixo's ``move_or``, ``longer_line_move``, ``higher_potential_move``, ``first_safe_move``).
_CHOOSING_FAMILIES = ("combinators", "quixo_moves", "quixo_lookahead")


def _chooses_an_argument(spec) -> bool:
    return (
        spec.source == "builtin"
        and spec.family in _CHOOSING_FAMILIES
        and len(spec.arg_types) == 2
        and all(type_ is spec.return_type for type_ in spec.arg_types)
    )


def _rewrite(node: Node, folder: _Folder) -> Node:
    """One identity of the built-in primitives applied at the root of ``node`` (children already folded)."""
    name, children = node
    if name == "not_" and children[0][0] == "not_":
        return children[0][1][0]
    if name in _LOGIC:
        identity, absorbing = _LOGIC[name]
        a, b = children
        if a == identity or a == b:
            return b
        if b == identity:
            return a
        if absorbing in children:
            return absorbing
    if len(children) == 2 and children[0] == children[1]:
        if name in ("equal", "at_most"):
            return _TRUE
        if name in ("not_equal", "greater_than", "above"):
            return _FALSE
        spec = folder.library.get(name)
        if name in ("larger", "smaller") or _chooses_an_argument(spec):
            return children[0]  # each returns one of its two arguments
        if name in ("minus", "sub"):
            zero = folder.zero(folder.library.get(name).return_type)
            if zero is not None:
                return zero
    if name == "score_if":
        condition, then, otherwise = children
        if condition == _TRUE or then == otherwise:
            return then
        if condition == _FALSE:
            return otherwise
    if name == "negative" and children[0][0] == "negative":
        return children[0][1][0]
    if name in _ARITHMETIC:
        operation = _ARITHMETIC[name]
        a, b = children
        number_type = folder.library.get(name).return_type
        zero, one = folder.zero(number_type), folder.constants.get((number_type, _key(1)))
        if operation == "sum" and a == zero:
            return b
        if operation in ("sum", "difference") and b == zero:
            return a
        if operation == "product":
            if zero is not None and zero in (a, b):
                return zero
            if name == "times" and one in (a, b):  # not mul: it saturates at 10,000, beyond any count's bound
                return b if a == one else a
    return node


def simplify_tree(
    tree: gp.PrimitiveTree, library: PrimitiveLibrary, pset: gp.PrimitiveSetTyped, root: type
) -> gp.PrimitiveTree:
    """``tree`` folded (see the module docstring), parsed back against ``pset`` with root type ``root``."""
    folder = _Folder(library, pset)
    return parse_tree(_text(folder.fold(_nested(tree))), pset, root)


# ---------------------------------------------------------------------- genomes
@dataclass
class Simplification:
    """What :func:`simplify_genome` removed: per reason, the rules dropped (``kind number``, 1-based in the
    original), and the sizes before and after."""

    rules_before: dict[str, int]
    rules_after: dict[str, int]
    nodes_before: int
    nodes_after: int
    removed: dict[str, list[str]] = field(default_factory=dict)
    checked_positions: int = 0

    def summary(self) -> str:
        """One line: rules and nodes before and after, and the reasons."""
        rules = ", ".join(
            f"{self.rules_before[kind]} -> {self.rules_after[kind]} {kind} rules" for kind in self.rules_before
        )
        reasons = "; ".join(f"{reason}: {', '.join(rules)}" for reason, rules in self.removed.items() if rules)
        return (
            f"simplified: {rules}, {self.nodes_before} -> {self.nodes_after} nodes"
            + (f" (removed {reasons})" if reasons else "")
            + f"; decides like the original at {self.checked_positions} positions"
        )

    def to_data(self) -> dict:
        """Plain data (JSON)."""
        return {
            "rules_before": dict(self.rules_before),
            "rules_after": dict(self.rules_after),
            "nodes_before": self.nodes_before,
            "nodes_after": self.nodes_after,
            "removed": {reason: list(rules) for reason, rules in self.removed.items()},
            "checked_positions": self.checked_positions,
        }


def simplification_text(report: dict) -> str:
    """What a simplified player's file says was removed (its ``"simplification"``), in one line; bounded and escaped,
    since the file is not trusted."""
    try:
        return printable(Simplification(**report).summary())[:MAX_METADATA_CHARACTERS]
    except (TypeError, ValueError, KeyError, AttributeError):
        return f"simplification: {bounded_text(report)}"


def _never_legal(folder: _Folder, node: Node, binding: GPGame) -> bool:
    """True for a constant action that no position accepts: outside ``range(binding.action_bound)`` (a game that
    gives no bound: a negative value, ``NO_ACTION``)."""
    constant, value = folder.constant_value(node)
    if not constant:
        return False
    if not isinstance(value, int):
        return True
    return value < 0 or (binding.action_bound is not None and value >= binding.action_bound)


def fold_genome(
    genome: Genome, library: PrimitiveLibrary, samples: Mapping[str, Sequence] | None = None
) -> tuple[Genome, dict[str, list[str]], list[list[int]]]:
    """Every tree folded and the rules that can never decide dropped (no games needed). Returns the genome, the
    reasons with the rules dropped for each, and for each kind the original indices of the rules kept. With
    ``samples`` (features by rule kind), subtrees constant on them fold too (:meth:`_Folder.fold`)."""
    pset = library.primitive_set()
    folder = _Folder(library, pset)
    binding = genome.binding
    removed: dict[str, list[str]] = {"false condition": [], "never legal action": [], "shadowed by an earlier rule": []}
    kept_rules: dict[str, list[Rule]] = {}
    origins: list[list[int]] = []
    for kind in binding.kinds:
        kept: list[tuple[Node, Node]] = []
        rules: list[Rule] = []
        origin: list[int] = []
        for index, rule in enumerate(genome.rules(kind)):
            label = f"{kind} {index + 1}"
            sample = (samples or {}).get(kind, ())
            condition = folder.fold(_nested(rule.condition), sample)
            action = folder.fold(_nested(rule.action), sample)
            if condition == _FALSE:
                removed["false condition"].append(label)
                continue
            if _never_legal(folder, action, binding):
                removed["never legal action"].append(label)
                continue
            if any(action == earlier_action and earlier in (condition, _TRUE) for earlier, earlier_action in kept):
                removed["shadowed by an earlier rule"].append(label)
                continue
            kept.append((condition, action))
            origin.append(index)
            rules.append(
                Rule(
                    parse_tree(_text(condition), pset, CONDITION_TYPE),
                    parse_tree(_text(action), pset, binding.then_type(kind)),
                )
            )
        kept_rules[kind] = rules
        origins.append(origin)
    return Genome.of(genome.game, kept_rules), removed, origins


def decisions(genome: Genome, library: PrimitiveLibrary, positions: Sequence[GameState]) -> list[tuple[int, bool]]:
    """At each position, the action ``genome`` takes and whether a rule decided it (a random fallback is drawn
    from a generator seeded by the position's index, the same for every genome)."""
    rules = compile_rules(genome, library)
    found = []
    for index, board in enumerate(positions):
        action = rules.decide(board.view(), random.Random(index))
        found.append((action, rules.last_rule is not None))
    return found


def decides_alike(
    original: Genome, simplified: Genome, library: PrimitiveLibrary, positions: Sequence[GameState]
) -> bool:
    """True when both genomes take the same action at every position (and fall back at the same ones)."""
    return decisions(original, library, positions) == decisions(simplified, library, positions)


def simplify_genome(
    genome: Genome, library: PrimitiveLibrary, usage: Sequence[GameState], check: Sequence[GameState]
) -> tuple[Genome, Simplification]:
    """``genome`` simplified (see the module docstring): folded, rules that can never decide dropped, then the
    rules that decide at none of the ``usage`` positions dropped while the result still decides like the
    original at every ``check`` position. If even the folded genome does not (a plugin primitive whose name
    suggests an identity it does not have), the original is returned unchanged."""
    binding = genome.binding
    kinds = binding.kinds
    before = {kind: len(genome.rules(kind)) for kind in kinds}
    samples: dict[str, list] = {kind: [] for kind in kinds}
    for board in usage:
        samples[binding.kind_at(board)].append(binding.features(board.view()))
    # Folding by the usage positions first, then exact folding alone, then nothing: the first that decides like
    # the original at every check position.
    attempts = (fold_genome(genome, library, samples), fold_genome(genome, library))
    folded, removed, origins = next(
        (attempt for attempt in attempts if decides_alike(genome, attempt[0], library, check)),
        (genome, {}, [list(range(len(genome.rules(kind)))) for kind in kinds]),
    )
    rules = compile_rules(folded, library)
    used: dict[str, set[int]] = {kind: set() for kind in kinds}
    for board in usage:
        rules.decide(board.view(), random.Random(0))
        if rules.last_rule is not None:
            used[binding.kind_at(board)].add(rules.last_rule)
    # Drop every unused rule; where the check set disagrees, put back the rules that decide there.
    keep = {kind: set(used[kind]) for kind in kinds}
    expected = decisions(folded, library, check)
    while True:
        candidate = Genome.of(
            genome.game,
            {kind: [rule for index, rule in enumerate(folded.rules(kind)) if index in keep[kind]] for kind in kinds},
        )
        mismatches = [
            index
            for index, (a, b) in enumerate(zip(expected, decisions(candidate, library, check), strict=True))
            if a != b
        ]
        if not mismatches:
            break
        restored = False
        for index in mismatches:
            board = check[index]
            kind = binding.kind_at(board)
            rules.decide(board.view(), random.Random(0))
            if rules.last_rule is not None and rules.last_rule not in keep[kind]:
                keep[kind].add(rules.last_rule)
                restored = True
        if not restored:  # cannot happen: the folded genome's deciding rule is always restorable
            candidate = folded
            break
    never = [
        f"{kind} {origins[number][index] + 1}"
        for number, kind in enumerate(kinds)
        for index in range(len(folded.rules(kind)))
        if index not in keep[kind]
    ]
    if never:
        removed["never decided in the final games"] = never
    report = Simplification(
        before,
        {kind: len(candidate.rules(kind)) for kind in kinds},
        genome.size,
        candidate.size,
        removed,
        len(check),
    )
    return candidate, report


def simplify_evaluator_tree(tree: gp.PrimitiveTree, library: PrimitiveLibrary, leaves: Sequence) -> gp.PrimitiveTree:
    """An evaluator tree folded: with the subtrees constant on the first half of ``leaves`` (``Features`` objects)
    folded too if it then scores exactly like ``tree`` at every leaf, else exactly folded if that does (a plugin
    primitive may not keep the identity its name suggests), else ``tree`` itself."""
    from gpquarto.gp.types import Score

    pset = library.evaluator_primitive_set()
    folder = _Folder(library, pset)
    original = compile_tree(tree, library)
    expected = [original(features) for features in leaves]
    for sample in (leaves[: len(leaves) // 2], ()):
        simplified = parse_tree(_text(folder.fold(_nested(tree), sample)), pset, Score)
        folded = compile_tree(simplified, library)
        if all(folded(features) == value for features, value in zip(leaves, expected, strict=True)):
            return simplified
    return tree
