"""``gpquarto bench engine|players|solver|train|evaluators|learn``: speed benchmarks (medians over repeats).

``--game quixo``: ``engine`` times random Quixo games (pure Python, numba, the player API; ``--compare
tests.reference`` adds the slow reference of the tests side by side), ``players`` alpha-beta's time per decision at
depths 4 and 5 on positions from real games (or that of each ``--players`` spec, saved player files included), ``solver`` the solving of the 3x3 or 4x4 board (``--size``; pure
Python, or ``--compiled``); see :mod:`gpquarto.games.quixo.bench.engine`. ``learn --game quarto|quixo``: episodes per second of
each learning method with 1 and 2 workers.
"""

from __future__ import annotations

import argparse

from gpquarto.cli import UsageError
from gpquarto.cli.common import add_game_arguments, positive_int, positive_seconds

TARGETS = ("engine", "players", "solver", "train", "evaluators", "learn")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure speed: engine (games/s), players (time per decision), solver (time per solve), "
        "train (seconds per generation), evaluators (time per leaf and per search against lines) or learn "
        "(episodes per second of each learning method, 1 and 2 workers)",
        description="Speed benchmarks. The machine may be shared: figures are medians over repeats.",
    )
    parser.add_argument("target", choices=TARGETS, help="what to measure")
    parser.add_argument("--repeats", type=positive_int, default=5, help="repeats (default 5); the median is reported")
    parser.add_argument("--seconds", type=positive_seconds, default=1.0, help="minimum seconds per repeat (default 1)")
    parser.add_argument(
        "--compare",
        metavar="MODULE",
        help="players, solver: also time the reference versions from MODULE (its make_player / solve), "
        "side by side, and print the speed-up; e.g. tests.reference from a source checkout (engine --game quixo: "
        "MODULE.quixo.random_playout_winner)",
    )
    parser.add_argument(
        "--players",
        type=lambda text: [spec.strip() for spec in text.split(";") if spec.strip()],
        help="players: the specs to time, separated by ';': zoo specs, saved player files, "
        "minimax:depth=D,evaluator=FILE (default: the zoo's search players; --game quixo: alphabeta at depths 4, 5)",
    )
    parser.add_argument(
        "--positions",
        type=positive_int,
        default=None,
        help="solver: positions per row (default 3); players --game quixo: positions from games (default 20)",
    )
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
        help="evaluators: an evaluator file to time beside lines, quarticity, guaranteed_loss and lines one ply "
        "deeper (repeatable)",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=None,
        help="evaluators: also time decisions in that many seeded games of each evaluator's minimax:depth=2 "
        "against minimax:depth=2, minimax:depth=2,heuristic=guaranteed_loss and minimax:depth=3 (side by side)",
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
    add_game_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from gpquarto.games.quarto.lines import Rules

    if args.settings and args.target != "train":
        raise UsageError("--set changes a training setting: it goes with 'bench train' only")
    if (args.evaluators or args.games) and args.target != "evaluators":
        raise UsageError(f"{'--evaluator' if args.evaluators else '--games'} goes with 'bench evaluators' only")
    if args.target == "learn":
        return run_learn_benchmark(args)
    if args.game != "quarto":
        return run_quixo_benchmark(args)
    if args.size is not None:
        raise UsageError("--size is a Quixo setting")
    args.rules = args.rules or Rules.CLASSIC.value
    args.positions = args.positions or 3
    rules = Rules(args.rules)
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
    """Time per leaf and per placement search (depths 1 and 2) of each ``--evaluator`` beside the hand-written
    heuristics, and with ``--games`` per decision in games against the reference players."""
    from gpquarto.bench.evaluators import (
        evaluator_benchmark,
        format_decision_times,
        format_evaluator_benchmark,
        time_per_decision,
    )
    from gpquarto.gp.evaluator_files import load_evaluator

    if not args.evaluators:
        raise UsageError("bench evaluators needs at least one --evaluator FILE")
    try:
        evaluators = {path: load_evaluator(path) for path in args.evaluators}
    except ValueError as error:
        raise UsageError(str(error)) from None
    print(format_evaluator_benchmark(evaluator_benchmark(evaluators, repeats=args.repeats, seconds=args.seconds / 5)))
    if args.games:
        print(format_decision_times(time_per_decision(list(evaluators), games=args.games)))
    return 0


def run_quixo_benchmark(args: argparse.Namespace) -> int:
    """``bench engine|players|solver --game quixo`` (see :mod:`gpquarto.games.quixo.bench.engine`)."""
    from gpquarto.cli.common import game_settings
    from gpquarto.games.quixo.bench import engine as quixo
    from gpquarto.resolve import make_player

    _, settings = game_settings(args)
    size, rules = settings["size"], settings["rules"]
    if args.target == "train":
        raise UsageError("bench train measures Quarto training: it has no --game quixo")
    if args.players and args.target != "players":
        raise UsageError("--players goes with bench players")
    if (args.empties or args.compiled) and args.target != "solver":
        raise UsageError("--empties and --compiled go with bench solver")
    if args.target == "engine":
        reference = quixo.reference_playout(args.compare) if args.compare else None
        rates = quixo.playout_rates(size, rules, args.repeats, args.seconds, reference)  # type: ignore[arg-type]
        print(quixo.format_playout_rates(rates, size, rules))  # type: ignore[arg-type]
    elif args.target == "players":
        if args.compare:
            raise UsageError("--compare goes with bench engine --game quixo (the reference playout)")
        players = tuple(args.players or ())
        for spec in players:
            make_player(spec, game="quixo")  # a bad spec or file is one line before any timing
        print(quixo.run_players_benchmark(args.positions or 20, players=players), flush=True)
    else:
        if args.compare or args.empties:
            raise UsageError("bench solver --game quixo times the whole board: no --compare or --empties")
        if args.size is None:
            raise UsageError("bench solver --game quixo needs --size 3 or 4")
        if size not in (3, 4):
            raise UsageError(f"the solver handles the 3x3 and 4x4 boards, not {size}x{size}")
        if args.compiled:
            from gpquarto.games.quixo import compiled

            if not compiled.AVAILABLE:
                raise UsageError('bench solver --compiled needs numba: pip install "gpquarto[fast]"')
        print(quixo.solver_time(size, rules, compiled=args.compiled))  # type: ignore[arg-type]
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
    from gpquarto.cli.common import game_settings

    _, settings = game_settings(args)
    configs = {
        name: LearnConfig(game=args.game, settings=settings, method=name, episodes=args.episodes, eval_games=0)
        for name in methods
    }
    runners = {"1 worker (serial)": SerialRunner, "2 local processes": lambda: ProcessRunner(2)}
    print(format_learn_benchmark(learn_benchmark(runners, configs, repeats=args.repeats), configs))
    return 0
