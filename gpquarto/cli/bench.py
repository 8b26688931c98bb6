"""``gpquarto bench engine|players``: speed benchmarks (medians over repeats)."""

from __future__ import annotations

import argparse

from gpquarto.cli.common import add_rules_argument, positive_float, positive_int

TARGETS = ("engine", "players")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure speed: engine (games/s) or players (time per decision)",
        description="Speed benchmarks. The machine may be shared: figures are medians over repeats.",
    )
    parser.add_argument("target", choices=TARGETS, help="what to measure")
    parser.add_argument("--repeats", type=positive_int, default=5, help="repeats (default 5); the median is reported")
    parser.add_argument("--seconds", type=positive_float, default=1.0, help="minimum seconds per repeat (default 1)")
    add_rules_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gpquarto.engine.lines import Rules

    rules = Rules(args.rules)
    if args.target == "engine":
        from gpquarto.bench.engine import engine_benchmark, format_engine_benchmark

        print(format_engine_benchmark(engine_benchmark(repeats=args.repeats, seconds=args.seconds, rules=rules), rules))
        return 0
    from gpquarto.bench.players import run_players_benchmark

    return run_players_benchmark(args)
