"""``gpquarto solve "POSITION"``: the exact value of a position and every optimal action.

Example::

    $ python -m gpquarto solve ".DC9/.3../.8../F045 -"
    ...
    value: win for player 1 (to choose a piece)
    best actions (1): choose piece 6 (SDOR)
    nodes: 33, time: 0.001 s
"""

from __future__ import annotations

import argparse
import sys
import time

from gpquarto.cli import UsageError
from gpquarto.cli.common import non_negative_int
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, action_name
from gpquarto.games.quarto.lines import SQUARE_COUNT
from gpquarto.search.solver import VALUE_WORDS, solve

#: From this many empty squares on, solving can take seconds to minutes: say so before starting.
SLOW_EMPTIES = 10


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a position exactly (endgames)",
        description=(
            "Print the exact value of a position for the player to act (win, draw or loss) and every action "
            "that achieves it. POSITION is position text: four rows of hex digits or '.', separated by '/', "
            "then the piece in hand (hex digit, or '-' when a piece must be chosen), optionally 'advanced'."
        ),
    )
    parser.add_argument("position", metavar="POSITION", help='position text, e.g. "5A3./.C../..../.... -"')
    parser.add_argument(
        "--max-empty",
        type=non_negative_int,
        default=10,
        metavar="N",
        help="refuse positions with more than N empty squares (default 10): they may take very long",
    )
    parser.add_argument("--force", action="store_true", help="solve even beyond --max-empty")
    parser.add_argument(
        "--png", default=None, metavar="FILE", help="also draw the position, best placements in green (PNG)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    board = Board.from_text(args.position)
    if board.is_over():
        outcome = "a draw" if board.winner is None else f"won by player {board.winner}"
        raise UsageError(f"the game in this position is over ({outcome}): nothing to solve")
    empties = SQUARE_COUNT - board.placed_count
    if empties > args.max_empty and not args.force:
        raise UsageError(
            f"the position has {empties} empty squares, more than --max-empty {args.max_empty}: "
            "solving may take very long (pass --force to go anyway)"
        )
    if empties >= SLOW_EMPTIES:
        print(f"warning: {empties} empty squares, solving may take long", file=sys.stderr, flush=True)
    started = time.perf_counter()
    result = solve(board)
    elapsed = time.perf_counter() - started
    task = "place the piece in hand" if board.placement_due else "choose a piece"
    print(board)
    print(f"value: {VALUE_WORDS[result.value]} for player {board.player} (to {task})")
    actions = ", ".join(action_name(action) for action in result.best_actions)
    print(f"best actions ({len(result.best_actions)}): {actions}")
    print(f"nodes: {result.nodes}, time: {elapsed:.3f} s")
    if args.png:
        from gpquarto.cli.pictures import position_figure, save_png

        squares = [action - PLACE_OFFSET for action in result.best_actions if action >= PLACE_OFFSET]
        title = f"{board.text()}\n{VALUE_WORDS[result.value]} for player {board.player}: {actions}"
        save_png(position_figure(board, title=title, highlight=squares), args.png)
        print(f"picture saved to {args.png}")
    return 0
