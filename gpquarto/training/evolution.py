"""The evolution loop: evaluate, keep a hall of fame and a logbook, breed the next generation, checkpoint.

The loop only: the config is :mod:`~gpquarto.training.config`'s, the hall of fame
:mod:`~gpquarto.training.hall_of_fame`'s, the logbook's rows :mod:`~gpquarto.training.statistics`' and the
checkpoint's format :mod:`~gpquarto.training.checkpoint`'s.

One generation: every genome plays the generation's games (the same for all, seeded from the run seed and
the generation) through the back-end's ``map``; the hall of fame and the logbook are updated; the next
population is bred (elites, tournament selection on ``(score, size)``, crossover, mutation, immigrants every
``immigrant_every`` generations) from one ``random.Random``; its new rules are screened through the
back-end's ``map`` too, with seeds drawn from that generator, so the workers do not change the result. The
state after a generation, saved by :meth:`Evolution.save_checkpoint`, holds the *next* generation's index,
its population (as text) and the generator's state, so a resumed run is bit-identical to an uninterrupted one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from deap import tools

from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.gp.binding import gp_game
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import Genome
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.screening import RuleScreen, ScreeningConfig
from gpquarto.gp.storage import genome_from_data, read_player_file
from gpquarto.gp.variation import mutate_genome, random_genome, rule_crossover, tree_crossover
from gpquarto.grading.cache import load_or_build_bank
from gpquarto.runner import SERIAL, Runner
from gpquarto.seeding import derive_seed
from gpquarto.training.checkpoint import Checkpoint, read_checkpoint, write_checkpoint
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.fitness import (
    EvaluationResult,
    EvaluationTask,
    evaluate,
    game_plan,
    opponents_at,
    parse_opponents,
)
from gpquarto.training.hall_of_fame import new_hall_of_fame, restored_hall_of_fame
from gpquarto.training.statistics import generation_row


def start_genomes(config: EvolutionConfig, library: PrimitiveLibrary) -> list[Genome]:
    """The genomes of the player files in ``config.start_from``, read safely (plain data only) and checked
    against the run's library and limits; any problem is a one-line ``ValueError`` naming the file."""
    genomes = []
    for path in config.start_from:
        genome = genome_from_data(read_player_file(path), library, path)
        for kind in genome.kinds:
            rules = genome.rules(kind)
            if not 1 <= len(rules) <= config.rule_cap:
                raise ValueError(f"{path}: {len(rules)} {kind} rules; a run allows 1 to rule_cap = {config.rule_cap}")
            tallest = max(rule.height for rule in rules)
            if tallest > config.height_limit:
                raise ValueError(
                    f"{path}: a {kind} rule has a tree of height {tallest}, above height_limit = {config.height_limit}"
                )
        genomes.append(genome)
    return genomes


