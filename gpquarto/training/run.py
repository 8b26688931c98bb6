"""Training as a library: start a run in a folder, resume it, open a finished one and read what it made.

Like PySR's run folders, a run folder remembers everything needed to resume it: ``config.json`` (the
evolution config, the run's id and where its best player is copied), ``checkpoint.dill`` (after every
generation, written atomically, plain data only), ``logbook.csv``, ``hall_of_fame.txt``, and at the end
``fitness.png``, ``best_player.p`` and ``best_player.json``. Example::

    >>> from gpquarto.training import EvolutionConfig, train, open_run
    >>> config = EvolutionConfig(generations=2, population=4, games=2, opponents="random", final_games=0)
    >>> run = train(config, tmp / "demo", best_player_copy=None)          # doctest: +SKIP
    >>> open_run(tmp / "demo").logbook().select("best")                   # doctest: +SKIP

Runs are reproducible: the same config gives the same run on any runner and any number of workers, and a
resumed run is bit-identical to an uninterrupted one. A run never writes over a file that belongs to
another run: the best player's copy is checked first (a copy made by this run, identified by its id in
the player file, may be replaced; anything else is refused).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

from deap import tools

from gpquarto.atomic import write_bytes_atomic, write_text_atomic
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import get_library
from gpquarto.gp.player import EvolvedPlayer
from gpquarto.gp.storage import load_player, player_data, read_player_file, save_player
from gpquarto.plain_files import read_plain_file
from gpquarto.runner import Runner, SerialRunner
from gpquarto.training.checkpoint import read_checkpoint_data
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.evolution import Evolution
from gpquarto.training.outputs import as_deap_logbook, write_fitness_plot, write_hall_of_fame, write_logbook

RUN_FORMAT = "gpquarto-run/1"
CONFIG_FILE = "config.json"
CHECKPOINT = "checkpoint.dill"
BEST_PLAYER = "best_player.p"
BEST_PLAYER_TEXT = "best_player.json"
#: The keys of ``config.json``.
RUN_CONFIG_KEYS = {"format", "run_id", "evolution", "best_player_copy"}
#: What a best player's copy may be called.
PLAYER_SUFFIXES = (".p", ".json")

#: Called after every generation with the run in progress and its logbook row.
GenerationHook = Callable[[Evolution, dict], None]


class RunError(ValueError):
    """A run folder that cannot be started, resumed or opened as asked (one line saying why)."""


@dataclass
class RunFolder:
    """A training run's folder: its config, and what it has made so far."""

    path: Path
    config: EvolutionConfig
    run_id: str
    best_player_copy: Path | None
    #: Generations trained by the call that returned this folder (0 when opened, or nothing was left).
    trained_now: int = 0

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> RunFolder:
        """The run in ``path`` (finished or not); a one-line :class:`RunError` if it is not a run folder or its
        ``config.json`` fails :func:`check_run_config`."""
        folder = Path(path)
        config_file = folder / CONFIG_FILE
        if not config_file.is_file():
            raise RunError(f"{folder}: not a run folder (no {CONFIG_FILE})")
        try:
            data = read_plain_file(config_file, "run config", json_format=True)
            config, copy = check_run_config(data)
        except ValueError as error:
            raise RunError(f"{config_file}: unreadable run config ({error})") from None
        return cls(folder, config, data["run_id"], copy)

    # -- what the run made ------------------------------------------------------------------------------

    @property
    def checkpoint_path(self) -> Path:
        """Where the checkpoint is."""
        return self.path / CHECKPOINT

    @property
    def best_player_path(self) -> Path:
        """Where the best player is saved when the run ends."""
        return self.path / BEST_PLAYER

    def _state(self) -> dict:
        try:
            return read_checkpoint_data(self.checkpoint_path)
        except ValueError as error:
            raise RunError(str(error)) from None

    @property
    def generations_done(self) -> int:
        """Generations evaluated so far."""
        return self._state()["generation"]

    @property
    def finished(self) -> bool:
        """True when every generation of the config is done and the best player is saved."""
        return self.generations_done >= self.config.generations and self.best_player_path.is_file()

    def logbook(self) -> tools.Logbook:
        """One entry per generation, as a DEAP :class:`~deap.tools.Logbook` (exact values, from the checkpoint)."""
        return as_deap_logbook(list(self._state()["logbook"]))

    def hall_of_fame(self) -> list[Genome]:
        """The hall of fame, best first; each genome has ``fitness.values`` and its games' ``record``."""
        return self.evolution().hall_of_fame.items

    def evolution(self) -> Evolution:
        """The run's state after its last finished generation."""
        library = get_library(self.config.library())
        try:
            return Evolution.load_checkpoint(str(self.checkpoint_path), library, self.config)
        except ValueError as error:
            raise RunError(str(error)) from None

    def best_player(self, *, seed: int | None = None) -> EvolvedPlayer:
        """The best player the run saved (a :class:`RunError` before the run has finished)."""
        if not self.best_player_path.is_file():
            raise RunError(f"{self.path}: the run has not finished, so it has no best player yet")
        return load_player(self.best_player_path, seed=seed, plugins=self.config.plugins)


