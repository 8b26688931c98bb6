"""``gpquarto learn``: learn a player by reinforcement in a run folder (start it, or ``--resume`` it).

The run folder holds the config, an atomic checkpoint after every batch, the learning curve
(``learning.csv``, ``learning.png``) and the learned player (``learned_player.npz``), which any command
that takes a player spec loads by its path.
"""

from __future__ import annotations

import argparse
import time

from gpquarto.cli import UsageError
from gpquarto.cli.common import (
    DeferredBar,
    add_game_arguments,
    add_runner_arguments,
    given_settings,
    make_runner_from_args,
    non_negative_int,
    positive_int,
)


def _unit_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1], got {text}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    from gpquarto.learning.config import METHODS, STEPS

    parser = subparsers.add_parser(
        "learn",
        help="learn a player by reinforcement (TD with an n-tuple network, Q-learning, Monte-Carlo)",
        description="Learn a player by reinforcement in a run folder: episodes in batches on the runner (the "
        "same result for any number of workers), a checkpoint after every batch (--resume continues exactly), "
        "a learning curve and learned_player.npz, which every command taking a player loads by its path.",
    )
    add_game_arguments(parser, unset=True, help="the game to learn")
    parser.add_argument("--method", choices=METHODS, default=None, help="learning method (default td-ntuple)")
    parser.add_argument(
        "--episodes",
        type=positive_int,
        default=None,
        help="episodes to learn from (default: the game's for the method, e.g. td-ntuple 60000 on Quarto; 20000)",
    )
    parser.add_argument("--seed", type=non_negative_int, default=None, help="run seed (default 0)")
    parser.add_argument("--run-dir", required=True, metavar="DIR", help="the run folder")
    parser.add_argument("--resume", action="store_true", help="continue the run in --run-dir from its checkpoint")
    parser.add_argument(
        "--opponents",
        default=None,
        metavar="MIX",
        help="who the learner plays: self (self-play, the default), any player spec, or a weighted mix "
        "SPEC:WEIGHT,... as in train (self:3,random:1)",
    )
    parser.add_argument("--batch", type=positive_int, default=None, help="episodes per batch of frozen play (100)")
    parser.add_argument(
        "--alpha",
        type=_unit_float,
        default=None,
        help="step size (default by method and game: td-ntuple 0.01 Quarto, 0.1 Quixo; q-learning 0.2; monte-carlo 0.05)",
    )
    parser.add_argument(
        "--step",
        choices=STEPS,
        default=None,
        help="n-tuple step rule: constant (Quarto's default) or tc (temporal coherence, Quixo's default)",
    )
    parser.add_argument("--lambda", dest="lam", type=_unit_float, default=None, help="TD(lambda) (default 0.5)")
    parser.add_argument(
        "--epsilon",
        type=_unit_float,
        default=None,
        help="exploration at the start (default 0.2 for Quarto's td-ntuple, else 0.1)",
    )
    parser.add_argument("--epsilon-end", type=_unit_float, default=None, help="exploration at the end (default 0)")
    parser.add_argument(
        "--eval-every", type=non_negative_int, default=None, help="episodes between learning-curve points (0: end)"
    )
    parser.add_argument("--eval-games", type=non_negative_int, default=None, help="games per curve point (200)")
    parser.add_argument(
        "--eval-opponents", default=None, metavar="SPECS", help="curve opponents (default random,minimax:depth=2)"
    )
    parser.add_argument(
        "--guard",
        action="store_true",
        default=None,
        help="the saved player plays with a tactical guard: it takes a win, and never hands one over when it "
        "can avoid it (off by default; learning is unchanged)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_runner_arguments(parser, default_workers="1")
    parser.set_defaults(handler=run)


#: Command-line option -> config field.
_OPTIONS = {
    "game": "game",
    "method": "method",
    "episodes": "episodes",
    "seed": "seed",
    "opponents": "opponents",
    "batch": "batch",
    "alpha": "alpha",
    "step": "step",
    "lam": "lam",
    "epsilon": "epsilon_start",
    "epsilon_end": "epsilon_end",
    "eval_every": "eval_every",
    "eval_games": "eval_games",
    "eval_opponents": "eval_opponents",
    "guard": "guard",
}


def run(args: argparse.Namespace) -> int:
    from gpquarto.learning import LearnConfig, learn, open_learn_run, resume

    given = {field: getattr(args, option) for option, field in _OPTIONS.items() if getattr(args, option) is not None}
    settings = given_settings(args)
    if args.resume:
        run_folder = open_learn_run(args.run_dir)
        config = run_folder.config.as_dict()
        different = sorted(name for name, value in given.items() if name != "episodes" and config[name] != value)
        different += sorted(name for name, value in settings.items() if config["settings"].get(name) != value)
        if different:
            name = different[0]
            raise UsageError(
                f"cannot resume with a different {name} (the run has {config.get(name, config['settings'].get(name))!r})"
            )
        total = given.get("episodes", run_folder.config.episode_count)
        left = max(0, total - run_folder.episodes_done)
    else:
        config_obj = LearnConfig(**given, settings=settings)
        total, left = config_obj.episodes, config_obj.episodes
    clock = time.perf_counter()
    with make_runner_from_args(args, default_workers=1) as runner:
        bar = DeferredBar(total=left, unit="episodes", disable=args.quiet or left < 200, leave=False)
        try:
            if args.resume:
                result = resume(
                    args.run_dir,
                    episodes=given.get("episodes"),
                    runner=runner,
                    on_episodes=bar.update,
                    on_start=bar.start,
                )
            else:
                result = learn(config_obj, args.run_dir, runner=runner, on_episodes=bar.update, on_start=bar.start)
        finally:
            bar.close()
    elapsed = time.perf_counter() - clock
    print(
        f"learned {result.learned_now} episodes ({result.episodes_done} in all) of {result.config.game} by "
        f"{result.config.method} in {elapsed:.1f} s ({runner.describe()}); learning {result.seconds():.1f} s"
    )
    for row in result.curve()[-len(result.config.evaluation_opponents.split(",")) :] if result.curve() else []:
        print(
            f"  after {row['episodes']} episodes against {row['opponent']}: score {row['score']:.1%} "
            f"(95% CI {row['score_low']:.1%}-{row['score_high']:.1%}) in {row['games']} games"
        )
    print(f"player: {result.path / 'learned_player.npz'}")
    return 0
