"""Evolving evaluators: ``train --genome evaluator --depth D`` (rules stay the default genome).

A population of :class:`~gpquarto.gp.evaluator.EvaluatorGenome` trees is scored by the games a ``minimax``
player at ``depth`` plays when it evaluates its leaves with the tree (:mod:`gpquarto.gp.evaluator_player`)
against an opponent mix (default: ``minimax:depth=D``, the hand-written ``lines`` heuristic at the same depth),
with the fitness games of rule training (:func:`~gpquarto.training.fitness.game_plan`: every genome of a
generation plays the same seeded games, both seats). Fitness is ``(score, size)``: score first, the smaller
tree on a tie; with ``cost_weight`` the score pays for the evaluations the tree costs per leaf square (counted:
:func:`evaluate_evaluator`). Each generation keeps its ``elite`` best, then fills up with tournament winners bred by subtree
crossover, subtree mutation, node replacement and shrinking (:mod:`gpquarto.gp.variation`).

Reproducibility: every random choice of a generation comes from a ``random.Random`` seeded from (run seed,
purpose, generation), and every game from (run seed, generation, pair), so a run does not depend on the number
of workers, and the checkpoint (plain JSON: the trees as text, their fitness, the logbook) needs no RNG state:
resuming is bit-identical to running on.

The run folder holds ``config.json``, ``logbook.csv``, ``checkpoint.json`` (after every generation, atomic) and
at the end ``fitness.png`` (as rule runs draw it) and ``best_evaluator.json`` (the champion, as an evaluator
file: the best of each generation, at most ``hall_of_fame`` of them, replay the same ``final_games`` games and the best of those wins, as in rule training;
:meth:`EvaluatorEvolution.champion`) and ``best_evaluator.simplified.json`` (its formula folded:
:func:`~gpquarto.training.simplified.simplify_evaluator`). ``--resume`` on a finished run chooses the champion
again (a run saved before ``final_games`` existed replays with the default). ``hof`` opponents are ``minimax`` at
the same depth with a hall of fame member's tree (``random`` while the hall is empty), and ``schedule`` changes
the opponents by generation, as in rule training. Not yet shared with rule training: the loop itself, the accuracy
term and experiments.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from gpquarto.atomic import write_bytes_atomic
from gpquarto.gp.evaluator import CompiledEvaluator, EvaluatorGenome
from gpquarto.gp.evaluator_files import evaluator_data, save_evaluator
from gpquarto.gp.evaluator_player import searching_player
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.gp.types import Score
from gpquarto.gp.variation import node_replacement, shrink, subtree_crossover, subtree_mutation
from gpquarto.plain_files import read_plain_file
from gpquarto.players.base import Player
from gpquarto.runner import SERIAL, Runner
from gpquarto.seeding import derive_seed
from gpquarto.training.fitness import (
    FitnessGame,
    check_opponents,
    game_plan,
    opponents_at,
    parse_schedule,
    play_games,
)
from gpquarto.training.outputs import write_fitness_plot
from gpquarto.training.simplified import simplify_evaluator

CHECKPOINT_FORMAT = "gpquarto-evaluator-run/1"
#: The champion's formula simplified for reading.
SIMPLIFIED_EVALUATOR = "best_evaluator.simplified.json"
LOGBOOK_FIELDS = ("generation", "best", "mean", "best_size", "mean_size", "best_tree")


@dataclass(frozen=True)
class EvaluatorConfig:
    """Everything that defines an evaluator run (``opponents`` empty: ``minimax:depth=DEPTH``)."""

    depth: int = 1
    generations: int = 10
    population: int = 16
    games: int = 20
    opponents: str = ""
    #: ``GENERATION:MIX;...``: from each generation on, that opponent mix (as in rule training).
    schedule: str = ""
    seed: int = 0
    elite: int = 2
    tournament: int = 3
    crossover: float = 0.5
    mutation: float = 0.4
    height_limit: int = 8
    init_max_height: int = 4
    plugins: tuple[str, ...] = ()
    #: Games each generation's best replays, all the same, to choose the champion (0: the best score seen).
    final_games: int = 200
    #: How many generations' bests (the best scores, one per generation) replay the final games.
    hall_of_fame: int = 5
    #: Score taken off per evaluation beyond one per leaf square (:func:`evaluate_evaluator`): 0, the default, is
    #: no cost term; 0.01 takes 5 points of score from a tree evaluated for each of six pieces given.
    cost_weight: float = 0.0

    def __post_init__(self) -> None:
        for name, least in (
            ("depth", 1),
            ("generations", 0),
            ("population", 2),
            ("games", 2),
            ("tournament", 1),
            ("final_games", 0),
            ("hall_of_fame", 1),
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ValueError(f"{name} must be an int >= {least}, got {value!r}")
        if self.games % 2 or self.final_games % 2:
            raise ValueError(f"games and final_games must be even (both seats), got {self.games}, {self.final_games}")
        if not 0 <= self.elite < self.population:
            raise ValueError(f"elite must be 0..population-1, got {self.elite}")
        if not (isinstance(self.cost_weight, (int, float)) and 0 <= self.cost_weight <= 1):
            raise ValueError(f"cost_weight must be 0..1, got {self.cost_weight!r}")
        if not (0 <= self.crossover <= 1 and 0 <= self.mutation <= 1):
            raise ValueError("crossover and mutation are probabilities (0..1)")
        check_opponents(self.opponent_mix)
        if self.schedule:
            parse_schedule(self.schedule)

    def opponents_at(self, generation: int) -> str:
        """The opponent mix of ``generation`` (the schedule's step, or :attr:`opponent_mix`)."""
        return opponents_at(self.opponent_mix, self.schedule, generation)

    @property
    def opponent_mix(self) -> str:
        """The opponents, with the default filled in."""
        return self.opponents or f"minimax:depth={self.depth}"

    def as_dict(self) -> dict:
        """Plain data (JSON)."""
        data = asdict(self)
        data["plugins"] = list(self.plugins)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> EvaluatorConfig:
        """The config that :meth:`as_dict` wrote; unknown keys are refused."""
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown evaluator config keys: {', '.join(unknown)}")
        return cls(**{**data, "plugins": tuple(data.get("plugins", ()))})


@dataclass(frozen=True)
class EvaluatorTask:
    """One genome's games, as plain data (picklable for any runner)."""

    tree: str
    depth: int
    games: tuple[FitnessGame, ...]
    library: LibraryConfig
    #: The trees (text) that ``hof`` games are played against, searched at the same depth, best first.
    hall_of_fame: tuple[str, ...] = ()
    #: :attr:`EvaluatorConfig.cost_weight`.
    cost_weight: float = 0.0


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
        evaluator = CompiledEvaluator(EvaluatorGenome.from_text(text, loaded), loaded)
        player = _SEARCHERS[key] = searching_player("minimax", {"depth": str(depth)}, evaluator, seed=0)
    return player


def evaluate_evaluator(task: EvaluatorTask) -> tuple[float, int, int, int, float]:
    """(fitness, wins, draws, losses, cost) of a ``minimax`` at the task's depth that evaluates with the task's
    tree; ``hof`` opponents are the same searcher with a hall of fame member's tree.

    The cost is the evaluations per leaf square of the tree's own searches in those games (1 when it reads nothing
    of the piece given, up to the number of safe pieces when it reads all of it: see
    :mod:`gpquarto.search.fast_search`); counted, not timed, so it is the same on every machine and run. The
    fitness is the score (wins and half the draws, per game) less ``cost_weight`` times the cost beyond 1.
    """
    library = get_library(task.library)
    evaluator = CompiledEvaluator(EvaluatorGenome.from_text(task.tree, library), library)
    player = searching_player("minimax", {"depth": str(task.depth)}, evaluator, seed=0)
    wins, draws, losses = play_games(
        player,
        task.games,
        task.hall_of_fame,
        member_player=lambda text: evaluator_searcher(text, task.depth, task.library),
    )
    search = player.search
    cost = search.evaluations / search.evaluated_squares if search.evaluated_squares else 1.0
    score = (wins + draws / 2) / len(task.games)
    return score - task.cost_weight * (cost - 1.0), wins, draws, losses, cost


@dataclass
class EvaluatorEvolution:
    """The state of an evaluator run: the next generation to evaluate, its population (texts), the logbook
    rows and the best genome ever scored (text and fitness)."""

    config: EvaluatorConfig
    generation: int = 0
    population: list[str] = field(default_factory=list)
    logbook: list[dict] = field(default_factory=list)
    best: tuple[str, float, int] | None = None

    @classmethod
    def start(cls, config: EvaluatorConfig) -> EvaluatorEvolution:
        """A first population of random trees (half-and-half, heights 1..``init_max_height``)."""
        generator = _generator(config)
        rng = random.Random(derive_seed(config.seed, "evaluator", "population"))
        population = [
            EvaluatorGenome(generator.generate(rng, Score, 1, config.init_max_height)).text()
            for _ in range(config.population)
        ]
        return cls(config, 0, population)

    def step(self, runner: Runner = SERIAL) -> dict:
        """Evaluate the current generation, log it, and breed the next one; returns the logbook row."""
        config = self.config
        plan = game_plan(
            check_opponents(config.opponents_at(self.generation)), config.games, config.seed, self.generation
        )
        library = LibraryConfig(plugins=config.plugins)
        hall = tuple(text for text, *_ in self.hall_of_fame())  # as it stands before this generation
        tasks = [EvaluatorTask(text, config.depth, plan, library, hall, config.cost_weight) for text in self.population]
        results = runner.map(evaluate_evaluator, tasks)
        sizes = [len(EvaluatorGenome.from_text(text, get_library(library)).tree) for text in self.population]
        ranked = sorted(range(len(tasks)), key=lambda index: (-results[index][0], sizes[index], index))
        top = ranked[0]
        row = {
            "generation": self.generation,
            "best": results[top][0],
            "mean": sum(result[0] for result in results) / len(results),
            "best_size": sizes[top],
            "mean_size": sum(sizes) / len(sizes),
            "best_tree": self.population[top],
        }
        self.logbook.append(row)
        if self.best is None or (results[top][0], -sizes[top]) > (self.best[1], -self.best[2]):
            self.best = (self.population[top], results[top][0], sizes[top])
        self.population = self._breed(ranked, [result[0] for result in results], sizes)
        self.generation += 1
        return row

    def _breed(self, ranked: list[int], scores: list[float], sizes: list[int]) -> list[str]:
        config = self.config
        library = get_library(LibraryConfig(plugins=config.plugins))
        generator = _generator(config)
        rng = random.Random(derive_seed(config.seed, "evaluator", "breed", self.generation))
        trees = [EvaluatorGenome.from_text(text, library).tree for text in self.population]

        def tournament() -> int:
            entrants = [rng.randrange(len(trees)) for _ in range(config.tournament)]
            return min(entrants, key=lambda index: (-scores[index], sizes[index], index))

        children = [self.population[index] for index in ranked[: config.elite]]
        while len(children) < config.population:
            first, second = trees[tournament()], trees[tournament()]
            if rng.random() < config.crossover:
                first, second = subtree_crossover(rng, first, second, config.height_limit)
            for tree in (first, second):
                if rng.random() < config.mutation:
                    operator = rng.randrange(3)
                    if operator == 0:
                        tree = subtree_mutation(rng, tree, generator)
                    elif operator == 1:
                        tree = node_replacement(rng, tree, generator)
                    else:
                        tree = shrink(rng, tree)
                if len(children) < config.population:
                    children.append(EvaluatorGenome(tree).text())
        return children

    def state(self) -> dict:
        """Plain data for the checkpoint."""
        return {
            "format": CHECKPOINT_FORMAT,
            "config": self.config.as_dict(),
            "generation": self.generation,
            "population": list(self.population),
            "logbook": list(self.logbook),
            "best": list(self.best) if self.best else None,
        }

    @classmethod
    def from_state(cls, data: object, source: str = "checkpoint") -> EvaluatorEvolution:
        """Rebuild from :meth:`state` output; a one-line ``ValueError`` naming ``source`` otherwise."""
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{source}: not an evaluator run checkpoint")
        try:
            best = data["best"]
            return cls(
                EvaluatorConfig.from_dict(data["config"]),
                int(data["generation"]),
                [str(text) for text in data["population"]],
                [dict(row) for row in data["logbook"]],
                (str(best[0]), float(best[1]), int(best[2])) if best else None,
            )
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise ValueError(f"{source}: corrupt evaluator run checkpoint ({error})") from None

    def hall_of_fame(self) -> list[tuple[str, float, int, int]]:
        """The best genome of each generation, as ``(text, score, size, generation)``, the ``config.hall_of_fame``
        best (higher score, then smaller, then earlier); a tree that topped several generations once."""
        ranked = sorted(
            self.logbook, key=lambda row: (-float(row["best"]), int(row["best_size"]), int(row["generation"]))
        )
        members: dict[str, tuple[str, float, int, int]] = {}
        for row in ranked:
            text = str(row["best_tree"])
            if text not in members:
                members[text] = (text, float(row["best"]), int(row["best_size"]), int(row["generation"]))
        return list(members.values())[: self.config.hall_of_fame]

    def champion(self, runner: Runner = SERIAL) -> tuple[str, dict]:
        """The champion and its fitness: the hall of fame's member that scores best (then smaller, then earlier)
        when every member replays the same ``final_games`` seeded games (the ``"final"`` plan, both seats), as
        rule training chooses; with ``final_games == 0``, the best score seen. Scores of different generations
        come from different games: a generation's best may be its luck."""
        config = self.config
        members = self.hall_of_fame()
        if config.final_games == 0 or not members:
            text, score, size = self.best  # type: ignore[misc]
            return text, {"score": score, "size": size, "games": config.games}
        last = max(self.generation - 1, 0)  # the mix of the last generation played, as rule training's final games
        plan = game_plan(check_opponents(config.opponents_at(last)), config.final_games, config.seed, "final")
        library = LibraryConfig(plugins=config.plugins)
        hall = tuple(text for text, *_ in members)
        results = runner.map(
            evaluate_evaluator,
            [EvaluatorTask(text, config.depth, plan, library, hall, config.cost_weight) for text, *_ in members],
        )
        best = min(range(len(members)), key=lambda index: (-results[index][0], members[index][2], members[index][3]))
        text, training_score, size, generation = members[best]
        score, wins, draws, losses, cost = results[best]
        fitness = {"score": score, "wins": wins, "draws": draws, "losses": losses, "games": config.final_games}
        if config.cost_weight:  # the score less the cost term chose it; keep both
            fitness.update(fitness=score, score=(wins + draws / 2) / config.final_games, evaluations_per_square=cost)
        return text, {**fitness, "size": size, "generation": generation, "training_score": training_score}


def _generator(config: EvaluatorConfig) -> TreeGenerator:
    library = get_library(LibraryConfig(plugins=config.plugins))
    generator = TreeGenerator(library.evaluator_primitive_set(), config.height_limit)
    generator.check_roots([Score])
    return generator


# ---------------------------------------------------------------------- run folders
def _write_json(path: Path, data: object) -> None:
    write_bytes_atomic(path, (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def _write_logbook(path: Path, rows: list[dict]) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, LOGBOOK_FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_bytes_atomic(path, buffer.getvalue().encode("utf-8"))


def train_evaluator(
    config: EvaluatorConfig | None,
    run_dir: str | Path,
    *,
    resume: bool = False,
    generations: int | None = None,
    runner: Runner = SERIAL,
    on_generation: Callable[[EvaluatorEvolution, dict], None] | None = None,
) -> EvaluatorEvolution:
    """Start (``config``) or ``resume`` the evaluator run in ``run_dir`` up to ``generations`` (default the
    config's); checkpoint after every generation; write ``best_evaluator.json`` at the end."""
    folder = Path(run_dir)
    checkpoint = folder / "checkpoint.json"
    if resume:
        evolution = EvaluatorEvolution.from_state(
            read_plain_file(checkpoint, "evaluator run checkpoint", json_format=True), str(checkpoint)
        )
    else:
        if config is None:
            raise ValueError("a new evaluator run needs a config")
        if checkpoint.exists() or (folder / "config.json").exists():
            raise ValueError(f"{folder} already holds a run: resume it, or choose another folder")
        folder.mkdir(parents=True, exist_ok=True)
        _write_json(folder / "config.json", {"genome": "evaluator", **config.as_dict()})
        evolution = EvaluatorEvolution.start(config)
    total = evolution.config.generations if generations is None else generations
    while evolution.generation < total:
        row = evolution.step(runner)
        _write_json(checkpoint, evolution.state())
        _write_logbook(folder / "logbook.csv", evolution.logbook)
        if on_generation is not None:
            on_generation(evolution, row)
    if evolution.best is not None:
        best_so_far = float("-inf")
        rows = []
        for row in evolution.logbook:  # the plot of rule runs: best, mean, and the best score seen so far
            best_so_far = max(best_so_far, float(row["best"]))
            rows.append({**row, "hall_of_fame_best": best_so_far})
        write_fitness_plot(folder / "fitness.png", rows)
        library = get_library(LibraryConfig(plugins=evolution.config.plugins))
        text, fitness = evolution.champion(runner)
        data = evaluator_data(
            EvaluatorGenome.from_text(text, library),
            library,
            name=f"{folder.name}-evaluator",
            config={"genome": "evaluator", **evolution.config.as_dict()},
            fitness=fitness,
            run={"folder": str(folder)},
        )
        save_evaluator(folder / "best_evaluator.json", data)
        simplified, report = simplify_evaluator(
            EvaluatorGenome.from_text(text, library), library, evolution.config.seed
        )
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
    return evolution
