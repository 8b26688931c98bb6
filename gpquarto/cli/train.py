"""``gpquarto train``: evolve a rule player, writing a run folder that can be resumed after any interruption.

``runs/NAME/`` gets ``config.json``, ``logbook.csv``, ``checkpoint.dill`` (after every generation, written
atomically), ``hall_of_fame.txt``, and at the end ``fitness.png``, ``best_player.p`` and ``best_player.json``;
the best player is also copied to ``--filename``. The best player is the hall of fame member that scores best
when every member plays the same ``final_games`` fresh games. ``--resume`` continues from the checkpoint with the saved
settings (options given again must agree with them, except ``--generations``, which may extend the run).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import time
from dataclasses import fields
from pathlib import Path

from gpquarto.atomic import write_text_atomic
from gpquarto.cli import UsageError
from gpquarto.cli.common import add_plugin_argument, non_negative_int, positive_int

CHECKPOINT = "checkpoint.dill"
#: Command-line options that set fields of the evolution config (option dest == config field).
CONFIG_OPTIONS = (
    "generations",
    "population",
    "games",
    "opponents",
    "seed",
    "fallback_weight",
    "tactical",
    "plugins",
    "final_games",
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="evolve a rule player by genetic programming",
        description="Evolve a player of if/then rules against a mix of opponents. Every generation is "
        "checkpointed in the run folder; --resume continues an interrupted run exactly.",
    )
    parser.add_argument("--generations", type=non_negative_int, default=None, help="generations to run (default 120)")
    parser.add_argument("--population", type=positive_int, default=None, help="genomes per generation (default 50)")
    parser.add_argument("--games", type=positive_int, default=None, help="fitness games per genome, even (default 40)")
    parser.add_argument("--opponents", default=None, help="weighted opponent mix (default random:1,novice:1)")
    parser.add_argument("--seed", type=non_negative_int, default=None, help="run seed (default 0)")
    parser.add_argument(
        "--fallback-weight", type=float, default=None, help="score paid per unit of fallback rate (default 0.4)"
    )
    parser.add_argument(
        "--final-games",
        type=non_negative_int,
        default=None,
        help="games replayed by each hall of fame member to pick the best (default 200)",
    )
    parser.add_argument(
        "--no-tactical",
        dest="tactical",
        action="store_const",
        const=False,
        default=None,
        help="leave the tactical primitives out",
    )
    add_plugin_argument(parser, "primitive plugin file (repeatable)")
    parser.add_argument("--workers", type=positive_int, default=None, help="worker processes (default: all cores)")
    parser.add_argument(
        "--backend",
        choices=("serial", "processes", "dask"),
        default="processes",
        help="where games run (default processes)",
    )
    parser.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler address (with --backend dask)"
    )
    parser.add_argument("--run-dir", default="runs/default", help="run folder (default runs/default)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --run-dir from its checkpoint")
    parser.add_argument(
        "--filename", default="best_player.p", help="where to copy the best player (default best_player.p)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=run)


def _given(args: argparse.Namespace) -> dict:
    given = {name: getattr(args, name) for name in CONFIG_OPTIONS if getattr(args, name) is not None}
    if "plugins" in given:
        given["plugins"] = tuple(str(Path(plugin).resolve()) for plugin in given["plugins"])
    return given


def _config(args: argparse.Namespace, checkpoint: Path):
    from gpquarto.gp.evolution import EvolutionConfig

    given = _given(args)
    if not args.resume:
        if checkpoint.exists():
            raise UsageError(
                f"{checkpoint.parent} already holds a run: use --resume to continue it, or another --run-dir"
            )
        return EvolutionConfig(**given)
    if not checkpoint.exists():
        raise UsageError(f"nothing to resume: {checkpoint} does not exist")
    config_file = checkpoint.parent / "config.json"
    try:
        saved = EvolutionConfig.from_dict(json.loads(config_file.read_text())["evolution"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UsageError(f"{config_file}: unreadable run config ({error})") from None
    changed = [name for name, value in given.items() if name != "generations" and getattr(saved, name) != value]
    if changed:
        details = ", ".join(
            f"--{name.replace('_', '-')} {given[name]!r} (run has {getattr(saved, name)!r})" for name in changed
        )
        raise UsageError(f"cannot resume with a different config: {details}")
    values = {item.name: getattr(saved, item.name) for item in fields(saved)}
    values.update(given)
    return EvolutionConfig(**values)


def write_logbook(path: Path, rows: list[dict]) -> None:
    """``logbook.csv``: one row per generation (floats written exactly, with ``repr``)."""
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({key: repr(value) if isinstance(value, float) else value for key, value in row.items()})
    write_text_atomic(path, buffer.getvalue())


def write_hall_of_fame(path: Path, hall_of_fame) -> None:
    """``hall_of_fame.txt``: each member's fitness and rules in the safe text form."""
    parts = []
    for rank, genome in enumerate(hall_of_fame, 1):
        record = genome.record
        parts.append(
            f"# {rank}. score {genome.fitness.values[0]!r}: {record.get('wins')} wins, {record.get('draws')} draws, "
            f"{record.get('losses')} losses, {record.get('fallbacks')} fallbacks in {record.get('decisions')} decisions, size {record.get('size')}"
        )
        parts.append(genome.describe())
        parts.append("")
    write_text_atomic(path, "\n".join(parts))


