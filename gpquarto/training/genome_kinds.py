"""What evolves: the genome kinds of one evolution loop (:class:`~gpquarto.training.evolution.Evolution`).

A kind is the part of a run that depends on the genome: how generation 0 is made, how a genome is played in
its fitness games (a task for the runner and the module-level function that plays it), how the next generation
is bred, how a genome is read back from a checkpoint, and what the run's end writes. The loop, the config, the
checkpoint, the hall of fame, the logbook and the run folder are shared.

* :class:`RuleKind` (``genome = "rules"``): if/then rule players of the config's game (:mod:`gpquarto.gp`),
  bred from the run's one ``random.Random`` (saved in the checkpoint; islands after the first each draw from a
  generator seeded from the run seed, the generation and the island), their new rules screened.
* :class:`EvaluatorKind` (``genome = "evaluator"``): one ``Score`` tree (:class:`~gpquarto.gp.evaluator.
  EvaluatorGenome`) that a ``minimax`` at ``depth`` calls at its leaves (Quarto). Fitness: the games of that
  searcher against the opponent mix (default ``minimax:depth=D``, the hand-written ``lines`` heuristic at the
  same depth; ``hof`` opponents search at the same depth with a hall of fame member's tree), less
  ``cost_weight`` per evaluation beyond one per leaf square (counted, not timed), plus ``accuracy_weight``
  times the searcher's accuracy on the training bank. Each generation is bred from a ``random.Random`` seeded
  from (run seed, generation): elites, then tournament winners bred by subtree crossover, subtree mutation,
  node replacement, shrinking and (``insertion_mutation``) insertion (:mod:`gpquarto.gp.variation`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from gpquarto.games.capabilities import EvolvedEvaluators
from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.gp.bindings import gp_game
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.evaluator_files import evaluator_data, evolved_evaluators, save_evaluator
from gpquarto.gp.evaluator_player import searching_player, trained_search_spec
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.screening import RuleScreen, ScreeningConfig
from gpquarto.gp.storage import genome_from_data, player_data, read_player_file, save_player
from gpquarto.gp.types import Score
from gpquarto.gp.variation import (
    insertion,
    mutate_genome,
    node_replacement,
    random_genome,
    rule_crossover,
    rule_transplant,
    shrink,
    subtree_crossover,
    subtree_mutation,
    tree_crossover,
)
from gpquarto.players.base import Player
from gpquarto.runner import Runner
from gpquarto.seeding import derive_seed
from gpquarto.training.config import EVALUATOR, RULES, EvolutionConfig
from gpquarto.training.fitness import EvaluationTask, FitnessGame, bank_accuracy, evaluate, game_score, play_games
from gpquarto.training.simplified import simplify_champion, simplify_evaluator


class Evolution(Protocol):
    """What a kind reads of the run in progress (:class:`gpquarto.training.evolution.Evolution`)."""

    config: EvolutionConfig
    library: PrimitiveLibrary
    library_spec: LibraryConfig
    generator: TreeGenerator
    generation: int
    population: list
    rng: random.Random
    screen: RuleScreen

    def accuracy_positions(self, runner: Runner) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The training bank's decisions for the accuracy term (empty without one)."""

    def opponents_now(self) -> str:
        """The opponent mix of the current generation."""

    def draw_value_now(self) -> float:
        """What a draw is worth in the current generation's scores."""


#: What the end of a rule run writes beside the logbook, hall of fame and figure.
BEST_PLAYER, BEST_PLAYER_TEXT, SIMPLIFIED_PLAYER = "best_player.p", "best_player.json", "best_player.simplified.json"
#: What the end of an evaluator run writes beside them.
BEST_EVALUATOR, SIMPLIFIED_EVALUATOR = "best_evaluator.json", "best_evaluator.simplified.json"


