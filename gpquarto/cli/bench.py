"""``gpquarto bench engine|players|solver|train|learn``: speed benchmarks (medians over repeats)."""

from __future__ import annotations

import argparse

from gpquarto.cli import UsageError
from gpquarto.cli.common import add_rules_argument, positive_float, positive_int

TARGETS = ("engine", "players", "solver", "train", "learn")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure speed: engine (games/s), players (time per decision), solver (time per solve) "
        "train (seconds per generation) or learn (episodes per second of each learning method, 1 and 2 workers)",
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
        "--game", choices=("quarto", "quixo"), default="quarto", help="learn: the game (default quarto)"
    )
    parser.add_argument(
        "--methods",
        type=lambda text: [name.strip() for name in text.split(",") if name.strip()],
        default=None,
        help="learn: the methods, comma-separated (default all: td-ntuple, q-learning, monte-carlo)",
    )
    parser.add_argument(
        "--episodes", type=positive_int, default=200, help="learn: episodes per timed run (default 200)"
    )
    add_rules_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gpquarto.games.quarto.lines import Rules

    rules = Rules(args.rules)
    if args.settings and args.target != "train":
        raise UsageError("--set changes a training setting: it goes with 'bench train' only")
    if args.target == "engine":
        from gpquarto.bench.engine import engine_benchmark, format_engine_benchmark

        print(format_engine_benchmark(engine_benchmark(repeats=args.repeats, seconds=args.seconds, rules=rules), rules))
        return 0
    if args.target == "train":
        return run_train_benchmark(args)
    if args.target == "learn":
        return run_learn_benchmark(args)
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


def run_learn_benchmark(args: argparse.Namespace) -> int:
    """Episodes per second of each learning method (self-play) with 1 worker and 2 local processes."""
    from gpquarto.bench.learn import format_learn_benchmark, learn_benchmark
    from gpquarto.learning import LearnConfig
    from gpquarto.learning.config import METHODS
    from gpquarto.runner import SerialRunner
    from gpquarto.runner.processes import ProcessRunner

    methods = args.methods or list(METHODS)
    unknown = [name for name in methods if name not in METHODS]
    if unknown:
        raise UsageError(f"unknown method {unknown[0]!r} (methods: {', '.join(METHODS)})")
    settings = {"rules": args.rules} if args.game == "quarto" else {}
    configs = {
        name: LearnConfig(game=args.game, settings=settings, method=name, episodes=args.episodes, eval_games=0)
        for name in methods
    }
    runners = {"1 worker (serial)": SerialRunner, "2 local processes": lambda: ProcessRunner(2)}
    print(format_learn_benchmark(learn_benchmark(runners, configs, repeats=args.repeats), configs))
    return 0
