"""Training as a library: start a run in a folder, resume it, open a finished one and read what it made.

Like PySR's run folders, a run folder remembers everything needed to resume it: ``config.json`` (the
evolution config, the run's id and where its best player is copied), ``checkpoint.dill`` (after every
generation, written atomically, plain data only), ``logbook.csv``, ``hall_of_fame.txt``, and at the end
``fitness.png``, ``best_player.p`` and ``best_player.json``, and the same champion simplified for reading,
``best_player.simplified.json`` (:mod:`gpquarto.training.simplified`; Quarto runs only: the simplifier reads
Quarto rules, and ``finished.json`` of a run of another game says it has no simplified player). A run of
evaluator genomes (``genome = "evaluator"``) has the same folder, lock, checkpoint and completion mark, and ends
with ``best_evaluator.json`` and ``best_evaluator.simplified.json`` instead of the player files (its champion
plays as :attr:`RunFolder.best_player_spec`). Example::

    >>> from gpquarto.training import EvolutionConfig, train, open_run
    >>> config = EvolutionConfig(generations=2, population=4, games=2, opponents="random", final_games=0)
    >>> run = train(config, tmp / "demo", best_player_copy=None)          # doctest: +SKIP
    >>> open_run(tmp / "demo").logbook().select("best")                   # doctest: +SKIP

Runs are reproducible: the same config gives the same run on any runner and any number of workers, and a
resumed run is bit-identical to an uninterrupted one. A run never writes over a file that belongs to
another run: the best player's copy, and the copy of its simplified form beside it (``X.simplified.json`` beside
``X.p``), are checked first (a copy made by this run, identified by its id in the player file, may be replaced;
anything else is refused).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import cast

from deap import tools

from gpquarto.atomic import check_writable_folder, write_bytes_atomic, write_text_atomic
from gpquarto.folder_lock import folder_lock
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import get_library
from gpquarto.gp.player import RuleListPlayer
from gpquarto.gp.storage import load_player, read_player_file, save_player, saved_run_id, simplified_path
from gpquarto.plain_files import file_sha256, one_line, read_plain_file
from gpquarto.runner import Runner, SerialRunner
from gpquarto.training.checkpoint import read_checkpoint_data
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.evolution import Evolution
from gpquarto.training.genome_kinds import (
    BEST_PLAYER,
    BEST_PLAYER_TEXT,
    SIMPLIFIED_PLAYER,
    genome_kind,
)
from gpquarto.training.outputs import as_deap_logbook, write_fitness_plot, write_hall_of_fame, write_logbook

RUN_FORMAT = "gpquarto-run/1"
CONFIG_FILE = "config.json"
CHECKPOINT = "checkpoint.dill"
LOGBOOK, HALL_OF_FAME, FITNESS_PLOT = "logbook.csv", "hall_of_fame.txt", "fitness.png"
FINISHED_FILE = "finished.json"
FINISHED_FORMAT = "gpquarto-finished/1"
#: What a rule run's end writes in its folder (and lists, with the best player's copy, in ``finished.json``); an
#: evaluator run writes its evaluator files instead of the players (:func:`run_outputs`).
OUTPUTS = (LOGBOOK, HALL_OF_FAME, FITNESS_PLOT, BEST_PLAYER, BEST_PLAYER_TEXT, SIMPLIFIED_PLAYER)
#: The checkpoint format of evaluator runs made before they joined rule training (``checkpoint.json``).
OLD_EVALUATOR_FORMAT = "gpquarto-evaluator-run/1"


def run_outputs(config: EvolutionConfig) -> tuple[str, ...]:
    """What the end of a run of ``config`` writes in its folder."""
    return (LOGBOOK, HALL_OF_FAME, FITNESS_PLOT, *genome_kind(config).outputs(config))


#: The keys of ``config.json``.
RUN_CONFIG_KEYS = {"format", "run_id", "evolution", "best_player_copy", "plugin_files"}
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
    #: The SHA-256 of each plugin file of the config, recorded when the run started.
    plugin_hashes: dict[str, str] = field(default_factory=dict)
    #: The plugin files the caller named for this process (``--plugin``): the only code the run may import.
    named_plugins: tuple[str, ...] = ()

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, plugins: Sequence[str] = ()) -> RunFolder:
        """The run in ``path`` (finished or not); a one-line :class:`RunError` if it is not a run folder or its
        ``config.json`` fails :func:`check_run_config`. ``plugins`` are the plugin files the caller names: a run
        whose config names others can be read but not evolved or played (see :meth:`checked_plugins`)."""
        folder = Path(path)
        config_file = folder / CONFIG_FILE
        if not config_file.is_file():
            raise RunError(f"{folder}: not a run folder (no {CONFIG_FILE})")
        try:
            data = read_plain_file(config_file, "run config", json_format=True)
            if isinstance(data, dict) and data.get("genome") == "evaluator" and "format" not in data:
                raise RunError(
                    f"{folder}: an evaluator run of the old format {OLD_EVALUATOR_FORMAT} (checkpoint.json), from "
                    "before evaluator training joined rule training; it cannot be resumed: start a new run"
                )
            config, copy, hashes = check_run_config(data)
        except ValueError as error:
            raise RunError(f"{config_file}: unreadable run config ({one_line(str(error))})") from None
        run_id = cast(dict, data)["run_id"]  # checked with the rest
        return cls(folder, config, run_id, copy, plugin_hashes=hashes, named_plugins=tuple(plugins))

    # -- what the run made ------------------------------------------------------------------------------

    @property
    def checkpoint_path(self) -> Path:
        """Where the checkpoint is."""
        return self.path / CHECKPOINT

    @property
    def best_player_path(self) -> Path:
        """Where the best player is saved when the run ends (rule runs)."""
        return self.path / BEST_PLAYER

    @property
    def best_player_spec(self) -> str:
        """The player spec of the run's champion: its player file, or (evaluator runs) the ``minimax`` that
        evaluates with ``best_evaluator.json`` at the run's depth."""
        return genome_kind(self.config).player_spec(self.path, self.config)

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
    def finished_path(self) -> Path:
        """The completion mark, written last when the run ends."""
        return self.path / FINISHED_FILE

    @property
    def finished(self) -> bool:
        """True when every generation of the config is done and the run's end wrote every output: the
        completion mark lists the generations done and each output's SHA-256, and they still match."""
        try:
            mark = read_plain_file(self.finished_path, "completion mark", json_format=True)
            done = self.generations_done
            if not isinstance(mark, dict) or mark.get("format") != FINISHED_FORMAT or mark.get("generations") != done:
                return False
            outputs = mark.get("outputs")
            return (
                done >= self.config.generations
                and isinstance(outputs, dict)
                and set(run_outputs(self.config)) <= set(outputs)
                and all(isinstance(name, str) and file_sha256(self.path / name) == sha for name, sha in outputs.items())
            )
        except (ValueError, OSError):
            return False

    def logbook(self) -> tools.Logbook:
        """One entry per generation, as a DEAP :class:`~deap.tools.Logbook` (exact values, from the checkpoint)."""
        return as_deap_logbook(list(self._state()["logbook"]))

    def hall_of_fame(self) -> list[Genome]:
        """The hall of fame, best first; each genome has ``fitness.values`` and its games' ``record``."""
        return self.evolution().hall_of_fame.items

    def checked_plugins(self) -> tuple[str, ...]:
        """The config's plugin files, once each is checked to be named by the caller (:attr:`named_plugins`, the
        command line's ``--plugin``) and, where the run recorded its SHA-256 when it started, to be that same file.
        A run folder is something people share: what it says is never a reason to import code, and a hash written
        by the same hand proves nothing. Anything else is a one-line :class:`RunError`."""
        named = {os.path.realpath(path) for path in self.named_plugins}
        for path in self.config.plugins:
            if os.path.realpath(path) not in named:
                raise RunError(
                    f"the run {self.path} uses the plugin {path}: a run folder runs no code by itself; name the "
                    f"file with --plugin {path} to run it"
                )
            recorded = self.plugin_hashes.get(path)
            if recorded is None:
                continue
            try:
                now = file_sha256(path)
            except OSError as error:
                raise RunError(f"plugin {path} of the run {self.path}: cannot read it ({error.strerror})") from None
            if now != recorded:
                raise RunError(
                    f"plugin {path} has changed since the run {self.path} started (SHA-256 {recorded[:12]}..., now "
                    f"{now[:12]}...): put the original back, or start a new run"
                )
        return self.config.plugins

    def evolution(self) -> Evolution:
        """The run's state after its last finished generation."""
        self.checked_plugins()
        library = get_library(self.config.library())
        try:
            return Evolution.load_checkpoint(str(self.checkpoint_path), library, self.config)
        except ValueError as error:
            raise RunError(str(error)) from None

    def best_player(self, *, seed: int | None = None) -> RuleListPlayer:
        """The best rule player the run saved (a :class:`RunError` before the run has finished, or for an
        evaluator run: see :attr:`best_player_spec`)."""
        if self.config.genome != "rules":
            raise RunError(f"{self.path}: an evaluator run; its champion plays as {self.best_player_spec}")
        if not self.best_player_path.is_file():
            raise RunError(f"{self.path}: the run has not finished, so it has no best player yet")
        return load_player(self.best_player_path, seed=seed, plugins=self.checked_plugins(), game=self.config.game)