def check_run_config(data: object) -> tuple[EvolutionConfig, Path | None]:
    """The evolution config and best player's copy of a run folder's ``config.json`` data, checked field by
    field: known keys only, the format, a run id of hex digits, the config's every field (types and ranges),
    and a copy that is an absolute ``.p`` or ``.json`` path. Anything else is a one-line ``ValueError``."""
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    unknown = sorted(set(data) - RUN_CONFIG_KEYS)
    if unknown:
        raise ValueError(f"unknown keys: {', '.join(map(str, unknown))}")
    if data.get("format") != RUN_FORMAT:
        raise ValueError(f"format must be {RUN_FORMAT!r}")
    run_id = data.get("run_id")
    if not isinstance(run_id, str) or not re.fullmatch(r"[0-9a-f]{1,64}", run_id):
        raise ValueError("run_id must be up to 64 hex digits")
    config = EvolutionConfig.from_dict(data.get("evolution"))
    copy = data.get("best_player_copy")
    if copy is None:
        return config, None
    if not isinstance(copy, str) or not os.path.isabs(copy) or Path(copy).suffix.lower() not in PLAYER_SUFFIXES:
        raise ValueError("best_player_copy must be null or the absolute path of a .p or .json file")
    return config, Path(copy)


def open_run(path: str | os.PathLike[str]) -> RunFolder:
    """:meth:`RunFolder.open`."""
    return RunFolder.open(path)


def train(
    config: EvolutionConfig,
    run_dir: str | os.PathLike[str],
    *,
    best_player_copy: str | os.PathLike[str] | None = BEST_PLAYER,
    runner: Runner | None = None,
    on_generation: GenerationHook | None = None,
) -> RunFolder:
    """Start a new run in ``run_dir`` and train it to the end; the best player is also copied to
    ``best_player_copy`` (None: no copy). Everything is checked before the folder is written."""
    folder = Path(run_dir)
    if (folder / CHECKPOINT).exists() or (folder / CONFIG_FILE).exists():
        raise RunError(f"{folder} already holds a run: resume it, or use another run folder")
    copy = None if best_player_copy is None else Path(best_player_copy).absolute()
    run = RunFolder(folder, config, uuid.uuid4().hex, copy)
    _check_copy_target(run)
    library = get_library(config.library())
    runner = runner or SerialRunner()
    evolution = Evolution.start(config, library, runner)
    folder.mkdir(parents=True, exist_ok=True)
    evolution.save_checkpoint(str(run.checkpoint_path))
    _write_config(run)
    return _train(run, evolution, runner, on_generation)