class RuleKind:
    """Rule players (the kind of every run before evaluators joined the loop); see the module docstring."""

    name = RULES
    #: The logbook has the rule players' fallback rates.
    fallbacks = True

    def generator(self, library: PrimitiveLibrary, config: EvolutionConfig) -> TreeGenerator:
        """A tree generator over the library, after checking every root type of the game's rules can be built."""
        return make_generator(library, config.height_limit)

    def prepare(self, evolution: Evolution) -> None:
        """The rule screen (new rules are screened on seeded games before they join a population)."""
        config = evolution.config
        screening = ScreeningConfig(
            config.screening_games,
            config.screening_max_true_rate,
            config.screening_min_legal_rate,
            config.screening_tries,
            tuple(sorted(config.game_settings().items())),
        )
        evolution.screen = RuleScreen(
            evolution.library, screening, derive_seed(config.seed, "screening"), library_config=evolution.library_spec
        )

    def first_population(self, evolution: Evolution, runner: Runner) -> list[Genome]:
        """Random genomes, screened, ``population`` per island: island 0's from the run's generator, the others'
        from generators seeded from (run seed, island); ``start_from`` players take island 0's first places."""
        given = start_genomes(evolution.config, evolution.library)
        population: list[Genome] = []
        for island, rng in enumerate(self._island_generators(evolution, "population")):
            genomes = [self.random_genome(evolution, rng) for _ in range(evolution.config.population)]
            genomes = evolution.screen.screen_genomes(rng, genomes, evolution.generator, runner)
            if island == 0:
                genomes = given + genomes[len(given) :]
            population += genomes
        return population

    @staticmethod
    def _island_generators(evolution: Evolution, purpose: str) -> list[random.Random]:
        """The random generator of each island: the run's (saved in its checkpoint) for island 0, and for the
        others one seeded from (run seed, ``purpose``, generation, island), which needs no saving."""
        config = evolution.config
        return [evolution.rng] + [
            random.Random(derive_seed(config.seed, "rules", purpose, evolution.generation, *_island_tag(island)))
            for island in range(1, config.islands)
        ]

    def random_genome(self, evolution: Evolution, rng: random.Random | None = None) -> Genome:
        """A random genome (its rules not screened yet), from ``rng`` (default: the run's generator)."""
        config = evolution.config
        return random_genome(
            rng or evolution.rng,
            evolution.generator,
            min_rules=config.min_rules,
            max_rules=config.max_rules,
            min_height=config.init_min_height,
            max_height=config.init_max_height,
            game=config.game,
        )

    def task(self, evolution: Evolution, genome: Genome, plan: tuple[FitnessGame, ...], hall: tuple, runner: Runner):
        """The plain-data task that plays ``genome``'s games (:func:`~gpquarto.training.fitness.evaluate`)."""
        config = evolution.config
        return EvaluationTask(
            genome.to_data(),
            plan,
            config.fallback_weight,
            evolution.library_spec,
            hall,
            config.accuracy_weight,
            evolution.accuracy_positions(runner),
            tuple(sorted(config.game_settings().items())),
            evolution.draw_value_now(),
            config.parsimony,
        )

    evaluate = staticmethod(evaluate)

    def breed(self, evolution: Evolution, runner: Runner) -> list[Genome]:
        """The next generation, island by island (each bred from its own, no migration, with its generator of
        :meth:`_island_generators`): elites, tournament winners crossed and mutated, immigrants, screened."""
        children = []
        generators = self._island_generators(evolution, "breed")
        for population, rng in zip(island_populations(evolution), generators, strict=True):
            children += self._bred_island(evolution, population, rng, runner)
        return children

    def _bred_island(
        self, evolution: Evolution, population: list[Genome], rng: random.Random, runner: Runner
    ) -> list[Genome]:
        config, generator = evolution.config, evolution.generator
        ranked = sorted(population, key=lambda genome: genome.fitness.wvalues, reverse=True)
        elites = [genome.clone() for genome in ranked[: config.elite]]

        def tournament() -> Genome:
            contenders = [population[rng.randrange(len(population))] for _ in range(config.tournament_size)]
            return max(contenders, key=lambda genome: genome.fitness.wvalues)

        offspring = [tournament().clone() for _ in range(config.population - config.elite)]
        for index in range(1, len(offspring), 2):
            if rng.random() < config.crossover_rate:
                first, second = offspring[index - 1], offspring[index]
                if rng.random() < config.rule_crossover_share:
                    # no draw at share 0: the runs saved before transplants existed breed as they did
                    if config.rule_transplant_share and rng.random() < config.rule_transplant_share:
                        offspring[index - 1], offspring[index] = rule_transplant(rng, first, second, config.rule_cap)
                    else:
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
        next_generation = evolution.generation + 1
        if config.immigrants and next_generation % config.immigrant_every == 0:
            for index in range(len(offspring) - config.immigrants, len(offspring)):
                offspring[index] = self.random_genome(evolution, rng)
        return elites + evolution.screen.screen_genomes(rng, offspring, generator, runner)

    def read_genome(self, data: object, library: PrimitiveLibrary, config: EvolutionConfig) -> Genome:
        """A genome of a checkpoint (its rules parsed against the library)."""
        return Genome.from_data(data, library.primitive_set(), config.game)

    def restored_population(self, population: list[Genome]) -> None:
        """Mark a checkpoint's population as bred: every rule of it has been screened."""
        for genome in population:
            for rule in genome.all_rules():
                rule.screened = True

    def outputs(self, config: EvolutionConfig) -> tuple[str, ...]:
        """The champion's files the run's end writes: the player (pickle and text) and its simplified form."""
        return (BEST_PLAYER, BEST_PLAYER_TEXT, SIMPLIFIED_PLAYER)

    def player_spec(self, folder: Path, config: EvolutionConfig) -> str:
        """The player spec of the run's champion."""
        return str(folder / BEST_PLAYER)

    def save_champion(self, folder: Path, evolution: Evolution, best: Genome, name: str, run: dict) -> dict:
        """Write the champion's files (:meth:`outputs`) in ``folder``; returns the player file's data."""
        config, library = evolution.config, evolution.library
        fitness = {"score": best.fitness.values[0], **best.record, "games": config.final_games or config.games}
        data = player_data(best, library, name=name, config=config.as_dict(), fitness=fitness, run=run)
        save_player(folder / BEST_PLAYER, data)
        save_player(folder / BEST_PLAYER_TEXT, data)
        if SIMPLIFIED_PLAYER in self.outputs(config):
            simplified, report = simplify_champion(
                best,
                library,
                evolution.opponents_now(),
                config.seed,
                config.final_games or config.games,
                settings=config.game_settings(),
                openings=config.openings,
            )
            simplified_data = player_data(
                simplified, library, name=f"{name}-simplified", config=data["config"], fitness=fitness, run=run
            )
            save_player(folder / SIMPLIFIED_PLAYER, {**simplified_data, "simplification": report.to_data()})
        return data


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


