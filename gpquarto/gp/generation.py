"""Random typed trees that never dead-end: full, grow and half-and-half over a primitive set.

DEAP's ``gp.generate`` raises when a type has no terminal where the tree must end (or no primitive where it
must grow). :class:`TreeGenerator` falls back instead: where a terminal is wanted but the type has none, it
takes the primitive of that type whose subtree can end soonest (its *minimum height*, computed once from
the primitive set); where a primitive is wanted but none fits under the height limit, it takes a terminal.
Every choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

from deap import gp

#: Tree-building methods accepted by :meth:`TreeGenerator.generate`.
METHODS = ("full", "grow", "half_and_half")


class TreeGenerator:
    """Builds random trees of a required type from ``pset`` without exceeding ``height_limit`` if it can."""

    def __init__(self, pset: gp.PrimitiveSetTyped, height_limit: int) -> None:
        if height_limit < 0:
            raise ValueError(f"height limit must be >= 0, got {height_limit}")
        self.pset = pset
        self.height_limit = height_limit
        self._terminals: dict[type, list] = {}
        self._primitives: dict[type, list] = {}
        self.min_height: dict[type, float] = self._minimum_heights()

    def terminals(self, type_: type) -> list:
        """Nodes of arity 0 returning ``type_`` (or a subclass), in the primitive set's order."""
        if type_ not in self._terminals:
            nodes = list(self.pset.terminals.get(type_, []))
            nodes += [node for node in self.pset.primitives.get(type_, []) if node.arity == 0]
            self._terminals[type_] = nodes
        return self._terminals[type_]

    def primitives(self, type_: type) -> list:
        """Nodes with children returning ``type_`` (or a subclass), in the primitive set's order."""
        if type_ not in self._primitives:
            self._primitives[type_] = [node for node in self.pset.primitives.get(type_, []) if node.arity > 0]
        return self._primitives[type_]

    def _types(self) -> set[type]:
        types = set(self.pset.primitives) | set(self.pset.terminals)
        for nodes in self.pset.primitives.values():
            for node in nodes:
                types.update(node.args)
        return types

    def _minimum_heights(self) -> dict[type, float]:
        """Smallest height of a complete tree of each type (``inf`` when no tree of that type can end)."""
        heights = {type_: (0.0 if self.terminals(type_) else math.inf) for type_ in self._types()}
        changed = True
        while changed:
            changed = False
            for type_ in heights:
                for node in self.primitives(type_):
                    height = 1 + max(heights.get(arg, math.inf) for arg in node.args)
                    if height < heights[type_]:
                        heights[type_] = height
                        changed = True
        return heights

    def check_roots(self, root_types: Iterable[type]) -> None:
        """Raise ``ValueError`` if a tree of some root type cannot end or cannot fit under the height limit."""
        for root in root_types:
            height = self.min_height.get(root, math.inf)
            if math.isinf(height):
                raise ValueError(f"no complete tree of type {root.__name__} can be built from the primitive set")
            if height > self.height_limit:
                raise ValueError(
                    f"the smallest tree of type {root.__name__} has height {height:g}, over the limit {self.height_limit}"
                )

    def _shortest(self, type_: type) -> list:
        nodes = self.terminals(type_)
        if nodes:
            return nodes
        best = math.inf
        shortest: list = []
        for node in self.primitives(type_):
            height = 1 + max(self.min_height.get(arg, math.inf) for arg in node.args)
            if height < best:
                best, shortest = height, [node]
            elif height == best:
                shortest.append(node)
        if not shortest:
            raise ValueError(f"no primitive or terminal returns type {type_.__name__}")
        return shortest

    def _fitting(self, type_: type, depth: int) -> list:
        room = self.height_limit - depth
        return [
            node
            for node in self.primitives(type_)
            if 1 + max(self.min_height.get(arg, math.inf) for arg in node.args) <= room
        ]

    def generate(
        self, rng: random.Random, type_: type, min_height: int, max_height: int, method: str = "half_and_half"
    ) -> gp.PrimitiveTree:
        """A random tree of ``type_`` whose leaves lie between depths ``min_height`` and ``max_height`` when possible."""
        if method not in METHODS:
            raise ValueError(f"unknown tree method {method!r} (known: {', '.join(METHODS)})")
        if min_height > max_height:
            raise ValueError(f"min height {min_height} is above max height {max_height}")
        max_height = rng.randint(min_height, max_height)
        if method == "half_and_half":
            method = "full" if rng.random() < 0.5 else "grow"
        expression = []
        stack = [(0, type_)]
        while stack:
            depth, wanted = stack.pop()
            terminals = self.terminals(wanted)
            primitives = self._fitting(wanted, depth)
            if depth >= max_height or not primitives:
                end = True
            elif method == "full" or depth < min_height or not terminals:
                end = False
            else:
                end = rng.random() < len(terminals) / (len(terminals) + len(primitives))
            if end:
                choices = terminals or self._shortest(wanted)
            else:
                choices = primitives
            node = choices[rng.randrange(len(choices))]
            expression.append(node)
            for arg in reversed(getattr(node, "args", ())):
                stack.append((depth + 1, arg))
        return gp.PrimitiveTree(expression)
