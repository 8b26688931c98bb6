"""The hall of fame of a run: DEAP's, or (the default) one member per generation, its best.

Scores of different generations come from different games, so a plain hall fills with the top genomes of
the luckiest generation, near-copies; :class:`GenerationHallOfFame` keeps each generation's best instead.
A run of several islands keeps one such hall per island (:class:`IslandHallOfFame`), so that the luckiest
island cannot fill it either. With pooled fitness (:mod:`~gpquarto.training.pooling`) a genome that lives on is
evaluated again each generation; its member then takes the newer mean, over more games, in place of the old.
All are rebuilt from a checkpoint through DEAP's own ``insert``, never by editing its lists.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence

from deap import tools

from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.genome import Genome
from gpquarto.training.config import EvolutionConfig


def same_place(first: Genome, second: Genome) -> bool:
    """Whether two genomes take one place in a per-generation hall of fame: the same rules, or evaluated in the
    same generation (``record["generation"]``)."""
    generation = first.record.get("generation")
    return first == second or (generation is not None and generation == second.record.get("generation"))


def generations_played(genome: Genome) -> int:
    """How many generations' games a genome's fitness pools (1 without pooled fitness)."""
    return genome.record.get("generations_played", 1)


class GenerationHallOfFame(tools.HallOfFame):
    """DEAP's hall of fame with :func:`same_place` as its similarity, except that a better genome of a member's
    generation replaces the member (DEAP would drop it): at most one member per generation, its best. A genome
    already in it is not entered again, as in DEAP's, unless its fitness pools more generations' games than
    the member's: then the member takes that fitness and record, and keeps its generation (its place).

    With ``per_generation`` False the similarity is equality: DEAP's hall of fame, the best scores ever, with
    the same refresh of pooled members.
    """

    def __init__(self, maxsize: int, per_generation: bool = True) -> None:
        super().__init__(maxsize, similar=same_place if per_generation else operator.eq)

    def update(self, population: Iterable[Genome]) -> None:
        """Enter each genome of ``population`` as the class docstring says."""
        for genome in population:
            twin = self._twin(genome)
            if twin is None:
                super().update([genome])
            elif genome == self[twin]:
                if generations_played(genome) > generations_played(self[twin]):
                    self._refresh(twin, genome)
            elif genome.fitness > self[twin].fitness:
                self.remove(twin)
                self.insert(genome)

    def _twin(self, genome: Genome) -> int | None:
        """The member equal to ``genome``, else the first similar one (of its generation), else None."""
        equal = next((index for index, member in enumerate(self) if genome == member), None)
        if equal is not None:
            return equal
        return next((index for index, member in enumerate(self) if self.similar(genome, member)), None)

    def _refresh(self, index: int, genome: Genome) -> None:
        place = {"generation": self[index].record["generation"]} if "generation" in self[index].record else {}
        refreshed = genome.clone()
        refreshed.record.update(place)
        self.remove(index)
        self.insert(refreshed)


class IslandHallOfFame(tools.HallOfFame):
    """One hall of fame per island (``halls``), each of ``config.hall_of_fame`` members, and as itself their
    members together, best first: what the final choice replays, ``hof`` opponents meet and the run writes.

    A genome goes to the hall of its island, ``record["island"]``. The members together are a function of the
    halls alone (each hall entered from its last member to its first, island by island), so a hall of fame
    restored from its members, island by island, is the one that was saved.
    """

    def __init__(self, config: EvolutionConfig) -> None:
        super().__init__(config.hall_of_fame * config.islands, similar=operator.eq)
        self.halls = [_island_hall(config) for _ in range(config.islands)]

    def update(self, population: Iterable[Genome]) -> None:
        """Enter each genome of ``population`` in its island's hall, then gather the halls' members."""
        for genome in population:
            self.halls[genome.record["island"]].update([genome])
        self._gather()

    def restore(self, members: Sequence[Genome | EvaluatorGenome]) -> None:
        """Refill from saved members (best first, each with its island in its record)."""
        for genome in reversed(members):
            self.halls[genome.record["island"]].insert(genome)
        self._gather()

    def _gather(self) -> None:
        self.clear()
        for hall in self.halls:
            for genome in reversed(hall.items):
                self.insert(genome)


def _island_hall(config: EvolutionConfig) -> GenerationHallOfFame:
    return GenerationHallOfFame(config.hall_of_fame, config.hall_of_fame_per_generation)


def new_hall_of_fame(config: EvolutionConfig) -> tools.HallOfFame:
    """An empty hall of fame of ``config.hall_of_fame`` members (per island, when there are several), one per
    generation with ``hall_of_fame_per_generation``."""
    if config.islands > 1:
        return IslandHallOfFame(config)
    return _island_hall(config)


def restored_hall_of_fame(config: EvolutionConfig, members: Sequence[Genome | EvaluatorGenome]) -> tools.HallOfFame:
    """The hall of fame that held ``members`` (best first, their fitness set), in the same order.

    DEAP's ``insert`` puts a genome before the members of equal fitness, so entering them from the last to the
    first gives back the saved order, ties included.
    """
    hall_of_fame = new_hall_of_fame(config)
    if isinstance(hall_of_fame, IslandHallOfFame):
        hall_of_fame.restore(members)
        return hall_of_fame
    for genome in reversed(members):
        hall_of_fame.insert(genome)
    return hall_of_fame
