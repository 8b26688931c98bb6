"""Evaluator genomes: one typed tree that scores a position, for a search to call at its leaves.

An :class:`EvaluatorGenome` holds one ``deap.gp.PrimitiveTree`` whose root returns a
:class:`~gpquarto.gp.types.Score`, built from the library's evaluator primitive set
(:meth:`~gpquarto.gp.primitives.PrimitiveLibrary.evaluator_primitive_set`: the ``evaluation`` family and every
primitive over ``bool``, ``Count``, ``Characteristic`` and ``Score`` only). The score is from the point of
view of the player to move. It is written and read in the safe text form (:mod:`gpquarto.gp.textform`), like
rule trees, and :func:`format_formula` prints it as a formula (``(threats * 2) - safe_parity``).

:class:`CompiledEvaluator` is a genome ready to score boards: ``evaluator(board)`` builds the position's
:class:`~gpquarto.games.quarto.gp.features.Features` and clamps the tree's value into
``[-HEURISTIC_LIMIT, HEURISTIC_LIMIT]``, so that it can stand wherever a hand-written
:class:`~gpquarto.games.quarto.search.heuristics.Heuristic` does (:meth:`CompiledEvaluator.heuristic`): a proven win or loss
always outweighs it.

Example::

    >>> from gpquarto.games.quarto.board import Board
    >>> from gpquarto.gp.library import shared_library
    >>> library = shared_library()
    >>> genome = EvaluatorGenome.from_text("minus(times(ten, odd_threats), safe_parity)", library)
    >>> format_formula(genome.tree)
    '(10 * odd_threats) - safe_parity'
    >>> CompiledEvaluator(genome, library)(Board.from_text("012./..../..../.... 8"))
    0
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from deap import gp

from gpquarto.games.quarto.board import Board, BoardView
from gpquarto.games.quarto.gp.features import (
    GIVEN_CHARACTERISTIC,
    GIVEN_NOTHING,
    GIVEN_PIECE,
    Features,
    LeafFeatures,
    given_piece_reads,
)
from gpquarto.games.quarto.pieces import CHARACTERISTICS
from gpquarto.games.quarto.search.heuristics import ALL_ATTRIBUTES, HEURISTIC_LIMIT, Heuristic
from gpquarto.games.quarto.search.tactics import SearchLeaf, threat_characteristics
from gpquarto.gp.compiler import compile_tree, is_branching
from gpquarto.gp.genome import GenomeFitness
from gpquarto.gp.primitives import PrimitiveInfo, PrimitiveLibrary
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

    __hash__ = None  # mutable

    def describe(self) -> str:
        """The formula, on one line."""
        return f"evaluation = {format_formula(self.tree)}"


class CompiledEvaluator:
    """An evaluator genome compiled once: ``evaluator(board)`` is the clamped score for the player to move.

    At the fast search's leaves (:meth:`leaf_reading`) it also says which attributes of the piece in hand the
    value depended on, from the marks of its primitives (:func:`~gpquarto.games.quarto.gp.features.reads_given_piece`): a tree
    whose primitives read nothing of it is the same for every safe piece given at a leaf, and the search
    evaluates it once per square, as it does the built-in heuristics.
    """

    def __init__(self, genome: EvaluatorGenome, library: PrimitiveLibrary, *, name: str = "evolved") -> None:
        self.genome = genome
        self.name = name
        self._tree = compile_tree(genome.tree, library)
        specs = [library.get(node.name) for node in genome.tree]
        reads = [given_piece_reads(spec.function, spec.uses_features) for spec in specs]
        #: True when some node may read the piece in hand at a search leaf (else every piece given there is alike).
        self.reads_given_piece = any(what != GIVEN_NOTHING for what in reads)
        #: True when every evaluation reads all of it (a node that reads it is outside every conditional branch).
        self.always_reads_given_piece = any(
            what == GIVEN_PIECE and always for what, always in zip(reads, _always_evaluated(specs), strict=True)
        )
        self._noting_tree = compile_tree(genome.tree, library, _noting) if self.reads_given_piece else self._tree

    def raw(self, board: Board | BoardView) -> int:
        """The tree's value for ``board`` (not clamped)."""
        return self._tree(Features(board))

    def __call__(self, board: Board | BoardView) -> int:
        return _clamp(self._tree(Features(board)))

    def leaf(self, leaf: SearchLeaf, available: int, in_hand: int) -> int:
        """The clamped score of a leaf of the fast search (equal to ``self(board)`` for the same position)."""
        return _clamp(self._tree(LeafFeatures(leaf, available, in_hand)))

    def leaf_reading(self, leaf: SearchLeaf, available: int, in_hand: int) -> tuple[int, int]:
        """:meth:`leaf`, and the attributes (a 4-bit mask) of ``in_hand`` that the value depended on: where ``in_hand``
        is a safe piece just given, the value is the same for every safe piece that agrees with it on them."""
        if not self.reads_given_piece:
            return _clamp(self._tree(LeafFeatures(leaf, available, in_hand))), 0
        if self.always_reads_given_piece:
            return _clamp(self._tree(LeafFeatures(leaf, available, in_hand))), ALL_ATTRIBUTES
        features = LeafFeatures(leaf, available, in_hand)
        value = _clamp(self._noting_tree(features))
        return value, features.read

    def heuristic(self) -> Heuristic:
        """This evaluation as a search heuristic (it scores for the player to move), with its fast leaf form."""
        return Heuristic(f"evaluator:{self.name}", self, credits_searcher=False, leaf=self.leaf_reading)


