"""``gpquarto solve "POSITION"``: the exact value of a position and every optimal action.

Example::

    $ python -m gpquarto solve ".DC9/.3../.8../F045 -"
    ...
    value: win for player 1 (to choose a piece)
    best actions (1): choose piece 6 (SDOR)
    nodes: 33, time: 0.001 s

    $ python -m gpquarto solve --game quixo --size 3
    ...
    value: win in 7 plies for X (player 0, to move)
    best actions (4): a1 to bottom, ...
"""

from __future__ import annotations

import argparse
import sys
import time

from gpquarto.cli import UsageError
from gpquarto.cli.common import add_game_arguments, non_negative_int
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
            "then the piece in hand (hex digit, or '-' when a piece must be chosen), optionally 'advanced'. "
            "Quixo (--game quixo, --size 3 or 4): the whole board is solved once (seconds on 3x3, minutes on 4x4 "
            "with the fast extra) and cached; POSITION (default the empty board) is then looked up, e.g. "
            '"XX./.O./... O".'
        ),
    )
    parser.add_argument(
        "position",
        metavar="POSITION",
        nargs="?",
        default=None,
        help='position text, e.g. "5A3./.C../..../.... -" (quixo: default the empty board)',
    )
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
    add_game_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.game != "quarto":
        return run_quixo(args)
    if args.position is None:
        raise UsageError("give the POSITION to solve (Quarto position text)")
    if args.size is not None:
        raise UsageError("--size is a Quixo setting")
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


def run_quixo(args: argparse.Namespace) -> int:
    """``solve --game quixo``: value, distance and best actions from the retrograde solution of the board."""
    from gpquarto.cli.common import game_position
    from gpquarto.games.quixo.notation import SYMBOLS
    from gpquarto.games.quixo.search.solver import SOLVABLE_SIZES, solution_path
    from gpquarto.games.quixo.search.solver import solve as solve_board

    if args.png:
        raise UsageError("--png draws Quarto positions, not quixo")
    if args.position is None and args.size is None:
        raise UsageError(f"give --size ({' or '.join(map(str, SOLVABLE_SIZES))}) or a POSITION to solve")
    board = game_position(args, args.position)
    if board.size not in SOLVABLE_SIZES:
        raise UsageError(f"the solver handles the 3x3 and 4x4 boards, not {board.size}x{board.size}")
    if board.is_over():
        raise UsageError(f"the game in this position is over ({board.outcome().termination.value}): nothing to solve")
    rules = board.rules.value
    started = time.perf_counter()
    cached = solution_path(board.size, rules).exists()
    if not cached:
        print(
            f"solving the {board.size}x{board.size} board ({rules} rules) once; it is cached at "
            f"{solution_path(board.size, rules)}",
            file=sys.stderr,
            flush=True,
        )

    def progress(wave: int, decided: int) -> None:
        what = f"{decided:,} positions without a line" if wave == 0 else f"wave {wave}: {decided:,} decided"
        print(f"  {what} ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)

    solution = solve_board(board.size, rules, progress=progress)
    elapsed = time.perf_counter() - started
    value, distance = solution.lookup(board)
    mover = f"{SYMBOLS[board.player]} (player {board.player}, to move)"
    in_plies = f" in {distance} plies" if value else ""
    best = solution.best_actions(board)
    print(board)
    print(f"value: {VALUE_WORDS[value]}{in_plies} for {mover}")
    print(f"best actions ({len(best)}): {', '.join(board.action_name(action) for action in best)}")
    source = "read from the cache" if cached else "solved and cached"
    print(f"solution of the {board.size}x{board.size} board ({rules} rules) {source}; time: {elapsed:.3f} s")
    return 0
