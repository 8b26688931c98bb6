"""``gpquarto match A B``: play a match and print the summary table."""

from __future__ import annotations

import argparse

from gpquarto.arena.match import DISTINCT_LIMIT, MatchResult
from gpquarto.cli.common import (
    add_game_arguments,
    add_openings_argument,
    add_plugin_argument,
    add_runner_arguments,
    add_time_limit_argument,
    make_runner_from_args,
    non_negative_int,
    positive_int,
    progress_bar,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "match",
        help="play a match between two players and print the summary",
        description="Play GAMES games between players A and B (names such as random, minimax:depth=2, "
        "or a saved player file), alternating who starts; results are from A's point of view.",
    )
    parser.add_argument("player_a", metavar="A", help="first player (results are from its point of view)")
    parser.add_argument("player_b", metavar="B", help="second player")
    parser.add_argument("--games", type=positive_int, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="match seed (default 0)")
    add_time_limit_argument(parser)
    add_openings_argument(parser)
    parser.add_argument("--save-records", metavar="DIR", default=None, help="write every game record as JSON into DIR")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_game_arguments(parser, players=("player_a", "player_b"))
    add_plugin_argument(parser, "primitive plugin file a saved player needs (repeatable)")
    add_runner_arguments(parser, default_workers="1")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gpquarto.cli.common import check_output_folder, describe_settings, game_settings
    from gpquarto.jobs.matches import run_match
    from gpquarto.resolve import make_unattended_player

    game, settings = game_settings(args)
    plugins = tuple(args.plugins or ())
    for spec in (args.player_a, args.player_b):
        make_unattended_player(spec, plugins=plugins or None, game=game)  # fail fast, in this process, in one line
    folder = None if args.save_records is None else check_output_folder(args.save_records, "--save-records")
    with make_runner_from_args(args, tasks=args.games, default_workers=1) as runner:
        with progress_bar(args.games, "games", disable=args.quiet) as bar:
            result = run_match(
                args.player_a,
                args.player_b,
                args.games,
                seed=args.seed,
                game=game,
                settings=settings,
                time_limit=args.time_limit,
                keep_records=folder is not None,
                plugins=plugins,
                runner=runner,
                progress=bar.update,
                openings=args.openings,
            )
    print(format_summary(result, seed=args.seed, settings=describe_settings(game, settings)))
    if folder is not None:
        for index, record in enumerate(result.records):
            record.save(folder / f"game_{index:05d}.json")
        print(f"wrote {len(result.records)} game records to {folder}")
    return 0


def describe_distinct(result: MatchResult) -> str:
    """How many different games a match had, e.g. ``2 of 1000``, and a hint when deterministic players repeat."""
    count = result.distinct_games
    text = f"{'at least ' if count >= DISTINCT_LIMIT else ''}{count:,} of {result.games:,}"
    if result.games > 2 * count:
        text += " (the players repeat games: --openings K starts each pair of games from K random plies)"
    return text


def format_summary(result: MatchResult, *, seed: int | None = None, settings: str = "classic rules") -> str:
    """The summary table of a match, from A's point of view; ``settings`` says what was played."""
    a, b = result.names
    low, high = result.score_interval()
    win_low, win_high = result.win_interval()
    width = max(len(a), len(b), 6)
    lines = [
        f"{a} vs {b}: {result.games} games, {settings}" + ("" if seed is None else f", seed {seed}"),
        f"{'player':<{width}}  {'wins':>6}  {'draws':>6}  {'losses':>6}  {'score':>7}  {'score 95% CI':>15}  {'ms/decision':>11}  {'forfeits':>8}",
    ]
    for side, name in enumerate(result.names):
        wins, losses = (result.wins, result.losses) if side == 0 else (result.losses, result.wins)
        score = (wins + result.draws / 2) / result.games if result.games else 0.0
        interval = (low, high) if side == 0 else (1 - high, 1 - low)
        lines.append(
            f"{name:<{width}}  {wins:>6}  {result.draws:>6}  {losses:>6}  {score:>7.1%}  "
            f"{f'{interval[0]:.1%}-{interval[1]:.1%}':>15}  {1000 * result.mean_decision_time(side):>11.3f}  {result.forfeits[side]:>8}"
        )
    lines.append(
        f"score counts a draw as half a win; {a}'s win rate, wins only: {result.win_rate:.1%} "
        f"(95% CI {win_low:.1%}-{win_high:.1%})"
    )
    lines.append(f"distinct games: {describe_distinct(result)}")
    for reason in result.forfeit_reasons[:5]:
        lines.append(f"forfeit: {reason}")
    return "\n".join(lines)
