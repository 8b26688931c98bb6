"""Simplified champions: folded trees keep every value, dropped rules never decided, and the simplified player decides
like the original at every position of large seeded sets (checked against a slow decision written here)."""

from __future__ import annotations

import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import Features
from gpquarto.gp.compiler import compile_tree
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import ACTION_TYPES, CONDITION_TYPE, KINDS, Genome, Rule
from gpquarto.gp.library import load_library
from gpquarto.gp.simplify import decides_alike, fold_genome, simplify_evaluator_tree, simplify_genome, simplify_tree
from gpquarto.gp.textform import format_tree, parse_tree
from gpquarto.gp.types import Score
from gpquarto.training.simplified import decision_positions
from tests.helpers import first_quixo_rule_move, random_positions

LIBRARY = load_library(entry_points=False)
RULES = LIBRARY.primitive_set()
EVALUATORS = LIBRARY.evaluator_primitive_set()
POSITIONS = random_positions(41, 300, min_actions=0, max_actions=30)


def slow_decision(genome: Genome, board: Board) -> int | None:
    """The first rule whose condition holds and whose action is legal, by re-compiling every tree; None: fallback."""
    features = Features(board)
    kind = "choose" if board.choice_due else "place"
    legal = board.legal_pieces() if board.choice_due else board.legal_squares()
    for rule in genome.rules(kind):
        if compile_tree(rule.condition, LIBRARY)(features):
            action = compile_tree(rule.action, LIBRARY)(features)
            if action in legal:
                return action
    return None


def genome(place: list[tuple[str, str]], choose: list[tuple[str, str]] = ()) -> Genome:
    return Genome.from_data({"choose": [list(rule) for rule in choose], "place": [list(rule) for rule in place]}, RULES)


@pytest.mark.parametrize(
    ("text", "root", "expected"),
    [
        ("at_most(3, 3)", CONDITION_TYPE, "True"),
        ("and_(True, winning_square_exists)", CONDITION_TYPE, "winning_square_exists"),
        (
            "or_(greater_than(pieces_left, pieces_left), not_(not_(safe_piece_exists)))",
            CONDITION_TYPE,
            "safe_piece_exists",
        ),
        ("first_free_square(safe_square, safe_square)", ACTION_TYPES["place"], "safe_square"),
        ("square_in_emptier_row(winning_square, winning_square)", ACTION_TYPES["place"], "winning_square"),
        (
            "rarer_piece(safe_piece, first_available_piece(safe_piece, safe_piece))",
            ACTION_TYPES["choose"],
            "safe_piece",
        ),
        ("score_if(above(threats, threats), ten, as_score(pieces_left))", Score, "as_score(pieces_left)"),
        ("times(one, minus(threats, threats))", Score, "as_score(0)"),
        ("negative(negative(safe_parity))", Score, "safe_parity"),
        ("plus(larger(smaller(one, ten), one), as_score(0))", Score, "one"),
        ("score_if(equal(2, 3), five, times(two, five))", Score, "ten"),
        (
            "open_lines_holding(sub(pieces_with(coloured), add(sub(1, 4), add(1, 2))))",
            Score,
            "open_lines_holding(pieces_with(coloured))",
        ),
        ("equal(mul(pieces_left, 1), add(0, mul(0, pieces_left)))", CONDITION_TYPE, "equal(mul(pieces_left, 1), 0)"),
    ],
)
def test_known_identities_fold(text, root, expected):
    pset = EVALUATORS if root is Score else RULES
    assert format_tree(simplify_tree(parse_tree(text, pset, root), LIBRARY, pset, root)) == expected


