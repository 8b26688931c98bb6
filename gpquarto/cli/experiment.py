"""``gpquarto experiment``: several training configurations times N seeds, then statistics and figures."""

from __future__ import annotations

import argparse
import sys

from gpquarto.cli import UsageError
from gpquarto.cli.common import (
    add_game_arguments,
    add_plugin_argument,
    add_runner_arguments,
    non_negative_int,
    positive_int,
)
from gpquarto.games.registry import DEFAULT_GAME

EPILOG = """\
configurations, in order: --set KEY=VALUE before any --variant or --config sets all of them; --variant NAME
starts a configuration and the --set options after it change only that one; --config FILE adds one
named after a JSON file of settings. Example:
  gpquarto experiment --seeds 5 --set generations=30 --variant basic --set tactical=false --variant tactical
KEY is any training setting (generations, population, games, opponents, fallback_weight, tactical, ...).
Run the same command again to continue an interrupted experiment."""


class _Step(argparse.Action):
    """Keeps --set, --variant and --config in the order given (their order decides what applies where)."""

    def __call__(self, parser, namespace, values, option_string=None):
        steps = list(getattr(namespace, "steps", None) or [])
        steps.append((self.dest, values))
        namespace.steps = steps


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "experiment",
        help="compare training configurations over many seeds",
        description="Train every configuration with every seed (each run in its own folder), measure each "
        "best player against the evaluation opponents, and compare the configurations: medians and "
        "interquartile ranges, Mann-Whitney U tests with Holm's correction, a CSV and figures.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--set", dest="set", action=_Step, metavar="KEY=VALUE", help="a training setting")
    parser.add_argument("--variant", dest="variant", action=_Step, metavar="NAME", help="start a configuration")
    parser.add_argument("--config", dest="config", action=_Step, metavar="FILE", help="a configuration from JSON")
    parser.add_argument("--seeds", type=positive_int, default=5, help="seeds per configuration (default 5)")
    parser.add_argument("--first-seed", type=non_negative_int, default=0, help="the first seed (default 0)")
    parser.add_argument(
        "--against",
        action="append",
        default=None,
        metavar="SPEC",
        help="evaluation opponent (repeatable; default: the game's, random and minimax:depth=2 in Quarto)",
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--eval-games", type=positive_int, default=200, help="games per evaluation opponent (default 200)"
    )
    parser.add_argument(
        "--grade-positions",
        type=non_negative_int,
        default=0,
        metavar="N",
        help="also grade each best player against perfect play on the grade bank of N positions (default 0: off)",
    )
    add_plugin_argument(parser, "primitive plugin file a configuration names (repeatable; a plan runs no other code)")
    parser.add_argument("--out", default="runs/experiment", help="experiment folder (default runs/experiment)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    add_runner_arguments(parser)
    parser.set_defaults(handler=run, steps=[])


def build_plan(args: argparse.Namespace):
    """The experiment plan the options describe."""
    from gpquarto.cli.common import given_settings
    from gpquarto.jobs.experiment import (
        MAX_SEEDS,
        ExperimentPlan,
        Variant,
        parse_setting,
        variant_from_file,
    )
    from gpquarto.resolve import make_unattended_player
    from gpquarto.training.config import game_setting_fields, training_defaults

    if args.seeds > MAX_SEEDS:  # before a range of them is made
        raise ValueError(f"--seeds: at most {MAX_SEEDS:,} seeds per configuration, got {args.seeds:,}")
    base: dict = {"game": args.game}  # plans written before other games name none: they are the default game's
    base.update(game_setting_fields(given_settings(args)))
    variants: list[Variant] = []
    for kind, value in args.steps:
        if kind == "set":
            key, setting = parse_setting(value)
            target = variants[-1].settings if variants else base
            target[key] = setting
        elif kind == "variant":
            variants.append(Variant(value, {}))
        else:
            variants.append(variant_from_file(value))
    game = base.get("game", DEFAULT_GAME)
    opponents = tuple(args.against or training_defaults(game).evaluation_opponents)
    for spec in opponents:
        make_unattended_player(spec, game=game)
    return ExperimentPlan(
        variants=tuple(variants) or (Variant("default", {}),),
        seeds=tuple(range(args.first_seed, args.first_seed + args.seeds)),
        base=base,
        opponents=opponents,
        evaluation_games=args.eval_games + args.eval_games % 2,
        grade_positions=args.grade_positions,
    )


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gpquarto.cli.common import make_runner_from_args
    from gpquarto.jobs.experiment import run_experiment, summarize
    from gpquarto.jobs.experiment_report import format_summary, write_report

    plan = build_plan(args)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out}: exists and is not a folder")

    def said(variant: str, seed: int, what: str) -> None:
        if not args.quiet:
            print(f"{variant} seed {seed}: {what}", file=sys.stderr)

    with make_runner_from_args(args) as runner:
        run_experiment(plan, out, runner=runner, on_run=said, plugins=tuple(args.plugins or ()))
    summary = summarize(out)
    print(format_summary(summary))
    written = write_report(summary, out)
    print(f"wrote {', '.join(written)} to {out}")
    return 0