def _always_evaluated(specs: list[PrimitiveInfo]) -> list[bool]:
    """For each node of a tree (its specs in prefix order), whether every evaluation evaluates it: not inside a branch of a
    conditional (a primitive marked :func:`~gpquarto.gp.compiler.branches` evaluates only the child it picks)."""
    always: list[bool] = []
    pending: list[list[bool]] = []  # for each open node, the flags of its children still to come
    for spec in specs:
        flag = pending[-1].pop(0) if pending else True
        while pending and not pending[-1]:
            pending.pop()
        always.append(flag)
        if spec.arg_types:
            branching = is_branching(spec.function)
            pending.append([flag] + [flag and not branching] * (len(spec.arg_types) - 1))
    return always


def _noting(spec: PrimitiveInfo, children: list, closure: Callable) -> Callable:
    """``closure`` made to note in the leaf features' ``read`` what its primitive reads of the piece in hand."""
    what = given_piece_reads(spec.function, spec.uses_features)
    if what == GIVEN_PIECE:

        def node(features: LeafFeatures) -> object:
            features.read = ALL_ATTRIBUTES
            return closure(features)

        return node
    if what == GIVEN_CHARACTERISTIC:
        function, first, rest = spec.function, children[0], children[1:]

        def node(features: LeafFeatures) -> object:
            characteristic = first(features)
            features.read |= 1 << (characteristic & 3)  # characteristics c and c + 4 are the values of attribute c
            return function(features, characteristic, *[child(features) for child in rest])

        return node
    return closure  # nothing of the piece, or noted by the facts it reads (GIVEN_NOTED)


def _clamp(value: int) -> int:
    return -HEURISTIC_LIMIT if value < -HEURISTIC_LIMIT else HEURISTIC_LIMIT if value > HEURISTIC_LIMIT else value


def leaf_positions(count: int, seed: int = 0) -> list[Board]:
    """``count`` positions where a placement is due and the piece in hand cannot win at once (4..13 pieces down)."""
    rng = random.Random(seed)
    positions: list[Board] = []
    while len(positions) < count:
        board = Board()
        stop = rng.randint(4, 13)
        while not board.is_over() and not (board.placement_due and board.placed_count >= stop):
            actions = board.legal_actions()
            board.apply(actions[rng.randrange(len(actions))])
        if not board.is_over() and not CHARACTERISTICS[board.in_hand] & threat_characteristics(board):
            positions.append(board)
    return positions


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
