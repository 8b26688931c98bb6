"""Checkpoints: a run's state after a generation, as plain data, written atomically and read back safely.

One format for every genome kind (the config's ``genome`` says which; rule players' rules or an evaluator's
tree, as text). A checkpoint holds the *next* generation's index, its population (as text), the random
generator's state, the hall of fame (genomes as text, with their fitness and games), the logbook and (with
pooled fitness) what each genome of the next generation carries of its earlier games, so a resumed run is
bit-identical to an uninterrupted one. It is a pickle of plain data only: reading it never runs code.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass, field
from typing import cast

import dill

from gpquarto.atomic import write_bytes_atomic
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.genome import Genome
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.plain_files import read_checked_file
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.genome_kinds import genome_kind
from gpquarto.training.pooling import check_carried_record

CHECKPOINT_FORMAT = "gpquarto-checkpoint/1"
CHECKPOINT_KEYS = {"format", "config", "generation", "population", "rng", "hall_of_fame", "logbook"}
#: Keys written only when they hold something: ``carried``, with pooled fitness.
OPTIONAL_KEYS = {"carried"}


@dataclass
class Checkpoint:
    """A run's state before ``generation`` is evaluated: what :class:`~gpquarto.training.evolution.Evolution`
    needs to go on."""

    config: EvolutionConfig
    generation: int
    population: list[Genome] | list[EvaluatorGenome]
    rng_state: tuple
    #: Best first, each with its fitness and record.
    hall_of_fame: list[Genome] | list[EvaluatorGenome]
    logbook: list[dict]
    #: With pooled fitness: for each genome of ``population``, the pooled record it carries, or None (empty: none).
    carried: list[dict | None] = field(default_factory=list)

    def to_data(self) -> dict:
        """The whole state as plain data (texts, numbers, the random state)."""
        carried = {"carried": self.carried} if any(record is not None for record in self.carried) else {}
        return {
            "format": CHECKPOINT_FORMAT,
            "config": self.config.as_dict(),
            "generation": self.generation,
            "population": [genome.to_data() for genome in self.population],
            "rng": self.rng_state,
            "hall_of_fame": [
                {"genome": genome.to_data(), "fitness": list(genome.fitness.values), "record": genome.record}
                for genome in self.hall_of_fame
            ],
            "logbook": self.logbook,
            **carried,
        }

    @classmethod
    def from_data(cls, data: object, library: PrimitiveLibrary, config: EvolutionConfig | None = None) -> Checkpoint:
        """Rebuild from :meth:`to_data` output, checked by :func:`check_checkpoint_data`; ``config`` (if given)
        must match the saved one except for resumable fields, and replaces it."""
        saved = check_checkpoint_data(data)
        data = cast(dict, data)  # the check found a checkpoint's dict
        if config is not None:
            changed = saved.differences(config)
            if changed:
                raise ValueError(f"cannot resume: the config differs from the checkpoint's in {', '.join(changed)}")
        else:
            config = saved
        kind = genome_kind(config)
        hall_of_fame = []
        for entry in data["hall_of_fame"]:
            genome = kind.read_genome(entry["genome"], library, config)
            genome.fitness.values = tuple(entry["fitness"])
            genome.record = dict(entry["record"])
            hall_of_fame.append(genome)
        population = [kind.read_genome(genome, library, config) for genome in data["population"]]
        # (mypy cannot tie the kind to its genomes below: both follow config.genome)
        kind.restored_population(population)  # type: ignore[arg-type]  # rules: every rule bred has been screened
        carried = [None if record is None else dict(record) for record in data.get("carried", [])]
        return cls(
            config,
            data["generation"],
            population,  # type: ignore[arg-type]  # one kind's genomes
            _as_rng_state(data["rng"]),
            hall_of_fame,  # type: ignore[arg-type]  # one kind's genomes
            list(data["logbook"]),
            carried,
        )


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _check_record(record: object, where: str) -> None:
    if not isinstance(record, dict) or not all(
        isinstance(key, str) and (value is None or isinstance(value, bool | str) or _is_number(value))
        for key, value in record.items()
    ):
        raise ValueError(f"{where} must map names to numbers, texts or null")


def check_checkpoint_data(data: object) -> EvolutionConfig:
    """Check a checkpoint's plain data field by field, before anything uses it, and return its config.

    The format and keys; the config (every field); ``generation`` between 0 and the config's generations;
    a population of the config's size (times its islands); the random state; a hall of fame of at most the
    config's size (times its islands) whose members have two finite fitness values and a record of plain values
    (naming the member's island, when there are several); a logbook of one row of numbers per generation done;
    and, only with pooled fitness, one carried record or null per genome. The genomes' rules are read later,
    against the library. A one-line ``ValueError`` says what is wrong.
    """
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise ValueError("not a gpquarto checkpoint")
    if not CHECKPOINT_KEYS <= set(data) <= CHECKPOINT_KEYS | OPTIONAL_KEYS:
        missing = sorted(CHECKPOINT_KEYS - set(data))
        unknown = sorted(map(str, set(data) - CHECKPOINT_KEYS - OPTIONAL_KEYS))
        raise ValueError(
            f"malformed checkpoint (missing: {', '.join(missing) or 'none'}; unknown: {', '.join(unknown) or 'none'})"
        )
    config = EvolutionConfig.from_dict(data["config"])
    generation = data["generation"]
    if not isinstance(generation, int) or isinstance(generation, bool) or not 0 <= generation <= config.generations:
        raise ValueError(f"generation must be a whole number from 0 to {config.generations}, got {generation!r:.40}")
    population = data["population"]
    if not isinstance(population, list) or len(population) != config.population * config.islands:
        raise ValueError(f"the population must be a list of {config.population * config.islands} genomes")
    if "carried" in data:
        _check_carried(data["carried"], config)
    try:
        random.Random().setstate(_as_rng_state(data["rng"]))
    except (TypeError, ValueError, OverflowError):
        raise ValueError("the random generator's state is malformed") from None
    hall_of_fame = data["hall_of_fame"]
    hall_size = config.hall_of_fame * config.islands
    if not isinstance(hall_of_fame, list) or len(hall_of_fame) > hall_size:
        raise ValueError(f"the hall of fame must be a list of at most {hall_size} members")
    if bool(hall_of_fame) != (generation > 0):
        raise ValueError(f"a hall of fame with {len(hall_of_fame)} members after {generation} generations")
    for rank, entry in enumerate(hall_of_fame, 1):
        if not isinstance(entry, dict) or set(entry) != {"genome", "fitness", "record"}:
            raise ValueError(f"hall of fame member {rank} must have a genome, a fitness and a record")
        fitness = entry["fitness"]
        if not isinstance(fitness, list | tuple) or len(fitness) != 2 or not all(map(_is_number, fitness)):
            raise ValueError(f"hall of fame member {rank}: the fitness must be two finite numbers, got {fitness!r:.40}")
        _check_record(entry["record"], f"hall of fame member {rank}: the record")
        island = entry["record"].get("island")
        if config.islands > 1 and not (type(island) is int and 0 <= island < config.islands):
            raise ValueError(
                f"hall of fame member {rank}: the record must name its island, 0 to {config.islands - 1}, "
                f"got {island!r:.20}"
            )
    logbook = data["logbook"]
    if not isinstance(logbook, list) or len(logbook) != generation:
        raise ValueError(f"the logbook must be a list of {generation} rows, one per generation done")
    for index, row in enumerate(logbook):
        _check_record(row, f"logbook row {index}")
        if row.get("generation") != index or not all(_is_number(value) for value in row.values()):
            raise ValueError(f"logbook row {index} must hold numbers, its generation {index} first")
    return config


def _check_carried(carried: object, config: EvolutionConfig) -> None:
    if not config.pooled_fitness:
        raise ValueError("carried records in a checkpoint of a run without pooled fitness")
    size = config.population * config.islands
    if not isinstance(carried, list) or len(carried) != size:
        raise ValueError(f"the carried records must be a list of {size}, one per genome (null for none)")
    for index, record in enumerate(carried):
        if record is not None:
            where = f"the carried record of genome {index}"
            _check_record(record, where)
            check_carried_record(record, where, config.genome)


def write_checkpoint(path: str | os.PathLike[str], checkpoint: Checkpoint) -> None:
    """Write ``checkpoint`` atomically (temporary file in the same folder, then rename)."""
    write_bytes_atomic(path, dill.dumps(checkpoint.to_data()))


def read_checkpoint(
    path: str | os.PathLike[str], library: PrimitiveLibrary, config: EvolutionConfig | None = None
) -> Checkpoint:
    """Read a checkpoint written by :func:`write_checkpoint` (plain data only; anything else is refused in a
    one-line ``ValueError`` naming the file)."""
    # Plain data only: a tampered file cannot run code.
    return read_checked_file(path, "checkpoint", lambda data: Checkpoint.from_data(data, library, config))


def read_checkpoint_data(path: str | os.PathLike[str]) -> dict:
    """The plain data of the checkpoint in ``path``, checked by :func:`check_checkpoint_data` (no genome is
    read, so no library is needed): for the generations done and the logbook."""
    return read_checked_file(path, "checkpoint", _checked_data)


def _checked_data(data: object) -> dict:
    check_checkpoint_data(data)
    return data  # type: ignore[return-value]  # a dict: the check says so


def _as_rng_state(value: object) -> tuple:
    """A random generator's state from its saved form (lists back into tuples); TypeError when not a list."""
    if not isinstance(value, list | tuple):
        raise TypeError(f"a random generator's state is a list, not {type(value).__name__}")
    return tuple(_as_state(item) for item in value)


def _as_state(value: object) -> object:
    return tuple(_as_state(item) for item in value) if isinstance(value, list | tuple) else value
