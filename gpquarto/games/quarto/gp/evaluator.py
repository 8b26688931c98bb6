"""Quarto's evolved evaluators (the plug-in's :class:`~gpquarto.games.capabilities.EvolvedEvaluators`): an
:class:`~gpquarto.gp.evaluator.EvaluatorGenome` compiled to score Quarto positions for the minimax and MCTS players.

:class:`CompiledEvaluator` is a genome ready to score boards: ``evaluator(board)`` builds the position's
:class:`~gpquarto.games.quarto.gp.features.Features` and clamps the tree's value into
``[-HEURISTIC_LIMIT, HEURISTIC_LIMIT]``, so that it can stand wherever a hand-written
:class:`~gpquarto.games.quarto.search.heuristics.Heuristic` does (:meth:`CompiledEvaluator.heuristic`): a proven win
or loss always outweighs it.

Example::

    >>> from gpquarto.games.quarto.board import Board
    >>> from gpquarto.gp.evaluator import EvaluatorGenome
    >>> from gpquarto.gp.library import shared_library
    >>> library = shared_library()
    >>> genome = EvaluatorGenome.from_text("minus(times(ten, odd_threats), safe_parity)", library)
    >>> CompiledEvaluator(genome, library)(Board.from_text("012./..../..../.... 8"))
    0
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gpquarto.games.capabilities import EvolvedEvaluators
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
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.primitives import PrimitiveInfo, PrimitiveLibrary
from gpquarto.players.registry import make_named_player


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


class QuartoEvaluators(EvolvedEvaluators):
    """Quarto's evolved evaluators: compiled to :class:`CompiledEvaluator`, played at the leaves of ``minimax`` (and
    instead of the playouts of ``mcts``), checked on :func:`leaf_positions`."""

    searching_players = ("minimax", "mcts")

    def compile(
        self, genome: EvaluatorGenome, library: PrimitiveLibrary, *, name: str = "evolved"
    ) -> CompiledEvaluator:
        return CompiledEvaluator(genome, library, name=name)

    def searcher(
        self, name: str, values: dict[str, str], evaluator: Any, *, spec: str = "", seed: int | None = None
    ) -> Any:
        rest = ",".join(f"{key}={value}" for key, value in values.items())
        player = make_named_player(
            f"{name}:{rest}" if rest else name, game="quarto", seed=seed, overrides={"heuristic": evaluator.heuristic()}
        )
        player.name = spec or f"{name}:{rest},evaluator={evaluator.name}".replace(":,", ":")
        return player

    def cost(self, player: Any) -> float:
        search = player.search
        return search.evaluations / search.evaluated_squares if search.evaluated_squares else 1.0

    def check_features(self, count: int, seed: int) -> list[Features]:
        return [Features(board) for board in leaf_positions(count, seed)]

    def learned(self, path: str) -> Any:
        from gpquarto.games.quarto.learned.evaluator import load_learned_evaluator

        return load_learned_evaluator(path)


EVALUATORS = QuartoEvaluators()
