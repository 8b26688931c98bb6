"""``gpquarto show PLAYER_FILE``: print a saved player's rules, metadata and fitness (or Graphviz DOT)."""

from __future__ import annotations

import argparse
import json

from gpquarto.cli import UsageError
from gpquarto.cli.common import add_plugin_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "show",
        help="print a saved player's rules and metadata",
        description="Print the rules of a saved player (.p or .json), numbered, with its metadata and fitness.",
    )
    parser.add_argument("file", metavar="FILE", help="saved player (.p or .json)")
    parser.add_argument("--dot", action="store_true", help="print the rule trees as a Graphviz DOT graph instead")
    add_plugin_argument(parser, "primitive plugin file the player needs (repeatable)")
    parser.set_defaults(handler=run)


def describe(data: dict, genome) -> str:
    """Readable text: metadata, fitness, then numbered ``if ... then ...`` rules."""
    lines = [f"player {data.get('name', '?')} (saved by gpquarto {data.get('gpquarto_version', '?')})"]
    fitness = data.get("fitness") or {}
    if fitness:
        lines.append(
            "fitness: "
            + ", ".join(
                f"{key} {value:.4g}" if isinstance(value, float) else f"{key} {value}" for key, value in fitness.items()
            )
        )
    config = data.get("config") or {}
    if config:
        lines.append("config: " + json.dumps(config, sort_keys=True))
    versions = data.get("library_versions") or {}
    if versions:
        lines.append(
            "primitive sources: " + ", ".join(f"{source} {version}" for source, version in sorted(versions.items()))
        )
    lines.append(genome.describe())
    return "\n".join(lines)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(genome) -> str:
    """A Graphviz digraph: one cluster per rule, the *if* and *then* trees side by side."""
    lines = ["digraph player {", "  node [shape=box, fontname=Helvetica];"]
    counter = 0
    for kind in ("choose", "place"):
        for number, rule in enumerate(genome.rules(kind), 1):
            lines.append(f"  subgraph cluster_{kind}_{number} {{")
            lines.append(f"    label={_quote(f'{kind} rule {number}')};")
            for part, tree in (("if", rule.condition), ("then", rule.action)):
                root = f"n{counter}"
                counter += 1
                lines.append(f"    {root} [label={_quote(part)}, shape=ellipse];")
                stack = [(root, 1)]
                for node in tree:
                    name = f"n{counter}"
                    counter += 1
                    lines.append(f"    {name} [label={_quote(node.name)}];")
                    parent, remaining = stack[-1]
                    lines.append(f"    {parent} -> {name};")
                    if remaining == 1:
                        stack.pop()
                    else:
                        stack[-1] = (parent, remaining - 1)
                    if node.arity:
                        stack.append((name, node.arity))
            lines.append("  }")
    lines.append("}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from gpquarto.gp.storage import default_library, genome_from_data, read_player_file

    data = read_player_file(args.file)
    try:
        library = default_library(tuple(args.plugins) if args.plugins else None)
    except ValueError as error:
        raise UsageError(str(error)) from None
    genome = genome_from_data(data, library, args.file)
    print(to_dot(genome) if args.dot else describe(data, genome))
    return 0
