"""``gpquarto watch A B``: two players play one game at the terminal, move by move.

The game (``--game``: Quarto by default, or Quixo) is played first, then shown action by action (each action that
changes the board with the board; in Quarto, a placement), with the rule an evolved player used;
``--delay SECONDS`` paces the moves, ``--step`` waits for Enter after each one. ``--png FILE`` draws the whole
game as a grid of frames and ``--record FILE`` saves it as a game record (JSON) that ``serve`` can replay.
"""

from __future__ import annotations

import argparse
import sys
import time

from gpquarto.cli.common import add_game_arguments, add_time_limit_argument, non_negative_int, pause_seconds

QUIT_WORDS = ("q", "quit", "exit")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="watch two players play a game at the terminal",
        description="Play one game between players A (seat 0, moves first) and B and show it move by move. "
        "A player is a name such as random or minimax:depth=2, or a saved player file.",
    )
    parser.add_argument(
        "first", metavar="A", help="the player in seat 0 (moves first: in Quarto, chooses the first piece)"
    )
    parser.add_argument("second", metavar="B", help="the player in seat 1")
    pace = parser.add_mutually_exclusive_group()
    pace.add_argument(
        "--delay",
        type=pause_seconds,
        default=0.5,
        metavar="SECONDS",
        help="pause after each action (default 0.5; 0 for none)",
    )
    pace.add_argument("--step", action="store_true", help="wait for Enter after each action ('q' plays to the end)")
    parser.add_argument("--seed", type=non_negative_int, default=None, help="seed for both players' random choices")
    parser.add_argument("--position", default=None, metavar="TEXT", help="start from this position text")
    add_time_limit_argument(parser)
    parser.add_argument(
        "--png",
        default=None,
        metavar="FILE",
        help="also draw the game as a grid of frames (PNG; games with pictures: Quarto)",
    )
    parser.add_argument("--record", default=None, metavar="FILE", help="also save the game record (JSON)")
    add_game_arguments(parser, players=("first", "second"))
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gpquarto.arena.views import explained_game, outcome
    from gpquarto.cli.common import game_position, game_title
    from gpquarto.games.capabilities import Pictures
    from gpquarto.games.drawing import text_drawing
    from gpquarto.games.interface import DecisionKind
    from gpquarto.games.registry import get_plugin
    from gpquarto.resolve import make_unattended_player

    pictures = get_plugin(args.game).capability(Pictures) if args.png else None  # a game without them says so
    start = game_position(args, args.position)
    specs = (args.first, args.second)
    players = tuple(make_unattended_player(spec, seed=args.seed, game=args.game) for spec in specs)
    record, notes = explained_game(
        (players[0], players[1]), names=specs, start=start, seed=args.seed, time_limit=args.time_limit
    )
    names = record.players
    state = record.start_state()
    print(f"{game_title(record.game, state.settings())}: {names[0]} (seat 0) against {names[1]} (seat 1).")
    print(text_drawing(state), flush=True)
    stepping = args.step
    for index, action in enumerate(record.actions):
        seat, kind, name = state.player, state.decision_kind(), state.action_name(action)
        state.apply(action)
        print(f"\n{index + 1}. {names[seat]}: {name}")
        note = notes[index] if index < len(notes) else None
        if note is not None:
            print(f"   {_why(note)}")
        if kind != DecisionKind.CHOOSE:  # a Quarto choice leaves the board as it was
            print(text_drawing(state))
        sys.stdout.flush()
        if stepping:
            answer = sys.stdin.readline()
            stepping = bool(answer) and answer.strip().lower() not in QUIT_WORDS  # end of input: play on
        elif args.delay:
            time.sleep(args.delay)
    print(f"\nResult: {outcome(record)}.")
    if args.record:
        record.save(args.record)
        print(f"game record saved to {args.record}")
    if pictures is not None:
        from gpquarto.cli.png import save_png

        save_png(pictures.game_figure(record, outcome(record)), args.png)
        print(f"picture saved to {args.png}")
    return 0


def _why(note: dict) -> str:
    if note["rule"] is None:
        return note["text"]
    return f"{note['kind']} rule {note['rule']}: {note['text']}"