def write_plot(path: Path, rows: list[dict]) -> None:
    """``fitness.png``: best and mean score per generation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    generations = [row["generation"] for row in rows]
    axes.plot(generations, [row["best"] for row in rows], label="best")
    axes.plot(generations, [row["mean"] for row in rows], label="mean")
    axes.plot(generations, [row["hall_of_fame_best"] for row in rows], label="hall of fame best", linestyle=":")
    axes.set_xlabel("generation")
    axes.set_ylabel("score")
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    temporary = path.with_name(f".{path.name}.tmp.png")
    figure.savefig(temporary, dpi=100)
    plt.close(figure)
    os.replace(temporary, path)


def run(args: argparse.Namespace) -> int:
    from gpquarto.gp.backends import make_backend
    from gpquarto.gp.evolution import Evolution
    from gpquarto.gp.fitness import LibrarySpec, get_library
    from gpquarto.gp.storage import player_data, save_player

    if args.scheduler and args.backend != "dask":
        raise UsageError("--scheduler needs --backend dask")
    run_dir = Path(args.run_dir)
    checkpoint = run_dir / CHECKPOINT
    config = _config(args, checkpoint)
    library = get_library(LibrarySpec(config.plugins, config.tactical))
    if args.resume:
        evolution = Evolution.load_checkpoint(str(checkpoint), library, config)
        evolution.config = config
    else:
        evolution = Evolution.start(config, library)
    run_dir.mkdir(parents=True, exist_ok=True)
    execution = {"backend": args.backend, "workers": args.workers, "scheduler": args.scheduler}
    write_text_atomic(
        run_dir / "config.json", json.dumps({"evolution": config.as_dict(), "execution": execution}, indent=2) + "\n"
    )
    if not args.resume:
        evolution.save_checkpoint(str(checkpoint))

    from tqdm import tqdm

    began = time.perf_counter()
    bar = tqdm(
        total=config.generations, initial=evolution.generation, unit="gen", disable=args.quiet, dynamic_ncols=True
    )

    def after_generation(evolution: Evolution, row: dict) -> None:
        evolution.save_checkpoint(str(checkpoint))
        write_logbook(run_dir / "logbook.csv", evolution.logbook)
        write_hall_of_fame(run_dir / "hall_of_fame.txt", evolution.hall_of_fame)
        bar.set_postfix(best=f"{row['best']:.3f}", mean=f"{row['mean']:.3f}", refresh=False)
        bar.update(1)

    backend = make_backend(args.backend, workers=args.workers, scheduler=args.scheduler)
    try:
        evolution.run(backend, after_generation)
        bar.close()
        if not evolution.hall_of_fame.items:
            raise UsageError("no generation was evaluated: nothing to save (use --generations 1 or more)")
        best = evolution.champion(backend)
    finally:
        bar.close()
        backend.close()
    write_logbook(run_dir / "logbook.csv", evolution.logbook)
    write_hall_of_fame(run_dir / "hall_of_fame.txt", evolution.hall_of_fame)
    write_plot(run_dir / "fitness.png", evolution.logbook)
    fitness = {"score": best.fitness.values[0], **best.record, "games": config.final_games or config.games}
    data = player_data(best, library, name=Path(args.filename).stem, config=config.as_dict(), fitness=fitness)
    save_player(run_dir / "best_player.p", data)
    save_player(run_dir / "best_player.json", data)
    target = Path(args.filename)
    if target.resolve() != (run_dir / "best_player.p").resolve():
        if target.suffix.lower() == ".json":
            save_player(target, data)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(run_dir / "best_player.p", target)
    elapsed = time.perf_counter() - began
    print(
        f"trained {evolution.generation} generations ({elapsed:.1f} s this session); best score {best.fitness.values[0]:.3f}; saved {run_dir / 'best_player.p'} and {target}"
    )
    return 0
