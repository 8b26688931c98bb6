"""The safe text form: round trips, and hostile or broken texts give clean errors without running anything."""

from __future__ import annotations

import random

import pytest

from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import ACTION_TYPES, CONDITION_TYPE
from gpquarto.gp.library import load_library
from gpquarto.gp.textform import MAX_DEPTH, TreeSyntaxError, format_tree, parse_tree
from gpquarto.gp.types import Square


@pytest.fixture(scope="module")
def pset():
    return load_library().primitive_set()


def test_round_trip_of_many_random_trees(pset):
    generator = TreeGenerator(pset, height_limit=10)
    rng = random.Random(3)
    for root in (CONDITION_TYPE, *ACTION_TYPES.values()):
        for _ in range(300):
            tree = generator.generate(rng, root, 1, 7)
            text = format_tree(tree)
            parsed = parse_tree(text, pset, root)
            assert [node.name for node in parsed] == [node.name for node in tree]
            assert format_tree(parsed) == text


def _a_square_terminal(pset) -> str:
    return next(node.name for node in pset.terminals[Square])


def test_whitespace_is_free_and_terminals_may_have_empty_parentheses(pset):
    name = _a_square_terminal(pset)
    assert [node.name for node in parse_tree(f"  {name}( )  ", pset, Square)] == [name]


@pytest.mark.parametrize(
    "text, message",
    [
        ("__import__('os').system('touch /tmp/gpquarto_pwned')", "unknown primitive '__import__'"),
        ("eval", "unknown primitive 'eval'"),
        ("(", "expected a primitive name"),
        ("", "empty tree text"),
        ("   ", "empty tree text"),
        ("'a string'", "unknown primitive"),
    ],
)
def test_hostile_and_broken_texts_fail_cleanly(pset, text, message, tmp_path):
    with pytest.raises(TreeSyntaxError, match=message):
        parse_tree(text, pset, Square)


def test_nothing_is_executed(pset, tmp_path, monkeypatch):
    marker = tmp_path / "pwned"
    monkeypatch.setattr("builtins.eval", lambda *args: pytest.fail("eval called"))
    with pytest.raises(TreeSyntaxError):
        parse_tree(f"__import__('os').system('touch {marker}')", pset, Square)
    assert not marker.exists()


def test_types_arity_and_trailing_text_are_checked(pset):
    square = _a_square_terminal(pset)
    binary = next(node for node in pset.primitives[bool] if node.arity == 2 and node.args[0] is bool)
    with pytest.raises(TreeSyntaxError, match=f"{square} returns Square where bool is expected"):
        parse_tree(square, pset, bool)
    condition = next(node.name for node in pset.terminals[bool])
    with pytest.raises(TreeSyntaxError, match="takes 2 argument"):
        parse_tree(f"{binary.name}({condition}, {condition}, {condition})", pset, bool)
    with pytest.raises(TreeSyntaxError, match="ends too early"):
        parse_tree(f"{binary.name}({condition}, ", pset, bool)
    with pytest.raises(TreeSyntaxError, match="after the end"):
        parse_tree(f"{condition} {condition}", pset, bool)


def test_deep_and_long_texts_are_refused_without_recursion_errors(pset):
    unary = next(node for node in pset.primitives[bool] if node.arity == 1 and node.args[0] is bool)
    leaf = next(node.name for node in pset.terminals[bool])
    deep = f"{unary.name}(" * (MAX_DEPTH + 5) + leaf + ")" * (MAX_DEPTH + 5)
    with pytest.raises(TreeSyntaxError, match="deeper than"):
        parse_tree(deep, pset, bool)
    very_deep = f"{unary.name}(" * 100_000 + leaf + ")" * 100_000
    with pytest.raises(TreeSyntaxError, match="longer than|more than"):
        parse_tree(very_deep, pset, bool)


def test_literals_are_read_with_literal_eval_and_matched_to_constants(pset):
    constants = [
        name for name, node in pset.mapping.items() if getattr(node, "arity", 1) == 0 and name.lstrip("-").isdigit()
    ]
    assert constants, "the built-in library has integer constants"
    name = constants[0]
    node = pset.mapping[name]
    spelled = f"0x{int(name):x}" if int(name) >= 0 else name
    parsed = parse_tree(spelled, pset, node.ret)
    assert [item.name for item in parsed] == [name]
    with pytest.raises(TreeSyntaxError, match="unknown primitive"):
        parse_tree("123456789", pset, node.ret)
