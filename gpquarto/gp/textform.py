"""The safe text form of trees: ``first_free_square(trap_square, corner_square)``, written and read without ``eval``.

:func:`format_tree` writes a tree in prefix form, ``name(child, child)``, terminals by name (constants by
their literal). :func:`parse_tree` reads it back with a tokenizer and a recursive-descent parser that looks
names up in the primitive set only (a primitive's former names too: see ``aliases`` in
:func:`~gpquarto.gp.primitives.primitive`), reads unknown literals with ``ast.literal_eval`` (matched against
the registered constants), checks every child's type against the type its parent expects, and refuses texts that
are too long, too deep or too big, so a hostile file can neither run code nor hang or exhaust the process.
"""

from __future__ import annotations

import ast
import re

from deap import gp

#: Limits applied to every parsed tree (a hostile file cannot blow the stack or the memory).
MAX_TEXT_LENGTH = 100_000
MAX_DEPTH = 64
MAX_NODES = 5_000
MAX_LITERAL_LENGTH = 64

_TOKEN = re.compile(r"""\s*(?:([(),])|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([^\s(),'"]+)|(\S))""")


class TreeSyntaxError(ValueError):
    """A tree text that cannot be read: bad syntax, unknown name, wrong type or over a limit."""


def format_tree(tree: gp.PrimitiveTree) -> str:
    """Prefix text of ``tree``: ``name(child, ...)``; terminals by name."""
    parts: list[str] = []
    stack: list[list] = []
    for node in tree:
        stack.append([node, []])
        while stack and len(stack[-1][1]) == stack[-1][0].arity:
            node, children = stack.pop()
            text = f"{node.name}({', '.join(children)})" if node.arity else node.name
            if not stack:
                parts.append(text)
                break
            stack[-1][1].append(text)
    if len(parts) != 1 or stack:
        raise ValueError("not a complete tree")
    return parts[0]


def _tokenize(text: str) -> list[str]:
    tokens = []
    position = 0
    length = len(text)
    while position < length:
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:  # only trailing whitespace left
            break
        if match.group(4) is not None:
            raise TreeSyntaxError(f"unexpected character {match.group(4)!r} at position {match.start(4)}")
        token = match.group(1) or match.group(2) or match.group(3)
        tokens.append(token)
        position = match.end()
        if len(tokens) > 4 * MAX_NODES:
            raise TreeSyntaxError(f"tree text has more than {MAX_NODES} nodes")
    return tokens


class _Parser:
    def __init__(self, tokens: list[str], pset: gp.PrimitiveSetTyped) -> None:
        self.tokens = tokens
        self.position = 0
        self.pset = pset
        self.nodes: list = []

    def peek(self) -> str | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None:
            raise TreeSyntaxError("tree text ends too early" + (f": expected {expected!r}" if expected else ""))
        if expected is not None and token != expected:
            raise TreeSyntaxError(f"expected {expected!r} but found {token!r} (token {self.position + 1})")
        self.position += 1
        return token

    def lookup(self, token: str):
        node = self.pset.mapping.get(token)
        if node is not None:
            return node
        if len(token) <= MAX_LITERAL_LENGTH:
            try:
                value = ast.literal_eval(token)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                value = None
            else:
                for name, candidate in self.pset.mapping.items():
                    if isinstance(candidate, gp.Terminal) and name == repr(value) and type(value) is not bool:
                        return candidate
        shown = token if len(token) <= 40 else token[:37] + "..."
        game = getattr(self.pset, "game", None)
        library = f"the {game} primitive library" if game else "the primitive library"
        raise TreeSyntaxError(
            f"unknown primitive {shown!r} (not in {library}: is it another game's, or is a plugin missing?)"
        )

    def parse(self, expected: type, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise TreeSyntaxError(f"tree is deeper than {MAX_DEPTH}")
        token = self.take()
        if token in "(),":
            raise TreeSyntaxError(f"expected a primitive name but found {token!r} (token {self.position})")
        node = self.lookup(token)
        if not (isinstance(node.ret, type) and issubclass(node.ret, expected)):
            raise TreeSyntaxError(
                f"{node.name} returns {_type_name(node.ret)} where {_type_name(expected)} is expected"
            )
        self.nodes.append(node)
        if len(self.nodes) > MAX_NODES:
            raise TreeSyntaxError(f"tree has more than {MAX_NODES} nodes")
        if node.arity == 0:
            if self.peek() == "(" and self.position + 1 < len(self.tokens) and self.tokens[self.position + 1] == ")":
                self.position += 2  # tolerate "name()" for a terminal
            return
        self.take("(")
        for index, arg in enumerate(node.args):
            if index:
                self.take(",")
            self.parse(arg, depth + 1)
        if self.peek() == ",":
            raise TreeSyntaxError(f"{node.name} takes {node.arity} argument(s), got more")
        self.take(")")


def _type_name(type_: object) -> str:
    return getattr(type_, "__name__", str(type_))


def parse_tree(text: str, pset: gp.PrimitiveSetTyped, root_type: type) -> gp.PrimitiveTree:
    """Read a tree of ``root_type`` from its text form; raises :class:`TreeSyntaxError` (a ``ValueError``)."""
    if not isinstance(text, str):
        raise TreeSyntaxError(f"tree text must be a string, got {type(text).__name__}")
    if len(text) > MAX_TEXT_LENGTH:
        raise TreeSyntaxError(f"tree text is longer than {MAX_TEXT_LENGTH} characters")
    tokens = _tokenize(text)
    if not tokens:
        raise TreeSyntaxError("empty tree text")
    parser = _Parser(tokens, pset)
    parser.parse(root_type, 1)
    if parser.position != len(tokens):
        raise TreeSyntaxError(f"unexpected {tokens[parser.position]!r} after the end of the tree")
    return gp.PrimitiveTree(parser.nodes)