def check_run_config(data: object) -> tuple[EvolutionConfig, Path | None, dict[str, str]]:
    """The evolution config, best player's copy and plugin hashes of a run folder's ``config.json`` data,
    checked field by field: known keys only, the format, a run id of hex digits, the config's every field
    (types and ranges), a copy that is an absolute ``.p`` or ``.json`` path, and a SHA-256 for plugins of the
    config only. Anything else is a one-line ``ValueError``."""
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
    if copy is not None and (
        not isinstance(copy, str) or not os.path.isabs(copy) or Path(copy).suffix.lower() not in PLAYER_SUFFIXES
    ):
        raise ValueError("best_player_copy must be null or the absolute path of a .p or .json file")
    hashes = {}
    for entry in data.get("plugin_files", []) if isinstance(data.get("plugin_files", []), list) else [None]:
        if (
            not isinstance(entry, dict)
            or set(entry) != {"path", "sha256"}
            or entry["path"] not in config.plugins
            or not isinstance(entry["sha256"], str)
            or not re.fullmatch(r"[0-9a-f]{64}", entry["sha256"])
        ):
            raise ValueError("plugin_files must list {path, sha256} for plugins of the config")
        hashes[entry["path"]] = entry["sha256"]
    return config, None if copy is None else Path(copy), hashes


