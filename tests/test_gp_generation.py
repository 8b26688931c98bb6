"""Tree generation: typed trees that never dead-end and respect the height limit."""

from __future__ import annotations

import random

import pytest
from deap import gp

from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import ACTION_TYPES, CONDITION_TYPE
from gpquarto.gp.library import load_library


class Wide(int):
    """A type with terminals."""


class Narrow(int):
    """A type with no terminal at all: only reachable through primitives."""


def well_typed(tree: gp.PrimitiveTree, root: type) -> bool:
    """Independent check: every node returns (a subclass of) what its parent slot expects, and the tree is complete."""
    expected = [root]
    for node in tree:
        if not expected:
            return False
        slot = expected.pop()
        if not issubclass(node.ret, slot):
            return False
        expected.extend(reversed(getattr(node, "args", [])))
    return not expected


def awkward_pset() -> gp.PrimitiveSetTyped:
    """bool trees must pass through Narrow, which has only primitives (one leading to a terminal type)."""
    pset = gp.PrimitiveSetTyped("awkward", [], bool)
    pset.addPrimitive(lambda a: a > 0, [Narrow], bool, name="positive")
    pset.addPrimitive(lambda a, b: a and b, [bool, bool], bool, name="both")
    pset.addPrimitive(lambda a: a, [Wide], Narrow, name="narrow")
    pset.addPrimitive(lambda a, b: a + b, [Narrow, Narrow], Narrow, name="plus")
    pset.addPrimitive(lambda a, b: a * b, [Wide, Wide], Wide, name="times")
    pset.addTerminal(1, Wide, name="one")
    pset.addTerminal(2, Wide, name="two")
    return pset


def test_deap_generate_dies_where_ours_does_not():
    pset = awkward_pset()
    with pytest.raises(IndexError):  # DEAP cannot end a Narrow subtree: it has no terminal
        for seed in range(50):
            random.seed(seed)
            gp.genFull(pset, 2, 2, type_=bool)
    generator = TreeGenerator(pset, height_limit=6)
    for method in ("full", "grow", "half_and_half"):
        for seed in range(200):
            tree = generator.generate(random.Random(seed), bool, 1, 3, method)
            assert well_typed(tree, bool)
            assert tree.height <= 6


def test_minimum_heights_follow_the_shortest_path():
    generator = TreeGenerator(awkward_pset(), height_limit=6)
    assert generator.min_height[Wide] == 0
    assert generator.min_height[Narrow] == 1
    assert generator.min_height[bool] == 2


def test_full_trees_have_all_leaves_at_the_drawn_depth_when_terminals_exist():
    pset = gp.PrimitiveSetTyped("simple", [], Wide)
    pset.addPrimitive(lambda a, b: a + b, [Wide, Wide], Wide, name="add")
    pset.addTerminal(1, Wide, name="one")
    generator = TreeGenerator(pset, height_limit=8)
    for seed in range(20):
        tree = generator.generate(random.Random(seed), Wide, 3, 3, "full")
        assert tree.height == 3 and len(tree) == 2**4 - 1


def test_roots_that_cannot_end_or_fit_are_reported():
    pset = gp.PrimitiveSetTyped("loop", [], bool)
    pset.addPrimitive(lambda a: a, [Narrow], bool, name="is_set")
    pset.addPrimitive(lambda a: a, [Narrow], Narrow, name="again")
    generator = TreeGenerator(pset, height_limit=5)
    with pytest.raises(ValueError, match="no complete tree of type bool"):
        generator.check_roots([bool])
    short = TreeGenerator(awkward_pset(), height_limit=1)
    with pytest.raises(ValueError, match="over the limit"):
        short.check_roots([bool])


def test_same_seed_same_tree_and_bad_arguments():
    generator = TreeGenerator(awkward_pset(), height_limit=6)
    first = generator.generate(random.Random(5), bool, 1, 4)
    assert str(first) == str(generator.generate(random.Random(5), bool, 1, 4))
    with pytest.raises(ValueError, match="unknown tree method"):
        generator.generate(random.Random(0), bool, 1, 2, "bushy")
    with pytest.raises(ValueError, match="min height"):
        generator.generate(random.Random(0), bool, 3, 2)


def test_built_in_library_trees_are_well_typed_and_under_the_limit():
    library = load_library()
    generator = TreeGenerator(library.primitive_set(), height_limit=8)
    rng = random.Random(11)
    for root in (CONDITION_TYPE, *ACTION_TYPES.values()):
        for _ in range(150):
            tree = generator.generate(rng, root, 1, 5)
            assert well_typed(tree, root)
            assert tree.height <= 8
