"""Evaluator genomes: the evaluation primitives against slow definitions, the numeric root in generation and
the safe text form, compiled evaluators, evaluator files and the ``minimax:...,evaluator=FILE`` player."""

from __future__ import annotations

import json
import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.gp.evaluator import CompiledEvaluator, EvaluatorGenome, format_formula
from gpquarto.gp.evaluator_files import evaluator_data, load_evaluator, save_evaluator
from gpquarto.gp.features import Features
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import load_library
from gpquarto.gp.storage import player_data, save_player
from gpquarto.gp.types import SCORE_LIMIT, Characteristic, Count, Piece, Score, Square
from gpquarto.resolve import make_player
from gpquarto.search.heuristics import guaranteed_loss
from gpquarto.search.negamax import Negamax
from tests.helpers import random_positions

LIBRARY = load_library(entry_points=False)
#: ``guaranteed_loss`` written as an evaluator: -100 when no square leaves a safe piece (and pieces are left).
GUARANTEED_LOSS = (
    "score_if(or_(above(safe_square_count, as_score(0)), equal(pieces_left, 0)), "
    "as_score(0), negative(times(ten, ten)))"
)


# ---------------------------------------------------------------------- slow references
def characteristics(piece: int) -> set[int]:
    """The characteristics (0..7) of a piece, from its bits: square, solid, coloured, tall, then their opposites."""
    return {bit if piece >> bit & 1 else bit + 4 for bit in range(4)}


def lines_of(board: Board) -> list[list[int]]:
    """The pieces of every line of the board's rules (-1 for an empty square)."""
    return [[board.cells[square] for square in line] for line in board.rules.lines]


def shared_by(pieces: list[int]) -> set[int]:
    placed = [piece for piece in pieces if piece >= 0]
    if not placed:
        return set()
    return set.intersection(*(characteristics(piece) for piece in placed))


def left(board: Board) -> list[int]:
    return [piece for piece in range(16) if piece not in board.cells and piece != board.in_hand]


def completers(board: Board, line: list[int]) -> int:
    return sum(1 for piece in left(board) if characteristics(piece) & shared_by(line))


def is_threat(line: list[int]) -> bool:
    return sum(piece >= 0 for piece in line) == 3 and bool(shared_by(line))


def safe_pieces(board: Board) -> list[int]:
    """Pieces left that win nowhere on this board (by trying every empty square)."""
    return [
        piece
        for piece in left(board)
        if not any(board.is_winning_placement(square, piece) for square in board.empty_squares())
    ]


def safe_squares(board: Board) -> list[int]:
    if board.in_hand < 0:
        return []
    found = []
    for square in board.empty_squares():
        if board.is_winning_placement(square, board.in_hand):
            found.append(square)
            continue
        after = board.copy()
        after.place(square)
        if safe_pieces(after):
            found.append(square)
    return found


def makes_threat(board: Board, square: int) -> bool:
    for line in board.rules.lines:
        if square in line:
            pieces = [board.cells[s] for s in line if s != square]
            if sum(piece >= 0 for piece in pieces) == 2 and shared_by(pieces) & characteristics(board.in_hand):
                return True
    return False


SLOW = {
    "threats": lambda board: sum(is_threat(line) for line in lines_of(board)),
    "live_threats": lambda board: sum(is_threat(line) and completers(board, line) > 0 for line in lines_of(board)),
    "even_threats": lambda board: sum(
        is_threat(line) and completers(board, line) > 0 and completers(board, line) % 2 == 0 for line in lines_of(board)
    ),
    "odd_threats": lambda board: sum(is_threat(line) and completers(board, line) % 2 == 1 for line in lines_of(board)),
    "safe_piece_count": lambda board: len(safe_pieces(board)),
    "safe_parity": lambda board: len(safe_pieces(board)) % 2,
    "safe_square_count": lambda board: len(safe_squares(board)),
    "empty_square_count": lambda board: 16 - sum(piece >= 0 for piece in board.cells),
    "threat_making_squares": lambda board: (
        0 if board.in_hand < 0 else sum(makes_threat(board, square) for square in board.empty_squares())
    ),
}


def open_lines_holding(board: Board, pieces: int) -> int:
    return sum(
        1
        for line in lines_of(board)
        if sum(piece >= 0 for piece in line) == pieces and pieces < 4 and pieces > 0 and shared_by(line)
    )


def open_lines_sharing(board: Board, characteristic: int) -> int:
    return sum(
        1 for line in lines_of(board) if 2 <= sum(p >= 0 for p in line) <= 3 and characteristic in shared_by(line)
    )


