"""``gpquarto train``: argument parsing over :mod:`gpquarto.training` (start or resume a run folder).

``runs/NAME/`` gets ``config.json``, ``logbook.csv``, ``checkpoint.dill`` (after every generation, written
atomically), ``hall_of_fame.txt``, and at the end ``fitness.png``, ``best_player.p`` and ``best_player.json``;
the best player is also copied to ``--filename``. The best player is the hall of fame member that scores best when
every member plays the same ``final_games`` fresh games. ``--resume`` continues from the checkpoint with the saved
settings (options given again must agree with them, except ``--generations``, which may extend the run, unless a
``--draw-value X:Y`` schedule spans its generations), and copies the best player where the run was told to at its
start. ``--game quixo`` (with ``--size`` and ``--rules``) evolves Quixo rule players, with Quixo's defaults for the
settings not given (its plug-in's ``TrainingDefaults``). ``--genome evaluator --depth D`` evolves Quarto evaluators for
``minimax:depth=D`` in the same loop and run folder (the same lock, checkpoint, ``--resume`` and ``finished.json``),
with its own defaults (:data:`~gpquarto.training.config.GENOME_DEFAULTS`); the run ends with ``best_evaluator.json``
(and its formula simplified) instead of the player files.
"""

from __future__ import annotations

import argparse
import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING

from gpquarto.cli import UsageError
from gpquarto.cli.common import (
    DeferredBar,
    add_game_arguments,
    add_plugin_argument,
    add_runner_arguments,
    given_settings,
    make_runner_from_args,
    non_negative_int,
    positive_int,
)
from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.training.config import EVALUATOR, GENOME_DEFAULTS, GENOMES, game_setting_fields
from gpquarto.training.fitness import game_score

if TYPE_CHECKING:
    from gpquarto.training.config import EvolutionConfig
    from gpquarto.training.run import RunFolder

