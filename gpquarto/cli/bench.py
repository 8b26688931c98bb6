"""``gpquarto bench engine|players|solver|train|evaluators|learn``: speed benchmarks (medians over repeats).

``engine``, ``players`` and ``solver`` are a game's own where its plug-in offers them
(:class:`~gpquarto.games.capabilities.Benchmarks`: Quarto's fast playouts and staged positions, Quixo's compiled
playouts and whole-board solves), and otherwise the generic ones over the game interface
(:mod:`gpquarto.bench.generic`: random games per second, time per decision of ``--players`` on positions of
seeded random games, the exact solver's time by ``--empties``). ``train`` times generations of the game's default
training (``--set`` changes it) and ``learn`` the episodes per second of each learning method, for any game.
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
    from gpquarto.cli.common import game_settings
    from gpquarto.games.capabilities import Benchmarks
    from gpquarto.games.registry import get_plugin

    if args.settings and args.target != "train":
        raise UsageError("--set changes a training setting: it goes with 'bench train' only")
    if (args.evaluators or args.games) and args.target != "evaluators":
        raise UsageError(f"{'--evaluator' if args.evaluators else '--games'} goes with 'bench evaluators' only")
    game, settings = game_settings(args)
    if args.target == "learn":
        return run_learn_benchmark(args)
    if args.target == "train":
        return run_train_benchmark(args)
    plugin = get_plugin(game)
    own = plugin.capability_or(Benchmarks, None)
    if own is not None and args.target in own.targets:
        return own.run(args.target, args)
    return run_generic_benchmark(args, game, settings)


def run_generic_benchmark(args: argparse.Namespace, game: str, settings: dict) -> int:
    """``bench engine|players|solver`` of a game over the game interface (:mod:`gpquarto.bench.generic`)."""
    from gpquarto.bench import generic
    from gpquarto.cli.common import game_title
    from gpquarto.resolve import make_player

    if args.target == "evaluators":
        raise UsageError(f"game '{game}' has no evaluator benchmark (evolved evaluators are not made for it)")
    if args.compare or args.compiled:
        raise UsageError(
            f"{'--compare' if args.compare else '--compiled'} times a game's own fast path: {game} has none"
        )
    if args.players and args.target != "players":
        raise UsageError("--players goes with bench players")
    if args.empties and args.target != "solver":
        raise UsageError("--empties goes with bench solver")
    if args.target == "engine":
        rates = generic.random_game_rates(game, settings, args.repeats, args.seconds)
        print(generic.format_random_game_rates(rates, game_title(game, settings)))
    elif args.target == "players":
        players = tuple(args.players or ())
        for spec in players:
            make_player(spec, game=game)  # a bad spec or file is one line before any timing
        print(generic.players_benchmark(game, settings, players, args.positions or 20), flush=True)
    else:
        print(generic.solver_benchmark(game, settings, args.empties or [6, 8, 10], args.positions or 3), flush=True)
    return 0


def run_train_benchmark(args: argparse.Namespace) -> int:
    """Seconds per generation of the default training (or the one ``--set`` changes) with 1 and 2 local workers
    and a 2-worker local Dask cluster."""
    from gpquarto.bench.train import format_train_benchmark, train_benchmark
    from gpquarto.jobs.experiment import parse_setting
    from gpquarto.runner import SerialRunner
    from gpquarto.runner.processes import ProcessRunner
    from gpquarto.training import EvolutionConfig

    runners: dict = {"1 worker (serial)": SerialRunner, "2 local processes": lambda: ProcessRunner(2)}
    try:
        import distributed  # noqa: F401

        from gpquarto.runner.dask import DaskRunner

        runners["local Dask cluster, 2 workers"] = lambda: DaskRunner(local_workers=2)
    except ImportError:
        print("(no Dask: pip install 'gpquarto[distributed]' to measure it too)")
    from gpquarto.cli.common import game_settings

    game, _ = game_settings(args)
    config = EvolutionConfig.for_game(game, **dict(parse_setting(text) for text in args.settings))
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
    from gpquarto.cli.common import game_settings

    _, settings = game_settings(args)
    configs = {
        name: LearnConfig(game=args.game, settings=settings, method=name, episodes=args.episodes, eval_games=0)
        for name in methods
    }
    runners = {"1 worker (serial)": SerialRunner, "2 local processes": lambda: ProcessRunner(2)}
    print(format_learn_benchmark(learn_benchmark(runners, configs, repeats=args.repeats), configs))
    return 0
