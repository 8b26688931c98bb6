"""Learning as a library: start a learning run in a folder, resume it, open it and read what it made.

A run folder, like training's: ``config.json`` (the :class:`~gpquarto.learning.config.LearnConfig` and the
run's id), ``checkpoint.npz`` (after every batch, written atomically: the model and the learner's step-size
state as arrays, the episodes done and the learning curve in a JSON header), ``learning.csv`` and
``learning.png`` (the learning curve: score against each evaluation opponent with its 95% Wilson interval),
``timing.json`` (seconds spent learning, kept out of the checkpoint so that it stays bit-identical) and
``learned_player.npz`` (the player, rewritten at every point of the curve and at the end).

Runs are reproducible: the episodes of a batch are played from the frozen model with seeds derived from the
run seed and the episode index, and their updates are merged in episode order, so one worker or many give
the same model, and a resumed run is bit-identical to an uninterrupted one.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from gpquarto.atomic import write_bytes_atomic, write_text_atomic
from gpquarto.folder_lock import folder_lock
from gpquarto.learned.models import default_encoder
from gpquarto.learned.npz import open_npz
from gpquarto.learned.player import LearnedPlayer
from gpquarto.learned.storage import (
    TABLE_ARRAYS,
    Expected,
    check_declared_arrays,
    check_table_arrays,
    learned_data,
    learned_player_from_arrays,
    npz_bytes,
    read_json_header,
    read_learned_file,
    save_learned_player,
)
from gpquarto.learning.config import LearnConfig
from gpquarto.learning.episodes import CHUNK, EpisodeChunk, play_chunk
from gpquarto.learning.updates import NTupleLearner, TableLearner, make_learner
from gpquarto.plain_files import one_line, read_plain_file
from gpquarto.runner import Runner, SerialRunner
from gpquarto.seeding import derive_seed

RUN_FORMAT = "gpquarto-learn-run/1"
CHECKPOINT_FORMAT = "gpquarto-learn-checkpoint/1"
CONFIG_FILE = "config.json"
CHECKPOINT = "checkpoint.npz"
LEARNED_PLAYER = "learned_player.npz"
CURVE_CSV = "learning.csv"
CURVE_PNG = "learning.png"
TIMING = "timing.json"
LOCK_FILE = "learn.lock"
CURVE_FIELDS = ("episodes", "opponent", "games", "wins", "draws", "losses", "score", "score_low", "score_high")

#: Called after every batch with the episodes done so far.
BatchHook = Callable[[int], None]
#: Called as episodes finish with how many just did (for progress bars).
EpisodeHook = Callable[[int], None]


class LearnRunError(ValueError):
    """A learning run folder that cannot be started, resumed or opened as asked (one line saying why)."""


@dataclass
class LearnRun:
    """A learning run's folder: its config, and what it has made so far."""

    path: Path
    config: LearnConfig
    run_id: str
    #: Episodes learned by the call that returned this run (0 when opened).
    learned_now: int = 0

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> LearnRun:
        """The run in ``path``; a one-line :class:`LearnRunError` if it is not a learning run folder."""
        folder = Path(path)
        config_file = folder / CONFIG_FILE
        if not config_file.is_file():
            raise LearnRunError(f"{folder}: not a learning run folder (no {CONFIG_FILE})")
        try:
            data = read_plain_file(config_file, "learning run config", json_format=True)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            if data.get("format") != RUN_FORMAT:
                raise ValueError(f"format {str(data.get('format'))[:40]!r}, expected {RUN_FORMAT!r}")
            if not isinstance(data.get("learning"), dict):
                raise ValueError("no 'learning' settings")
            return cls(folder, LearnConfig.from_dict(data["learning"]), str(data["run_id"])[:200])
        except (OSError, ValueError, KeyError, TypeError) as error:
            message = one_line(str(error).removeprefix(f"{config_file}: "))
            raise LearnRunError(f"{config_file}: unreadable learning run config ({message})") from None

    def checkpoint(self) -> tuple[dict, dict[str, np.ndarray]]:
        """The checkpoint's header (episodes done, learning curve) and arrays, checked against the run's config
        (each array's declared dtype and shape before it is read)."""
        path = self.path / CHECKPOINT
        with open_npz(path, "learning checkpoint") as archive:
            try:
                header = read_json_header(archive)
                _check_checkpoint_header(header)
                arrays = {name: info for name, info in archive.members.items() if name != "header"}
                check_declared_arrays(self._checkpoint_arrays(), arrays)
                read = {name: archive.read(name) for name in arrays}
                if self.config.method != "td-ntuple":
                    check_table_arrays(read)
                elif not all(np.isfinite(array).all() for array in read.values()):
                    raise ValueError("an array holds a number that is not finite")
            except ValueError as error:
                raise LearnRunError(f"{path}: not a gpquarto learning checkpoint ({one_line(str(error))})") from None
        return header, read  # type: ignore[return-value]  # checked above

    def _checkpoint_arrays(self) -> Expected:
        if self.config.method != "td-ntuple":
            return dict(TABLE_ARRAYS)
        size = default_encoder(self.config.game, self.config.settings).size
        return {name: (np.dtype(np.float64), size) for name in ("weights", "tc_errors", "tc_sizes")}

    @property
    def episodes_done(self) -> int:
        """Episodes learned so far."""
        return int(self.checkpoint()[0]["episodes"])

    def curve(self) -> list[dict]:
        """The learning curve's rows (see :data:`CURVE_FIELDS`)."""
        return list(self.checkpoint()[0]["curve"])

    def learned_player(self) -> LearnedPlayer:
        """The player the run saved last."""
        header, arrays = read_learned_file(self.path / LEARNED_PLAYER)
        return learned_player_from_arrays(header, arrays, source=str(self.path / LEARNED_PLAYER))

    def seconds(self) -> float:
        """Seconds spent learning (episodes and updates; the learning curve's games not counted)."""
        try:
            seconds = float(read_plain_file(self.path / TIMING, "timing file", json_format=True)["seconds"])  # type: ignore[index]  # a TypeError if not
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return 0.0
        return seconds if math.isfinite(seconds) and seconds >= 0 else 0.0


