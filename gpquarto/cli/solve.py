"""``gpquarto solve "POSITION"``: the exact value of a position and every optimal action.

Example::

    $ python3 -m gpquarto solve ".DC9/.3../.8../F045 -"
    ...
    value: win for player 1 (to choose a piece)
    best actions (1): choose piece 6 (SDOR)
    nodes: 33, time: 0.001 s

    $ python3 -m gpquarto solve --game quixo --size 3
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

#: From this many empty cells on (the solver's size of a position), solving can take seconds to minutes: say so
#: before starting.
SLOW_SIZE = 10


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a position exactly (endgames)",
        description=(
            "Print the exact value of a position for the player to act (win, draw or loss) and every action "
            "that achieves it, with the game's own exact solver (or, for a game without one, alpha-beta to the "
            "end of the game, for games small enough). Quarto: POSITION is position text, four rows of hex "
            "digits or '.', separated by '/', then the piece in hand (hex digit, or '-' when a piece must be "
            "chosen), optionally 'advanced'. Quixo (--game quixo, --size 3 or 4): the whole board is solved once "
            "(seconds on 3x3, and on 4x4 with the fast extra) and cached; POSITION (default the empty board) "
            'is then looked up, e.g. "XX./.O./... O".'
        ),
    )
    parser.add_argument(
        "position",
        metavar="POSITION",
        nargs="?",
        default=None,
        help='position text, e.g. "5A3./.C../..../.... -" (default: the start position of the settings given)',
    )
    parser.add_argument(
        "--max-empty",
        type=non_negative_int,
        default=10,
        metavar="N",
        help="refuse positions larger than N for the solver (empty squares, blank cubes; default 10): they may "
        "take very long",
    )
    parser.add_argument("--force", action="store_true", help="solve even beyond --max-empty")
    parser.add_argument("--png", default=None, metavar="FILE", help="also draw the position, best actions marked (PNG)")
    add_game_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gpquarto.cli.common import game_position
    from gpquarto.games.capabilities import VALUE_WORDS, Pictures
    from gpquarto.games.drawing import text_drawing
    from gpquarto.games.registry import get_plugin
    from gpquarto.search.exact import exact_solver

    plugin = get_plugin(args.game)
    if args.position is None and not args.game_settings_given:
        raise UsageError(f"give the POSITION to solve ({plugin.title} position text), or settings for its start")
    pictures = plugin.capability(Pictures) if args.png else None  # a game without pictures says so first
    state = game_position(args, args.position)
    if state.is_over():
        outcome = state.outcome()
        assert outcome is not None  # the game is over
        raise UsageError(f"the game in this position is over ({outcome.termination.value}): nothing to solve")
    solver = exact_solver(plugin)
    reason = solver.why_not(state)
    if reason:
        raise UsageError(reason)
    size = solver.size(state)
    if size > args.max_empty and not args.force:
        raise UsageError(
            f"the position has {size} {solver.size_word}, more than --max-empty {args.max_empty}: "
            "solving may take very long (pass --force to go anyway)"
        )
    if size >= SLOW_SIZE:
        print(f"warning: {size} {solver.size_word}, solving may take long", file=sys.stderr, flush=True)
    started = time.perf_counter()
    solution = solver.solve(state, progress=lambda line: print(line, file=sys.stderr, flush=True))
    elapsed = time.perf_counter() - started
    in_plies = f" in {solution.distance} plies" if solution.distance else ""
    value = f"{VALUE_WORDS[solution.value]}{in_plies} for {solver.describe_mover(state)}"
    actions = ", ".join(state.action_name(action) for action in solution.best_actions)
    print(text_drawing(state))
    print(f"value: {value}")
    print(f"best actions ({len(solution.best_actions)}): {actions}")
    print(f"{solution.cost + ', ' if solution.cost else ''}time: {elapsed:.3f} s")
    if pictures is not None:
        from gpquarto.cli.png import save_png

        title = f"{state.text()}\n{VALUE_WORDS[solution.value]} for player {state.player}: {actions}"
        save_png(pictures.position_figure(state, title=title, highlight=solution.best_actions), args.png)
        print(f"picture saved to {args.png}")
    return 0
