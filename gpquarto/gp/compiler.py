"""Compile a tree into nested closures (no ``eval``, no ``gp.compile``, no height limit from Python's parser).

A compiled tree is a function ``tree(features) -> value``. Each node becomes a small closure that calls its
primitive's function with the decision's :class:`~gpquarto.games.quarto.gp.features.Features` (when the primitive reads
it) and its children's values. The closures are built bottom-up from the prefix list with an explicit stack. A
conditional primitive marked with :func:`branches` evaluates only the child it picks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deap import gp

from gpquarto.gp.primitives import PrimitiveInfo, PrimitiveLibrary

#: A compiled tree: the value (a node type is an int, a predicate a bool) of the tree at a decision's features.
Compiled = Callable[[Any], int]
_BRANCHES = "__gp_branches__"


def branches(function: Callable[..., object]) -> Callable[..., object]:
    """Mark a primitive ``(condition, then, otherwise) -> then if condition else otherwise`` (put it under
    ``@primitive``): compiled trees then evaluate the condition and only the child it picks (primitives have no
    side effects, so the value is the same and the other child's cost is saved)."""
    setattr(function, _BRANCHES, True)
    return function


def is_branching(function: Callable[..., object]) -> bool:
    """True for a primitive marked with :func:`branches`."""
    return getattr(function, _BRANCHES, False)


def _closure(spec: PrimitiveInfo, children: list[Compiled]) -> Compiled:
    function = spec.function
    if len(children) == 3 and is_branching(function):
        condition, then, otherwise = children
        return lambda features: then(features) if condition(features) else otherwise(features)
    if not children:
        if spec.value is not None:
            value = spec.value
            return lambda features: value
        if spec.uses_features:
            return function
        return lambda features: function()
    if spec.uses_features:
        if len(children) == 1:
            (a,) = children
            return lambda features: function(features, a(features))
        if len(children) == 2:
            a, b = children
            return lambda features: function(features, a(features), b(features))
        if len(children) == 3:
            a, b, c = children
            return lambda features: function(features, a(features), b(features), c(features))
        return lambda features: function(features, *[child(features) for child in children])
    if len(children) == 1:
        (a,) = children
        return lambda features: function(a(features))
    if len(children) == 2:
        a, b = children
        return lambda features: function(a(features), b(features))
    if len(children) == 3:
        a, b, c = children
        return lambda features: function(a(features), b(features), c(features))
    return lambda features: function(*[child(features) for child in children])


def compile_tree(
    tree: gp.PrimitiveTree,
    library: PrimitiveLibrary,
    wrap: Callable[[PrimitiveInfo, list[Compiled], Compiled], Compiled] | None = None,
) -> Compiled:
    """Turn ``tree`` into a function of the decision's features, using ``library.get(name)`` for each node.

    ``wrap(spec, children, closure)``, when given, returns the closure to use for each node instead of the usual
    ``closure``: an evolved evaluator notes what its nodes read that way (:mod:`gpquarto.gp.evaluator`)."""
    stack: list[Compiled] = []
    for node in reversed(tree):
        spec = library.get(node.name)
        arity = node.arity
        if len(stack) < arity:
            raise ValueError(f"malformed tree: {node.name} needs {arity} children")
        children = [stack.pop() for _ in range(arity)]
        built = _closure(spec, children)
        stack.append(built if wrap is None else wrap(spec, children, built))
    if len(stack) != 1:
        raise ValueError("malformed tree: not exactly one root")
    return stack[0]