def _check_checkpoint_header(header: object) -> None:
    """The checkpoint's JSON header: its format, the episodes done and the learning curve's rows."""
    if not isinstance(header, dict) or header.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"format is not {CHECKPOINT_FORMAT!r}")
    episodes = header.get("episodes")
    if not isinstance(episodes, int) or isinstance(episodes, bool) or episodes < 0:
        raise ValueError("'episodes' must be a whole number >= 0")
    curve = header.get("curve")
    if not isinstance(curve, list):
        raise ValueError("'curve' must be a list")
    for row in curve:
        if not isinstance(row, dict) or set(CURVE_FIELDS) - set(row):
            raise ValueError(f"a row of 'curve' needs the fields {', '.join(CURVE_FIELDS)}")
        numbers = [row[field] for field in CURVE_FIELDS if field != "opponent"]
        if not isinstance(row["opponent"], str) or not all(
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) for value in numbers
        ):
            raise ValueError("a row of 'curve' holds a value of the wrong type")


def open_learn_run(path: str | os.PathLike[str]) -> LearnRun:
    """:meth:`LearnRun.open`."""
    return LearnRun.open(path)


def learn(
    config: LearnConfig,
    run_dir: str | os.PathLike[str],
    *,
    runner: Runner | None = None,
    on_batch: BatchHook | None = None,
    on_episodes: EpisodeHook | None = None,
    on_start: Callable[[], None] | None = None,
) -> LearnRun:
    """Start a new learning run in ``run_dir`` and learn to the end (opponents are checked first; ``on_start()``
    is called once everything is checked, before the first episode)."""
    folder = Path(run_dir)
    if (folder / CONFIG_FILE).exists() or (folder / CHECKPOINT).exists():
        raise LearnRunError(_occupied(folder))
    _check_opponents(config)
    run = LearnRun(folder, config, uuid.uuid4().hex)
    learner = make_learner(config)
    folder.mkdir(parents=True, exist_ok=True)
    with folder_lock(folder, LOCK_FILE, "learning"):
        if (folder / CONFIG_FILE).exists() or (folder / CHECKPOINT).exists():  # started meanwhile by another
            raise LearnRunError(_occupied(folder))
        _write_config(run)
        _save_checkpoint(run, learner, 0, [])
        write_text_atomic(folder / TIMING, json.dumps({"seconds": 0.0}) + "\n")
        if on_start is not None:
            on_start()
        return _learn(run, learner, 0, [], runner or SerialRunner(), on_batch, on_episodes)


