"""``gpquarto grade PLAYER ...``: accuracy against perfect play on a bank of solved endgame decisions.

``python3 -m gpquarto grade novice minimax:depth=2 --positions 300 --seed 1`` prints the bank it graded on (its
positions, choices and placements, empty squares, rules and seed), then a row per player: the accuracy with its 95%
interval, the accuracy by kind of decision and by empty squares, the blunders (won positions thrown away, drawn
positions lost), the forfeits and the time per decision (the README's section 2 shows a table).

With ``--game quixo`` the bank holds 4x4 positions (``--size 3`` for the small board) from games between Quixo zoo
players, graded against the board's exact solution; a column says how often the move was also the best one (the
fastest win or the slowest loss), and the columns by empty squares count blank cubes. A game's bank may grade
by something other than an exact solution, on a board that is not solved; its description and the legend under the
table say what. ``--bank KIND`` grades on another kind of bank the game makes
(:meth:`~gpquarto.games.capabilities.GradingBank.kinds`).
"""

from __future__ import annotations

import argparse
import sys
import time

from gpquarto.cli.common import (
    add_game_arguments,
    add_plugin_argument,
    add_runner_arguments,
    game_settings,
    given_settings,
    make_runner_from_args,
    non_negative_int,
    positive_int,
    progress_bar,
)
from gpquarto.grading.bank import DEFAULT_POSITIONS, DEFAULT_SEED, Bank, BankParameters
from gpquarto.runner import Runner


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "grade",
        help="accuracy against perfect play on a bank of solved endgame decisions",
        description="Score PLAYERS (names such as novice, minimax:depth=2, or saved player files) on a bank of "
        "endgame positions taken from games between zoo players, where the decision matters and the solver "
        "knows every optimal action. The bank is built on first use (minutes) and cached.",
    )
    parser.add_argument("players", nargs="+", metavar="PLAYER", help="one or more player specs")
    parser.add_argument(
        "--positions",
        type=positive_int,
        default=DEFAULT_POSITIONS,
        metavar="N",
        help=f"bank size (default {DEFAULT_POSITIONS})",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, default=DEFAULT_SEED, help=f"bank seed (default {DEFAULT_SEED})"
    )
    parser.add_argument(
        "--min-empty",
        type=non_negative_int,
        default=None,
        metavar="N",
        help="fewest empty squares or cells of a position, as the game's exact solver counts them (default: the "
        "game's, e.g. 6 in Quarto)",
    )
    parser.add_argument(
        "--max-empty",
        type=non_negative_int,
        default=None,
        metavar="N",
        help="most empty squares or cells of a position (default: the game's, e.g. 10 in Quarto)",
    )
    parser.add_argument(
        "--bank",
        default="",
        metavar="KIND",
        help="another kind of bank the game makes besides its default (an unknown kind is refused with the list of "
        "the game's kinds; default: the game's default bank)",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        default=None,
        help="cache folder (default $GPQUARTO_CACHE, $XDG_CACHE_HOME/gpquarto or ~/.cache/gpquarto)",
    )
    parser.add_argument("--rebuild", action="store_true", help="rebuild the bank even when it is cached")
    parser.add_argument("--csv", metavar="FILE", default=None, help="write the accuracies per player and group as CSV")
    parser.add_argument("--png", metavar="FILE", default=None, help="write a bar chart of the accuracies")
    parser.add_argument(
        "--examples", type=non_negative_int, default=3, metavar="K", help="blunders shown per kind and player (3)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_game_arguments(parser)
    add_plugin_argument(parser, "primitive plugin file a saved player needs (repeatable)")
    add_runner_arguments(parser, default_workers="1")
    parser.set_defaults(handler=run)


def load_bank(
    parameters: BankParameters, *, cache_dir: str | None = None, runner: Runner, rebuild: bool = False, quiet: bool
) -> Bank:
    """The bank from the cache, or built (with a progress bar on stderr, on ``runner``) and cached; cache
    problems are one ``warning:`` line on stderr."""
    from gpquarto.grading.cache import load_or_build_bank

    with progress_bar(parameters.positions, "positions", disable=quiet, minimum=1) as bar:

        def progress(kept: int, wanted: int) -> None:
            bar.update(kept - bar.n)

        return load_or_build_bank(
            parameters,
            cache_dir=cache_dir,
            runner=runner,
            rebuild=rebuild,
            progress=progress,
            warn=lambda message: print(f"gpquarto: warning: {message}", file=sys.stderr, flush=True),
        )


def run(args: argparse.Namespace) -> int:
    from gpquarto.atomic import write_text_atomic
    from gpquarto.grading.grade import grade_players
    from gpquarto.grading.report import format_reports, reports_csv, save_grade_png
    from gpquarto.resolve import make_unattended_player

    if len(set(args.players)) != len(args.players):
        raise ValueError("a player is listed twice")
    plugins = tuple(args.plugins or ())
    game, _ = game_settings(args)  # a setting the game does not have is one line here
    for spec in args.players:
        make_unattended_player(spec, plugins=plugins or None, game=game)  # fail fast, before any bank
    parameters = BankParameters(
        seed=args.seed,
        positions=args.positions,
        min_empties=args.min_empty,
        max_empties=args.max_empty,
        game=game,
        game_settings=given_settings(args),  # the bank completes them its own way (Quixo: the 4x4 board)
        kind=args.bank,
    )
    began = time.perf_counter()
    with make_runner_from_args(args, default_workers=1) as runner:
        bank = load_bank(parameters, cache_dir=args.cache_dir, runner=runner, rebuild=args.rebuild, quiet=args.quiet)
        elapsed = time.perf_counter() - began
        reports = grade_players(args.players, bank, runner=runner)
    print(format_reports(reports, bank, examples=args.examples))
    if bank.cached:
        print(f"bank read from the cache in {elapsed:.1f} s (it took {bank.build_seconds:.1f} s to build)")
    else:
        print(f"bank built in {bank.build_seconds:.1f} s ({bank.solved} positions solved)")
    if args.csv is not None:
        write_text_atomic(args.csv, reports_csv(reports))
        print(f"wrote {args.csv}")
    if args.png is not None:
        save_grade_png(reports, bank, args.png)
        print(f"wrote {args.png}")
    return 0