def resume(
    run_dir: str | os.PathLike[str],
    *,
    generations: int | None = None,
    runner: Runner | None = None,
    on_generation: GenerationHook | None = None,
) -> RunFolder:
    """Continue the run in ``run_dir`` from its checkpoint, bit-identically, to ``generations`` (default: its
    config's). A finished run with nothing left to train returns at once with ``trained_now == 0``."""
    run = RunFolder.open(run_dir)
    if not run.checkpoint_path.is_file():
        raise RunError(f"nothing to resume: {run.checkpoint_path} does not exist")
    if generations is not None and generations != run.config.generations:
        values = {item.name: getattr(run.config, item.name) for item in fields(run.config)}
        run.config = EvolutionConfig(**{**values, "generations": generations})
        _write_config(run)
    _check_copy_target(run)
    evolution = run.evolution()
    if evolution.generation >= run.config.generations and run.best_player_path.is_file():
        return run
    return _train(run, evolution, runner or SerialRunner(), on_generation)


def _train(run: RunFolder, evolution: Evolution, runner: Runner, on_generation: GenerationHook | None) -> RunFolder:
    started_at = evolution.generation

    def after_generation(evolution: Evolution, row: dict) -> None:
        evolution.save_checkpoint(str(run.checkpoint_path))
        write_logbook(run.path / "logbook.csv", evolution.logbook)
        write_hall_of_fame(run.path / "hall_of_fame.txt", evolution.hall_of_fame)
        if on_generation is not None:
            on_generation(evolution, row)

    evolution.run(runner, after_generation)
    run.trained_now = evolution.generation - started_at
    if not evolution.hall_of_fame.items:
        raise RunError("no generation was evaluated: nothing to save (train 1 generation or more)")
    best = evolution.champion(runner)
    write_logbook(run.path / "logbook.csv", evolution.logbook)
    write_hall_of_fame(run.path / "hall_of_fame.txt", evolution.hall_of_fame)
    write_fitness_plot(run.path / "fitness.png", evolution.logbook)
    config = run.config
    fitness = {"score": best.fitness.values[0], **best.record, "games": config.final_games or config.games}
    name = run.best_player_copy.stem if run.best_player_copy is not None else run.path.name
    data = player_data(
        best,
        evolution.library,
        name=name,
        config=config.as_dict(),
        fitness=fitness,
        run={"id": run.run_id, "folder": str(run.path.absolute())},
    )
    save_player(run.best_player_path, data)
    save_player(run.path / BEST_PLAYER_TEXT, data)
    _copy_best_player(run, data)
    return run


def _write_config(run: RunFolder) -> None:
    data = {
        "format": RUN_FORMAT,
        "run_id": run.run_id,
        "evolution": run.config.as_dict(),
        "best_player_copy": None if run.best_player_copy is None else str(run.best_player_copy),
    }
    write_text_atomic(run.path / CONFIG_FILE, json.dumps(data, indent=2) + "\n")


def _check_copy_target(run: RunFolder) -> None:
    """Refuse, before any work, a best-player copy that would write over a file of another run (or any
    other file)."""
    target = run.best_player_copy
    if target is None or not target.exists() or target.resolve() == run.best_player_path.resolve():
        return
    if target.suffix.lower() not in PLAYER_SUFFIXES:
        raise RunError(f"{target}: the best player's copy must end in .p or .json")
    try:
        owner = read_player_file(target).get("run", {}).get("id")
    except ValueError:
        owner = None
    if owner != run.run_id:
        raise RunError(
            f"{target} exists and belongs to another run (or is not a player of this one): "
            "choose another file for the best player, or move that one away"
        )


def _copy_best_player(run: RunFolder, data: dict) -> None:
    target = run.best_player_copy
    if target is None or target.resolve() == run.best_player_path.resolve():
        return
    _check_copy_target(run)
    if target.suffix.lower() == ".json":
        save_player(target, data)
    else:
        write_bytes_atomic(target, run.best_player_path.read_bytes())
