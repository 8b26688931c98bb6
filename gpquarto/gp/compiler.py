"""Compile a tree into nested closures (no ``eval``, no ``gp.compile``, no height limit from Python's parser).

A compiled tree is a function ``tree(features) -> value``. Each node becomes a small closure that calls its
primitive's function with the decision's :class:`~gpquarto.gp.features.Features` (when the primitive reads
it) and its children's values. The closures are built bottom-up from the prefix list with an explicit stack.
"""

from __future__ import annotations

from collections.abc import Callable

from deap import gp

from gpquarto.gp.primitives import PrimitiveLibrary

Compiled = Callable[[object], object]


def _closure(spec, children: list[Compiled]) -> Compiled:
    function = spec.function
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


def compile_tree(tree: gp.PrimitiveTree, library: PrimitiveLibrary) -> Compiled:
    """Turn ``tree`` into a function of the decision's features, using ``library.get(name)`` for each node."""
    stack: list[Compiled] = []
    for node in reversed(tree):
        spec = library.get(node.name)
        arity = node.arity
        if len(stack) < arity:
            raise ValueError(f"malformed tree: {node.name} needs {arity} children")
        children = [stack.pop() for _ in range(arity)]
        stack.append(_closure(spec, children))
    if len(stack) != 1:
        raise ValueError("malformed tree: not exactly one root")
    return stack[0]
