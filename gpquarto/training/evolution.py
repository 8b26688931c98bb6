"""The evolution loop: evaluate, keep a hall of fame and a logbook, breed the next generation, checkpoint.

The loop only, for every genome kind: what depends on the genome (generation 0, the fitness games' task,
breeding, reading a genome back) is the kind's (:mod:`~gpquarto.training.genome_kinds`: rule players, or
evaluators for a search's leaves), the config is :mod:`~gpquarto.training.config`'s, the hall of fame
:mod:`~gpquarto.training.hall_of_fame`'s, the logbook's rows :mod:`~gpquarto.training.statistics`' and the
checkpoint's format :mod:`~gpquarto.training.checkpoint`'s.

One generation: every genome plays the generation's games (the same for all, seeded from the run seed and
the generation) through the back-end's ``map``; the hall of fame and the logbook are updated; the next
population is bred by the kind (rules: elites, tournament selection on ``(score, size)``, crossover, mutation,
immigrants every ``immigrant_every`` generations, from one ``random.Random``; their new rules are screened
through the back-end's ``map`` too, with seeds drawn from that generator, so the workers do not change the
result; evaluators: from a generator seeded from the run seed and the generation). The state after a
generation, saved by :meth:`Evolution.save_checkpoint`, holds the *next* generation's index, its population (as
text) and the generator's state, so a resumed run is bit-identical to an uninterrupted one.

With ``config.islands`` above 1 the population is that many independent islands of ``config.population``
genomes, one after the other. They play the same games and are bred apart (no migration): island 0 exactly as
a run of one island, the others from generators seeded from the run seed, the generation and the island, so
nothing more is saved. The hall of fame keeps each island's members and the final choice replays them all.
``hof`` opponents are the whole hall of fame, so with them every island meets the others' best (and island 0
is no longer the run of one island).

With ``config.draw_value_end`` (a draw value schedule) a draw is worth, in a generation's fitness and race, the
value of that generation (:meth:`~gpquarto.training.config.EvolutionConfig.draw_value_at`, from the generation
number alone, so a resume changes nothing). The hall of fame ranks each member by the fitness of the generation
that judged it: it only nominates the final choice's candidates, and the final choice replays them all on the same
games at the schedule's end value, the one score they are compared by.

With ``config.racing`` the generation's games are a race (:mod:`~gpquarto.training.racing`): the better genomes
play more of them, and a genome's fitness is its score over the games it played.

With ``config.pooled_fitness`` a genome bred unchanged (an elite, a copy of a parent) keeps its evaluations: its
fitness is the mean over every generation's games it has played (:mod:`~gpquarto.training.pooling`). What the
next generation carries is saved with it (``carried``, one record or None per genome), and the hall of fame
takes a member's newer, longer mean in place of the old one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from deap import tools

from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.genome import Genome
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.grading.cache import load_or_build_bank
from gpquarto.runner import SERIAL, Runner
from gpquarto.seeding import derive_seed
from gpquarto.training.checkpoint import Checkpoint, read_checkpoint, write_checkpoint
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.fitness import EvaluationTask, game_plan, opponents_at, parse_opponents
from gpquarto.training.genome_kinds import EvaluatorTask, genome_kind
from gpquarto.training.genome_kinds import make_generator as make_generator  # where it was
from gpquarto.training.hall_of_fame import new_hall_of_fame, restored_hall_of_fame
from gpquarto.training.pooling import carried_record, pooled_record
from gpquarto.training.racing import race
from gpquarto.training.statistics import generation_row

if TYPE_CHECKING:
    from gpquarto.gp.screening import RuleScreen


@dataclass
class Evolution:
    """A run in progress: population for ``generation`` (not yet evaluated), random state, hall of fame, logbook."""

    config: EvolutionConfig
    library: PrimitiveLibrary
    generation: int
    population: list[Genome] | list[EvaluatorGenome]
    rng: random.Random
    hall_of_fame: tools.HallOfFame
    logbook: list[dict] = field(default_factory=list)
    #: With ``pooled_fitness``: for each genome of ``population``, the pooled record of the identical genome of
    #: the generation before (:func:`~gpquarto.training.pooling.carried_record`), or None; empty means all None.
    carried: list[dict | None] = field(default_factory=list)
    if TYPE_CHECKING:  # set by the rule kind's prepare (no field at run time)
        screen: RuleScreen = field(init=False)

    def __post_init__(self) -> None:
        self.kind = genome_kind(self.config)
        self.generator = self.kind.generator(self.library, self.config)
        self.library_spec = self.config.library()  # how workers load the library (tasks carry it)
        self.kind.prepare(self)
        self._accuracy_positions: tuple | None = None
        self._evaluations = 0

    @classmethod
    def start(cls, config: EvolutionConfig, library: PrimitiveLibrary, runner: Runner = SERIAL) -> Evolution:
        """A new run: the kind's first population for generation 0 (rules: random genomes, screened on
        ``runner``; the players of ``config.start_from``, read first so that a bad file fails before any work,
        take the first places, as they are; the random genomes are drawn whether or not some are replaced, so
        the rest of generation 0 is the same as without ``start_from``)."""
        rng = random.Random(derive_seed(config.seed, "evolution"))
        evolution = cls(config, library, 0, [], rng, new_hall_of_fame(config))
        evolution.population = evolution.kind.first_population(evolution, runner)
        return evolution

    # -- one generation -------------------------------------------------------------------------------

    def opponents_now(self) -> str:
        """The opponent mix of the current generation (the schedule's, when there is one)."""
        return opponents_at(self.config.opponents, self.config.schedule, self.generation)

    def draw_value_now(self) -> float:
        """What a draw is worth in the current generation's scores (fitness and racing): the config's
        :meth:`~gpquarto.training.config.EvolutionConfig.draw_value_at` this generation."""
        return self.config.draw_value_at(self.generation)

    def hall_of_fame_texts(self) -> tuple[dict, ...]:
        """The hall of fame as it stands before this generation is evaluated (``hof`` opponents), best first."""
        return tuple(genome.to_data() for genome in self.hall_of_fame)

    def accuracy_positions(self, runner: Runner) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The training bank's decisions for the accuracy term (built, or read from the cache, once)."""
        if not self.config.accuracy_weight:
            return ()
        if self._accuracy_positions is None:
            bank = load_or_build_bank(self.config.training_bank(), runner=runner)
            self._accuracy_positions = tuple((item.text, tuple(item.best_actions)) for item in bank.positions)
        return self._accuracy_positions

    def evaluate(self, runner: Runner) -> None:
        """Play this generation's games with every genome (each distinct genome once, whatever its island) and set
        fitnesses; with several islands, each genome's record names its island (island ``k`` is the population's
        ``k``-th slice of ``config.population``). With ``pooled_fitness`` a genome's fitness and record are those of
        all its games so far, its carried record joined to this generation's."""
        config = self.config
        plan = game_plan(
            parse_opponents(self.opponents_now()), config.games, config.seed, self.generation, config.openings
        )
        hall = self.hall_of_fame_texts()
        population: Sequence[Genome | EvaluatorGenome] = self.population
        unique: dict[tuple | str, int] = {}
        tasks: list[EvaluationTask | EvaluatorTask] = []
        for genome in population:
            key = genome.key()
            if key not in unique:
                unique[key] = len(tasks)
                # the kind and the population's genomes both follow config.genome: mypy cannot tie them
                tasks.append(self.kind.task(self, genome, plan, hall, runner))  # type: ignore[arg-type]  # a genome of the kind's own
        if config.racing:
            mix = parse_opponents(self.opponents_now())

            def round_plan(number: int, games: int) -> tuple:
                return game_plan(mix, games, config.seed, f"race {self.generation} {number}", config.openings)

            # race reads what tasks and results of both kinds have (scores, sizes, weights)
            results = race(tasks, round_plan, config.games, self.kind.evaluate, runner)  # type: ignore[arg-type]  # either kind's
        else:
            results = runner.map(self.kind.evaluate, tasks)
        carried = self.carried or [None] * len(self.population)
        for index, genome in enumerate(population):
            result = results[unique[genome.key()]]
            record = result.as_dict()
            if config.pooled_fitness:
                record = pooled_record(carried[index], record)
            genome.fitness.values = (record["score"], float(result.size))
            genome.record = {**record, "generation": self.generation}
            if config.islands > 1:
                genome.record["island"] = index // config.population
        self._evaluations = len(tasks)

    def record(self) -> dict:
        """Update the hall of fame and append this generation's logbook row."""
        self.hall_of_fame.update(self.population)
        row = generation_row(
            self.generation,
            self._evaluations,
            self.population,
            self.hall_of_fame,
            accuracy=bool(self.config.accuracy_weight),
            fallbacks=self.kind.fallbacks,
        )
        self.logbook.append(row)
        return row

    def breed(self, runner: Runner = SERIAL) -> None:
        """Replace the population by the next generation's (not yet evaluated, bred by the kind) and advance
        ``generation``; rules: the offspring's new rules are screened on ``runner``. With ``pooled_fitness`` each
        new genome identical to one of this generation's carries that genome's pooled record."""
        evaluated = {genome.key(): genome.record for genome in self.population} if self.config.pooled_fitness else {}
        self.population = self.kind.breed(self, runner)
        if self.config.pooled_fitness:
            earlier = [evaluated.get(genome.key()) for genome in self.population]
            self.carried = [None if record is None else carried_record(record) for record in earlier]
        self.generation += 1

    def step(self, runner: Runner) -> dict:
        """Evaluate, record and breed one generation; returns its logbook row."""
        self.evaluate(runner)
        row = self.record()
        self.breed(runner)
        return row

    def run(self, runner: Runner, on_generation: Callable[[Evolution, dict], None] | None = None) -> None:
        """Run until ``config.generations`` generations are done, calling ``on_generation`` after each."""
        while self.generation < self.config.generations:
            row = self.step(runner)
            if on_generation is not None:
                on_generation(self, row)

    def champion(self, runner: Runner) -> Genome | EvaluatorGenome | None:
        """The hall of fame's best after re-scoring every member on the same ``final_games`` fresh games.

        Fitness is noisy (a genome may top a generation by luck), so the final choice plays each hall of fame
        member again on one larger common set of games; the winner's fitness and record are those games'.
        With ``final_games == 0`` it is simply the hall of fame's first member. With several islands the hall of
        fame holds every island's members, so the choice is among all of them; the winner's record keeps its island.
        A draw is worth the config's :attr:`~gpquarto.training.config.EvolutionConfig.final_draw_value` (with a
        draw value schedule, its end value, whatever the generation each member was judged in).
        """
        members = [genome.clone() for genome in self.hall_of_fame]
        if not members or self.config.final_games == 0:
            return members[0] if members else None
        config = self.config
        plan = game_plan(
            parse_opponents(self.opponents_now()), config.final_games, config.seed, "final", config.openings
        )
        hall = self.hall_of_fame_texts()
        value = config.final_draw_value  # the schedule's end: the choice judges by the score it rose to
        tasks = [replace(self.kind.task(self, genome, plan, hall, runner), draw_value=value) for genome in members]
        results = runner.map(self.kind.evaluate, tasks)
        for genome, result in zip(members, results, strict=True):
            genome.fitness.values = (result.score, float(result.size))
            island = {"island": genome.record["island"]} if "island" in genome.record else {}
            genome.record = {**result.as_dict(), **island}
        return max(members, key=lambda genome: genome.fitness.wvalues)

    # -- checkpoints ----------------------------------------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """The state to go on from (the next generation's population, the generator's state, the hall of fame,
        the logbook)."""
        return Checkpoint(
            self.config,
            self.generation,
            self.population,
            self.rng.getstate(),
            list(self.hall_of_fame),
            self.logbook,
            list(self.carried),
        )

    def save_checkpoint(self, path: str) -> None:
        """Write :meth:`checkpoint` atomically (temporary file in the same folder, then rename)."""
        write_checkpoint(path, self.checkpoint())

    @classmethod
    def from_checkpoint(cls, checkpoint: Checkpoint, library: PrimitiveLibrary) -> Evolution:
        """The run a checkpoint saved, ready to evaluate its next generation."""
        rng = random.Random()
        rng.setstate(checkpoint.rng_state)
        hall_of_fame = restored_hall_of_fame(checkpoint.config, checkpoint.hall_of_fame)
        return cls(
            checkpoint.config,
            library,
            checkpoint.generation,
            checkpoint.population,
            rng,
            hall_of_fame,
            list(checkpoint.logbook),
            list(checkpoint.carried),
        )

    @classmethod
    def load_checkpoint(cls, path: str, library: PrimitiveLibrary, config: EvolutionConfig | None = None) -> Evolution:
        """Read a checkpoint written by :meth:`save_checkpoint` (plain data only; anything else is refused);
        ``config`` (if given) must match the saved one except for resumable fields."""
        return cls.from_checkpoint(read_checkpoint(path, library, config), library)