@pytest.mark.parametrize(("pset", "roots"), [(RULES, (CONDITION_TYPE, *ACTION_TYPES.values())), (EVALUATORS, (Score,))])
def test_folded_random_trees_keep_every_value(pset, roots):
    generator = TreeGenerator(pset, height_limit=7)
    rng = random.Random(3)
    features = [Features(board) for board in POSITIONS]
    shrunk = 0
    for number in range(90):
        root = roots[number % len(roots)]
        tree = generator.generate(rng, root, 2, 6)
        folded = simplify_tree(tree, LIBRARY, pset, root)
        assert len(folded) <= len(tree)
        shrunk += len(folded) < len(tree)
        original, simplified = compile_tree(tree, LIBRARY), compile_tree(folded, LIBRARY)
        for item in features:
            if (
                root is ACTION_TYPES["place"]
                and item.in_hand < 0
                or root is ACTION_TYPES["choose"]
                and item.in_hand >= 0
            ):
                continue
            assert original(item) == simplified(item), (format_tree(tree), format_tree(folded), item.board.text())
    assert shrunk >= 3  # the folding is exercised, not only the identity


def test_rules_that_can_never_decide_are_dropped_with_their_reason():
    player = genome(
        [
            ("winning_square_exists", "winning_square"),
            ("at_most(pieces_left, 3)", "first_free_square(safe_square, safe_square)"),
            ("winning_square_exists", "winning_square"),  # the same rule again
            ("at_most(3, 2)", "corner_square"),  # never true
            ("at_most(3, 3)", "safe_square"),  # always true
            ("safe_piece_exists", "safe_square"),  # the same action after an always-true rule
            ("safe_piece_exists", "corner_square"),
        ],
        [("True", "safe_piece"), ("True", "safe_piece")],
    )
    folded, removed, origins = fold_genome(player, LIBRARY)
    assert [list(rule.texts()) for rule in folded.place_rules] == [
        ["winning_square_exists", "winning_square"],
        ["at_most(pieces_left, 3)", "safe_square"],
        ["True", "safe_square"],
        ["safe_piece_exists", "corner_square"],
    ]
    assert removed == {
        "false condition": ["place 4"],
        "never legal action": [],
        "shadowed by an earlier rule": ["choose 2", "place 3", "place 6"],
    }
    assert origins == [[0], [0, 1, 4, 6]]
    for board in POSITIONS:
        assert slow_decision(folded, board) == slow_decision(player, board), board.text()
    assert decides_alike(player, folded, LIBRARY, POSITIONS)


def random_genome(rng: random.Random, rules: int) -> Genome:
    generator = TreeGenerator(RULES, height_limit=6)
    lists = {
        kind: [
            Rule(generator.generate(rng, CONDITION_TYPE, 1, 4), generator.generate(rng, ACTION_TYPES[kind], 1, 4))
            for _ in range(rules)
        ]
        for kind in KINDS
    }
    return Genome(lists["choose"], lists["place"])


def test_the_simplified_player_decides_like_the_original_at_every_checked_position():
    """Rules unused in a few games are dropped, and put back where a larger seeded set needs them: the result
    decides like the original (by the slow decision) at every position of the check set, and on fresh games."""
    rng = random.Random(11)
    dropped_unused = 0
    for _ in range(4):
        player = random_genome(rng, 6)
        usage = decision_positions(player, LIBRARY, "random,novice", 2, 5, "usage")
        check = decision_positions(player, LIBRARY, "random,novice,minimax:depth=1", 30, 5, "check")
        simplified, report = simplify_genome(player, LIBRARY, usage, check)
        assert report.checked_positions == len(check) and report.rules_after == {
            kind: len(simplified.rules(kind)) for kind in KINDS
        }
        assert report.nodes_after == simplified.size <= player.size == report.nodes_before
        for board in check:
            assert slow_decision(simplified, board) == slow_decision(player, board), board.text()
        dropped_unused += len(report.removed.get("never decided in the final games", []))
        assert "simplified:" in report.summary() and f"at {len(check)} positions" in report.summary()
    assert dropped_unused > 0


