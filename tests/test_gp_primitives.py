"""The primitive registry: registration checks, libraries, the DEAP primitive set, the reachability check."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest
from deap import gp

from gpquarto.games.quarto.gp.features import Features
from gpquarto.gp.library import load_library
from gpquarto.gp.primitives import (
    PrimitiveError,
    PrimitiveLibrary,
    UnknownPrimitiveError,
    constant,
    primitive,
    registering,
    sample_positions,
)
from gpquarto.gp.types import NO_ACTION, Characteristic, Count, Piece, Score, Square


@pytest.fixture(scope="module")
def library() -> PrimitiveLibrary:
    return load_library(entry_points=False)


def register_one(function, **options):
    """Register ``function`` inside a private collector and return its spec."""
    with registering() as specs:
        primitive(**options)(function)
    (spec,) = specs
    return spec


# ---------------------------------------------------------------------- what registration accepts
def test_a_good_primitive_is_registered_with_types_from_annotations():
    def free_corners(features: Features, extra: Count) -> Count:
        """Free corners plus extra."""
        return sum(1 for square in (0, 3, 12, 15) if features.is_legal_square(square)) + extra

    spec = register_one(free_corners, family="test")
    assert (spec.name, spec.family, spec.arg_types, spec.return_type) == ("free_corners", "test", (Count,), Count)
    assert spec.uses_features and spec.doc == "Free corners plus extra." and spec.value is None
    assert spec.signature == "free_corners(Count) -> Count"
    assert spec.function is free_corners  # the plain function: compilers call it directly


def test_decorator_returns_the_function_and_reads_family_from_the_module():
    with registering() as specs:

        @primitive
        def always(a: bool) -> bool:
            """The condition itself."""
            return a

    assert always(True) is True
    assert (
        specs[0].family == "test_gp_primitives"
        and not specs[0].uses_features
        and specs[0].signature == "always(bool) -> bool"
    )


def test_name_option_allows_keyword_like_names():
    def both(a: bool, b: bool) -> bool:
        """Both."""
        return a and b

    assert register_one(both, name="both_").name == "both_"


# ---------------------------------------------------------------------- what registration refuses
def _message(function, **options) -> str:
    with pytest.raises(PrimitiveError) as caught:
        register_one(function, **options)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_wrong_return_type_is_refused():
    def halves(features: Features) -> Count:
        """Half a piece."""
        return 0.5

    message = _message(halves)
    assert "'halves'" in message and "returned 0.5 (float) where Count" in message


def test_predicate_must_return_a_real_bool_and_counts_never_a_bool():
    def truthy(features: Features) -> bool:
        """One instead of True."""
        return 1

    def boolean_count(features: Features) -> Count:
        """True instead of one."""
        return True

    assert "returned 1 (int) where bool was declared" in _message(truthy)
    assert "returned True (bool) where Count" in _message(boolean_count)


def test_illegal_proposals_are_refused():
    def first_square(features: Features) -> Square:
        """Always the top-left square, even when taken."""
        return 0

    def any_piece(features: Features, piece: Piece) -> Piece:
        """Piece 15 whatever happens."""
        return 15

    def no_such_characteristic(features: Features) -> Characteristic:
        """Characteristic 8."""
        return 8

    assert "returned square 0, which is neither an empty square nor NO_ACTION" in _message(first_square)
    assert "returned piece 15, which is neither an available piece nor NO_ACTION" in _message(any_piece)
    assert "returned characteristic 8, outside 0..7" in _message(no_such_characteristic)


def test_raising_primitive_is_refused_with_the_position():
    def fragile(features: Features) -> Square:
        """Fails late in the game."""
        if features.placed_count > 8:
            raise KeyError("boom")
        return NO_ACTION

    message = _message(fragile)
    assert "'fragile' raised KeyError: 'boom' in position '" in message and "with children ()" in message


def test_nondeterministic_primitive_is_refused():
    rng = random.Random(3)

    def coin(features: Features) -> bool:
        """A coin flip."""
        return rng.random() < 0.5

    assert "'coin' is not deterministic" in _message(coin)


def test_primitive_that_changes_the_board_is_refused_and_samples_stay_intact():
    before = [board.text() for board in sample_positions()]

    def vandal(features: Features) -> bool:
        """Places the piece in hand, reaching past the read-only view on purpose."""
        if features.in_hand != NO_ACTION:
            features.board._board.place(features.empty_squares[0])
        return True

    assert "'vandal' changed the board" in _message(vandal)
    assert [board.text() for board in sample_positions()] == before


def test_missing_and_unsupported_annotations_are_refused():
    def no_child_type(features: Features, child) -> bool:
        """Untyped child."""
        return True

    def no_return_type(features: Features):
        """Untyped result."""
        return True

    def plain_int(features: Features) -> int:
        """An int, which would accept booleans."""
        return 1

    def features_not_first(a: bool, features: Features) -> bool:
        """Features in the wrong place."""
        return a

    assert (
        "parameter 'child' has no type annotation (use one of bool, Square, Piece, Count, Characteristic, Score, Move, Action)"
        in _message(no_child_type)
    )
    assert "'no_return_type': return value has no type annotation" in _message(no_return_type)
    assert "return value is annotated int, not a node type" in _message(plain_int)
    assert "parameter 'features' is annotated Features, not a node type" in _message(features_not_first)


def test_bad_names_missing_docstrings_and_odd_parameters_are_refused():
    def nameless(a: bool) -> bool:
        return a

    def spread(*values: bool) -> bool:
        """Any number of children."""
        return all(values)

    assert "'nameless' has no docstring" in _message(nameless)
    assert "must be an identifier, not a keyword" in _message(spread, name="and")
    assert "parameter 'values' must be positional" in _message(spread)
    assert "must be a plain function (def), not partial" in _message(functools.partial(spread, True), name="partly")


def test_duplicate_names_are_refused_in_one_collection_and_across_sources():
    def twin(a: bool) -> bool:
        """Twin."""
        return a

    with registering(), pytest.raises(PrimitiveError, match="'twin' is registered twice"):
        primitive(family="one")(twin)
        primitive(family="two")(twin)
    spec = register_one(twin, family="one")
    with pytest.raises(
        PrimitiveError, match=r"'twin' is defined twice: by builtin \(family one\) and by extra.py \(family one\)"
    ):
        PrimitiveLibrary([replace(spec, source="builtin"), replace(spec, source="extra.py")])


def test_aliases_are_former_names_checked_like_names_and_never_shared():
    def renamed(a: bool) -> bool:
        """Renamed."""
        return a

    spec = register_one(renamed, family="one", aliases=["old_name", "older_name"])
    assert spec.name == "renamed" and spec.aliases == ("old_name", "older_name")
    assert "must be an identifier" in _message(renamed, aliases=["not a name"])
    assert "must be a list of names" in _message(renamed, aliases="old_name")
    assert "repeat a name" in _message(renamed, aliases=["renamed"])
    assert "repeat a name" in _message(renamed, aliases=["twice", "twice"])

    def other(a: bool) -> bool:
        """Other."""
        return a

    with registering(), pytest.raises(PrimitiveError, match="'old_name' is registered twice"):
        primitive(family="one", aliases=["old_name"])(renamed)
        primitive(family="two", name="old_name")(other)
    library = PrimitiveLibrary([replace(spec, source="builtin")])
    assert library.aliases == {"old_name": "renamed", "older_name": "renamed"}
    assert library.get("old_name") is library.get("renamed") and "older_name" in library
    clash = replace(register_one(other, family="two", name="older_name"), source="extra.py")
    with pytest.raises(
        PrimitiveError, match=r"'older_name' is defined twice: by builtin \(family one\) and by extra.py"
    ):
        PrimitiveLibrary([replace(spec, source="builtin"), clash])


def test_the_builtin_renames_keep_their_former_names(library):
    former = {
        "colmore": "square_in_fuller_column",
        "possible_piece": "first_available_piece",
        "lessunique": "more_common_piece",
        "lte": "at_most",
        "eq": "equal",
    }
    for old, new in former.items():
        assert library.aliases[old] == new and old not in library.specs
    assert all(name in library.specs for name in library.aliases.values())
    assert not set(library.aliases) & set(library.specs)


def test_constants_are_named_by_their_literal_and_checked():
    with registering() as specs:
        constant(7, Count, family="test")
        constant(False, bool, family="test")
    assert [(spec.name, spec.value, spec.function(), spec.return_type) for spec in specs] == [
        ("7", 7, 7, Count),
        ("False", False, False, bool),
    ]
    with pytest.raises(PrimitiveError, match="a Characteristic is 0..7"):
        constant(9, Characteristic)
    with pytest.raises(PrimitiveError, match="cannot have constants"):
        constant(3, Square)
    with pytest.raises(PrimitiveError, match="must be a plain int"):
        constant(True, Count)


# ---------------------------------------------------------------------- libraries
def test_sample_positions_cover_both_decisions_both_rules_and_the_whole_game():
    positions = sample_positions()
    assert {board.rules.value for board in positions} == {"classic", "advanced"}
    assert any(board.choice_due for board in positions) and any(board.placement_due for board in positions)
    assert min(board.placed_count for board in positions) == 0 and max(board.placed_count for board in positions) >= 11
    assert not any(board.is_over() for board in positions)


def test_library_get_families_and_without_families(library):
    assert library.get("square_in_fuller_column").arg_types == (Square, Square)
    with pytest.raises(UnknownPrimitiveError, match="unknown primitive 'no_such_thing'.*plugin"):
        library.get("no_such_thing")
    families = library.families()
    assert {
        "constants",
        "logic",
        "arithmetic",
        "counts",
        "characteristics",
        "placement",
        "choice",
        "combinators",
        "fit",
        "tactical",
        "lookahead",
    } <= set(families)
    without = library.without_families("tactical")
    assert (
        "tactical" not in without.families()
        and "winning_square" not in without
        and "square_in_fuller_column" in without
    )
    assert len(without) == len(library) - sum(spec.family == "tactical" for spec in library)
    without_both = library.without_families("tactical", "lookahead")
    assert load_library(tactical=False, entry_points=False).specs.keys() == without_both.specs.keys()
    assert (
        load_library(lookahead=False, entry_points=False).specs.keys()
        == library.without_families("lookahead").specs.keys()
    )
    assert library.versions["builtin"] and all(spec.source == "builtin" for spec in library)


def test_primitive_set_holds_every_spec_under_its_name_and_former_names(library):
    """The rule set holds every spec that never mentions Score (those are the evaluator trees': test_gp_evaluator)."""
    pset = library.primitive_set()
    assert pset is library.primitive_set()
    rules = {spec.name for spec in library if Score not in (spec.return_type, *spec.arg_types)}
    aliases = {alias for alias, name in library.aliases.items() if name in rules}
    assert set(pset.mapping) == rules | aliases
    for alias in aliases:
        name = library.aliases[alias]
        assert pset.mapping[alias] is pset.mapping[name] and pset.mapping[alias].name == name
    for spec in (library.get(name) for name in rules):
        node = pset.mapping[spec.name]
        assert node.ret is spec.return_type
        assert list(getattr(node, "args", [])) == list(spec.arg_types)
        assert isinstance(node, gp.Terminal) == spec.is_terminal
    tree = gp.PrimitiveTree([pset.mapping["equal"], pset.mapping["2"], pset.mapping["pieces_left"]])
    assert str(tree) == "equal(2, pieces_left)"
    # markers keep predicates out of integer slots, and integers out of boolean ones
    assert all(node.ret is Count for node in pset.terminals[Count])
    assert all(node.ret is bool for node in pset.primitives[bool] + pset.terminals[bool])


def test_check_reachable_accepts_the_library_and_names_a_missing_terminal(library):
    library.check_reachable([bool, Piece, Square])
    starved = library.without_families("constants", "counts", "fit", "tactical", "lookahead")
    with pytest.raises(PrimitiveError, match=r"no terminal returns Count \(needed as a child of"):
        starved.check_reachable([bool])
    with pytest.raises(PrimitiveError, match="no primitive returns Square, needed as a root"):
        library.without_families("placement", "combinators", "fit", "tactical", "lookahead").check_reachable([Square])


def test_loading_twice_gives_equal_libraries(library):
    again = load_library(entry_points=False)
    assert list(again.specs) == list(library.specs)
    assert all(again.get(name).function is spec.function for name, spec in library.specs.items())
