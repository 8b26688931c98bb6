"""Quixo's own ``bench`` targets (:class:`~gpquarto.games.capabilities.Benchmarks`): ``engine`` (pure Python,
numba, the player API, ``--compare`` the slow reference), ``players`` (alpha-beta at depths 4 and 5 with the
targets, or each ``--players`` spec, and the rule players' lookahead facts) and ``solver`` (the whole 3x3 or 4x4
board); see :mod:`gpquarto.games.quixo.bench.engine`."""

from __future__ import annotations

import argparse

from gpquarto.cli import UsageError
from gpquarto.cli.common import game_settings, given_settings
from gpquarto.games.capabilities import Benchmarks
from gpquarto.games.quixo.bench import engine as quixo
from gpquarto.games.quixo.game import QUIXO
from gpquarto.games.quixo.search.solver import SOLVABLE_SIZES
from gpquarto.resolve import make_player


class QuixoBenchmarks(Benchmarks):
    """See the module docstring."""

    targets = ("engine", "players", "solver")

    def run(self, target: str, args: argparse.Namespace) -> int:
        _, settings = game_settings(args)
        size, rules = settings["size"], settings["rules"]
        if args.players and target != "players":
            raise UsageError("--players goes with bench players")
        if (args.empties or args.compiled) and target != "solver":
            raise UsageError("--empties and --compiled go with bench solver")
        if target == "engine":
            reference = quixo.reference_playout(args.compare) if args.compare else None
            rates = quixo.playout_rates(size, rules, args.repeats, args.seconds, reference)  # type: ignore[arg-type]  # argparse checked the choices
            print(quixo.format_playout_rates(rates, size, rules))  # type: ignore[arg-type]  # argparse checked the choices
        elif target == "players":
            if args.compare:
                raise UsageError("--compare goes with bench engine --game quixo (the reference playout)")
            players = tuple(args.players or ())
            for spec in players:
                make_player(spec, game=QUIXO.name)  # a bad spec or file is one line before any timing
            print(quixo.run_players_benchmark(args.positions or 20, players=players), flush=True)
        else:
            if args.compare or args.empties:
                raise UsageError("bench solver --game quixo times the whole board: no --compare or --empties")
            if "size" not in given_settings(args):
                raise UsageError("bench solver --game quixo needs --size 3 or 4")
            if size not in SOLVABLE_SIZES:
                raise UsageError(f"the solver handles the 3x3 and 4x4 boards, not {size}x{size}")
            if args.compiled:
                from gpquarto.games.quixo import compiled

                if not compiled.AVAILABLE:
                    raise UsageError('bench solver --compiled needs numba: pip install "gpquarto[fast]"')
            print(quixo.solver_time(size, rules, compiled=args.compiled))  # type: ignore[arg-type]  # argparse checked the choices
        return 0


BENCHMARKS = QuixoBenchmarks()
