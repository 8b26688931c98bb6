"""The hall of fame of a run: DEAP's, or (the default) one member per generation, its best.

Scores of different generations come from different games, so a plain hall fills with the top genomes of
the luckiest generation, near-copies; :class:`GenerationHallOfFame` keeps each generation's best instead.
Both are rebuilt from a checkpoint through DEAP's own ``insert``, never by editing its lists.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

from deap import tools

from gpquarto.gp.genome import Genome
from gpquarto.training.config import EvolutionConfig


def same_place(first: Genome, second: Genome) -> bool:
    """Whether two genomes take one place in a per-generation hall of fame: the same rules, or evaluated in the
    same generation (``record["generation"]``)."""
    generation = first.record.get("generation")
    return first == second or (generation is not None and generation == second.record.get("generation"))


class GenerationHallOfFame(tools.HallOfFame):
    """DEAP's hall of fame with :func:`same_place` as its similarity, except that a better genome of a member's
    generation replaces the member (DEAP would drop it): at most one member per generation, its best. A genome
    already in it is not entered again, as in DEAP's."""

    def __init__(self, maxsize: int) -> None:
        super().__init__(maxsize, similar=same_place)

    def update(self, population: Iterable[Genome]) -> None:
        """Enter each genome of ``population`` as the class docstring says."""
        for genome in population:
            twin = next((index for index, member in enumerate(self) if self.similar(genome, member)), None)
            if twin is None:
                super().update([genome])
            elif genome != self[twin] and genome.fitness > self[twin].fitness:
                self.remove(twin)
                self.insert(genome)


def new_hall_of_fame(config: EvolutionConfig) -> tools.HallOfFame:
    """An empty hall of fame of ``config.hall_of_fame`` members, one per generation with
    ``hall_of_fame_per_generation``."""
    if config.hall_of_fame_per_generation:
        return GenerationHallOfFame(config.hall_of_fame)
    return tools.HallOfFame(config.hall_of_fame, similar=operator.eq)


def restored_hall_of_fame(config: EvolutionConfig, members: list[Genome]) -> tools.HallOfFame:
    """The hall of fame that held ``members`` (best first, their fitness set), in the same order.

    DEAP's ``insert`` puts a genome before the members of equal fitness, so entering them from the last to the
    first gives back the saved order, ties included.
    """
    hall_of_fame = new_hall_of_fame(config)
    for genome in reversed(members):
        hall_of_fame.insert(genome)
    return hall_of_fame