# ---------------------------------------------------------------------------------------------- evaluators
@dataclass(frozen=True)
class EvaluatorTask:
    """One evaluator genome's games, as plain data (picklable for any runner)."""

    tree: str
    depth: int
    games: tuple[FitnessGame, ...]
    library: LibraryConfig
    #: The trees (text) that ``hof`` games are played against, searched at the same depth, best first.
    hall_of_fame: tuple[str, ...] = ()
    #: :attr:`~gpquarto.training.config.EvolutionConfig.cost_weight`.
    cost_weight: float = 0.0
    accuracy_weight: float = 0.0
    #: Solved decisions ``(position text, best actions)`` graded after the games (the training bank).
    accuracy_positions: tuple[tuple[str, tuple[int, ...]], ...] = ()
    #: What a draw is worth (:attr:`~gpquarto.training.config.EvolutionConfig.draw_value`).
    draw_value: float = 0.5


@dataclass(frozen=True)
class EvaluatorResult:
    """What an evaluator's games gave: its fitness score, the games, its size, the evaluations per leaf square of
    its searches (the cost) and its accuracy on the training bank (None without an accuracy term)."""

    score: float
    wins: int
    draws: int
    losses: int
    size: int
    evaluations_per_square: float
    accuracy: float | None = None

    def as_dict(self) -> dict:
        """Plain dict of the fields."""
        return asdict(self)


_SEARCHERS: dict[tuple[str, int, LibraryConfig], Player] = {}


def evaluator_searcher(text: str, depth: int, library: LibraryConfig) -> Player:
    """``minimax`` at ``depth`` evaluating with the tree ``text`` (kept per process: hall of fame members meet
    every genome of a generation; ``play_game`` reseeds them for each game)."""
    key = (text, depth, library)
    player = _SEARCHERS.get(key)
    if player is None:
        if len(_SEARCHERS) > 64:
            _SEARCHERS.clear()
        loaded = get_library(library)
        evaluators = evolved_evaluators(loaded.game)
        evaluator = evaluators.compile(EvaluatorGenome.from_text(text, loaded), loaded)
        player = _SEARCHERS[key] = _searcher(evaluators, depth, evaluator, loaded.game)
    return player


