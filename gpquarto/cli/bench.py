"""``gpquarto bench engine|players|solver|train|evaluators``: speed benchmarks (medians over repeats)."""

from __future__ import annotations

import argparse

from gpquarto.cli import UsageError
from gpquarto.cli.common import add_rules_argument, positive_float, positive_int

TARGETS = ("engine", "players", "solver", "train", "evaluators")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure speed: engine (games/s), players (time per decision), solver (time per solve), "
        "train (seconds per generation) or evaluators (time per leaf and per search against lines)",
        description="Speed benchmarks. The machine may be shared: figures are medians over repeats.",
    )
    parser.add_argument("target", choices=TARGETS, help="what to measure")
    parser.add_argument("--repeats", type=positive_int, default=5, help="repeats (default 5); the median is reported")
    parser.add_argument("--seconds", type=positive_float, default=1.0, help="minimum seconds per repeat (default 1)")
    parser.add_argument(
        "--compare",
        metavar="MODULE",
        help="players, solver: also time the reference versions from MODULE (its make_player / solve), "
        "side by side, and print the speed-up; e.g. tests.reference from a source checkout",
    )
    parser.add_argument(
        "--players",
        type=lambda text: [spec.strip() for spec in text.split(";") if spec.strip()],
        help="players: the specs to time, separated by ';' (default: the zoo's search players)",
    )
    parser.add_argument("--positions", type=positive_int, default=3, help="solver: positions per row (default 3)")
    parser.add_argument(
        "--compiled", action="store_true", help='solver: time the compiled solver (needs: pip install "gpquarto[fast]")'
    )
    parser.add_argument(
        "--empties",
        type=lambda text: [positive_int(part) for part in text.split(",")],
        help="solver: numbers of empty squares, comma-separated (default 8,9,10,11,12)",
    )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="train: a training setting changed from the default (repeatable; e.g. population=20), as in experiment",
    )
    parser.add_argument(
        "--evaluator",
        dest="evaluators",
        action="append",
        default=[],
        metavar="FILE",
        help="evaluators: an evaluator file to time beside lines and quarticity (repeatable)",
    )
    add_rules_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gpquarto.games.quarto.lines import Rules

    rules = Rules(args.rules)
    if args.settings and args.target != "train":
        raise UsageError("--set changes a training setting: it goes with 'bench train' only")
    if args.evaluators and args.target != "evaluators":
        raise UsageError("--evaluator goes with 'bench evaluators' only")
    if args.target == "engine":
        from gpquarto.bench.engine import engine_benchmark, format_engine_benchmark

        print(format_engine_benchmark(engine_benchmark(repeats=args.repeats, seconds=args.seconds, rules=rules), rules))
        return 0
    if args.target == "train":
        return run_train_benchmark(args)
    if args.target == "evaluators":
        return run_evaluator_benchmark(args)
    if args.target == "solver":
        from gpquarto.bench.solver import run_solver_benchmark

        return run_solver_benchmark(args)
    from gpquarto.bench.players import run_players_benchmark

    return run_players_benchmark(args)


def run_train_benchmark(args: argparse.Namespace) -> int:
    """Seconds per generation of the default training (or the one ``--set`` changes) with 1 and 2 local workers
    and a 2-worker local Dask cluster."""
    from gpquarto.bench.train import format_train_benchmark, train_benchmark
    from gpquarto.jobs.experiment import parse_setting
    from gpquarto.runner import SerialRunner
    from gpquarto.runner.processes import ProcessRunner
    from gpquarto.training import EvolutionConfig

    runners = {"1 worker (serial)": SerialRunner, "2 local processes": lambda: ProcessRunner(2)}
    try:
        import distributed  # noqa: F401

        from gpquarto.runner.dask import DaskRunner

        runners["local Dask cluster, 2 workers"] = lambda: DaskRunner(local_workers=2)
    except ImportError:
        print("(no Dask: pip install 'gpquarto[distributed]' to measure it too)")
    config = EvolutionConfig(**dict(parse_setting(text) for text in args.settings))
    print(format_train_benchmark(train_benchmark(runners, config, repeats=args.repeats), config))
    return 0


def run_evaluator_benchmark(args: argparse.Namespace) -> int:
    """Time per leaf and per placement search (depths 1 and 2) of each ``--evaluator`` beside ``lines``."""
    from gpquarto.bench.evaluators import evaluator_benchmark, format_evaluator_benchmark
    from gpquarto.gp.evaluator_files import load_evaluator

    if not args.evaluators:
        raise UsageError("bench evaluators needs at least one --evaluator FILE")
    try:
        evaluators = {path: load_evaluator(path) for path in args.evaluators}
    except ValueError as error:
        raise UsageError(str(error)) from None
    print(format_evaluator_benchmark(evaluator_benchmark(evaluators, repeats=args.repeats, seconds=args.seconds / 5)))
    return 0