@dataclass
class Evolution:
    """A run in progress: population for ``generation`` (not yet evaluated), random state, hall of fame, logbook."""

    config: EvolutionConfig
    library: PrimitiveLibrary
    generation: int
    population: list[Genome]
    rng: random.Random
    hall_of_fame: tools.HallOfFame
    logbook: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.generator = make_generator(self.library, self.config.height_limit)
        self.library_spec = self.config.library()  # how workers load the library (tasks carry it)
        self.screen = RuleScreen(
            self.library,
            _screening_config(self.config),
            derive_seed(self.config.seed, "screening"),
            library_config=self.library_spec,
        )
        self._accuracy_positions: tuple | None = None
        self._evaluations = 0

    @classmethod
    def start(cls, config: EvolutionConfig, library: PrimitiveLibrary, runner: Runner = SERIAL) -> Evolution:
        """A new run: a random population for generation 0, its rules screened on ``runner``; the players of
        ``config.start_from`` (read first: a bad file fails before any work) take the first places, as they are.

        The random genomes are drawn whether or not some are replaced, so the rest of generation 0 is the same
        as without ``start_from``.
        """
        given = start_genomes(config, library)
        rng = random.Random(derive_seed(config.seed, "evolution"))
        evolution = cls(config, library, 0, [], rng, new_hall_of_fame(config))
        population = [evolution._random_genome() for _ in range(config.population)]
        population = evolution.screen.screen_genomes(rng, population, evolution.generator, runner)
        evolution.population = given + population[len(given) :]
        return evolution

    def _random_genome(self) -> Genome:
        """A random genome (its rules not screened yet)."""
        config = self.config
        return random_genome(
            self.rng,
            self.generator,
            min_rules=config.min_rules,
            max_rules=config.max_rules,
            min_height=config.init_min_height,
            max_height=config.init_max_height,
            game=config.game,
        )

    # -- one generation -------------------------------------------------------------------------------

    def opponents_now(self) -> str:
        """The opponent mix of the current generation (the schedule's, when there is one)."""
        return opponents_at(self.config.opponents, self.config.schedule, self.generation)

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

    def _task(self, genome: Genome, plan, hall, runner: Runner) -> EvaluationTask:
        config = self.config
        return EvaluationTask(
            genome.to_data(),
            plan,
            config.fallback_weight,
            self.library_spec,
            hall,
            config.accuracy_weight,
            self.accuracy_positions(runner),
            tuple(sorted(config.game_settings().items())),
        )

    def evaluate(self, runner: Runner) -> None:
        """Play this generation's games with every genome (each distinct genome once) and set fitnesses."""
        config = self.config
        plan = game_plan(
            parse_opponents(self.opponents_now()), config.games, config.seed, self.generation, config.openings
        )
        hall = self.hall_of_fame_texts()
        unique: dict[tuple, int] = {}
        tasks = []
        for genome in self.population:
            key = genome.key()
            if key not in unique:
                unique[key] = len(tasks)
                tasks.append(self._task(genome, plan, hall, runner))
        results: list[EvaluationResult] = runner.map(evaluate, tasks)
        for genome in self.population:
            result = results[unique[genome.key()]]
            genome.fitness.values = (result.score, float(result.size))
            genome.record = {**result.as_dict(), "generation": self.generation}
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
        )
        self.logbook.append(row)
        return row

    def _tournament(self) -> Genome:
        contenders = [
            self.population[self.rng.randrange(len(self.population))] for _ in range(self.config.tournament_size)
        ]
        return max(contenders, key=lambda genome: genome.fitness.wvalues)

    def breed(self, runner: Runner = SERIAL) -> None:
        """Replace the population by the next generation's (not yet evaluated) and advance ``generation``;
        the offspring's new rules are screened on ``runner``."""
        config, rng, generator = self.config, self.rng, self.generator
        ranked = sorted(self.population, key=lambda genome: genome.fitness.wvalues, reverse=True)
        elites = [genome.clone() for genome in ranked[: config.elite]]
        offspring = [self._tournament().clone() for _ in range(config.population - config.elite)]
        for index in range(1, len(offspring), 2):
            if rng.random() < config.crossover_rate:
                first, second = offspring[index - 1], offspring[index]
                if rng.random() < config.rule_crossover_share:
                    offspring[index - 1], offspring[index] = rule_crossover(rng, first, second)
                else:
                    offspring[index - 1], offspring[index] = tree_crossover(rng, first, second, config.height_limit)
        limits = {
            "min_rules": config.min_rules,
            "max_rules": config.rule_cap,
            "min_height": config.init_min_height,
            "max_height": config.init_max_height,
        }
        for index, genome in enumerate(offspring):
            if rng.random() < config.mutation_rate:
                offspring[index] = mutate_genome(rng, genome, generator, **limits)
        next_generation = self.generation + 1
        if config.immigrants and next_generation % config.immigrant_every == 0:
            for index in range(len(offspring) - config.immigrants, len(offspring)):
                offspring[index] = self._random_genome()
        offspring = self.screen.screen_genomes(rng, offspring, generator, runner)
        self.population = elites + offspring
        self.generation = next_generation

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

    def champion(self, runner: Runner) -> Genome | None:
        """The hall of fame's best after re-scoring every member on the same ``final_games`` fresh games.

        Fitness is noisy (a genome may top a generation by luck), so the final choice plays each hall of fame
        member again on one larger common set of games; the winner's fitness and record are those games'.
        With ``final_games == 0`` it is simply the hall of fame's first member.
        """
        members = [genome.clone() for genome in self.hall_of_fame]
        if not members or self.config.final_games == 0:
            return members[0] if members else None
        config = self.config
        plan = game_plan(
            parse_opponents(self.opponents_now()), config.final_games, config.seed, "final", config.openings
        )
        hall = self.hall_of_fame_texts()
        tasks = [self._task(genome, plan, hall, runner) for genome in members]
        results: list[EvaluationResult] = runner.map(evaluate, tasks)
        for genome, result in zip(members, results, strict=True):
            genome.fitness.values = (result.score, float(result.size))
            genome.record = result.as_dict()
        return max(members, key=lambda genome: genome.fitness.wvalues)

    # -- checkpoints ----------------------------------------------------------------------------------

    def checkpoint(self) -> Checkpoint:
        """The state to go on from (the next generation's population, the generator's state, the hall of fame,
        the logbook)."""
        return Checkpoint(
            self.config, self.generation, self.population, self.rng.getstate(), list(self.hall_of_fame), self.logbook
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
        )

    @classmethod
    def load_checkpoint(cls, path: str, library: PrimitiveLibrary, config: EvolutionConfig | None = None) -> Evolution:
        """Read a checkpoint written by :meth:`save_checkpoint` (plain data only; anything else is refused);
        ``config`` (if given) must match the saved one except for resumable fields."""
        return cls.from_checkpoint(read_checkpoint(path, library, config), library)


def _screening_config(config: EvolutionConfig) -> ScreeningConfig:
    return ScreeningConfig(
        config.screening_games,
        config.screening_max_true_rate,
        config.screening_min_legal_rate,
        config.screening_tries,
        tuple(sorted(config.game_settings().items())),
    )


def make_generator(library: PrimitiveLibrary, height_limit: int) -> TreeGenerator:
    """A tree generator over the library, after checking every root type of its game's rules can be built under
    the limit."""
    roots = gp_game(getattr(library, "game", DEFAULT_GAME)).root_types
    check = getattr(library, "check_reachable", None)
    if check is not None:
        check(roots)
    generator = TreeGenerator(library.primitive_set(), height_limit)
    generator.check_roots(roots)
    return generator