def _searcher(evaluators: EvolvedEvaluators, depth: int, evaluator: object, game: str) -> Player:
    """The game's search that training evolves evaluators for (its first searching player: Quarto's ``minimax``)
    at ``depth``, evaluating with ``evaluator``."""
    return searching_player(evaluators.searching_players[0], {"depth": str(depth)}, evaluator, game=game, seed=0)


def evaluate_evaluator(task: EvaluatorTask) -> EvaluatorResult:
    """Play the task's games with a ``minimax`` at the task's depth that evaluates with the task's tree (``hof``
    opponents: the same searcher with a hall of fame member's tree), then grade it on the accuracy positions.

    The cost is the evaluations per leaf square of the tree's own searches in those games (1 when it reads nothing
    of the piece given, up to the number of safe pieces when it reads all of it: see
    :mod:`gpquarto.games.quarto.search.fast_search`); counted, not timed, so it is the same on every machine and run. The score
    is (wins + draw_value x draws) / games (:func:`~gpquarto.training.fitness.game_score`), less ``cost_weight``
    times the cost beyond 1, plus ``accuracy_weight`` times the accuracy.
    """
    library = get_library(task.library)
    genome = EvaluatorGenome.from_text(task.tree, library)
    evaluators = evolved_evaluators(library.game)
    player = _searcher(evaluators, task.depth, evaluators.compile(genome, library), library.game)
    wins, draws, losses = play_games(
        player,
        task.games,
        task.hall_of_fame,
        member_player=lambda text: evaluator_searcher(text, task.depth, task.library),
    )
    cost = evaluators.cost(player)
    score = game_score(wins, draws, len(task.games), task.draw_value) - task.cost_weight * (cost - 1.0)
    accuracy = bank_accuracy(player, task.accuracy_positions, library.game) if task.accuracy_positions else None
    if accuracy is not None:
        score += task.accuracy_weight * accuracy
    return EvaluatorResult(score, wins, draws, losses, genome.size, cost, accuracy)


def island_populations(evolution: Evolution) -> list[list]:
    """The population cut into its islands of ``config.population`` genomes, island 0 first."""
    size, population = evolution.config.population, evolution.population
    return [population[start : start + size] for start in range(0, len(population), size)]


def _island_tag(island: int) -> tuple:
    """What an island adds to the parts of its seeds: nothing for the first (a run of one island is the run
    from before islands), ``("island", k)`` for the others."""
    return () if island == 0 else ("island", island)


def _bred_island(
    config: EvolutionConfig, generator: TreeGenerator, population: list[EvaluatorGenome], rng: random.Random
) -> list[EvaluatorGenome]:
    """One island's next generation (:meth:`EvaluatorKind.breed`), ``config.population`` trees."""

    def rank(index: int) -> tuple:
        score, size = population[index].fitness.values
        return (-score, size, index)

    ranked = sorted(range(len(population)), key=rank)

    def tournament() -> int:
        return min((rng.randrange(len(population)) for _ in range(config.tournament_size)), key=rank)

    children = [population[index].clone() for index in ranked[: config.elite]]
    while len(children) < config.population:
        first, second = population[tournament()].tree, population[tournament()].tree
        if rng.random() < config.crossover_rate:
            first, second = subtree_crossover(rng, first, second, config.height_limit)
        for tree in (first, second):
            if rng.random() < config.mutation_rate:
                operator = rng.randrange(4 if config.insertion_mutation else 3)
                if operator == 0:
                    tree = subtree_mutation(rng, tree, generator)
                elif operator == 1:
                    tree = node_replacement(rng, tree, generator)
                elif operator == 2:
                    tree = shrink(rng, tree)
                else:
                    tree = insertion(rng, tree, generator)
            if len(children) < config.population:
                children.append(EvaluatorGenome(tree))
    return children


