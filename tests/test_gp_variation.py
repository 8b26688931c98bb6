"""Variation operators keep trees well typed and under the height limit, and never modify their inputs."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from deap import gp

from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import ACTION_TYPES, CONDITION_TYPE, KINDS
from gpquarto.gp.library import load_library
from gpquarto.gp.textform import format_tree
from gpquarto.gp.variation import (
    insertion,
    mutate_genome,
    node_replacement,
    random_genome,
    rule_crossover,
    shrink,
    subtree_crossover,
    subtree_mutation,
    tree_crossover,
)

LIMIT = 7
ROOTS = (CONDITION_TYPE, *ACTION_TYPES.values())


def well_typed(tree: gp.PrimitiveTree, root: type) -> bool:
    """Independent check: each node returns what its slot expects and the tree is complete."""
    expected = [root]
    for node in tree:
        if not expected or not issubclass(node.ret, expected.pop()):
            return False
        expected.extend(reversed(getattr(node, "args", [])))
    return not expected


@pytest.fixture(scope="module")
def generator():
    return TreeGenerator(load_library().primitive_set(), height_limit=LIMIT)


def test_tree_operators_keep_types_and_height_and_leave_parents_alone(generator):
    rng = random.Random(1)
    changed = Counter()
    for _ in range(150):
        root = ROOTS[rng.randrange(len(ROOTS))]
        first = generator.generate(rng, root, 1, LIMIT)
        second = generator.generate(rng, root, 1, LIMIT)
        before = (format_tree(first), format_tree(second))
        children = {
            "crossover": subtree_crossover(rng, first, second, LIMIT),
            "subtree": (subtree_mutation(rng, first, generator),),
            "node": (node_replacement(rng, first, generator),),
            "shrink": (shrink(rng, first),),
            "insertion": (insertion(rng, first, generator),),
        }
        assert (format_tree(first), format_tree(second)) == before
        for name, trees in children.items():
            for tree in trees:
                assert well_typed(tree, root), name
                assert tree.height <= LIMIT, name
                changed[name] += format_tree(tree) not in before
    assert all(changed[name] > 20 for name in ("crossover", "subtree", "node", "shrink", "insertion")), changed


def test_shrink_makes_trees_no_bigger_and_operators_repeat_with_the_seed(generator):
    for seed in range(50):
        tree = generator.generate(random.Random(seed), CONDITION_TYPE, 2, 5)
        assert len(shrink(random.Random(seed), tree)) <= len(tree)
        other = generator.generate(random.Random(seed + 100), CONDITION_TYPE, 2, 5)
        runs = [subtree_crossover(random.Random(seed), tree, other, LIMIT) for _ in range(2)]
        assert [format_tree(t) for t in runs[0]] == [format_tree(t) for t in runs[1]]


def test_insertion_puts_a_new_primitive_above_a_subtree_that_shrink_can_take_away(generator):
    """Independent check: the child is the parent with one primitive spliced in above some subtree, that subtree
    one of its arguments, so some shrink of the child gives the parent back."""

    def every_shrink(tree: gp.PrimitiveTree) -> set[str]:
        results = set()
        for index, node in enumerate(tree):
            child = index + 1
            for _ in range(node.arity):
                span = tree.searchSubtree(child)
                if issubclass(tree[child].ret, node.ret):
                    end = tree.searchSubtree(index)
                    results.add(
                        format_tree(
                            gp.PrimitiveTree(list(tree[: end.start]) + list(tree[span]) + list(tree[end.stop :]))
                        )
                    )
                child = span.stop
        return results

    rng = random.Random(2)
    inserted = 0
    for _ in range(200):
        root = ROOTS[rng.randrange(len(ROOTS))]
        tree = generator.generate(rng, root, 1, LIMIT - 2)
        child = insertion(rng, tree, generator)
        if format_tree(child) == format_tree(tree):  # no primitive takes the subtree's type, or too high
            continue
        inserted += 1
        assert len(child) > len(tree) and well_typed(child, root) and child.height <= LIMIT
        assert format_tree(tree) in every_shrink(child), (format_tree(tree), format_tree(child))
    assert inserted > 100
    # the same seed, the same child
    tree = generator.generate(random.Random(3), CONDITION_TYPE, 2, 4)
    assert format_tree(insertion(random.Random(4), tree, generator)) == format_tree(
        insertion(random.Random(4), tree, generator)
    )


def _texts(genome, kind):
    return Counter(rule.texts() for rule in genome.rules(kind))


def test_rule_crossover_deals_out_the_parents_rules(generator):
    rng = random.Random(4)
    moved = 0
    for _ in range(40):
        first = random_genome(rng, generator, min_rules=2, max_rules=6, min_height=1, max_height=3)
        second = random_genome(rng, generator, min_rules=2, max_rules=6, min_height=1, max_height=3)
        child_a, child_b = rule_crossover(rng, first, second)
        for kind in KINDS:
            assert _texts(child_a, kind) + _texts(child_b, kind) == _texts(first, kind) + _texts(second, kind)
            assert len(child_a.rules(kind)) == len(first.rules(kind))
            assert len(child_b.rules(kind)) == len(second.rules(kind))
            for child in (child_a, child_b):
                texts = [rule.texts() for rule in child.rules(kind)]
                for parent in (first, second):  # each parent's rules keep their relative order in a child
                    order = [rule.texts() for rule in parent.rules(kind)]
                    kept = [order.index(text) for text in texts if text in order]
                    assert kept == sorted(kept)
            mine = [rule.texts() for rule in first.rules(kind)]
            moved += [rule.texts() for rule in child_a.rules(kind)] != mine
    assert moved > 20


def test_the_move_mutation_reorders_a_list_and_keeps_its_rules(generator, monkeypatch):
    import gpquarto.gp.variation as variation

    monkeypatch.setattr(variation, "GENOME_MUTATIONS", (("move", 1),))
    rng = random.Random(5)
    reordered = 0
    for _ in range(30):
        genome = random_genome(rng, generator, min_rules=3, max_rules=6, min_height=1, max_height=3)
        mutated = mutate_genome(rng, genome, generator, min_rules=3, max_rules=6, min_height=1, max_height=3)
        for kind in KINDS:
            assert _texts(mutated, kind) == _texts(genome, kind)
            reordered += [r.texts() for r in mutated.rules(kind)] != [r.texts() for r in genome.rules(kind)]
    assert reordered > 10


def test_tree_crossover_and_genome_mutation_keep_genomes_valid(generator):
    rng = random.Random(9)
    population = [random_genome(rng, generator, min_rules=2, max_rules=4, min_height=1, max_height=4) for _ in range(6)]
    snapshot = [genome.to_data() for genome in population]
    for _ in range(200):
        first, second = rng.sample(population, 2)
        children = tree_crossover(rng, first, second, LIMIT)
        mutated = mutate_genome(rng, children[0], generator, min_rules=2, max_rules=5, min_height=1, max_height=3)
        for genome in (*children, mutated):
            for kind in KINDS:
                assert 2 <= len(genome.rules(kind)) <= 5
                for rule in genome.rules(kind):
                    assert well_typed(rule.condition, CONDITION_TYPE) and well_typed(rule.action, ACTION_TYPES[kind])
                    assert rule.height <= LIMIT
        population[rng.randrange(len(population))] = mutated
    assert snapshot != [genome.to_data() for genome in population]