#: Command-line options that set fields of the evolution config (option dest == config field).
CONFIG_OPTIONS = (
    "generations",
    "population",
    "games",
    "openings",
    "opponents",
    "schedule",
    "seed",
    "fallback_weight",
    "draw_value",
    "rule_transplant_share",
    "parsimony",
    "accuracy_weight",
    "accuracy_positions",
    "accuracy_max_empties",
    "accuracy_bank",
    "tactical",
    "lookahead",
    "plugins",
    "start_from",
    "final_games",
    "hall_of_fame",
    "hall_of_fame_per_generation",
    "pooled_fitness",
    "racing",
    "genome",
    "depth",
    "cost_weight",
    "islands",
    "evaluator_blocks",
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="evolve a rule player by genetic programming",
        description="Evolve a player of if/then rules against a mix of opponents. Every generation is "
        "checkpointed in the run folder; --resume continues an interrupted run exactly.",
    )
    add_game_arguments(
        parser,
        unset=True,
        help="the game the rule players play, with its own training defaults for the options not given (docs/games.md)",
    )
    parser.add_argument("--generations", type=non_negative_int, default=None, help="generations to run (default 120)")
    parser.add_argument("--population", type=positive_int, default=None, help="genomes per generation (default 50)")
    parser.add_argument("--games", type=positive_int, default=None, help="fitness games per genome, even (default 80)")
    parser.add_argument(
        "--openings",
        type=non_negative_int,
        default=None,
        metavar="K",
        help="start each pair of fitness games from K seeded random plies (default 0: the start position)",
    )
    parser.add_argument(
        "--opponents",
        default=None,
        help="weighted opponent mix: SPEC:WEIGHT,... with any player spec (minimax:depth=2:1 is minimax at depth 2, "
        "weight 1) or hof, the run's own hall of fame (default random:1,minimax:depth=2:3; with --no-tactical "
        "random:1,minimax:depth=2:1)",
    )
    parser.add_argument(
        "--schedule",
        default=None,
        metavar="GEN:MIX;GEN:MIX",
        help="a curriculum: from generation GEN on, play MIX instead of --opponents "
        "(e.g. '30:random:1,minimax:depth=1:1;60:minimax:depth=2:1,hof:1')",
    )
    parser.add_argument("--seed", type=non_negative_int, default=None, help="run seed (default 0)")
    parser.add_argument(
        "--fallback-weight",
        type=float,
        default=None,
        help="score paid per unit of fallback rate (default 0.4)",
    )
    parser.add_argument(
        "--draw-value",
        type=draw_value_option,
        default=None,
        metavar="X",
        help="what a draw is worth in a genome's score, 0 to 1, a win being 1 and a loss 0: the score of its games "
        "is (wins + X x draws) / games, in the fitness, racing and the final choice (default 0.5, the points of a "
        "match; less favours genomes that win over those that draw). X:Y is a schedule: X at generation 0, "
        "rising in a straight line to Y at the last generation; the final choice values a draw at Y",
    )
    parser.add_argument(
        "--rule-transplant-share",
        type=float,
        default=None,
        metavar="S",
        help="rule genomes: the share of rule crossovers done as transplants, 0 to 1: each child gets a run of 1 to "
        "3 of the other parent's consecutive rules inserted at a random place in its own list (cut back to the "
        "rule cap from its end), where the others swap equal runs (default 0: no transplants)",
    )
    parser.add_argument(
        "--parsimony",
        type=float,
        default=None,
        metavar="P",
        help="rule genomes: score taken off per node of the genome, in the fitness, racing and the final choice "
        "(score - P x size), a bias towards short rule lists (default: the game's training defaults; 0: off)",
    )
    parser.add_argument(
        "--accuracy-weight",
        type=float,
        default=None,
        help="score added per unit of accuracy on a training bank of solved endgame decisions (default 1; 0: off; "
        "quixo: default 0; on 5x5 the bank is tactical, moves proven to win or lose within 3 plies, not solved); "
        "every decision is graded, a dense signal beside the games",
    )
    parser.add_argument(
        "--accuracy-positions",
        type=positive_int,
        default=None,
        help="size of the training bank of the accuracy term (default 1000 for Quarto rule players, else 200; "
        "built once, then cached)",
    )
    parser.add_argument(
        "--accuracy-max-empties",
        type=int,
        choices=range(6, 11),
        default=None,
        metavar="N",
        help="most empty squares of the training bank's positions, 6 to 10 (default 8; grade's bank goes to 10): "
        "larger banks take longer to build, once",
    )
    parser.add_argument(
        "--accuracy-bank",
        default=None,
        metavar="KIND",
        help="the kind of training bank of the accuracy term, where the game makes others besides its default "
        "(an unknown kind is refused with the list of the game's kinds; default: the game's default bank)",
    )
    parser.add_argument(
        "--final-games",
        type=non_negative_int,
        default=None,
        help="games replayed by each hall of fame member to pick the best (default 2000; evaluator genomes 1000)",
    )
    parser.add_argument(
        "--hall-of-fame",
        type=positive_int,
        default=None,
        metavar="N",
        help="members the hall of fame keeps for the final choice, per island (default 10; evaluator genomes "
        f"{GENOME_DEFAULTS[EVALUATOR]['hall_of_fame']})",
    )
    parser.add_argument(
        "--no-hall-of-fame-per-generation",
        dest="hall_of_fame_per_generation",
        action="store_const",
        const=False,
        default=None,
        help="keep the best scores ever in the hall of fame, as DEAP does (often near-copies from the generation "
        "with the easiest games), not the best of each generation",
    )
    parser.add_argument(
        "--pooled-fitness",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a genome bred unchanged (an elite, a copy) keeps its evaluations: its fitness is the mean of all the "
        "generations' games it played, and the hall of fame ranks it by that mean (default off)",
    )
    parser.add_argument(
        "--racing",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="successive halving in each generation: every genome plays a quarter of --games, then the better half "
        "of those still racing play as many new games as they have played, until four are left (default on for "
        "Quarto rule players unless --pooled-fitness or --islands is given; off for other games; --no-racing: "
        "every genome plays --games)",
    )
    parser.add_argument(
        "--no-tactical",
        dest="tactical",
        action="store_const",
        const=False,
        default=None,
        help="leave the tactical primitives out (and the lookahead ones, which build on them)",
    )
    parser.add_argument(
        "--no-lookahead",
        dest="lookahead",
        action="store_const",
        const=False,
        default=None,
        help="leave the lookahead primitives out (one-turn lookahead: the opponent's immediate reply)",
    )
    add_plugin_argument(parser, "primitive plugin file (repeatable)")
    parser.add_argument(
        "--start-from",
        dest="start_from",
        action="append",
        default=None,
        metavar="PLAYER_FILE",
        help="a saved player (.json or .p) whose rules join generation 0 in place of a random genome "
        "(repeatable): continue from a champion or a hand-written list",
    )
    add_runner_arguments(parser)
    parser.add_argument("--run-dir", default="runs/default", help="run folder (default runs/default)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --run-dir from its checkpoint")
    parser.add_argument(
        "--filename",
        default=None,
        help="where to copy the best player (default best_player.p; on --resume, where the run was told at its start)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--genome",
        choices=GENOMES,
        default=None,
        help="what evolves: rules (if/then rule players, the default) or evaluator (an evaluation for minimax's "
        "leaves, with its own defaults: depth 2, 10 generations, 2 islands of 24, 40 games against the "
        "hand-written heuristics at the same depth and minimax one ply deeper, 1,000 final games, no accuracy "
        "term; see gpquarto.training.config.evaluator_opponents)",
    )
    parser.add_argument(
        "--depth",
        type=positive_int,
        default=None,
        help="search depth (1 to 4) of an evaluator genome's minimax (default 2)",
    )
    parser.add_argument(
        "--cost-weight",
        type=float,
        default=None,
        help="evaluator genomes: score taken off per evaluation beyond one per leaf square, counted in the "
        "fitness games (default 0: no cost term)",
    )
    parser.add_argument(
        "--evaluator-blocks",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="evaluator genomes: the building blocks forced_loss, forced_outcome and safe_pair_parity join the library "
        "(default off: the library of the runs recorded before them)",
    )
    parser.add_argument(
        "--islands",
        type=positive_int,
        default=None,
        help="independent populations of --population genomes each, bred apart on the same games; the final "
        "choice replays every island's hall of fame (default 1; evaluator genomes 2)",
    )
    parser.set_defaults(handler=run)