def test_an_evaluator_is_folded_only_if_it_scores_alike():
    tree = EvaluatorGenome.from_text("plus(times(one, safe_square_count), minus(threats, threats))", LIBRARY).tree
    leaves = [Features(board) for board in POSITIONS if board.placement_due]
    assert format_tree(simplify_evaluator_tree(tree, LIBRARY, leaves)) == "safe_square_count"
    # open_lines_holding(0) is 0 wherever it is read: folded by the sample, and checked on the other leaves
    tree = EvaluatorGenome.from_text("minus(safe_parity, open_lines_holding(0))", LIBRARY).tree
    assert format_tree(simplify_evaluator_tree(tree, LIBRARY, leaves)) == "safe_parity"
    # constant on a sample of early positions only: the check on the later ones refuses it, the exact fold stays
    early = [features for features in leaves if features.placed_count <= 2]
    late = [features for features in leaves if features.placed_count >= 9]
    tree = EvaluatorGenome.from_text("plus(times(one, threats), one)", LIBRARY).tree
    assert format_tree(simplify_evaluator_tree(tree, LIBRARY, early + early + late)) == "plus(threats, one)"


def test_a_rule_unused_in_the_final_games_is_kept_when_the_check_positions_need_it():
    player = genome(
        [("at_most(pieces_left, 3)", "safe_square"), ("True", "corner_square"), ("True", "inside_square")],
        [("True", "safe_piece")],
    )
    early = [board for board in POSITIONS if board.placed_count < 6]  # more than 3 pieces left: rule 1 never decides
    late = [board for board in POSITIONS if board.placed_count >= 12]
    simplified, report = simplify_genome(player, LIBRARY, early, early)
    assert [rule.texts() for rule in simplified.place_rules] == [("True", "corner_square")]
    # rule 1 never holds in those positions: its condition folds to False there (evidence the check set accepts)
    assert report.removed["false condition"] == ["place 1"]
    assert report.removed["never decided in the final games"] == ["place 3"]
    simplified, report = simplify_genome(player, LIBRARY, early, early + late)
    assert simplified.place_rules[0].texts() == ("at_most(pieces_left, 3)", "safe_square")  # put back
    assert all("place 1" not in rules for rules in report.removed.values())
    assert all(slow_decision(simplified, board) == slow_decision(player, board) for board in early + late)


def test_training_keeps_both_forms_and_show_prints_the_simplified_one(tmp_path, capsys):
    from gpquarto.cli import main
    from gpquarto.gp.storage import load_player, read_player_file
    from gpquarto.training import EvolutionConfig, train

    config = EvolutionConfig(generations=2, population=6, games=4, opponents="random,novice", final_games=20, seed=3)
    run = train(config, tmp_path / "run", best_player_copy=None)
    original, simplified = run.path / "best_player.json", run.path / "best_player.simplified.json"
    data = read_player_file(simplified)
    report = data["simplification"]
    assert report["rules_before"] == {kind: len(read_player_file(original)["rules"][kind]) for kind in KINDS}
    assert report["rules_after"] == {kind: len(data["rules"][kind]) for kind in KINDS}
    assert report["checked_positions"] > 100
    before, after = load_player(original, LIBRARY).genome, load_player(simplified, LIBRARY).genome
    fresh = decision_positions(before, LIBRARY, "random,novice", 20, 99, "fresh")
    agree = sum(slow_decision(before, board) == slow_decision(after, board) for board in fresh)
    assert agree >= 0.98 * len(fresh)  # unseen games: the check set is evidence, not proof
    assert main(["show", str(original), "--games", "0"]) == 0
    shown, note = capsys.readouterr()
    assert "the simplified form of" in note and "simplified: " in shown and "nodes" in shown
    assert after.describe() in shown
    assert main(["show", str(original), "--games", "0", "--original"]) == 0
    shown = capsys.readouterr().out
    assert "simplified" not in shown and before.describe() in shown