def positions() -> list[Board]:
    return random_positions(5, 60) + random_positions(6, 30, Rules.ADVANCED)


def call(name: str, board: Board, *children: int) -> int:
    spec = LIBRARY.get(name)
    return spec.function(Features(board.view()), *children) if spec.uses_features else spec.function(*children)


# ---------------------------------------------------------------------- the primitives
@pytest.mark.parametrize("name", sorted(SLOW))
def test_each_position_primitive_agrees_with_its_slow_definition(name):
    for board in positions():
        assert call(name, board) == SLOW[name](board), (name, board.text())


def test_line_primitives_with_children_agree_with_their_slow_definitions():
    for board in positions():
        for pieces in (-3, 0, 1, 2, 3, 4, 16):
            assert call("open_lines_holding", board, pieces) == open_lines_holding(board, pieces), board.text()
        for characteristic in range(8):
            assert call("open_lines_sharing", board, characteristic) == open_lines_sharing(board, characteristic)


def test_arithmetic_saturates_and_comparisons_compare():
    rng = random.Random(1)
    values = [0, 1, -1, 7, -50, 9999, SCORE_LIMIT, -SCORE_LIMIT] + [
        rng.randint(-SCORE_LIMIT, SCORE_LIMIT) for _ in range(20)
    ]

    def clamp(value: int) -> int:
        return max(-SCORE_LIMIT, min(SCORE_LIMIT, value))

    for a in values:
        assert LIBRARY.get("negative").function(a) == -a
        assert LIBRARY.get("as_score").function(a) == clamp(a)
        for b in values:
            assert LIBRARY.get("plus").function(a, b) == clamp(a + b)
            assert LIBRARY.get("minus").function(a, b) == clamp(a - b)
            assert LIBRARY.get("times").function(a, b) == clamp(a * b)
            assert LIBRARY.get("larger").function(a, b) == max(a, b)
            assert LIBRARY.get("smaller").function(a, b) == min(a, b)
            assert LIBRARY.get("above").function(a, b) is (a > b)
            assert LIBRARY.get("score_if").function(True, a, b) == a
            assert LIBRARY.get("score_if").function(False, a, b) == b
    assert [LIBRARY.get(name).function() for name in ("one", "two", "five", "ten")] == [1, 2, 5, 10]


# ---------------------------------------------------------------------- the two primitive sets
def types_in(pset) -> set[type]:
    found = set(pset.terminals) | set(pset.primitives)
    for nodes in pset.primitives.values():
        for node in nodes:
            found.update(node.args)
    return found


def test_rule_trees_never_see_scores_and_evaluator_trees_never_see_moves():
    assert Score not in types_in(LIBRARY.primitive_set())
    assert {Square, Piece} & types_in(LIBRARY.evaluator_primitive_set()) == set()
    assert {Score, bool, Count, Characteristic} <= types_in(LIBRARY.evaluator_primitive_set())
    # the rule set is what it was before evaluators existed: every primitive but the Score ones
    rule_names = {name for name in LIBRARY.primitive_set().mapping if name not in LIBRARY.aliases}
    assert rule_names == {spec.name for spec in LIBRARY if Score not in (spec.return_type, *spec.arg_types)}


def test_random_evaluator_trees_round_trip_through_the_text_form_and_compile():
    generator = TreeGenerator(LIBRARY.evaluator_primitive_set(), height_limit=8)
    generator.check_roots([Score])
    rng = random.Random(3)
    boards = random_positions(8, 5)
    for _ in range(60):
        tree = generator.generate(rng, Score, 1, 6)
        genome = EvaluatorGenome(tree)
        again = EvaluatorGenome.from_text(genome.text(), LIBRARY)
        assert again == genome and again.text() == genome.text()
        evaluator = CompiledEvaluator(again, LIBRARY)
        for board in boards:
            raw = evaluator.raw(board)
            assert type(raw) is int and -SCORE_LIMIT <= raw <= SCORE_LIMIT
            assert evaluator(board) == max(-100, min(100, raw))


def test_a_rule_tree_is_not_an_evaluator_and_bad_text_is_one_line():
    for text, expected in (
        ("safe_pieces_left", "returns Count where Score"),
        ("safe_piece", "unknown primitive"),
        ("plus(threats)", "expected ','"),
        ("__import__('os')", "unknown primitive"),
        ("threats(", "unexpected"),
    ):
        with pytest.raises(ValueError, match="evaluator: ") as caught:
            EvaluatorGenome.from_text(text, LIBRARY)
        assert "\n" not in str(caught.value)
        assert expected in str(caught.value) or "ends too early" in str(caught.value)


