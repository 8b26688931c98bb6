"""The evolution loop: evaluate, keep a hall of fame and a logbook, breed the next generation, checkpoint.

One generation: every genome plays the generation's games (the same for all, seeded from the run seed and
the generation) through the back-end's ``map``; the hall of fame and the logbook are updated; the next
population is bred (elites, tournament selection on ``(score, size)``, crossover, mutation, immigrants every
``immigrant_every`` generations) from one ``random.Random``; its new rules are screened through the
back-end's ``map`` too, with seeds drawn from that generator, so the workers do not change the result. The
state after a generation, saved by :meth:`Evolution.save_checkpoint`, holds the *next* generation's index,
its population (as text) and the generator's state, so a resumed run is bit-identical to an uninterrupted one.
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields

import dill
from deap import tools

from gpquarto.atomic import write_bytes_atomic
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import ACTION_TYPES, CONDITION_TYPE, KINDS, Genome
from gpquarto.gp.screening import RuleScreen, ScreeningConfig
from gpquarto.gp.variation import mutate_genome, random_genome, rule_crossover, tree_crossover
from gpquarto.plain_files import read_plain_file
from gpquarto.runner import SERIAL, Runner
from gpquarto.seeding import derive_seed
from gpquarto.training.fitness import (
    EvaluationResult,
    EvaluationTask,
    LibraryConfig,
    check_opponents,
    evaluate,
    game_plan,
    opponents_at,
    parse_opponents,
    parse_schedule,
)

CHECKPOINT_FORMAT = "gpquarto-checkpoint/1"
#: The default opponent mix: a quarter of the games keep the player sound against random play, the rest are
#: against the yardstick the project cares about.
DEFAULT_OPPONENTS = "random:1,minimax:depth=2:3"
#: The default mix without the tactical families (``tactical=False``). Those players score about 5% against
#: minimax whatever they learn, so three quarters of minimax games would mostly teach them draws, at the price
#: of wins against random; half and half gave 95.2-96.5% wins against random on three seeds, against
#: 84.5-96.0% with the full-vocabulary mix (docs/experiments.md).
BASIC_DEFAULT_OPPONENTS = "random:1,minimax:depth=2:1"
#: Config fields that may change when a run is resumed (they do not change the results of past generations).
RESUMABLE_CHANGES = ("generations",)


@dataclass(frozen=True)
class EvolutionConfig:
    """Everything that decides a run's results (execution details such as workers live elsewhere).

    Defaults: 50 genomes x 80 games (40 seeds, both seats) per generation keep 120 generations within about
    ten minutes on two cores; 80 games rather than 40 halve the variance of a score, and lifted each of three
    seeds above 50% against minimax:depth=2. Rules per genome 5..10 at creation (up to ``rule_cap`` later),
    height limit 8. The accuracy term (weight 1 on 200 solved decisions with 6 to 8 empty squares) teaches the
    endgame that one-turn lookahead cannot see. The champion is the best of ten generations' bests, each
    replayed on the same 2,000 games. ``docs/experiments.md`` has the runs behind these choices.
    ``opponents`` left empty means the default mix for the vocabulary: :data:`DEFAULT_OPPONENTS`, or
    :data:`BASIC_DEFAULT_OPPONENTS` without the tactical families.
    """

    generations: int = 120
    population: int = 50
    games: int = 80
    opponents: str = ""
    schedule: str = ""
    seed: int = 0
    fallback_weight: float = 0.4
    accuracy_weight: float = 1.0
    accuracy_positions: int = 200
    accuracy_max_empties: int = 8
    tactical: bool = True
    lookahead: bool = True
    plugins: tuple[str, ...] = ()
    #: Player files (``.json`` or ``.p``) whose rules join generation 0 in place of as many random genomes.
    start_from: tuple[str, ...] = ()
    min_rules: int = 5
    max_rules: int = 10
    rule_cap: int = 16
    height_limit: int = 8
    init_min_height: int = 1
    init_max_height: int = 4
    tournament_size: int = 3
    elite: int = 2
    hall_of_fame: int = 10
    #: At most one hall of fame member per generation, its best. Scores of different generations come from
    #: different games, so a plain hall fills with the top genomes of the luckiest generation, near-copies.
    hall_of_fame_per_generation: bool = True
    immigrant_every: int = 6
    immigrants: int = 2
    crossover_rate: float = 0.6
    rule_crossover_share: float = 0.5
    mutation_rate: float = 0.6
    screening_games: int = 3
    screening_max_true_rate: float = 1.0
    screening_min_legal_rate: float = 0.5
    screening_tries: int = 5
    final_games: int = 2000

    def __post_init__(self) -> None:
        object.__setattr__(self, "plugins", tuple(self.plugins))
        object.__setattr__(self, "start_from", tuple(self.start_from))
        if not self.tactical:  # the lookahead family builds on the tactical one: no tactics, no lookahead
            object.__setattr__(self, "lookahead", False)
        if not self.opponents:
            object.__setattr__(self, "opponents", DEFAULT_OPPONENTS if self.tactical else BASIC_DEFAULT_OPPONENTS)
        checks = [
            (self.generations >= 0, "generations must be >= 0"),
            (self.population >= 2, "population must be at least 2"),
            (0 <= self.elite < self.population, "elite must be between 0 and population - 1"),
            (1 <= self.min_rules <= self.max_rules <= self.rule_cap, "need 1 <= min_rules <= max_rules <= rule_cap"),
            (
                1 <= self.init_min_height <= self.init_max_height <= self.height_limit,
                "need 1 <= init heights <= height_limit",
            ),
            (self.tournament_size >= 1, "tournament_size must be >= 1"),
            (self.hall_of_fame >= 1, "hall_of_fame must be >= 1"),
            (
                self.immigrant_every >= 1 and 0 <= self.immigrants <= self.population - self.elite,
                "bad immigrant settings",
            ),
            (self.fallback_weight >= 0, "fallback_weight must be >= 0"),
            (self.accuracy_weight >= 0, "accuracy_weight must be >= 0"),
            (self.accuracy_positions >= 1, "accuracy_positions must be >= 1"),
            (6 <= self.accuracy_max_empties <= 10, "accuracy_max_empties must be 6..10"),
            (self.screening_games >= 1 and self.screening_tries >= 1, "screening games and tries must be >= 1"),
            (self.final_games >= 0 and self.final_games % 2 == 0, "final_games must be an even number >= 0"),
            (
                len(self.start_from) <= self.population,
                f"start_from names {len(self.start_from)} players, more than the population ({self.population})",
            ),
        ]
        float_fields = [item.name for item in fields(self) if isinstance(getattr(self, item.name), float)]
        checks[:0] = [(math.isfinite(getattr(self, name)), f"{name} must be a finite number") for name in float_fields]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"bad evolution config: {message}")
        game_plan(check_opponents(self.opponents), self.games, self.seed, 0)
        if self.schedule:
            parse_schedule(self.schedule)

    def as_dict(self) -> dict:
        """Plain JSON-able dict."""
        data = asdict(self)
        data["plugins"] = list(self.plugins)
        data["start_from"] = list(self.start_from)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> EvolutionConfig:
        """Rebuild from :meth:`as_dict` output; unknown keys are an error."""
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown config keys: {', '.join(unknown)}")
        # Runs saved before the lookahead family, the accuracy term or the per-generation hall of fame existed
        # trained without them: keep them as they were.
        return cls(
            **{
                "lookahead": False,
                "accuracy_weight": 0.0,
                "hall_of_fame_per_generation": False,
                **data,
                "plugins": tuple(data.get("plugins", ())),
                "start_from": tuple(data.get("start_from", ())),
            }
        )

    def training_bank(self):
        """The parameters of the training bank graded by the accuracy term: the run's seed, purpose
        ``training`` (other games than ``grade``'s bank, whose default stays unseen)."""
        from gpquarto.grading.bank import BankParameters

        return BankParameters(
            seed=self.seed,
            positions=self.accuracy_positions,
            max_empties=self.accuracy_max_empties,
            purpose="training",
        )

    def library(self) -> LibraryConfig:
        """Which primitive library the run uses."""
        return LibraryConfig(self.plugins, self.tactical, self.lookahead)

    def differences(self, other: EvolutionConfig) -> list[str]:
        """Names of fields that differ, other than those a resume may change."""
        return [
            item.name
            for item in fields(self)
            if item.name not in RESUMABLE_CHANGES and getattr(self, item.name) != getattr(other, item.name)
        ]


def start_genomes(config: EvolutionConfig, library) -> list[Genome]:
    """The genomes of the player files in ``config.start_from``, read safely (plain data only) and checked
    against the run's library and limits; any problem is a one-line ``ValueError`` naming the file."""
    from gpquarto.gp.storage import genome_from_data, read_player_file

    genomes = []
    for path in config.start_from:
        genome = genome_from_data(read_player_file(path), library, path)
        for kind in KINDS:
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

    def update(self, population) -> None:
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


@dataclass
class Evolution:
    """A run in progress: population for ``generation`` (not yet evaluated), random state, hall of fame, logbook."""

    config: EvolutionConfig
    library: object
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
    def start(cls, config: EvolutionConfig, library, runner: Runner = SERIAL) -> Evolution:
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
            from gpquarto.grading.cache import load_or_build_bank

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
        )

    def evaluate(self, runner: Runner) -> None:
        """Play this generation's games with every genome (each distinct genome once) and set fitnesses."""
        plan = game_plan(parse_opponents(self.opponents_now()), self.config.games, self.config.seed, self.generation)
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
        scores = [genome.fitness.values[0] for genome in self.population]
        best = max(self.population, key=lambda genome: genome.fitness.wvalues)
        mean = sum(scores) / len(scores)
        rates = [
            genome.record["fallbacks"] / genome.record["decisions"] if genome.record["decisions"] else 0.0
            for genome in self.population
        ]
        row = {
            "generation": self.generation,
            "evaluations": self._evaluations,
            "best": best.fitness.values[0],
            "mean": mean,
            "std": math.sqrt(sum((score - mean) ** 2 for score in scores) / len(scores)),
            "worst": min(scores),
            "best_wins": best.record["wins"],
            "best_draws": best.record["draws"],
            "best_losses": best.record["losses"],
            "best_fallback_rate": best.record["fallbacks"] / best.record["decisions"]
            if best.record["decisions"]
            else 0.0,
            "mean_fallback_rate": sum(rates) / len(rates),
            "best_size": best.record["size"],
            "mean_size": sum(genome.record["size"] for genome in self.population) / len(self.population),
            "hall_of_fame_best": self.hall_of_fame[0].fitness.values[0],
        }
        if self.config.accuracy_weight:
            accuracies = [genome.record["accuracy"] for genome in self.population]
            row["best_accuracy"] = best.record["accuracy"]
            row["mean_accuracy"] = sum(accuracies) / len(accuracies)
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
        plan = game_plan(parse_opponents(self.opponents_now()), self.config.final_games, self.config.seed, "final")
        hall = self.hall_of_fame_texts()
        tasks = [self._task(genome, plan, hall, runner) for genome in members]
        results: list[EvaluationResult] = runner.map(evaluate, tasks)
        for genome, result in zip(members, results, strict=True):
            genome.fitness.values = (result.score, float(result.size))
            genome.record = result.as_dict()
        return max(members, key=lambda genome: genome.fitness.wvalues)

    # -- checkpoints ----------------------------------------------------------------------------------

    def state(self) -> dict:
        """The whole state as plain data (texts, numbers, the random state)."""
        return {
            "format": CHECKPOINT_FORMAT,
            "config": self.config.as_dict(),
            "generation": self.generation,
            "population": [genome.to_data() for genome in self.population],
            "rng": self.rng.getstate(),
            "hall_of_fame": [
                {"genome": genome.to_data(), "fitness": list(genome.fitness.values), "record": genome.record}
                for genome in self.hall_of_fame
            ],
            "logbook": self.logbook,
        }

    def save_checkpoint(self, path: str) -> None:
        """Write :meth:`state` atomically (temporary file in the same folder, then rename)."""
        write_bytes_atomic(path, dill.dumps(self.state()))

    @classmethod
    def from_state(cls, state: dict, library, config: EvolutionConfig | None = None) -> Evolution:
        """Rebuild a run from :meth:`state`; ``config`` (if given) must match except for resumable fields."""
        if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
            raise ValueError("not a gpquarto checkpoint")
        saved = EvolutionConfig.from_dict(state["config"])
        if config is not None:
            changed = saved.differences(config)
            if changed:
                raise ValueError(f"cannot resume: the config differs from the checkpoint's in {', '.join(changed)}")
        else:
            config = saved
        pset = library.primitive_set()
        rng = random.Random()
        rng.setstate(_as_state(state["rng"]))
        hall_of_fame = new_hall_of_fame(config)
        for entry in state["hall_of_fame"]:
            genome = Genome.from_data(entry["genome"], pset)
            genome.fitness.values = tuple(entry["fitness"])
            genome.record = dict(entry["record"])
            hall_of_fame.items.append(genome)
            hall_of_fame.keys.insert(0, genome.fitness)
        population = [Genome.from_data(data, pset) for data in state["population"]]
        for genome in population:  # every rule of a bred population has been screened
            for rule in genome.choose_rules + genome.place_rules:
                rule.screened = True
        return cls(config, library, int(state["generation"]), population, rng, hall_of_fame, list(state["logbook"]))

    @classmethod
    def load_checkpoint(cls, path: str, library, config: EvolutionConfig | None = None) -> Evolution:
        """Read a checkpoint written by :meth:`save_checkpoint` (plain data only; anything else is refused)."""
        state = read_plain_file(path, "checkpoint")  # plain data only: a tampered file cannot run code
        try:
            return cls.from_state(state, library, config)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
            detail = str(error) if isinstance(error, ValueError) else f"malformed ({type(error).__name__}: {error})"
            raise ValueError(f"{path}: {detail}") from None


def _as_state(value):
    return tuple(_as_state(item) for item in value) if isinstance(value, list | tuple) else value


def _screening_config(config: EvolutionConfig) -> ScreeningConfig:
    return ScreeningConfig(
        config.screening_games, config.screening_max_true_rate, config.screening_min_legal_rate, config.screening_tries
    )


def make_generator(library, height_limit: int) -> TreeGenerator:
    """A tree generator over the library, after checking every root type can be built under the limit."""
    check = getattr(library, "check_reachable", None)
    if check is not None:
        check([CONDITION_TYPE, *ACTION_TYPES.values()])
    generator = TreeGenerator(library.primitive_set(), height_limit)
    generator.check_roots([CONDITION_TYPE, *ACTION_TYPES.values()])
    return generator
