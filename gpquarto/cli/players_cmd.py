"""``gpquarto players``: every registered player, its parameters and what it does."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from gpquarto.cli.common import add_game_arguments

if TYPE_CHECKING:
    from gpquarto.players.registry import PlayerInfo


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "players",
        help="list the available players and their parameters",
        description="List every registered player with its parameters (name, type, default) and a one-line "
        "description. Use them as NAME or NAME:key=value,key=value; a saved player file works as a name too.",
    )
    add_game_arguments(parser, settings=False)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gpquarto.players.registry import available_players

    print(format_players(available_players(args.game)))
    return 0


def format_players(players: list[PlayerInfo]) -> str:
    """The listing printed by ``players``: one block per registered player."""
    from gpquarto.players.registry import format_limits

    lines = ["players (use NAME or NAME:key=value,key=value, e.g. minimax:depth=2):", ""]
    for info in players:
        lines.append(f"{info.name}  {info.summary}".rstrip())
        if not info.parameters:
            lines.append("    (no parameters)")
        for parameter in info.parameters:
            limits = "" if parameter.limits is None else f" ({format_limits(parameter.limits)})"
            lines.append(f"    {parameter.name}: {parameter.type.__name__} = {parameter.default!r}{limits}")
    lines.append("")
    lines.append(
        "A saved player file (e.g. runs/NAME/best_player.p) can be used wherever a player name is expected, "
        "e.g. gpquarto match runs/NAME/best_player.p random."
    )
    return "\n".join(lines)
