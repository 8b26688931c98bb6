"""``gpquarto watch A B``: two players play one game at the terminal, move by move.

The game is played first, then shown action by action (a placement with the board), with the rule an evolved
player used;
``--delay SECONDS`` paces the moves, ``--step`` waits for Enter after each one. ``--png FILE`` draws the whole
game as a grid of frames and ``--record FILE`` saves it as a game record (JSON) that ``serve`` can replay.
"""

from __future__ import annotations

import argparse
import sys
import time

from gpquarto.cli.common import add_rules_argument, add_time_limit_argument, non_negative_int

QUIT_WORDS = ("q", "quit", "exit")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="watch two players play a game at the terminal",
        description="Play one game between players A (seat 0, chooses first) and B and show it move by move. "
        "A player is a name such as random or minimax:depth=2, or a saved player file.",
    )
    parser.add_argument("first", metavar="A", help="the player in seat 0 (chooses the first piece)")
    parser.add_argument("second", metavar="B", help="the player in seat 1")
    pace = parser.add_mutually_exclusive_group()
    pace.add_argument(
        "--delay", type=float, default=0.5, metavar="SECONDS", help="pause after each action (default 0.5; 0 for none)"
    )
    pace.add_argument("--step", action="store_true", help="wait for Enter after each action ('q' plays to the end)")
    parser.add_argument("--seed", type=non_negative_int, default=None, help="seed for both players' random choices")
    parser.add_argument("--position", default=None, metavar="TEXT", help="start from this position text")
    add_time_limit_argument(parser)
    parser.add_argument("--png", default=None, metavar="FILE", help="also draw the game as a grid of frames (PNG)")
    parser.add_argument("--record", default=None, metavar="FILE", help="also save the game record (JSON)")
    add_rules_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gpquarto.games.quarto.board import PLACE_OFFSET, Board, action_name
    from gpquarto.web.sessions import explained_game, outcome, parse_start

    if args.delay < 0:
        raise ValueError(f"--delay must be >= 0, got {args.delay}")
    start = parse_start(args.position, args.rules) if args.position else Board(args.rules)
    record, notes = explained_game((args.first, args.second), start=start, seed=args.seed, time_limit=args.time_limit)
    names = record.players
    board = Board.from_text(record.start)
    print(f"Quarto, {board.rules.value} rules: {names[0]} (seat 0) against {names[1]} (seat 1).")
    print(board, flush=True)
    stepping = args.step
    for index, action in enumerate(record.actions):
        seat = board.player
        board.apply(action)
        print(f"\n{index + 1}. {names[seat]}: {action_name(action)}")
        note = notes[index] if index < len(notes) else None
        if note is not None:
            print(f"   {_why(note)}")
        if action >= PLACE_OFFSET:
            print(board)
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
    if args.png:
        from gpquarto.cli.pictures import game_figure, save_png

        save_png(game_figure(record, outcome(record)), args.png)
        print(f"picture saved to {args.png}")
    return 0


def _why(note: dict) -> str:
    if note["rule"] is None:
        return note["text"]
    return f"{note['kind']} rule {note['rule']}: {note['text']}"
