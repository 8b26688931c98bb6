"""Evaluator genomes: the evaluation primitives against slow definitions, the numeric root in generation and
the safe text form, compiled evaluators, evaluator files and the ``minimax:...,evaluator=FILE`` player."""

from __future__ import annotations

import json
import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.evaluator import CompiledEvaluator
from gpquarto.games.quarto.gp.features import Features, LeafFeatures
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.search.heuristics import Heuristic, guaranteed_loss
from gpquarto.games.quarto.search.negamax import Negamax
from gpquarto.games.quarto.search.tactics import SearchLeaf
from gpquarto.gp.evaluator import EvaluatorGenome, format_formula
from gpquarto.gp.evaluator_files import evaluator_data, load_evaluator, save_evaluator
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import load_library
from gpquarto.gp.storage import player_data, save_player
from gpquarto.gp.types import SCORE_LIMIT, Characteristic, Count, Piece, Score, Square
from gpquarto.resolve import make_player
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
    (tmp_path / "a,b").mkdir()
    path = tmp_path / "a,b" / "gl.json"  # a comma in the path: the spec's parser keeps it in the value
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
        (f"novice:evaluator={path}", "takes no evaluator"),
        ("minimax:evaluator=", "needs an evaluator file"),
        (f"minimax:depth=2,evaluator={tmp_path / 'none.json'}", "cannot read"),
        (f"minimax:depth=zero,evaluator={path}", "depth must be int"),
    ):
        with pytest.raises(ValueError, match=message):
            make_player(wrong)


# ---------------------------------------------------------------------- the fast search's leaves
#: Every fact an evaluator primitive can read, by name.
LEAF_FACTS = (
    "winning_squares",
    "safe_pieces",
    "safe_squares",
    "threatened_lines",
    "open_lines",
    "line_counts",
    "line_present",
    "line_shared",
    "characteristic_counts",
    "hand_fits",
    "piece_fits",
    "tightest_safe_square",
    "empty_squares",
    "available_pieces",
)


@pytest.mark.parametrize("rules", [Rules.CLASSIC, Rules.ADVANCED])
def test_leaf_features_equal_the_features_of_the_same_board(rules):
    for board in random_positions(23, 150, rules, min_actions=1, max_actions=30):
        if not board.placement_due:
            continue
        leaf = LeafFeatures(SearchLeaf.from_board(board), board.available_mask, board.in_hand)
        reference = Features(board)
        for fact in LEAF_FACTS:
            assert getattr(leaf, fact) == getattr(reference, fact), (fact, board.text())
        assert leaf.board == board


def answer(search: Negamax, board: Board, depth: int) -> tuple[int, frozenset]:
    result = search.best_placement(board, depth) if board.placement_due else search.best_choice(board, depth)
    return result.value, frozenset(result.best_moves)


def test_the_fast_search_with_an_evaluator_equals_the_generic_search_at_every_leaf():
    """Random evaluator trees (and two champions' formulas): the fast search (``Heuristic.leaf``) and the generic
    search over a Board (the same evaluation without ``leaf``) give equal values and equal sets of best moves,
    both decisions, classic and advanced rules, depth 1 everywhere and depth 2 from 7 pieces placed."""
    generator = TreeGenerator(LIBRARY.evaluator_primitive_set(), height_limit=6)
    rng = random.Random(5)
    texts = [
        "safe_square_count",
        "larger(minus(plus(safe_square_count, two), odd_threats), times(smaller(even_threats, ten), safe_parity))",
        *(EvaluatorGenome(generator.generate(rng, Score, 1, 4)).text() for _ in range(6)),
    ]
    boards = [
        *random_positions(31, 40, min_actions=0, max_actions=26),
        *random_positions(32, 8, Rules.ADVANCED, min_actions=6, max_actions=26),
        Board(),
    ]
    for index, text in enumerate(texts):
        evaluator = CompiledEvaluator(EvaluatorGenome.from_text(text, LIBRARY), LIBRARY)
        fast = Negamax(evaluator.heuristic())
        generic = Negamax(Heuristic("generic", evaluator))
        assert fast._fast is not None and generic._fast is None
        for number, board in enumerate(boards):
            if number % len(texts) != index and number % 3:  # every tree on a third of the boards, and more
                continue
            checked = [1] + ([2] if board.placed_count >= 7 else [])
            for depth in checked:
                assert answer(fast, board, depth) == answer(generic, board, depth), (text, board.text(), depth)


def test_the_evaluator_benchmark_times_leaves_and_searches_beside_lines(tmp_path, capsys):
    from gpquarto.cli import main
    from gpquarto.games.quarto.bench.evaluators import evaluator_benchmark, format_evaluator_benchmark

    evaluator = CompiledEvaluator(EvaluatorGenome.from_text("safe_square_count", LIBRARY), LIBRARY)
    table = evaluator_benchmark({"ssc": evaluator}, positions=6, search_positions=2, depths=(1,), repeats=1, seconds=0)
    assert set(table) == {"leaf", "search leaf", "depth 1"}
    assert set(table["leaf"]) == {"lines", "quarticity", "guaranteed_loss", "ssc"}
    assert set(table["depth 1"]) == {"lines", "quarticity", "guaranteed_loss", "ssc", "lines, depth 2"}
    assert set(table["search leaf"]) == {"ssc"}
    assert all(value > 0 for row in table.values() for value in row.values())
    text = format_evaluator_benchmark(table)
    assert "per placement search at depth 1: lines" in text and "x lines)" in text
    path = tmp_path / "ssc.json"
    save_evaluator(path, evaluator_data(evaluator.genome, LIBRARY))
    capsys.readouterr()
    assert (
        main(["bench", "evaluators", "--evaluator", str(path), "--repeats", "1", "--seconds", "0.05", "--games", "2"])
        == 0
    )
    printed = capsys.readouterr().out
    for opponent in ("minimax:depth=2", "minimax:depth=2,heuristic=guaranteed_loss", "minimax:depth=3"):
        assert f"per decision in games at depth 2: {path} " in printed and f"ms, {opponent} " in printed
    assert main(["bench", "engine", "--games", "2"]) == 2
    assert "goes with 'bench evaluators' only" in capsys.readouterr().err
    assert main(["bench", "evaluators"]) == 2
    assert "needs at least one --evaluator" in capsys.readouterr().err
    assert main(["bench", "engine", "--evaluator", "x.json"]) == 2
    assert "goes with 'bench evaluators' only" in capsys.readouterr().err
    assert main(["bench", "evaluators", "--evaluator", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert "missing.json" in err and "\n" not in err


def test_match_workers_get_the_evaluator_as_data_not_as_a_path(tmp_path):
    """The evaluator file is read once, where the match starts: tasks carry its content, so a worker (here: a runner
    that deletes the file before it plays) needs no file, and the games equal a serial match's."""
    from gpquarto.jobs.matches import run_matches
    from gpquarto.runner import SerialRunner

    path = tmp_path / "gl.json"
    save_evaluator(path, evaluator_data(EvaluatorGenome.from_text(GUARANTEED_LOSS, LIBRARY), LIBRARY))
    spec = f"minimax:depth=1,evaluator={path}"
    expected = run_matches([(spec, "random", 3)], 6)[0]

    class FarAwayRunner(SerialRunner):
        def map(self, function, items, **options):
            path.unlink(missing_ok=True)
            return super().map(function, items, **options)

    result = run_matches([(spec, "random", 3)], 6, runner=FarAwayRunner())[0]
    assert not path.exists()
    assert (result.wins, result.draws, result.losses) == (expected.wins, expected.draws, expected.losses)