def test_evaluator_runs_keep_both_forms_and_show_prints_the_simplified_formula(tmp_path, capsys, monkeypatch):
    from gpquarto.cli import main
    from gpquarto.gp.evaluator_files import evaluator_data, load_evaluator, read_evaluator_file, save_evaluator
    from gpquarto.training import EvolutionConfig, train
    from gpquarto.training import simplified as simplified_module

    monkeypatch.setattr(simplified_module, "EVALUATOR_CHECK_POSITIONS", 200)
    folder = tmp_path / "run"
    config = EvolutionConfig.for_game(
        genome="evaluator", depth=1, generations=1, population=4, games=2, seed=1, opponents="minimax:depth=1"
    )
    train(config, folder, best_player_copy=None)
    original = read_evaluator_file(folder / "best_evaluator.json")
    data = read_evaluator_file(folder / "best_evaluator.simplified.json")
    assert data["simplification"]["nodes_before"] == load_evaluator(folder / "best_evaluator.json").genome.size
    assert data["simplification"]["checked_positions"] == 200 and data["config"] == original["config"]
    # a formula with something to fold, saved as a run would
    genome = EvaluatorGenome.from_text("plus(times(one, safe_square_count), minus(threats, threats))", LIBRARY)
    path = tmp_path / "best_evaluator.json"
    save_evaluator(path, evaluator_data(genome, LIBRARY, name="e"))
    folded, report = simplified_module.simplify_evaluator(genome, LIBRARY, 0)
    assert format_tree(folded.tree) == "safe_square_count" and report["nodes_before"] == 7
    save_evaluator(
        tmp_path / "best_evaluator.simplified.json",
        {**evaluator_data(folded, LIBRARY, name="e-simplified"), "simplification": report},
    )
    assert main(["show", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "simplified: 7 -> 1 nodes" in shown and "evaluation = safe_square_count" in shown
    assert main(["show", str(path), "--original"]) == 0
    assert "times" not in capsys.readouterr().out  # the formula is printed readably: (1 * safe_square_count) ...


# ------------------------------------------------------------------------------------------------------- Quixo
QUIXO_LIBRARY = load_library(entry_points=False, game="quixo")
QUIXO_RULES = QUIXO_LIBRARY.primitive_set()
QUIXO_SETTINGS = {"size": 4, "rules": "official"}


def test_quixo_rules_that_can_never_decide_are_dropped_and_the_rest_decide_alike():
    player = Genome.from_data(
        {
            "move": [
                ["can_win_now", "winning_move"],
                ["not_(True)", "safe_move"],  # never true
                ["can_win_now", "winning_move"],  # the same rule again
                ["or_(safe_move_exists, True)", "move_or(safe_potential_move, safe_potential_move)"],  # always true
                ["safe_move_exists", "safe_potential_move"],  # the same action after an always-true rule
                ["True", "first_legal_move"],
            ]
        },
        QUIXO_RULES,
        "quixo",
    )
    usage = decision_positions(player, QUIXO_LIBRARY, "random", 4, 5, "usage", settings=QUIXO_SETTINGS, openings=2)
    check = decision_positions(
        player, QUIXO_LIBRARY, "random,alphabeta:depth=1", 20, 5, "check", settings=QUIXO_SETTINGS, openings=2
    )
    assert {state.size for state in check} == {4} and len(check) > 50
    simplified, report = simplify_genome(player, QUIXO_LIBRARY, usage, check)
    assert simplified.game == "quixo" and simplified.kinds == ("move",)
    assert report.removed["false condition"] == ["move 2"]
    assert report.removed["shadowed by an earlier rule"] == ["move 3", "move 5"]
    assert ["True", "safe_potential_move"] in [list(rule.texts()) for rule in simplified.rules("move")]
    assert report.rules_before == {"move": 6} and report.rules_after == {"move": len(simplified.rules("move"))}
    assert "6 -> " in report.summary() and "move rules" in report.summary()
    for state in check:
        assert first_quixo_rule_move(simplified, QUIXO_LIBRARY, state) == first_quixo_rule_move(
            player, QUIXO_LIBRARY, state
        ), state.text()
    assert decides_alike(player, simplified, QUIXO_LIBRARY, check)