def open_run(path: str | os.PathLike[str], *, plugins: Sequence[str] = ()) -> RunFolder:
    """:meth:`RunFolder.open`."""
    return RunFolder.open(path, plugins=plugins)


def train(
    config: EvolutionConfig,
    run_dir: str | os.PathLike[str],
    *,
    best_player_copy: str | os.PathLike[str] | None = BEST_PLAYER,
    runner: Runner | None = None,
    on_generation: GenerationHook | None = None,
    on_start: Callable[[], None] | None = None,
) -> RunFolder:
    """Start a new run in ``run_dir`` and train it to the end; the best player is also copied to
    ``best_player_copy`` (None: no copy). Everything is checked before the folder is written: the folder and
    the copy's folder can be written, the copy is a ``.p`` or ``.json`` file of no other run. ``on_start()`` is
    called once all is checked, before the first generation (a progress bar starts there, after any error)."""
    folder = Path(run_dir)
    if (folder / CHECKPOINT).exists() or (folder / CONFIG_FILE).exists():
        raise RunError(f"{folder} already holds a run: resume it, or use another run folder")
    if config.generations < 1:
        raise RunError("a new run trains 1 generation or more")
    copy = None if best_player_copy is None else Path(best_player_copy).absolute()
    run = RunFolder(folder, config, uuid.uuid4().hex, copy, named_plugins=config.plugins)  # the caller's config
    _check_outputs(run)
    run.plugin_hashes = _plugin_hashes(config.plugins)
    library = get_library(config.library())
    runner = runner or SerialRunner()
    evolution = Evolution.start(config, library, runner)
    with _saying_how_to_resume(run):
        folder.mkdir(parents=True, exist_ok=True)
    with folder_lock(folder):
        if (folder / CHECKPOINT).exists() or (folder / CONFIG_FILE).exists():  # started meanwhile by another
            raise RunError(f"{folder} already holds a run: resume it, or use another run folder")
        with _saying_how_to_resume(run):
            evolution.save_checkpoint(str(run.checkpoint_path))
            _write_config(run)
        return _train(run, evolution, runner, on_generation, on_start)


