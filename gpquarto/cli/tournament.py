"""``gpquarto tournament P1 P2 ...``: a round robin, a ranked table with ratings, CSV files and a figure."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from gpquarto.cli.common import (
    add_game_arguments,
    add_openings_argument,
    add_plugin_argument,
    add_runner_arguments,
    add_time_limit_argument,
    check_output_folder,
    make_runner_from_args,
    non_negative_int,
    positive_int,
    progress_bar,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tournament",
        help="round robin between several players, with Bradley-Terry (Elo-scale) ratings",
        description="Every pair of PLAYERS (names such as random, minimax:depth=2, or saved player files) plays "
        "GAMES games with alternating starts. Prints the ranked table and writes pairings.csv, ratings.csv, "
        "tournament.png, config.json (and games.csv with --per-game) into the output folder.",
    )
    parser.add_argument("players", nargs="+", metavar="PLAYER", help="two or more player specs")
    parser.add_argument("--games", type=positive_int, default=100, help="games per pairing (default 100)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="tournament seed (default 0)")
    parser.add_argument("--out", metavar="DIR", default=None, help="output folder (default runs/tournament-SEED)")
    add_time_limit_argument(parser)
    add_openings_argument(parser)
    parser.add_argument("--force", action="store_true", help="write over the results already in the output folder")
    parser.add_argument("--per-game", action="store_true", help="also write games.csv, one row per game")
    parser.add_argument(
        "--grade",
        action="store_true",
        help="add each player's accuracy against perfect play (see 'grade'; its cached bank) and write grade.csv",
    )
    parser.add_argument(
        "--grade-positions",
        type=positive_int,
        default=None,
        metavar="N",
        help="size of the grade bank with --grade (default that of 'grade')",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_game_arguments(parser, players=("players",))
    add_plugin_argument(parser, "primitive plugin file a saved player needs (repeatable)")
    add_runner_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from time import perf_counter

    from gpquarto.arena.plots import save_tournament_plot
    from gpquarto.arena.tournament import format_table
    from gpquarto.cli.common import describe_settings, game_settings
    from gpquarto.jobs.matches import run_tournament
    from gpquarto.resolve import check_player_specs

    game, settings = game_settings(args)
    args.rules = settings.get("rules")  # what config.json uses
    args.bank_game = {"game": game, "game_settings": settings}  # --grade's bank: the tournament's settings
    if args.grade:
        from gpquarto.grading.bank import BankParameters

        try:
            BankParameters(**args.bank_game)
        except ValueError as error:  # a bank the game cannot make: one line before any game
            raise ValueError(f"--grade grades on the game's bank: {error}") from None
    plugins = tuple(args.plugins or ())
    check_player_specs(args.players, plugins=plugins or None, game=game)  # before any game: one line, exit 2
    out = args.out if args.out is not None else f"runs/tournament-{args.seed}"
    folder = check_output_folder(out, "--out", overwrite=args.force)
    pairings = len(args.players) * (len(args.players) - 1) // 2
    began = perf_counter()
    with make_runner_from_args(args, tasks=pairings * args.games) as runner:
        with progress_bar(pairings * args.games, "games", disable=args.quiet) as bar:
            result = run_tournament(
                args.players,
                args.games,
                seed=args.seed,
                game=game,
                settings=settings,
                time_limit=args.time_limit,
                keep_records=args.per_game,  # games.csv needs them; the repetition warning does not
                plugins=plugins,
                runner=runner,
                progress=bar.update,
                openings=args.openings,
            )
        elapsed = perf_counter() - began
        reports = grade(args, runner) if args.grade else None
    print(format_table(result, accuracy_column(reports) if reports else None, describe_settings(game, settings)))
    print(f"{pairings * args.games} games in {elapsed:.1f} s")
    write_results(result, folder, args, per_game=args.per_game)
    save_tournament_plot(result, folder / "tournament.png")
    written = ["pairings.csv", "ratings.csv", "tournament.png", "config.json"]
    written += ["games.csv"] if args.per_game else []
    if reports:
        from gpquarto.atomic import write_text_atomic
        from gpquarto.grading.report import reports_csv

        write_text_atomic(folder / "grade.csv", reports_csv(reports))
        written.append("grade.csv")
    print(f"wrote {', '.join(written)} to {folder}")
    return 0


def grade(args: argparse.Namespace, runner) -> list:
    """Each player's grade report on the grade bank (built and cached on first use), on ``runner``."""
    from gpquarto.cli.grade import load_bank
    from gpquarto.grading.bank import BankParameters
    from gpquarto.grading.grade import grade_players

    parameters = BankParameters(**args.bank_game)
    if args.grade_positions is not None:
        parameters = BankParameters(positions=args.grade_positions, **args.bank_game)
    bank = load_bank(parameters, runner=runner, quiet=args.quiet)
    return grade_players(args.players, bank, runner=runner)


def accuracy_column(reports: list) -> dict[str, list[str]]:
    """The tournament table's extra column: accuracy and its 95% interval, in the order of the players."""
    cells = []
    for report in reports:
        low, high = report.interval()
        cells.append(f"{report.accuracy:.1%} ({low:.1%}-{high:.1%})")
    return {"accuracy (95% CI)": cells}


def write_results(result, folder: Path, args: argparse.Namespace, *, per_game: bool) -> None:
    """Write the CSV files and the configuration (enough to repeat the tournament) atomically."""
    from gpquarto.arena.tournament import games_csv, pairings_csv, ratings_csv
    from gpquarto.atomic import write_text_atomic
    from gpquarto.grading.bank import DEFAULT_POSITIONS

    write_text_atomic(folder / "pairings.csv", pairings_csv(result))
    write_text_atomic(folder / "ratings.csv", ratings_csv(result))
    if per_game:
        write_text_atomic(folder / "games.csv", games_csv(result))
    config = {
        "command": "tournament",
        "players": list(result.players),
        "games": result.games,
        "seed": result.seed,
        "game": result.game,
        "rules": result.rules,
        "time_limit": args.time_limit,
        "openings": args.openings,
        "grade_positions": (args.grade_positions or DEFAULT_POSITIONS) if args.grade else None,
    }
    write_text_atomic(folder / "config.json", json.dumps(config, indent=1) + "\n")
