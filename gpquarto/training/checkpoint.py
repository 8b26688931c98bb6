"""Checkpoints: a run's state after a generation, as plain data, written atomically and read back safely.

A checkpoint holds the *next* generation's index, its population (as text), the random generator's state, the
hall of fame (genomes as text, with their fitness and games) and the logbook, so a resumed run is
bit-identical to an uninterrupted one. It is a pickle of plain data only: reading it never runs code.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import dill

from gpquarto.atomic import write_bytes_atomic
from gpquarto.gp.genome import Genome
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.plain_files import read_plain_file
from gpquarto.training.config import EvolutionConfig

CHECKPOINT_FORMAT = "gpquarto-checkpoint/1"


@dataclass
class Checkpoint:
    """A run's state before ``generation`` is evaluated: what :class:`~gpquarto.training.evolution.Evolution`
    needs to go on."""

    config: EvolutionConfig
    generation: int
    population: list[Genome]
    rng_state: tuple
    #: Best first, each with its fitness and record.
    hall_of_fame: list[Genome]
    logbook: list[dict]

    def to_data(self) -> dict:
        """The whole state as plain data (texts, numbers, the random state)."""
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
        }

    @classmethod
    def from_data(cls, data: object, library: PrimitiveLibrary, config: EvolutionConfig | None = None) -> Checkpoint:
        """Rebuild from :meth:`to_data` output; ``config`` (if given) must match except for resumable fields
        and replaces the saved one."""
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise ValueError("not a gpquarto checkpoint")
        saved = EvolutionConfig.from_dict(data["config"])
        if config is not None:
            changed = saved.differences(config)
            if changed:
                raise ValueError(f"cannot resume: the config differs from the checkpoint's in {', '.join(changed)}")
        else:
            config = saved
        pset = library.primitive_set()
        hall_of_fame = []
        for entry in data["hall_of_fame"]:
            genome = Genome.from_data(entry["genome"], pset)
            genome.fitness.values = tuple(entry["fitness"])
            genome.record = dict(entry["record"])
            hall_of_fame.append(genome)
        population = [Genome.from_data(genome, pset) for genome in data["population"]]
        for genome in population:  # every rule of a bred population has been screened
            for rule in genome.choose_rules + genome.place_rules:
                rule.screened = True
        rng_state = _as_state(data["rng"])
        random.Random().setstate(rng_state)  # a state the generator refuses fails here
        return cls(config, int(data["generation"]), population, rng_state, hall_of_fame, list(data["logbook"]))


def write_checkpoint(path: str | os.PathLike[str], checkpoint: Checkpoint) -> None:
    """Write ``checkpoint`` atomically (temporary file in the same folder, then rename)."""
    write_bytes_atomic(path, dill.dumps(checkpoint.to_data()))


def read_checkpoint(
    path: str | os.PathLike[str], library: PrimitiveLibrary, config: EvolutionConfig | None = None
) -> Checkpoint:
    """Read a checkpoint written by :func:`write_checkpoint` (plain data only; anything else is refused in a
    one-line ``ValueError`` naming the file)."""
    data = read_plain_file(path, "checkpoint")  # plain data only: a tampered file cannot run code
    try:
        return Checkpoint.from_data(data, library, config)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
        detail = str(error) if isinstance(error, ValueError) else f"malformed ({type(error).__name__}: {error})"
        raise ValueError(f"{path}: {detail}") from None


def _as_state(value: object) -> object:
    return tuple(_as_state(item) for item in value) if isinstance(value, list | tuple) else value