def resume(
    run_dir: str | os.PathLike[str],
    *,
    generations: int | None = None,
    plugins: Sequence[str] = (),
    runner: Runner | None = None,
    on_generation: GenerationHook | None = None,
    on_start: Callable[[], None] | None = None,
) -> RunFolder:
    """Continue the run in ``run_dir`` from its checkpoint, bit-identically, to ``generations`` (default: its config's;
    a run with a draw value schedule keeps its own, the span of the schedule), and complete what its end did not write
    (a run killed while its champion was chosen, or stopped by a full disk). A finished run
    (:attr:`RunFolder.finished`) with nothing left to train returns at once with ``trained_now == 0``; else
    ``on_start()`` is called once all is checked, as in :func:`train`.

    The run's plugin files are run only if the caller names them again in ``plugins`` (``--plugin``) and they
    are the files recorded at its start (see :meth:`RunFolder.checked_plugins`); a run that recorded no hash
    records it now. One process at a time works in a run folder: another one holding its lock
    is a one-line :class:`~gpquarto.folder_lock.FolderInUse`."""
    run = RunFolder.open(run_dir, plugins=plugins)
    if not run.checkpoint_path.is_file():
        raise RunError(f"nothing to resume: {run.checkpoint_path} does not exist")
    if generations is not None and generations != run.config.generations and run.config.draw_value_end is not None:
        raise RunError(
            f"cannot resume with --generations {generations}: the run's draw value schedule rises over its "
            f"{run.config.generations} generations"
        )
    run.checked_plugins()
    _check_outputs(run)
    with folder_lock(run.path):
        run._state()  # the checkpoint is checked before anything is written
        with _saying_how_to_resume(run):
            unrecorded = [path for path in run.config.plugins if path not in run.plugin_hashes]
            if unrecorded:
                run.plugin_hashes.update(_plugin_hashes(unrecorded))
                _write_config(run)
            if generations is not None and generations != run.config.generations:
                values = {item.name: getattr(run.config, item.name) for item in fields(run.config)}
                run.config = EvolutionConfig(**{**values, "generations": generations})
                _write_config(run)
        if run.finished:
            return run
        return _train(run, run.evolution(), runner or SerialRunner(), on_generation, on_start)


def _train(
    run: RunFolder,
    evolution: Evolution,
    runner: Runner,
    on_generation: GenerationHook | None,
    on_start: Callable[[], None] | None = None,
) -> RunFolder:
    """Train the generations left, then write the run's end (:func:`_finish`)."""
    started_at = evolution.generation
    if on_start is not None:
        on_start()

    def after_generation(evolution: Evolution, row: dict) -> None:
        with _saying_how_to_resume(run):
            evolution.save_checkpoint(str(run.checkpoint_path))
            write_logbook(run.path / LOGBOOK, evolution.logbook)
            write_hall_of_fame(run.path / HALL_OF_FAME, evolution.hall_of_fame)
        if on_generation is not None:
            on_generation(evolution, row)

    if evolution.generation < run.config.generations:
        with _saying_how_to_resume(run):
            run.finished_path.unlink(missing_ok=True)  # the mark of an earlier end no longer holds
    evolution.run(runner, after_generation)
    run.trained_now = evolution.generation - started_at
    if not evolution.hall_of_fame.items:
        raise RunError("no generation was evaluated: nothing to save (train 1 generation or more)")
    with _saying_how_to_resume(run):
        _finish(run, evolution, runner)
    return run