def test_the_formula_reads_as_arithmetic():
    genome = EvaluatorGenome.from_text(
        "minus(times(ten, odd_threats), score_if(above(threats, two), one, safe_parity))", LIBRARY
    )
    assert format_formula(genome.tree) == "(10 * odd_threats) - (if (threats > 2) then 1 else safe_parity)"
    assert genome.describe().startswith("evaluation = ")


# ---------------------------------------------------------------------- files and players
def test_evaluator_files_round_trip_and_refuse_bad_files_in_one_line(tmp_path):
    genome = EvaluatorGenome.from_text(GUARANTEED_LOSS, LIBRARY)
    path = tmp_path / "best_evaluator.json"
    save_evaluator(path, evaluator_data(genome, LIBRARY, name="gl", fitness={"score": 0.5}))
    data = json.loads(path.read_text())
    assert data["tree"] == {"evaluator": genome.text()} and data["primitives"]["ten"] == "builtin"
    loaded = load_evaluator(path, LIBRARY)
    assert loaded.genome == genome and loaded.name == "gl"

    bad = {
        "corrupt.json": "{not json",
        "list.json": "[1, 2]",
        "foreign.json": json.dumps({"format": "something/9"}),
        "hostile.json": json.dumps({**data, "tree": {"evaluator": "__import__('os').system('true')"}}),
    }
    for name, text in bad.items():
        (tmp_path / name).write_text(text)
    rule_player = tmp_path / "player.json"
    save_player(
        rule_player, player_data(Genome.from_data({"choose": [], "place": []}, LIBRARY.primitive_set()), LIBRARY)
    )
    for path in [*(tmp_path / name for name in bad), rule_player, tmp_path / "missing.json", tmp_path / "x.p"]:
        with pytest.raises(ValueError) as caught:
            load_evaluator(path, LIBRARY)
        assert "\n" not in str(caught.value) and str(path) in str(caught.value)
    with pytest.raises(ValueError, match="rule player"):
        load_evaluator(rule_player, LIBRARY)


def test_a_search_with_an_evaluator_equals_the_search_with_the_heuristic_it_spells(tmp_path):
    """``GUARANTEED_LOSS`` is the hand-written ``guaranteed_loss``: the generic search calling it at every leaf
    must find the values and best moves of the fast search with the built-in function."""
    evaluator = CompiledEvaluator(EvaluatorGenome.from_text(GUARANTEED_LOSS, LIBRARY), LIBRARY)
    boards = [
        board
        for board in random_positions(9, 60, min_actions=9, max_actions=25)
        if board.placement_due and not board.winning_squares(board.in_hand)  # what a search calls a heuristic on
    ][:12]
    for board in boards:
        assert evaluator(board) == guaranteed_loss(board)
        for depth in (1, 2):
            fast = Negamax("guaranteed_loss").best_placement(board, depth)
            evolved = Negamax(evaluator.heuristic()).best_placement(board, depth)
            assert evolved.value == fast.value and set(evolved.best_moves) == set(fast.best_moves), board.text()


def test_the_evaluator_spec_makes_a_minimax_player_that_plays_like_the_heuristic(tmp_path):
    path = tmp_path / "gl.json"
    save_evaluator(path, evaluator_data(EvaluatorGenome.from_text(GUARANTEED_LOSS, LIBRARY), LIBRARY))
    spec = f"minimax:depth=2,evaluator={path}"
    player = make_player(spec, seed=4)
    reference = make_player("minimax:depth=2,heuristic=guaranteed_loss", seed=4)
    assert player.name == spec
    board = Board()
    while not board.is_over():
        view = board.view()
        if board.choice_due:
            action, expected = player.choose_piece(view), reference.choose_piece(view)
            assert action == expected
            board.choose(action)
        else:
            action, expected = player.place_piece(view, board.in_hand), reference.place_piece(view, board.in_hand)
            assert action == expected
            board.place(action)
    for wrong, message in (
        (f"minimax:depth=2,heuristic=lines,evaluator={path}", "not both"),
        (f"mcts:evaluator={path}", "takes no evaluator"),
        ("minimax:evaluator=", "needs an evaluator file"),
        (f"minimax:depth=2,evaluator={tmp_path / 'none.json'}", "cannot read"),
        (f"minimax:depth=zero,evaluator={path}", "depth must be int"),
    ):
        with pytest.raises(ValueError, match=message):
            make_player(wrong)
