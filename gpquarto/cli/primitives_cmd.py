"""``gpquarto primitives``: list a game's GP primitives, grouped by source and family, with signature and doc.

``--game quixo`` lists Quixo's library: the neutral primitives (logic, arithmetic, constants) and Quixo's own.
"""

from __future__ import annotations

import argparse

from gpquarto.cli.common import add_game_arguments, add_plugin_argument
from gpquarto.gp.library import load_library
from gpquarto.gp.primitives import PrimitiveInfo, PrimitiveLibrary


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``primitives`` command."""
    parser = subparsers.add_parser(
        "primitives",
        help="list the GP primitives (built-in, installed packages, plugin files)",
        description="List every GP primitive, grouped by source and family, with its signature and one-line doc.",
    )
    add_plugin_argument(parser, "also load this plugin file (repeatable)")
    parser.add_argument("--no-tactical", action="store_true", help="leave out the 'tactical' and 'lookahead' families")
    parser.add_argument("--no-lookahead", action="store_true", help="leave out the 'lookahead' family")
    add_game_arguments(parser, settings=False)
    parser.set_defaults(handler=run)


def format_library(library: PrimitiveLibrary) -> str:
    """The listing: a header per (source, family), then one line per primitive (with its former names)."""
    groups: dict[tuple[str, str], list[PrimitiveInfo]] = {}
    for spec in library:
        groups.setdefault((spec.source, spec.family), []).append(spec)
    width = min(44, max((len(spec.signature) for spec in library), default=0))
    lines = []
    for (source, family), specs in groups.items():
        origin = f"{source} {library.versions.get(source, '')}".strip()
        lines.append(f"{family} ({origin}):")
        lines += [f"  {spec.signature:<{width}}  {spec.doc}{_former_names(spec)}" for spec in specs]
    lines.append(f"{len(library)} {library.game} primitives in {len(groups)} groups")
    return "\n".join(lines)


def _former_names(spec: PrimitiveInfo) -> str:
    return f" (formerly {', '.join(spec.aliases)})" if spec.aliases else ""


def run(args: argparse.Namespace) -> int:
    """Load the library as asked and print it."""
    library = load_library(
        args.plugins or (), tactical=not args.no_tactical, lookahead=not args.no_lookahead, game=args.game
    )
    print(format_library(library))
    return 0
