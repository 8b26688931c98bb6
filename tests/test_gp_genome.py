"""Genomes: decisions take the first rule that fires with a legal action; fallbacks are random and counted."""

from __future__ import annotations

import random

import pytest

from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.gp.player import EvolvedPlayer
from gpquarto.gp.compiler import compile_tree
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import ACTION_TYPES, CONDITION_TYPE, Genome
from gpquarto.gp.library import load_library
from gpquarto.gp.primitives import PrimitiveLibrary, primitive, registering
from gpquarto.gp.types import NO_ACTION, Piece, Square


def build_test_library():
    with registering() as specs:

        @primitive(family="test")
        def always() -> bool:
            """Test primitive always."""
            return True

        @primitive(family="test")
        def never() -> bool:
            """Test primitive never."""
            return False

        @primitive(family="test")
        def no_square() -> Square:
            """Test primitive no_square."""
            return NO_ACTION

        @primitive(family="test")
        def no_piece() -> Piece:
            """Test primitive no_piece."""
            return NO_ACTION

        @primitive(family="test")
        def lowest_empty(features: Features) -> Square:
            """Test primitive lowest_empty."""
            return min(features.empty_squares, default=NO_ACTION)

        @primitive(family="test")
        def highest_empty(features: Features) -> Square:
            """Test primitive highest_empty."""
            return max(features.empty_squares, default=NO_ACTION)

        @primitive(family="test")
        def lowest_piece(features: Features) -> Piece:
            """Test primitive lowest_piece."""
            return min(features.available_pieces, default=NO_ACTION)

        @primitive(family="test")
        def highest_piece(features: Features) -> Piece:
            """Test primitive highest_piece."""
            return max(features.available_pieces, default=NO_ACTION)

    return PrimitiveLibrary(specs)


LIBRARY = build_test_library()


def make_genome(choose: list[list[str]], place: list[list[str]]) -> Genome:
    return Genome.from_data({"choose": choose, "place": place}, LIBRARY.primitive_set())


def position(moves: int, seed: int) -> Board:
    board = Board()
    rng = random.Random(seed)
    for _ in range(moves):
        actions = board.legal_actions()
        board.apply(actions[rng.randrange(len(actions))])
        if board.is_over():
            break
    return board


def test_first_rule_that_fires_with_a_legal_action_decides():
    genome = make_genome(
        [["never", "lowest_piece"], ["always", "no_piece"], ["always", "highest_piece"], ["always", "lowest_piece"]],
        [["always", "no_square"], ["always", "highest_empty"]],
    )
    player = EvolvedPlayer(genome, LIBRARY, seed=1)
    board = Board()
    board.choose(0)
    board.place(5)
    assert player.choose_piece(board.view()) == 15
    rules = player.rules.choose_rules
    assert [(rule.true, rule.legal) for rule in rules] == [(0, 0), (1, 0), (1, 1), (0, 0)]
    board.choose(15)
    assert player.place_piece(board.view(), 15) == 15
    assert (player.decisions, player.fallbacks) == (2, 0)
    assert [(rule.true, rule.legal) for rule in player.rules.place_rules] == [(1, 0), (1, 1)]


def test_fallbacks_are_random_legal_counted_and_seeded():
    genome = make_genome([["never", "lowest_piece"], ["always", "no_piece"]], [["always", "no_square"]])
    runs = []
    for _ in range(2):
        player = EvolvedPlayer(genome, LIBRARY, seed=42)
        moves = []
        board = Board()
        while not board.is_over():
            if board.choice_due:
                piece = player.choose_piece(board.view())
                assert piece in board.legal_pieces()
                board.choose(piece)
                moves.append(piece)
            else:
                square = player.place_piece(board.view(), board.in_hand)
                assert square in board.legal_squares()
                board.place(square)
                moves.append(16 + square)
        assert player.fallbacks == player.decisions == len(moves)
        assert player.rules.fallbacks[DecisionKind.CHOOSE] + player.rules.fallbacks[DecisionKind.PLACE] == len(moves)
        runs.append(moves)
    assert runs[0] == runs[1]
    player.reset_counters()
    assert player.decisions == player.fallbacks == 0


def slow_value(tree, index, library, features):
    """Reference interpreter: recursive, straight from the specs (independent of the compiler)."""
    node = tree[index]
    spec = library.get(node.name)
    children = []
    child = index + 1
    for _ in range(node.arity):
        value, child = slow_value(tree, child, library, features)
        children.append(value)
    if spec.value is not None:
        return spec.value, child
    arguments = ([features] if spec.uses_features else []) + children
    return spec.function(*arguments), child


def test_compiled_trees_agree_with_a_slow_interpreter():
    library = load_library()
    generator = TreeGenerator(library.primitive_set(), height_limit=9)
    rng = random.Random(7)
    boards = [position(moves, seed) for seed in range(12) for moves in (0, 3, 9, 17)]
    for _ in range(120):
        root = rng.choice((CONDITION_TYPE, *ACTION_TYPES.values()))
        tree = generator.generate(rng, root, 1, 8)
        compiled = compile_tree(tree, library)
        for board in boards:
            if board.is_over():
                continue
            expected, end = slow_value(tree, 0, library, Features(board.view()))
            assert end == len(tree)
            assert compiled(Features(board.view())) == expected


def test_genome_text_round_trip_equality_and_errors():
    genome = make_genome([["always", "lowest_piece"]], [["never", "lowest_empty"], ["always", "highest_empty"]])
    again = Genome.from_data(genome.to_data(), LIBRARY.primitive_set())
    assert again == genome and again.size == genome.size == 6
    assert "1. if never then lowest_empty" in genome.describe()
    with pytest.raises(ValueError, match="place rule 1: .*unknown primitive 'nope'"):
        make_genome([], [["nope", "lowest_empty"]])
    with pytest.raises(ValueError, match="choose rule 1: .*returns Square where Piece"):
        make_genome([["always", "lowest_empty"]], [])
    with pytest.raises(ValueError, match="exactly choose, place"):
        Genome.from_data({"choose": []}, LIBRARY.primitive_set())


def test_last_rule_names_the_rule_that_decided_or_none_for_a_fallback():
    genome = make_genome(
        [["never", "lowest_piece"], ["always", "no_piece"], ["always", "highest_piece"]],
        [["always", "no_square"], ["never", "lowest_empty"]],
    )
    player = EvolvedPlayer(genome, LIBRARY, seed=3)
    assert player.rules.last_rule is None  # no decision yet
    board = Board()
    board.choose(player.choose_piece(board.view()))
    assert player.rules.last_rule == 2  # the third choose rule fired (0-based)
    board.place(player.place_piece(board.view(), board.in_hand))
    assert player.rules.last_rule is None  # no place rule yields a square: the random fallback
    assert player.fallbacks == 1
