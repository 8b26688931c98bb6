"""``gpquarto train --genome evaluator --depth D``: the evaluator runs of
:mod:`gpquarto.training.evaluator_training` (``--generations``, ``--population``, ``--games``,
``--opponents``, ``--schedule``, ``--seed``, ``--final-games``, ``--cost-weight``, ``--plugin``, ``--run-dir``, ``--resume``
and the runner options apply; the options of rule training are refused)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from gpquarto.cli import UsageError
from gpquarto.cli.common import make_runner_from_args

#: Options of ``train`` that only rule runs read (the rest of the rule config's options are evaluator config
#: fields too, read under the same names).
RULE_ONLY_OPTIONS = (
    "fallback_weight",
    "accuracy_weight",
    "accuracy_positions",
    "tactical",
    "lookahead",
    "start_from",
    "hall_of_fame_per_generation",
    "filename",
)


def run_evaluator(args: argparse.Namespace, config_options: Sequence[str]) -> int:
    """Start or resume an evaluator run; prints the champion's formula and where it is saved. ``config_options``
    are the options of ``train`` that set config fields: the evaluator config reads all but the rule-only ones."""
    from gpquarto.gp.evaluator import format_formula
    from gpquarto.gp.evaluator_files import load_evaluator
    from gpquarto.training.evaluator_training import EvaluatorConfig, EvaluatorEvolution, train_evaluator

    refused = [name for name in RULE_ONLY_OPTIONS if getattr(args, name, None) is not None]
    if refused:
        raise UsageError(f"--{refused[0].replace('_', '-')} is an option of rule training, not of --genome evaluator")
    options = [name for name in ("depth", "cost_weight", *config_options) if name not in RULE_ONLY_OPTIONS]
    given = {name: getattr(args, name) for name in options if getattr(args, name, None) is not None}
    if "plugins" in given:
        given["plugins"] = tuple(str(Path(plugin).resolve()) for plugin in given["plugins"])
    run_dir = Path(args.run_dir)
    checkpoint = run_dir / "checkpoint.json"
    try:
        if args.resume:
            if not checkpoint.exists():
                raise UsageError(f"nothing to resume: {checkpoint} does not exist")
            config = None
        else:
            if checkpoint.exists() or (run_dir / "config.json").exists():
                raise UsageError(f"{run_dir} already holds a run: use --resume to continue it, or another --run-dir")
            config = EvaluatorConfig(**given)
    except ValueError as error:
        raise UsageError(str(error)) from None
    began = time.perf_counter()

    def report(evolution: EvaluatorEvolution, row: dict) -> None:
        if not args.quiet:
            print(
                f"generation {row['generation']}: best {row['best']:.3f} mean {row['mean']:.3f} size {row['best_size']}"
            )

    with make_runner_from_args(args) as runner:
        evolution = train_evaluator(
            config, run_dir, resume=args.resume, generations=args.generations, runner=runner, on_generation=report
        )
    elapsed = time.perf_counter() - began
    path = run_dir / "best_evaluator.json"
    evaluator = load_evaluator(path, plugins=evolution.config.plugins)
    print(
        f"trained {evolution.generation} generations ({elapsed:.1f} s this session); best evaluator "
        f"{format_formula(evaluator.genome.tree)}; saved {path} "
        f"(play it as minimax:depth={evolution.config.depth},evaluator={path})"
    )
    return 0