def _finish(run: RunFolder, evolution: Evolution, runner: Runner) -> None:
    """The run's end: choose the champion, write the logbook, hall of fame, figure and best player files, copy
    the best player, and last of all the completion mark ``finished.json`` listing them with their SHA-256."""
    best = evolution.champion(runner)
    assert best is not None  # the hall of fame holds every generation's best
    write_logbook(run.path / LOGBOOK, evolution.logbook)
    write_hall_of_fame(run.path / HALL_OF_FAME, evolution.hall_of_fame)
    write_fitness_plot(run.path / FITNESS_PLOT, evolution.logbook)
    config = run.config
    name = run.best_player_copy.stem if run.best_player_copy is not None else run.path.name
    info = {"id": run.run_id, "folder": str(run.path.absolute())}
    data = evolution.kind.save_champion(run.path, evolution, best, name, info)  # type: ignore[arg-type]  # one kind's
    _copy_best_player(run, data)
    outputs = list(run_outputs(config))  # by name in the run folder; the copies by their absolute paths
    if run.best_player_copy is not None and run.best_player_copy.resolve() != run.best_player_path.resolve():
        outputs.append(str(run.best_player_copy))
        if (run.path / SIMPLIFIED_PLAYER).is_file():
            outputs.append(str(simplified_path(run.best_player_copy)))
    mark = {
        "format": FINISHED_FORMAT,
        "generations": evolution.generation,
        "outputs": {name: file_sha256(run.path / name) for name in outputs},
    }
    write_text_atomic(run.finished_path, json.dumps(mark, indent=2) + "\n")


@contextmanager
def _saying_how_to_resume(run: RunFolder) -> Iterator[None]:
    """An ``OSError`` while the run writes (a full disk) becomes a one-line :class:`RunError` that names the
    file and says how to go on: the last checkpoint is whole, so ``--resume`` continues from it."""
    try:
        yield
    except OSError as error:
        raise RunError(
            f"{error.strerror or error}; the run is saved up to its last checkpoint: make room, then "
            f"python3 -m gpquarto train --resume --run-dir {run.path}"
        ) from None


def _plugin_hashes(paths: Sequence[str]) -> dict[str, str]:
    """The SHA-256 of each plugin file (a one-line :class:`RunError` for one that cannot be read)."""
    hashes = {}
    for path in paths:
        try:
            hashes[path] = file_sha256(path)
        except OSError as error:
            raise RunError(f"plugin {path}: cannot read it ({error.strerror})") from None
    return hashes


def _write_config(run: RunFolder) -> None:
    data = {
        "format": RUN_FORMAT,
        "run_id": run.run_id,
        "evolution": run.config.as_dict(),
        "best_player_copy": None if run.best_player_copy is None else str(run.best_player_copy),
        "plugin_files": [{"path": path, "sha256": run.plugin_hashes[path]} for path in run.config.plugins],
    }
    write_text_atomic(run.path / CONFIG_FILE, json.dumps(data, indent=2) + "\n")


def _check_outputs(run: RunFolder) -> None:
    """Before any work: the run folder can be written, and so can the best player's copy (see
    :func:`_check_copy_target`)."""
    try:
        check_writable_folder(run.path)
    except OSError as error:
        raise RunError(f"the run folder: {error.strerror}") from None
    _check_copy_target(run)


def _check_copy_target(run: RunFolder) -> None:
    """Refuse, before any work, a best-player copy that could not be written: not a ``.p`` or ``.json`` file,
    in a folder that does not exist (none is created, but the run's own) or cannot be written, or a file of another run (or any
    other file) that it would write over."""
    target = run.best_player_copy
    if target is None or target.resolve() == run.best_player_path.resolve():
        return
    if target.suffix.lower() not in PLAYER_SUFFIXES:
        raise RunError(f"{target}: the best player's copy must end in .p or .json")
    in_run_folder = target.parent == run.path.absolute()  # the run makes its own folder
    if not in_run_folder and not target.parent.is_dir():
        raise RunError(f"{target}: the folder {target.parent} does not exist (create it, or choose another file)")
    try:
        check_writable_folder(target.parent)
    except OSError as error:
        raise RunError(f"{target}: {error.strerror}") from None
    for file in (target, simplified_path(target)):
        if not file.exists():
            continue
        try:
            owner = saved_run_id(read_player_file(file))
        except ValueError:
            owner = None
        if owner != run.run_id:
            raise RunError(
                f"{file} exists and belongs to another run (or is not a player of this one): "
                "choose another file for the best player (--filename), or move that one away"
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
    simplified = run.path / SIMPLIFIED_PLAYER
    if simplified.is_file():  # ``show`` finds the readable form beside the copy as beside the original
        write_bytes_atomic(simplified_path(target), simplified.read_bytes())
