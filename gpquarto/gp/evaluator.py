"""Evaluator genomes: one typed tree that scores a position, for a search to call at its leaves.

An :class:`EvaluatorGenome` holds one ``deap.gp.PrimitiveTree`` whose root returns a
:class:`~gpquarto.gp.types.Score`, built from the library's evaluator primitive set
(:meth:`~gpquarto.gp.primitives.PrimitiveLibrary.evaluator_primitive_set`: the ``evaluation`` family and every
primitive over ``bool``, ``Count``, ``Characteristic`` and ``Score`` only). The score is from the point of
view of the player to move. It is written and read in the safe text form (:mod:`gpquarto.gp.textform`), like
rule trees, and :func:`format_formula` prints it as a formula (``(threats * 2) - safe_parity``).

A game whose searches take such a tree at their leaves offers
:class:`~gpquarto.games.capabilities.EvolvedEvaluators`, which compiles a genome to score its positions (Quarto's:
:class:`~gpquarto.games.quarto.gp.evaluator.CompiledEvaluator`).

Example::

    >>> from gpquarto.gp.library import shared_library
    >>> library = shared_library()
    >>> genome = EvaluatorGenome.from_text("minus(times(ten, odd_threats), safe_parity)", library)
    >>> format_formula(genome.tree)
    '(10 * odd_threats) - safe_parity'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deap import gp

from gpquarto.gp.genome import GenomeFitness
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.textform import format_tree, parse_tree
from gpquarto.gp.types import Score

#: Root type of an evaluator tree.
EVALUATOR_TYPE = Score


@dataclass
class EvaluatorGenome:
    """An individual whose phenotype is an evaluation: one ``Score`` tree, its fitness and evaluation record."""

    tree: gp.PrimitiveTree
    fitness: GenomeFitness = field(default_factory=GenomeFitness, compare=False, repr=False)
    record: dict = field(default_factory=dict, compare=False, repr=False)
    _text: str | None = field(default=None, init=False, compare=False, repr=False)

    @property
    def size(self) -> int:
        """Number of nodes."""
        return len(self.tree)

    @property
    def height(self) -> int:
        """Height of the tree."""
        return self.tree.height

    def text(self) -> str:
        """The safe text form of the tree (written once, kept)."""
        if self._text is None:
            self._text = format_tree(self.tree)
        return self._text

    def to_data(self) -> dict[str, str]:
        """Plain data: ``{"evaluator": text}``."""
        return {"evaluator": self.text()}

    @classmethod
    def from_data(cls, data: object, pset: gp.PrimitiveSetTyped) -> EvaluatorGenome:
        """Rebuild a genome from :meth:`to_data` output, parsing the tree safely (``ValueError`` in one line)."""
        if not isinstance(data, dict) or set(data) != {"evaluator"} or not isinstance(data["evaluator"], str):
            raise ValueError("an evaluator genome must map 'evaluator' to its tree text")
        try:
            return cls(parse_tree(data["evaluator"], pset, EVALUATOR_TYPE))
        except ValueError as error:
            raise ValueError(f"evaluator: {error}") from None

    @classmethod
    def from_text(cls, text: str, library: PrimitiveLibrary) -> EvaluatorGenome:
        """Parse ``text`` against the evaluator primitive set of ``library``."""
        return cls.from_data({"evaluator": text}, library.evaluator_primitive_set())

    def clone(self) -> EvaluatorGenome:
        """A copy with its own fitness and record (trees are never modified in place, so shared)."""
        copy = EvaluatorGenome(self.tree)
        if self.fitness.valid:
            copy.fitness.values = self.fitness.values
        copy.record = dict(self.record)
        return copy

    def __deepcopy__(self, memo: dict) -> EvaluatorGenome:
        return self.clone()

    def key(self) -> str:
        """Hashable identity: the tree text."""
        return self.text()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EvaluatorGenome) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable: no hash

    def describe(self) -> str:
        """The formula, on one line."""
        return f"evaluation = {format_formula(self.tree)}"


# ---------------------------------------------------------------------- the readable formula
_INFIX = {
    "plus": "+",
    "minus": "-",
    "times": "*",
    "add": "+",
    "sub": "-",
    "mul": "*",
    "above": ">",
    "greater_than": ">",
    "at_most": "<=",
    "equal": "==",
    "not_equal": "!=",
    "and_": "and",
    "or_": "or",
}
_NUMBERS = {"one": "1", "two": "2", "five": "5", "ten": "10"}


def format_formula(tree: gp.PrimitiveTree) -> str:
    """``tree`` as a readable formula: arithmetic and comparisons infix, ``score_if`` as ``if c then a else b``,
    ``as_score`` dropped, score constants as numbers; other primitives as ``name(child, ...)``."""
    stack: list[list] = []
    result = ""
    for node in tree:
        stack.append([node, []])
        while stack and len(stack[-1][1]) == stack[-1][0].arity:
            node, children = stack.pop()
            text = _node_text(node.name, children)
            if not stack:
                result = text
                break
            compound = " " in text  # names and numbers hold no space: an operator's result does
            stack[-1][1].append(f"({text})" if compound and _is_operator(stack[-1][0].name) else text)
    return result


def _node_text(name: str, children: list[str]) -> str:
    if name in _INFIX:
        return f"{children[0]} {_INFIX[name]} {children[1]}"
    if name in _NUMBERS:
        return _NUMBERS[name]
    if name == "negative":
        return f"-{children[0]}"
    if name == "not_":
        return f"not {children[0]}"
    if name == "as_score":
        return children[0]
    if name == "score_if":
        return f"if {children[0]} then {children[1]} else {children[2]}"
    return f"{name}({', '.join(children)})" if children else name


def _is_operator(name: str) -> bool:
    """True for the nodes written with symbols or keywords (their compound children are bracketed)."""
    return name in _INFIX or name in ("score_if", "not_", "negative")
