"""What an evolved evaluation reads of the piece given at a search leaf, and the search that groups pieces by it.

At a leaf of the fast search the piece in hand was just given: it is safe, and no longer among the pieces left.
Primitives marked ``GIVEN_NOTHING`` must then take the same value for every safe piece given; ``in_hand_has``
(``GIVEN_CHARACTERISTIC``) depends on one attribute of it. These tests check every mark on real leaves, with
each safe piece, against the slow Board-based features; and that the search, which evaluates a tree once for
all the pieces that agree on what it read, finds the values and best moves of the generic search (the reference:
it evaluates a Board at every leaf).
"""

from __future__ import annotations

import itertools
import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.evaluator import CompiledEvaluator
from gpquarto.games.quarto.gp.features import (
    GIVEN_CHARACTERISTIC,
    GIVEN_NOTED,
    GIVEN_NOTHING,
    GIVEN_PIECE,
    Features,
    LeafFeatures,
    given_piece_reads,
)
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.games.quarto.search.heuristics import ALL_ATTRIBUTES, Heuristic
from gpquarto.games.quarto.search.negamax import Negamax
from gpquarto.games.quarto.search.tactics import FORCED_WIN_HORIZON, SearchLeaf, safe_pieces_mask, winning_squares
from gpquarto.gp.compiler import compile_tree
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.library import load_library
from gpquarto.gp.types import EVALUATOR_NODE_TYPES, Characteristic, Count, Score
from tests.helpers import random_positions

LIBRARY = load_library(entry_points=False)
EVALUATOR_SPECS = [
    spec for spec in LIBRARY if {spec.return_type, *spec.arg_types} <= set(EVALUATOR_NODE_TYPES) and spec.uses_features
]
SAMPLES = {bool: (False, True), Count: (0, 1, 2, 3, 4), Characteristic: tuple(range(8)), Score: (-3, 0, 5)}