class EvaluatorKind:
    """Quarto evaluators for a ``minimax`` at the config's ``depth``; see the module docstring."""

    name = EVALUATOR
    fallbacks = False

    def generator(self, library: PrimitiveLibrary, config: EvolutionConfig) -> TreeGenerator:
        """A generator of ``Score`` trees over the library's evaluator primitive set."""
        generator = TreeGenerator(library.evaluator_primitive_set(), config.height_limit)
        generator.check_roots([Score])
        return generator

    def prepare(self, evolution: Evolution) -> None:
        """Nothing to prepare (evaluators are not screened)."""

    def first_population(self, evolution: Evolution, runner: Runner) -> list[EvaluatorGenome]:
        """Random trees (half-and-half, heights ``init_min_height``..``init_max_height``) from a generator seeded
        from the run seed (and, for islands after the first, the island), ``population`` per island."""
        config, population = evolution.config, []
        for island in range(config.islands):
            rng = random.Random(derive_seed(config.seed, "evaluator", "population", *_island_tag(island)))
            population += [
                EvaluatorGenome(
                    evolution.generator.generate(rng, Score, config.init_min_height, config.init_max_height)
                )
                for _ in range(config.population)
            ]
        return population

    def task(
        self,
        evolution: Evolution,
        genome: EvaluatorGenome,
        plan: tuple[FitnessGame, ...],
        hall: tuple,
        runner: Runner,
    ) -> EvaluatorTask:
        """The plain-data task that plays ``genome``'s games (:func:`evaluate_evaluator`)."""
        config = evolution.config
        return EvaluatorTask(
            genome.text(),
            config.depth,
            plan,
            evolution.library_spec,
            tuple(member["evaluator"] for member in hall),
            config.cost_weight,
            config.accuracy_weight,
            evolution.accuracy_positions(runner),
            evolution.draw_value_now(),
        )

    evaluate = staticmethod(evaluate_evaluator)

    def breed(self, evolution: Evolution, runner: Runner) -> list[EvaluatorGenome]:
        """The next generation, island by island (each bred from its own, no migration): the ``elite`` best, then
        tournament winners (on ``(score, size)``, the earlier on a tie) crossed and mutated, from a generator
        seeded from (run seed, generation and, for islands after the first, the island)."""
        config, children = evolution.config, []
        for island, population in enumerate(island_populations(evolution)):
            rng = random.Random(
                derive_seed(config.seed, "evaluator", "breed", evolution.generation, *_island_tag(island))
            )
            children += _bred_island(config, evolution.generator, population, rng)
        return children

    def read_genome(self, data: object, library: PrimitiveLibrary, config: EvolutionConfig) -> EvaluatorGenome:
        """A genome of a checkpoint (its tree parsed against the evaluator primitive set)."""
        return EvaluatorGenome.from_data(data, library.evaluator_primitive_set())

    def restored_population(self, population: list[EvaluatorGenome]) -> None:
        """Nothing to restore."""

    def outputs(self, config: EvolutionConfig) -> tuple[str, ...]:
        """The champion's files the run's end writes."""
        return (BEST_EVALUATOR, SIMPLIFIED_EVALUATOR)

    def player_spec(self, folder: Path, config: EvolutionConfig) -> str:
        """The player spec of the run's champion: the search it was evolved for."""
        return trained_search_spec(config.game, config.depth, folder / BEST_EVALUATOR)

    def save_champion(self, folder: Path, evolution: Evolution, best: EvaluatorGenome, name: str, run: dict) -> dict:
        """Write ``best_evaluator.json`` and its formula folded, ``best_evaluator.simplified.json``
        (:func:`~gpquarto.training.simplified.simplify_evaluator`); returns the evaluator file's data."""
        config, library = evolution.config, evolution.library
        fitness = {"score": best.fitness.values[0], **best.record, "games": config.final_games or config.games}
        data = evaluator_data(
            best, library, name=f"{name}-evaluator", config=config.as_dict(), fitness=fitness, run=run
        )
        save_evaluator(folder / BEST_EVALUATOR, data)
        simplified, report = simplify_evaluator(best, library, config.seed)
        save_evaluator(
            folder / SIMPLIFIED_EVALUATOR,
            {
                **data,
                "name": f"{data['name']}-simplified",
                "tree": simplified.to_data(),
                "primitives": evaluator_data(simplified, library)["primitives"],
                "simplification": report,
            },
        )
        return data


#: The genome kinds, by the config's ``genome``.
KINDS: dict[str, Any] = {RULES: RuleKind(), EVALUATOR: EvaluatorKind()}


def genome_kind(config: EvolutionConfig) -> RuleKind | EvaluatorKind:
    """The kind of the genomes ``config`` evolves."""
    return KINDS[config.genome]


GenomeKind = RuleKind | EvaluatorKind
#: Builds a player from a hall of fame member's data (``hof`` opponents).
MemberPlayer = Callable[[object], Player]