def _occupied(folder: Path) -> str:
    """Why a new learning run cannot start in ``folder``, and what to do instead."""
    if (folder / CHECKPOINT).exists():
        return f"{folder} already holds a learning run: continue it with --resume, or use another --run-dir"
    return f"{folder} already holds another run (a training run?): use another --run-dir"


def resume(
    run_dir: str | os.PathLike[str],
    *,
    episodes: int | None = None,
    runner: Runner | None = None,
    on_batch: BatchHook | None = None,
    on_episodes: EpisodeHook | None = None,
    on_start: Callable[[], None] | None = None,
) -> LearnRun:
    """Continue the run in ``run_dir`` from its checkpoint, bit-identically, to ``episodes`` (default: its
    config's; a new total also stretches the exploration schedule, so it is a different run from there). One
    process at a time works in a run folder: another one holding its lock is a one-line
    :class:`~gpquarto.folder_lock.FolderInUse`. ``on_start()`` is called as in :func:`learn`, when there is
    something left to learn."""
    run = LearnRun.open(run_dir)
    with folder_lock(run.path, LOCK_FILE, "learning"):
        run = LearnRun.open(run_dir)  # as the lock's holder left it
        return _resume_locked(run, episodes, runner, on_batch, on_episodes, on_start)


def _resume_locked(
    run: LearnRun,
    episodes: int | None,
    runner: Runner | None,
    on_batch: BatchHook | None,
    on_episodes: EpisodeHook | None,
    on_start: Callable[[], None] | None = None,
) -> LearnRun:
    header, arrays = run.checkpoint()
    if episodes is not None and episodes != run.config.episodes:
        if episodes < int(header["episodes"]):
            raise LearnRunError(f"the run has already learned {header['episodes']} episodes, more than {episodes}")
        run.config = replace(run.config, episodes=episodes)
        _write_config(run)
    learner = make_learner(run.config)
    learner.restore(arrays)
    done = int(header["episodes"])
    if done >= run.config.episode_count and (run.path / LEARNED_PLAYER).is_file():
        return run
    if on_start is not None:
        on_start()
    return _learn(run, learner, done, list(header["curve"]), runner or SerialRunner(), on_batch, on_episodes)


def _check_opponents(config: LearnConfig) -> None:
    from gpquarto.learning.config import SELF
    from gpquarto.learning.episodes import _opponent
    from gpquarto.training.fitness import parse_opponents

    for spec, _ in parse_opponents(config.opponents):
        if spec != SELF:
            _opponent(spec, config.game)
    for spec in _evaluation_opponents(config):
        _opponent(spec, config.game)


def _evaluation_opponents(config: LearnConfig) -> list[str]:
    return (
        [spec.strip() for spec in config.evaluation_opponents.split(",") if spec.strip()] if config.eval_games else []
    )


