"""``gpquarto play --opponent SPEC``: play a game against any player at the terminal."""

from __future__ import annotations

import argparse
from typing import cast

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.cli.common import add_game_arguments, add_plugin_argument, non_negative_int
from gpquarto.games.interface import Termination
from gpquarto.players.base import PlayerQuit

HUMAN_NAME = "you"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game against a player at the terminal",
        description="Play one game against the --opponent player (a name such as random or minimax:depth=2, "
        "or a saved player file). Quarto: type pieces as a hex digit or a code such as TDOQ, squares as a1..d4 or "
        "0..15. Quixo (--game quixo): type the border cube you take and the end where it goes back in, e.g. "
        "'b1 bottom'. Type 'hint', 'undo', or 'quit' to leave.",
    )
    parser.add_argument("--opponent", default="random", metavar="SPEC", help="the player to face (default random)")
    seat = parser.add_mutually_exclusive_group()
    seat.add_argument(
        "--first",
        dest="seat",
        action="store_const",
        const=0,
        help="you move first (in Quarto: choose the first piece); the default",
    )
    seat.add_argument("--second", dest="seat", action="store_const", const=1, help="your opponent moves first")
    parser.add_argument("--seed", type=non_negative_int, default=None, help="seed for the opponent's random choices")
    add_game_arguments(parser, players=("opponent",))
    add_plugin_argument(parser, "primitive plugin file a saved opponent needs (repeatable)")
    parser.set_defaults(handler=run, seat=0)


def run(args: argparse.Namespace) -> int:
    from gpquarto.cli.common import game_settings, game_title
    from gpquarto.games.drawing import text_drawing
    from gpquarto.players.human import TakeBack, TerminalPlayer
    from gpquarto.resolve import make_player

    game, settings = game_settings(args)
    opponent = make_player(args.opponent, seed=args.seed, plugins=args.plugins, game=game)  # bad: one line, exit 2
    human = cast(TerminalPlayer, make_player("human", game=game))  # every game's human is a TerminalPlayer
    players = (human, opponent) if args.seat == 0 else (opponent, human)
    names = (HUMAN_NAME, args.opponent) if args.seat == 0 else (args.opponent, HUMAN_NAME)
    print(f"{game_title(game, settings)}: you against {args.opponent}.")
    start = None
    while True:
        try:
            record = play_game(players, game=game, settings=settings, seed=args.seed, names=names, start=start)
            break
        except TakeBack:  # back to the position of your previous decision, and play on from there
            start = human.positions[-2]
            del human.positions[-2:]
            print("Taken back: your previous decision is due again.")
        except PlayerQuit:
            print("Goodbye.")
            return 0
    print()
    print(text_drawing(record.replay()))
    print(f"Moves: {record.moves_text()}")
    print(result_line(record, args.seat))
    return 0


def result_line(record: GameRecord, seat: int) -> str:
    """The outcome from the human's side, e.g. ``"Result: you win against random."``."""
    from gpquarto.arena.views import draw_reason

    opponent = record.players[1 - seat]
    if record.end == Termination.FORFEIT:
        if record.forfeited_by == seat:
            return f"Result: you lose against {opponent} by forfeit ({record.reason})."
        return f"Result: you win against {opponent} by forfeit ({record.reason})."
    if record.winner is None:
        return f"Result: draw against {opponent} ({draw_reason(record.outcome.termination, record.settings)})."
    if record.winner == seat:
        return f"Result: you win against {opponent}."
    return f"Result: you lose against {opponent}."