def given_leaves(seed: int, count: int, rules: Rules = Rules.CLASSIC):
    """Boards after a placement, with every safe piece that could be given there: (board, safe pieces)."""
    found = []
    for board in random_positions(seed, count, rules, min_actions=2, max_actions=27):
        if not board.placement_due or winning_squares(board, board.in_hand):
            continue
        square = board.empty_squares()[len(board.empty_squares()) // 2]
        after = board.copy()
        after.place(square)
        safe = safe_pieces_mask(after)
        if safe:
            found.append((after, [piece for piece in range(16) if safe >> piece & 1]))
    return found


def given(board: Board, piece: int) -> Board:
    after = board.copy()
    after.choose(piece)
    return after


@pytest.mark.parametrize("rules", [Rules.CLASSIC, Rules.ADVANCED])
def test_each_mark_holds_for_every_safe_piece_given_at_a_leaf(rules):
    """A primitive's value for a piece given equals the Board's, and is the value of every other safe piece that
    agrees with it on the attributes it read (by its mark, or as its facts noted: ``GIVEN_NOTED``)."""
    marked = [spec for spec in EVALUATOR_SPECS if given_piece_reads(spec.function, True) != GIVEN_PIECE]
    assert {spec.name for spec in marked} >= {
        "safe_piece_count",
        "live_threats",
        "pieces_left",
        "in_hand_has",
        "forced_loss",
        "forced_outcome",
    }
    assert {given_piece_reads(spec.function, True) for spec in marked} == {
        GIVEN_NOTHING,
        GIVEN_CHARACTERISTIC,
        GIVEN_NOTED,
    }
    noted = {0: 0, ALL_ATTRIBUTES: 0}
    for board, safe in given_leaves(41, 120, rules):
        leaf = SearchLeaf.from_board(board)
        for spec in marked:
            what = given_piece_reads(spec.function, True)
            for children in itertools.product(*(SAMPLES[type_] for type_ in spec.arg_types)):
                found = []
                for piece in safe:
                    features = LeafFeatures(leaf, board.available_mask ^ (1 << piece), piece)
                    fast = spec.function(features, *children)
                    assert fast == spec.function(Features(given(board, piece)), *children), (spec.name, board.text())
                    if what == GIVEN_CHARACTERISTIC:
                        read = 1 << (children[0] & 3)
                    else:
                        read = features.read if what == GIVEN_NOTED else 0
                        noted[read] += what == GIVEN_NOTED
                    found.append((piece, read, fast))
                for (piece, read, value), (other, _read, other_value) in itertools.product(found, found):
                    if piece & read == other & read:
                        assert value == other_value, (spec.name, children, board.text(), piece, other)
    assert noted[0] > 100 and noted[ALL_ATTRIBUTES] > 10  # the noted facts read the piece on some leaves only


def test_the_evaluator_reports_what_it_read_of_the_piece():
    board, safe = given_leaves(3, 20)[5]
    leaf = SearchLeaf.from_board(board)
    piece = safe[0]
    for text, expected in (
        ("plus(safe_piece_count, threats)", 0),
        ("score_if(in_hand_has(tall), one, two)", 0b1000),
        ("score_if(in_hand_has(round), one, two)", 0b0001),
        ("score_if(and_(in_hand_has(solid), in_hand_has(plain)), one, two)", 0b0110),
        ("safe_square_count", 0 if len({safe_square_count(given(board, other)) for other in safe}) == 1 else 15),
        ("score_if(False, safe_square_count, one)", 0),  # only the branch taken is evaluated
        ("score_if(True, hand_fit_score, one)", ALL_ATTRIBUTES),
    ):
        text = text.replace("hand_fit_score", "as_score(hand_fit)")
        evaluator = CompiledEvaluator(EvaluatorGenome.from_text(text, LIBRARY), LIBRARY)
        value, read = evaluator.leaf_reading(leaf, board.available_mask ^ (1 << piece), piece)
        assert value == evaluator(given(board, piece)) and read == expected, text
    assert not CompiledEvaluator(EvaluatorGenome.from_text("safe_parity", LIBRARY), LIBRARY).reads_given_piece


def safe_square_count(board: Board) -> int:
    return Features(board).safe_square_count


def test_a_conditional_compiles_to_the_value_of_its_function():
    """``score_if`` is compiled lazily (only the branch taken): random trees give the values of calling every
    primitive's function on all its children."""
    generator = TreeGenerator(LIBRARY.evaluator_primitive_set(), height_limit=6)
    rng = random.Random(8)
    boards = random_positions(9, 12, min_actions=3, max_actions=25)
    for _ in range(40):
        tree = generator.generate(rng, Score, 2, 5)
        compiled = compile_tree(tree, LIBRARY)
        for board in boards:
            features = Features(board)
            assert compiled(features) == eager(tree, features), str(tree)


def eager(tree, features: Features) -> object:
    """The tree's value with every child of every node evaluated (no compiler)."""
    stack: list[object] = []
    for node in reversed(tree):
        spec = LIBRARY.get(node.name)
        children = [stack.pop() for _ in range(node.arity)]
        if spec.value is not None:
            stack.append(spec.value)
        else:
            stack.append(spec.function(features, *children) if spec.uses_features else spec.function(*children))
    return stack[0]


def answer(search: Negamax, board: Board, depth: int) -> tuple[int, frozenset]:
    result = search.best_placement(board, depth) if board.placement_due else search.best_choice(board, depth)
    return result.value, frozenset(result.best_moves)


TEXTS = (
    "safe_piece_count",
    "score_if(not_in_diagonal(hollow), negative(threats), safe_piece_count)",
    "score_if(not_(not_in_diagonal(solid)), safe_square_count, one)",
    "plus(score_if(in_hand_has(tall), five, safe_parity), score_if(in_hand_has(most_used_characteristic), two, one))",
    "minus(threat_making_squares, score_if(in_hand_has(square), as_score(hand_fit), threats))",
    "score_if(above(safe_square_count, five), score_if(in_hand_has(coloured), ten, one), odd_threats)",
    "plus(times(forced_win, ten), minus(safe_pair_count, safe_square_count))",
)


@pytest.mark.parametrize("text", TEXTS)
def test_grouping_the_pieces_keeps_the_values_and_moves_of_the_generic_search(text):
    evaluator = CompiledEvaluator(EvaluatorGenome.from_text(text, LIBRARY), LIBRARY)
    fast, generic = Negamax(evaluator.heuristic()), Negamax(Heuristic("generic", evaluator))
    boards = [
        *random_positions(51, 24, min_actions=2, max_actions=26),
        *random_positions(52, 6, Rules.ADVANCED, min_actions=6, max_actions=26),
    ]
    for board in boards:
        for depth in [1] + ([2] if board.placed_count >= 7 else []):
            assert answer(fast, board, depth) == answer(generic, board, depth), (board.text(), depth)


def test_random_trees_that_read_the_piece_keep_the_generic_search_answers():
    """Random trees built with ``in_hand_has`` in reach: grouped (fast) and generic search agree."""
    generator = TreeGenerator(LIBRARY.evaluator_primitive_set(), height_limit=6)
    rng = random.Random(12)
    boards = random_positions(53, 16, min_actions=4, max_actions=26)
    checked = 0
    while checked < 8:
        tree = generator.generate(rng, Score, 2, 5)
        if "in_hand_has" not in str(tree):
            continue
        checked += 1
        evaluator = CompiledEvaluator(EvaluatorGenome(tree), LIBRARY)
        fast, generic = Negamax(evaluator.heuristic()), Negamax(Heuristic("generic", evaluator))
        for board in boards[checked::2]:
            assert answer(fast, board, 1) == answer(generic, board, 1), (str(tree), board.text())


@pytest.mark.parametrize(
    ("text", "may_read", "always_reads"),
    [
        ("as_score(hand_fit)", True, True),
        ("safe_square_count", True, False),  # it notes itself whether it read the piece
        ("score_if(not_(not_in_diagonal(solid)), as_score(hand_fit), one)", True, False),
        ("plus(score_if(above(one, two), one, threat_making_squares), threat_making_squares)", True, True),
        ("score_if(above(threat_making_squares, one), one, two)", True, True),
        ("score_if(in_hand_has(tall), one, two)", True, False),
        ("minus(threats, safe_parity)", False, False),
    ],
)
def test_the_evaluator_knows_when_every_evaluation_reads_the_piece(text, may_read, always_reads):
    """A node that reads the piece outside every branch of a conditional is read at every evaluation: the leaf then
    reports every attribute without noting (a test above checks the reports themselves)."""
    evaluator = CompiledEvaluator(EvaluatorGenome.from_text(text, LIBRARY), LIBRARY)
    assert (evaluator.reads_given_piece, evaluator.always_reads_given_piece) == (may_read, always_reads)


def test_safe_square_counts_equal_the_board_counts_for_every_piece_early_and_late():
    """The counts of every piece at once (with the early-game shortcut and the squares decided for all pieces) equal
    the Board's count with that piece in hand, for the pieces left and for pieces that win at once."""
    boards = [
        *random_positions(71, 60, min_actions=1, max_actions=10),
        *random_positions(72, 60, min_actions=10, max_actions=28),
        *random_positions(73, 20, Rules.ADVANCED, min_actions=1, max_actions=20),
    ]
    checked = 0
    for board in boards:
        if not board.choice_due:
            continue
        pieces = board.available_mask
        candidates = tuple(piece for piece in range(16) if pieces >> piece & 1)
        counts = SearchLeaf.from_board(board).safe_square_counts(pieces, candidates)
        for piece, count in zip(candidates, counts, strict=True):
            assert count == safe_square_count(given(board, piece)), (board.text(), piece)
            checked += 1
    assert checked > 500


# ---------------------------------------------------------------------- facts that look at the piece and the square
def wins_somewhere(board: Board) -> bool:
    """The piece in hand wins at once on some empty square (played out on the board)."""
    for square in board.empty_squares():
        board.place(square)
        won = board.winner_index != NO_PIECE
        board.undo()
        if won:
            return True
    return False


def slow_safe_pairs(board: Board) -> int:
    """(Square, piece) pairs: the piece in hand placed there does not win, and the piece given then cannot win."""
    count = 0
    for square in board.empty_squares():
        board.place(square)
        if board.winner_index == NO_PIECE:
            for piece in range(16):
                if board.available_mask >> piece & 1:
                    board.choose(piece)
                    count += not wins_somewhere(board)
                    board.undo()
        board.undo()
    return count


def slow_forced_win(board: Board) -> bool:
    """The piece in hand wins at once, or some placement and piece given leave the opponent, wherever it places that
    piece (never winning), only pieces to give back that win at once (and at least one piece to give)."""
    for square in board.empty_squares():
        board.place(square)
        if board.winner_index != NO_PIECE:
            board.undo()
            return True
        for piece in [p for p in range(16) if board.available_mask >> p & 1]:
            board.choose(piece)
            lost = not wins_somewhere(board) and all(
                opponent_must_give_a_win(board, reply) for reply in board.empty_squares()
            )
            board.undo()
            if lost:
                board.undo()
                return True
        board.undo()
    return False


def opponent_must_give_a_win(board: Board, square: int) -> bool:
    board.place(square)
    left = [piece for piece in range(16) if board.available_mask >> piece & 1]
    must = bool(left)
    for piece in left:
        board.choose(piece)
        must = must and wins_somewhere(board)
        board.undo()
    board.undo()
    return must


@pytest.mark.parametrize("rules", [Rules.CLASSIC, Rules.ADVANCED])
def test_safe_pairs_and_forced_wins_equal_their_played_out_definitions(rules):
    """``safe_pair_count`` and ``forced_win`` on a Board (within its horizon of empty squares), and the leaf's counts
    for every piece at once (on any board), equal the definitions played out move by move in this test; forced wins
    occur on some positions and not on others."""
    boards = [
        *random_positions(81, 40, rules, min_actions=9, max_actions=20),
        *random_positions(82, 60, rules, min_actions=18, max_actions=30),
    ]
    seen = set()
    for board in boards:
        if board.placement_due:
            features = Features(board)
            assert features.safe_pair_count == slow_safe_pairs(board.copy()), board.text()
            horizon = len(board.empty_squares()) <= FORCED_WIN_HORIZON
            assert features.forced_win == (horizon and slow_forced_win(board.copy())), board.text()
            continue
        pieces = board.available_mask
        candidates = tuple(piece for piece in range(16) if pieces >> piece & 1)
        leaf = SearchLeaf.from_board(board)
        pairs = leaf.safe_pair_counts(pieces, candidates)
        wins = leaf.forced_wins(pieces, candidates)
        for piece, count, won in zip(candidates, pairs, wins, strict=True):
            assert count == slow_safe_pairs(given(board, piece)), (board.text(), piece)
            assert won == slow_forced_win(given(board, piece)), (board.text(), piece)
            seen.add(won)
    assert seen == {0, 1}