def _learn(
    run: LearnRun,
    learner: NTupleLearner | TableLearner,
    done: int,
    curve: list[dict],
    runner: Runner,
    on_batch: BatchHook | None,
    on_episodes: EpisodeHook | None,
) -> LearnRun:
    config = run.config
    started = done
    points = [point for point in config.evaluation_points() if point > done]
    seconds = run.seconds()
    progress = None
    if on_episodes is not None:
        progress = lambda parts: on_episodes(sum(len({item.episode for item in part}) for part in parts))  # noqa: E731
    while done < config.episode_count:
        end = min(
            done + config.batch - done % config.batch, config.episode_count, *(points[:1] or [config.episode_count])
        )
        clock = time.perf_counter()
        payload = learner.payload()
        chunks = [
            EpisodeChunk(config.as_dict(), payload, first, min(CHUNK, end - first)) for first in range(done, end, CHUNK)
        ]
        for trajectories in runner.map(play_chunk, chunks, batch_size=1, progress=progress):
            learner.apply(trajectories)
        seconds += time.perf_counter() - clock
        done = end
        if points and done == points[0]:
            points.pop(0)
            _save_player(run, learner, done, seconds)
            curve += _evaluate(run, done, runner)
            _write_curve(run, curve)
        _save_checkpoint(run, learner, done, curve)
        write_text_atomic(run.path / TIMING, json.dumps({"seconds": seconds}) + "\n")
        if on_batch is not None:
            on_batch(done)
    _save_player(run, learner, done, seconds)
    _write_curve(run, curve)
    run.learned_now = done - started
    return run


def _evaluate(run: LearnRun, episodes: int, runner: Runner) -> list[dict]:
    """The learning curve's rows after ``episodes``: the saved player against each evaluation opponent."""
    from gpquarto.jobs.matches import run_match

    rows = []
    config = run.config
    for spec in _evaluation_opponents(config):
        result = run_match(
            str(run.path / LEARNED_PLAYER),
            spec,
            config.eval_games,
            seed=derive_seed(config.seed, "curve"),
            game=config.game,
            settings=config.settings,
            runner=runner,
        )
        low, high = result.score_interval()
        rows.append(
            {
                "episodes": episodes,
                "opponent": spec,
                "games": result.games,
                "wins": result.wins,
                "draws": result.draws,
                "losses": result.losses,
                "score": result.score_rate,
                "score_low": low,
                "score_high": high,
            }
        )
    return rows


def _write_config(run: LearnRun) -> None:
    data = {"format": RUN_FORMAT, "run_id": run.run_id, "learning": run.config.as_dict()}
    write_text_atomic(run.path / CONFIG_FILE, json.dumps(data, indent=2) + "\n")


def _save_checkpoint(run: LearnRun, learner: NTupleLearner | TableLearner, done: int, curve: list[dict]) -> None:
    header = {"format": CHECKPOINT_FORMAT, "run_id": run.run_id, "episodes": done, "curve": curve}
    write_bytes_atomic(run.path / CHECKPOINT, npz_bytes(learner.arrays(), header))


def _save_player(run: LearnRun, learner: NTupleLearner | TableLearner, done: int, seconds: float) -> None:
    config = run.config
    header, arrays = learned_data(
        learner.model,
        game=config.game,
        settings=config.settings,
        method=config.method,
        name=f"{run.path.name}",
        training={"config": config.as_dict(), "episodes": done, "seconds": round(seconds, 1)},
        run={"id": run.run_id, "folder": str(run.path.absolute())},
        guard=config.guard,
    )
    save_learned_player(run.path / LEARNED_PLAYER, header, arrays)


def curve_csv(rows: list[dict]) -> str:
    """The learning curve as CSV text."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CURVE_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: row[key] for key in CURVE_FIELDS})
    return buffer.getvalue()


def _write_curve(run: LearnRun, rows: list[dict]) -> None:
    write_text_atomic(run.path / CURVE_CSV, curve_csv(rows))
    if rows:
        write_bytes_atomic(run.path / CURVE_PNG, curve_png(rows, title=f"{run.config.game}, {run.config.method}"))


def curve_png(rows: list[dict], *, title: str = "") -> bytes:
    """``learning.png``: the score against each opponent by episodes, with its 95% Wilson interval."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for opponent in dict.fromkeys(row["opponent"] for row in rows):
        mine = [row for row in rows if row["opponent"] == opponent]
        episodes = [row["episodes"] for row in mine]
        axes.plot(episodes, [row["score"] for row in mine], marker="o", label=f"against {opponent}")
        axes.fill_between(episodes, [row["score_low"] for row in mine], [row["score_high"] for row in mine], alpha=0.2)
    axes.set_xlabel("episodes")
    axes.set_ylabel("score (wins + draws / 2)")
    axes.set_ylim(0, 1)
    axes.set_title(title)
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()
