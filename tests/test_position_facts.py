"""Facts shared between decisions at the same position (``PositionFacts``): rule sets that read them decide exactly
as rule sets that build fresh features, and each position's facts are computed once."""

from __future__ import annotations

import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import Features, PositionFacts
from gpquarto.games.quarto.gp.rule_set import RuleSet
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.search import tactics
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.library import load_library
from gpquarto.gp.player import make_evolved_player
from gpquarto.gp.variation import random_genome
from gpquarto.grading.bank import BankPosition
from gpquarto.grading.grade import decide
from gpquarto.seeding import derive_seed
from gpquarto.training import fitness
from tests.helpers import random_positions


@pytest.fixture(scope="module")
def library():
    return load_library(entry_points=False)


@pytest.fixture(scope="module")
def genomes(library):
    """Seeded random genomes, tall enough to use the lookahead and tactical facts."""
    rng = random.Random(3600)
    generator = TreeGenerator(library.primitive_set(), 8)
    return [random_genome(rng, generator, min_rules=5, max_rules=10, min_height=1, max_height=4) for _ in range(24)]


def decide_all(rule_sets: list[RuleSet], boards: list[Board], seed: int) -> list[tuple]:
    """Every rule set's decision, rule fired and counters at every board (its view), the fallback seeded."""
    found = []
    for rules in rule_sets:
        rng = random.Random(seed)
        for board in boards:
            view = board.view()
            action = rules.choose_piece(view, rng) if board.in_hand < 0 else rules.place_piece(view, rng)
            found.append((action, rules.last_rule))
        counters = [(rule.true, rule.legal) for rule in rules.choose_rules + rules.place_rules]
        found.append((rules.decisions, rules.fallbacks, counters))
    return found


@pytest.mark.parametrize("rules", list(Rules), ids=lambda rules: rules.value)
def test_shared_facts_give_the_decisions_of_fresh_features(library, genomes, rules):
    boards = random_positions(3601 + list(Rules).index(rules), 150, rules)
    boards += boards[::3]  # positions met again, as the genomes of a generation meet them
    fresh = [RuleSet(genome, library) for genome in genomes]
    shared = [RuleSet(genome, library) for genome in genomes]
    facts = PositionFacts()
    for rule_set in shared:
        rule_set.share_facts(facts)
    assert decide_all(shared, boards, 1) == decide_all(fresh, boards, 1)
    assert facts.misses == len({(tuple(board.raw_cells), board.in_hand) for board in boards})
    assert facts.hits == len(genomes) * len(boards) - facts.misses


def test_a_position_hands_out_one_object_bound_to_the_asking_view(monkeypatch):
    calls = []
    original = tactics.safe_pieces

    def counted(board):
        calls.append(board)
        return original(board)

    monkeypatch.setattr(tactics, "safe_pieces", counted)
    board = next(board for board in random_positions(3603, 20) if board.in_hand < 0)
    facts = PositionFacts()
    first_view, second_board = board.view(), board.copy()
    features = facts.features(first_view)
    assert features.board is first_view and features.safe_pieces == original(board)
    again = facts.features(second_board)  # a Board (its cells a list) at the same position
    assert again is features and again.board is second_board and isinstance(again.cells, tuple)
    assert again.safe_pieces == original(board) and len(calls) == 1  # computed once for both decisions
    second_board.push_choice(features.available_pieces[0])
    other = facts.features(second_board)
    assert other is not features and len(facts) == 2 and (facts.hits, facts.misses) == (1, 2)


def test_the_store_keeps_at_most_its_limit():
    facts = PositionFacts(limit=3)
    boards = random_positions(3605, 8)
    for board in boards:
        facts.features(board.view())
        assert 1 <= len(facts) <= 3
    assert facts.features(boards[-1].view()).board is not None and facts.hits == 1
    facts.clear()
    assert len(facts) == 0
    with pytest.raises(ValueError, match="at least one position"):
        PositionFacts(limit=0)


def test_fresh_features_stay_the_default(library, genomes):
    rule_set = RuleSet(genomes[0], library)
    assert rule_set._features is Features
    rule_set.share_facts(PositionFacts())
    rule_set.share_facts(None)
    assert rule_set._features is Features


def test_fitness_players_share_the_process_facts(library, genomes):
    player = make_evolved_player(genomes[0], library, seed=0)
    fitness.share_position_facts(player)
    facts = fitness.position_facts(library, RuleSet.new_facts)
    before = facts.misses + facts.hits
    board = random_positions(3606, 1)[0]
    move = player.choose_piece(board.view()) if board.in_hand < 0 else player.place_piece(board.view(), board.in_hand)
    assert move >= 0 and facts.misses + facts.hits == before + 1
    assert (
        fitness.position_facts(library, RuleSet.new_facts) is facts
        and fitness.position_facts(load_library(lookahead=False), RuleSet.new_facts) is not facts
    )


def test_the_training_bank_is_parsed_once_and_graded_as_before(library, genomes):
    boards = random_positions(3607, 40, min_actions=12, max_actions=24)
    positions = tuple((board.text(), tuple(board.legal_actions()[::2])) for board in boards)

    def reference(player) -> float:  # the accuracy term before the bank's states were kept
        correct = 0
        for index, (text, best_actions) in enumerate(positions):
            action, _, _ = decide(player, BankPosition(text, 0, best_actions, index), derive_seed("accuracy", index))
            correct += action in best_actions
        return correct / len(positions)

    for genome in genomes[:8]:
        kept = fitness.bank_accuracy(make_evolved_player(genome, library, seed=0), positions)
        assert kept == reference(make_evolved_player(genome, library, seed=0))
        kept_again = fitness.bank_accuracy(make_evolved_player(genome, library, seed=0), positions)
        assert kept_again == kept  # the kept states were not changed by the decisions taken on them
    assert all(fitness._parsed_state(text, "quarto").text() == text for text, _ in positions)


def test_a_tree_shared_by_genomes_is_evaluated_once_at_a_position(library, genomes):
    calls = []

    def counted(rule_set: RuleSet) -> RuleSet:
        for rule in rule_set.choose_rules + rule_set.place_rules:
            condition, action = rule._compiled
            rule._compiled = (
                lambda features, tree=condition: calls.append(1) or tree(features),
                lambda features, tree=action: calls.append(1) or tree(features),
            )
        return rule_set

    boards = random_positions(3608, 60)
    facts = PositionFacts()
    first, second = counted(RuleSet(genomes[1], library)), counted(RuleSet(genomes[1], library))
    for rule_set in (first, second):
        rule_set.share_facts(facts)
    first_decisions = decide_all([first], boards, 2)
    once = len(calls)
    assert once > len(boards) and decide_all([second], boards, 2) == first_decisions
    assert len(calls) == once  # the second genome looked every value up
    unshared = counted(RuleSet(genomes[1], library))
    unshared.share_facts(facts)
    unshared.share_facts(None)
    assert decide_all([unshared], boards, 2) == first_decisions and len(calls) == 2 * once
