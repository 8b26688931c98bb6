"""Quarto's own ``bench`` targets (:class:`~gpquarto.games.capabilities.Benchmarks`): ``engine`` (its fast
playouts and search counters), ``players`` (the zoo's searches on its staged positions, ``--compare`` a reference
module side by side), ``solver`` (by empty squares, pure Python or ``--compiled``) and ``evaluators`` (evolved
evaluators against the hand-written heuristics); see :mod:`gpquarto.bench`."""

from __future__ import annotations

import argparse

from gpquarto.cli import UsageError
from gpquarto.cli.common import game_settings
from gpquarto.games.capabilities import Benchmarks
from gpquarto.games.quarto.lines import Rules


class QuartoBenchmarks(Benchmarks):
    """See the module docstring."""

    targets = ("engine", "players", "solver", "evaluators")

    def run(self, target: str, args: argparse.Namespace) -> int:
        _, settings = game_settings(args)
        args.rules = settings["rules"]
        args.positions = args.positions or 3
        rules = Rules(args.rules)
        if target == "engine":
            from gpquarto.games.quarto.bench.engine import engine_benchmark, format_engine_benchmark

            results = engine_benchmark(repeats=args.repeats, seconds=args.seconds, rules=rules)
            print(format_engine_benchmark(results, rules))
            return 0
        if target == "evaluators":
            return run_evaluator_benchmark(args)
        if target == "solver":
            from gpquarto.games.quarto.bench.solver import run_solver_benchmark

            return run_solver_benchmark(args)
        from gpquarto.games.quarto.bench.players import run_players_benchmark

        return run_players_benchmark(args)


def run_evaluator_benchmark(args: argparse.Namespace) -> int:
    """Time per leaf and per placement search (depths 1 and 2) of each ``--evaluator`` beside the hand-written
    heuristics, and with ``--games`` per decision in games against the reference players."""
    from gpquarto.games.quarto.bench.evaluators import (
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


BENCHMARKS = QuartoBenchmarks()
