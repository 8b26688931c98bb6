"""Variation operators: inside a rule's trees, and between the rules of genomes.

Tree operators (:func:`subtree_crossover`, :func:`subtree_mutation`, :func:`node_replacement`,
:func:`shrink`, :func:`insertion`) never modify their inputs: they return new trees, and return the parent
unchanged when the child would break the static height limit (DEAP's ``staticLimit`` rule). Crossover picks the
shared node type from a list sorted by name (not from a ``set``, whose order differs between processes), so runs
repeat.
Genome operators (:func:`rule_crossover`, :func:`rule_transplant`, :func:`tree_crossover`, :func:`mutate_genome`)
build new genomes from the parents' rules, going through the rule kinds of the genomes' game in genome order (so a
Quarto run draws the same random numbers whatever other games exist). Every random choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random

from deap import gp

from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.gp.binding import CONDITION_TYPE
from gpquarto.gp.bindings import gp_game
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import Genome, Rule


def _type_key(type_: type) -> tuple[str, str]:
    return (getattr(type_, "__module__", ""), getattr(type_, "__qualname__", str(type_)))


def _within(tree: gp.PrimitiveTree, parent: gp.PrimitiveTree, height_limit: int) -> gp.PrimitiveTree:
    return tree if tree.height <= height_limit else parent


def _replace(tree: gp.PrimitiveTree, index: int, subtree: list) -> gp.PrimitiveTree:
    end = tree.searchSubtree(index)
    return gp.PrimitiveTree(list(tree[: end.start]) + list(subtree) + list(tree[end.stop :]))


def subtree_crossover(
    rng: random.Random, first: gp.PrimitiveTree, second: gp.PrimitiveTree, height_limit: int
) -> tuple[gp.PrimitiveTree, gp.PrimitiveTree]:
    """Swap a random subtree of ``first`` with one of the same type in ``second`` (roots excluded)."""
    by_type_first: dict[type, list[int]] = {}
    by_type_second: dict[type, list[int]] = {}
    for index, node in enumerate(first[1:], 1):
        by_type_first.setdefault(node.ret, []).append(index)
    for index, node in enumerate(second[1:], 1):
        by_type_second.setdefault(node.ret, []).append(index)
    shared = sorted((type_ for type_ in by_type_first if type_ in by_type_second), key=_type_key)
    if not shared:
        return first, second
    type_ = shared[rng.randrange(len(shared))]
    index_first = rng.choice(by_type_first[type_])
    index_second = rng.choice(by_type_second[type_])
    slice_first = first.searchSubtree(index_first)
    slice_second = second.searchSubtree(index_second)
    child_first = gp.PrimitiveTree(
        list(first[: slice_first.start]) + list(second[slice_second]) + list(first[slice_first.stop :])
    )
    child_second = gp.PrimitiveTree(
        list(second[: slice_second.start]) + list(first[slice_first]) + list(second[slice_second.stop :])
    )
    return _within(child_first, first, height_limit), _within(child_second, second, height_limit)


def subtree_mutation(
    rng: random.Random, tree: gp.PrimitiveTree, generator: TreeGenerator, max_new_height: int = 2
) -> gp.PrimitiveTree:
    """Replace a random subtree by a freshly grown one of the same type."""
    index = rng.randrange(len(tree))
    subtree = generator.generate(rng, tree[index].ret, 0, max_new_height, "grow")
    return _within(_replace(tree, index, subtree), tree, generator.height_limit)


def node_replacement(rng: random.Random, tree: gp.PrimitiveTree, generator: TreeGenerator) -> gp.PrimitiveTree:
    """Replace a random node by another of the same type and arity (same child types)."""
    index = rng.randrange(len(tree))
    node = tree[index]
    if node.arity == 0:
        candidates = [other for other in generator.terminals(node.ret) if other.name != node.name]
    else:
        candidates = [
            other
            for other in generator.primitives(node.ret)
            if other.name != node.name and list(other.args) == list(node.args)
        ]
    if not candidates:
        return tree
    nodes = list(tree)
    nodes[index] = candidates[rng.randrange(len(candidates))]
    return gp.PrimitiveTree(nodes)


def shrink(rng: random.Random, tree: gp.PrimitiveTree) -> gp.PrimitiveTree:
    """Replace a random primitive by one of its own subtrees of a compatible type."""
    options = []
    for index, node in enumerate(tree):
        if node.arity == 0:
            continue
        child = index + 1
        for _ in range(node.arity):
            span = tree.searchSubtree(child)
            if issubclass(tree[child].ret, node.ret):
                options.append((index, span))
            child = span.stop
    if not options:
        return tree
    index, span = options[rng.randrange(len(options))]
    return _replace(tree, index, tree[span])


def insertion(
    rng: random.Random, tree: gp.PrimitiveTree, generator: TreeGenerator, max_new_height: int = 1
) -> gp.PrimitiveTree:
    """Insert a new primitive above a random subtree: the subtree becomes one of its arguments (of the same type),
    the other arguments are grown afresh (DEAP's ``mutInsert``, which fills them with terminals). The inverse of
    :func:`shrink`: it adds a term, ``count`` becoming ``plus(count, term)``, where the other mutations replace
    what is there."""
    index = rng.randrange(len(tree))
    wanted = tree[index].ret
    choices = [node for node in generator.primitives(wanted) if any(arg is wanted for arg in node.args)]
    if not choices:
        return tree
    node = choices[rng.randrange(len(choices))]
    slots = [position for position, arg in enumerate(node.args) if arg is wanted]
    kept = slots[rng.randrange(len(slots))]
    subtree = tree[tree.searchSubtree(index)]
    inserted = [node]
    for position, arg in enumerate(node.args):
        inserted.extend(subtree if position == kept else generator.generate(rng, arg, 0, max_new_height, "grow"))
    return _within(_replace(tree, index, inserted), tree, generator.height_limit)


def _random_rule(
    rng: random.Random, then_type: type, generator: TreeGenerator, min_height: int, max_height: int
) -> Rule:
    condition = generator.generate(rng, CONDITION_TYPE, min_height, max_height)
    action = generator.generate(rng, then_type, min_height, max_height)
    return Rule(condition, action)


def random_genome(
    rng: random.Random,
    generator: TreeGenerator,
    *,
    min_rules: int,
    max_rules: int,
    min_height: int,
    max_height: int,
    game: str = DEFAULT_GAME,
) -> Genome:
    """A fresh genome of ``game`` with ``min_rules..max_rules`` random rules of each kind."""
    binding = gp_game(game)
    lists = {}
    for kind in binding.kinds:
        count = rng.randint(min_rules, max_rules)
        then_type = binding.then_types[kind]
        lists[kind] = [_random_rule(rng, then_type, generator, min_height, max_height) for _ in range(count)]
    return Genome.of(binding.name, lists)


def rule_crossover(rng: random.Random, first: Genome, second: Genome) -> tuple[Genome, Genome]:
    """Swap a run of consecutive rules of each kind between the parents, keeping the order of each run.

    The runs have the same length (1 to the shorter list's length) but may start at different places, so a
    rule can move up or down its new list; each child keeps its parent's number of rules, and the rules taken
    together are the parents' rules. The order of the rules decides which one fires, so it is kept: the runs
    are spliced in, never shuffled.
    """
    children: tuple[dict, dict] = ({}, {})
    for kind in first.kinds:
        mine, theirs = list(first.rules(kind)), list(second.rules(kind))
        if mine and theirs:
            length = rng.randint(1, min(len(mine), len(theirs)))
            i, j = rng.randint(0, len(mine) - length), rng.randint(0, len(theirs) - length)
            mine[i : i + length], theirs[j : j + length] = theirs[j : j + length], mine[i : i + length]
        children[0][kind], children[1][kind] = mine, theirs
    return Genome.of(first.game, children[0]), Genome.of(first.game, children[1])


#: The longest run of rules that :func:`rule_transplant` copies from one parent into the other.
TRANSPLANT_MAX_RUN = 3


def _transplanted(rng: random.Random, own: list[Rule], donor: list[Rule], max_rules: int) -> list[Rule]:
    if not donor:
        return list(own)
    length = rng.randint(1, min(TRANSPLANT_MAX_RUN, len(donor)))
    start = rng.randint(0, len(donor) - length)
    at = rng.randint(0, len(own))
    return (own[:at] + donor[start : start + length] + own[at:])[:max_rules]


def rule_transplant(rng: random.Random, first: Genome, second: Genome, max_rules: int) -> tuple[Genome, Genome]:
    """Copy a run of consecutive rules of each kind from the other parent into each child, in its order.

    For each rule kind (in genome order), the first child is the first parent's list with a run of 1 to
    :data:`TRANSPLANT_MAX_RUN` consecutive rules of the second parent's list (as many as it has, if fewer) inserted
    at a random position, its own rules kept in their order around it; then the second child likewise, from the
    second parent's list and a run of the first's. Unlike :func:`rule_crossover`, a list grows by the run's length,
    so a block of rules that work together can move from one genome into another whole. When a list would then hold
    more than ``max_rules`` rules, it is cut back to ``max_rules`` by dropping rules from its end (which may be
    rules of the run itself, when it went in near the end). A kind whose donor list is empty is copied unchanged.
    The parents are not modified.
    """
    children: tuple[dict, dict] = ({}, {})
    for kind in first.kinds:
        mine, theirs = list(first.rules(kind)), list(second.rules(kind))
        children[0][kind] = _transplanted(rng, mine, theirs, max_rules)
        children[1][kind] = _transplanted(rng, theirs, mine, max_rules)
    return Genome.of(first.game, children[0]), Genome.of(first.game, children[1])


def tree_crossover(rng: random.Random, first: Genome, second: Genome, height_limit: int) -> tuple[Genome, Genome]:
    """Subtree crossover between one random rule of each parent (same kind, both *if* or both *then* trees)."""
    kinds = first.kinds
    kind = kinds[rng.randrange(len(kinds))]
    mine, theirs = list(first.rules(kind)), list(second.rules(kind))
    if not mine or not theirs:
        return first.clone(), second.clone()
    i, j = rng.randrange(len(mine)), rng.randrange(len(theirs))
    if rng.random() < 0.5:
        a, b = subtree_crossover(rng, mine[i].condition, theirs[j].condition, height_limit)
        mine[i], theirs[j] = Rule(a, mine[i].action), Rule(b, theirs[j].action)
    else:
        a, b = subtree_crossover(rng, mine[i].action, theirs[j].action, height_limit)
        mine[i], theirs[j] = Rule(mine[i].condition, a), Rule(theirs[j].condition, b)
    return first.with_rules(kind, mine), second.with_rules(kind, theirs)


def mutate_rule(rng: random.Random, rule: Rule, generator: TreeGenerator) -> Rule:
    """Apply one tree mutation (subtree, node replacement or shrink) to the *if* or the *then* tree."""
    on_condition = rng.random() < 0.5
    tree = rule.condition if on_condition else rule.action
    choice = rng.random()
    if choice < 0.5:
        tree = subtree_mutation(rng, tree, generator)
    elif choice < 0.8:
        tree = node_replacement(rng, tree, generator)
    else:
        tree = shrink(rng, tree)
    return Rule(tree, rule.action) if on_condition else Rule(rule.condition, tree)


#: Genome mutations and their relative weights.
GENOME_MUTATIONS = (("rule", 6), ("swap_then", 1), ("insert", 1), ("delete", 1), ("move", 1))


def _weighted(rng: random.Random, options: tuple[tuple[str, int], ...]) -> str:
    pick = rng.random() * sum(weight for _, weight in options)
    for name, weight in options:
        pick -= weight
        if pick < 0:
            return name
    return options[-1][0]


def mutate_genome(
    rng: random.Random,
    genome: Genome,
    generator: TreeGenerator,
    *,
    min_rules: int,
    max_rules: int,
    min_height: int,
    max_height: int,
) -> Genome:
    """One mutation: a tree mutation in a rule, a swap of two rules' *then* trees, a rule inserted, deleted or
    moved to another place in its list (the first rule that fires decides, so order matters)."""
    kinds = genome.kinds
    kind = kinds[rng.randrange(len(kinds))]
    rules = list(genome.rules(kind))
    operation = _weighted(rng, GENOME_MUTATIONS)
    if operation == "swap_then" and len(rules) >= 2:
        i, j = rng.sample(range(len(rules)), 2)
        rules[i], rules[j] = Rule(rules[i].condition, rules[j].action), Rule(rules[j].condition, rules[i].action)
    elif operation == "insert" and len(rules) < max_rules:
        then_type = genome.binding.then_types[kind]
        rules.insert(rng.randint(0, len(rules)), _random_rule(rng, then_type, generator, min_height, max_height))
    elif operation == "delete" and len(rules) > min_rules:
        del rules[rng.randrange(len(rules))]
    elif operation == "move" and len(rules) >= 2:
        rule = rules.pop(rng.randrange(len(rules)))
        rules.insert(rng.randint(0, len(rules)), rule)
    elif rules:
        index = rng.randrange(len(rules))
        rules[index] = mutate_rule(rng, rules[index], generator)
    return genome.with_rules(kind, rules)