def draw_value_option(text: str) -> tuple[float, float | None]:
    """``--draw-value``: ``X`` (the value of every generation; end None) or ``X:Y`` (a schedule from X at
    generation 0 to Y at the last), as (start, end); the config checks that both are 0 to 1."""
    parts = text.split(":")
    try:
        if len(parts) > 2:
            raise ValueError
        values = [float(part) for part in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X or X:Y (numbers from 0 to 1), got {text!r:.40}") from None
    return values[0], (values[1] if len(values) == 2 else None)


def _given(args: argparse.Namespace) -> dict:
    given = {name: getattr(args, name) for name in CONFIG_OPTIONS if getattr(args, name) is not None}
    if "draw_value" in given:
        given["draw_value"], given["draw_value_end"] = given["draw_value"]
    if args.game is not None:
        given["game"] = args.game
    given.update(game_setting_fields(given_settings(args)))
    if "settings" in given:
        given["settings"] = tuple(given["settings"].items())  # as the config holds them
    if "plugins" in given:
        given["plugins"] = tuple(str(Path(plugin).resolve()) for plugin in given["plugins"])
    if "start_from" in given:
        given["start_from"] = tuple(str(Path(player).resolve()) for player in given["start_from"])
    return given


def _config(args: argparse.Namespace):
    """The config of a new run from the options (defaults for the rest)."""
    from gpquarto.training import EvolutionConfig

    given = _given(args)
    return EvolutionConfig.for_game(given.pop("game", DEFAULT_GAME), **given)


def _check_resume_options(args: argparse.Namespace, run) -> None:
    """Options given again on --resume must agree with the run's config (except --generations)."""
    given = _given(args)
    changed = [name for name, value in given.items() if name != "generations" and getattr(run.config, name) != value]
    if "draw_value_end" in changed:  # one option sets both: named once, as it was written
        changed = [name for name in changed if name != "draw_value"]
    if changed:
        details = ", ".join(
            f"--draw-value {draw_value_text(given)} (run has {draw_value_text(vars(run.config))})"
            if name == "draw_value_end"
            else f"--{name.replace('_', '-')} {given[name]!r} (run has {getattr(run.config, name)!r})"
            for name in changed
        )
        raise UsageError(f"cannot resume with a different config: {details}")
    if args.filename is not None and run.best_player_copy is not None:
        if Path(args.filename).absolute() != run.best_player_copy:
            raise UsageError(
                f"cannot resume with a different --filename: the run copies its best player to {run.best_player_copy}"
            )


def draw_value_text(values: dict) -> str:
    """The ``--draw-value`` that gives ``values``' ``draw_value`` and ``draw_value_end`` (``0.25`` or ``0.25:0.5``)."""
    end = values.get("draw_value_end")
    return f"{values['draw_value']:g}" + ("" if end is None else f":{end:g}")


def run(args: argparse.Namespace) -> int:
    from gpquarto import training

    if args.filename is not None and args.genome == EVALUATOR:
        raise UsageError("--filename is for rule players: an evaluator run saves best_evaluator.json in its folder")
    run_dir = Path(args.run_dir)
    if args.resume:
        folder = training.open_run(run_dir) if (run_dir / "config.json").exists() else None
        if folder is None or not folder.checkpoint_path.exists():
            raise UsageError(f"nothing to resume: {run_dir / 'checkpoint.dill'} does not exist")
        _check_resume_options(args, folder)
        rules = folder.config.genome != EVALUATOR
        generations = args.generations if args.generations is not None else folder.config.generations
        done = folder.generations_done
        if done >= generations and folder.finished:
            print(f"nothing left to train: {run_dir} has finished its {done} generations (--generations {generations})")
            return 0
        total, start = generations, done
    else:
        if (run_dir / "checkpoint.dill").exists() or (run_dir / "config.json").exists():
            raise UsageError(occupied_folder_advice(run_dir))
        config = _config(args)
        total, start = config.generations, 0
        rules = config.genome != EVALUATOR
    began = time.perf_counter()
    try:
        result = _train_with_progress(args, run_dir, total, start, None if args.resume else config, rules)
    except KeyboardInterrupt:
        if (run_dir / "checkpoint.dill").exists():
            raise KeyboardInterrupt(
                f"{run_dir} keeps every finished generation; continue with: "
                f"python3 -m gpquarto train --resume --run-dir {shlex.quote(str(run_dir))}"
            ) from None
        raise
    elapsed = time.perf_counter() - began
    trained = (
        f"trained {plural(result.trained_now, 'generation')} ({result.generations_done} in all, "
        f"{elapsed:.1f} s this session)"
    )
    if not rules:
        from gpquarto.gp.evaluator import format_formula
        from gpquarto.gp.evaluator_files import load_evaluator

        path = run_dir / "best_evaluator.json"
        evaluator = load_evaluator(path, plugins=result.config.plugins)
        print(trained)
        print(f"best evaluator: {format_formula(evaluator.genome.tree)}")
        print(f"saved {path} (it plays as {result.best_player_spec})")
        print(next_steps(shown_path(path), result.best_player_spec, result.config.game))
        return 0
    player = result.best_player()
    saved = result.best_player_copy or result.best_player_path
    copies = f" (and {result.best_player_copy})" if result.best_player_copy else ""
    print(trained)
    print(champion_summary(player.metadata.get("fitness", {}), result.config))
    print(f"saved {result.best_player_path}{copies}")
    print(next_steps(shown_path(saved), shown_path(saved), result.config.game))
    return 0


def shown_path(path: Path) -> str:
    """``path`` relative to the working folder when it lies inside it (as a user would type it), else as it is."""
    try:
        return str(Path(path).absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def plural(count: int, noun: str) -> str:
    """``"1 generation"``, ``"2 generations"``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def occupied_folder_advice(run_dir: Path) -> str:
    """What to do when a new run is asked for in a folder that holds one: a finished run is trained further with
    ``--resume --generations N`` or left alone for a new folder; an unfinished one is continued with ``--resume``."""
    from gpquarto import training

    quoted = shlex.quote(str(run_dir))
    try:
        folder = training.open_run(run_dir)
        done, finished = folder.generations_done, folder.finished
    except (ValueError, OSError):
        return f"{run_dir} already holds a run: use --resume to continue it, or another --run-dir"
    if finished:
        return (
            f"{run_dir} holds a finished run of {plural(done, 'generation')}: start a new one in another folder "
            f"with its own player file (--run-dir runs/NAME --filename NAME.p), or train this one further with "
            f"--resume --run-dir {quoted} --generations N (N > {done})"
        )
    return (
        f"{run_dir} holds an unfinished run ({plural(done, 'generation')} done): continue it with --resume "
        f"--run-dir {quoted}, or start a new one with another --run-dir"
    )


def champion_summary(fitness: dict, config: EvolutionConfig) -> str:
    """The champion's final games and its fitness taken apart: the share of the points (a draw worth the run's
    ``final_draw_value``, half a win by default), less the fallback penalty, plus the accuracy term, with the most
    it can be."""
    games = fitness.get("games") or 0
    wins, draws, losses = (int(fitness.get(key, 0)) for key in ("wins", "draws", "losses"))
    value = config.final_draw_value
    points = game_score(wins, draws, wins + draws + losses, value)
    decisions, fallbacks = int(fitness.get("decisions", 0)), int(fitness.get("fallbacks", 0))
    parts = [f"{points:.3f} points" + (f" (a draw worth {value:g})" if value != 0.5 else "")]
    if config.fallback_weight and fallbacks:
        parts.append(f"- {config.fallback_weight:g} x {fallbacks / decisions:.3f} random fallbacks")
    accuracy = fitness.get("accuracy")
    if config.accuracy_weight and isinstance(accuracy, (int, float)):
        parts.append(f"+ {config.accuracy_weight:g} x {accuracy:.3f} accuracy")
    size = fitness.get("size")
    if config.parsimony and isinstance(size, int):
        parts.append(f"- {config.parsimony:g} x {size} nodes")
    most = 1 + (config.accuracy_weight if isinstance(accuracy, (int, float)) else 0)
    text = (
        f"champion: {wins} wins, {draws} draws, {losses} losses in {games} final games against the training "
        f"opponents ({points:.1%} of the points)"
    )
    if isinstance(accuracy, (int, float)):
        text += f"; {accuracy:.1%} of the training bank's decisions right, as grade counts them"
    score = fitness.get("score", float("nan"))
    return f"{text}\nfitness {score:.3f} = {' '.join(parts)} (at most {most:g})"


def next_steps(shown_file: str, spec: str, game: str) -> str:
    """Commands to try with the new champion: read it (``shown_file``), measure it against the game's yardstick and
    play against it (``spec``: the player file, or the search an evaluator was trained for)."""
    from gpquarto.games.defaults import training_defaults

    player = shlex.quote(spec)
    where = f" --game {shlex.quote(game)}"
    yardstick = training_defaults(game).evaluation_opponents[-1]
    commands = [
        (f"show {shlex.quote(shown_file)}", "what it is"),
        (f"match {player} {yardstick} --games 200{where}", "its strength"),
        (f"play --opponent {player}{where}", "play against it"),
    ]
    width = max(len(command) for command, _ in commands)
    return "\n".join(["next:"] + [f"  python3 -m gpquarto {command:<{width}}   # {why}" for command, why in commands])


def _train_with_progress(
    args: argparse.Namespace, run_dir: Path, total: int, start: int, config: EvolutionConfig | None, rules: bool
) -> RunFolder:
    """Start (``config``) or resume (None) the run in ``run_dir`` on the runner the arguments name, with a
    progress bar of generations."""
    from gpquarto import training

    # The runner is made before the run folder is written: an unreachable scheduler leaves nothing behind.
    with make_runner_from_args(args) as runner:
        bar = DeferredBar(total=total, initial=start, unit="gen", disable=args.quiet, dynamic_ncols=True)

        def after_generation(evolution, row: dict) -> None:
            bar.update(1, gen_best=f"{row['best']:.3f}", mean=f"{row['mean']:.3f}")

        try:
            if config is None:
                result = training.resume(
                    run_dir,
                    generations=args.generations,
                    plugins=_given(args).get("plugins", ()),
                    runner=runner,
                    on_generation=after_generation,
                    on_start=bar.start,
                )
            else:
                result = training.train(
                    config,
                    run_dir,
                    best_player_copy=(args.filename or "best_player.p") if rules else None,
                    runner=runner,
                    on_generation=after_generation,
                    on_start=bar.start,
                )
        finally:
            bar.close()
    return result
