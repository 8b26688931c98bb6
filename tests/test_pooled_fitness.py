"""Pooled fitness: a genome bred unchanged keeps its evaluations, and its fitness is the mean of all its games.

The loop's pooled fitness is checked against a slow reference that replays every genome's games of each
generation on its own and keeps, per genome, the scores of the consecutive generations it has lived through.
"""

from __future__ import annotations

import pickle
import random
from statistics import fmean

import pytest

from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.gp.variation import random_genome
from gpquarto.runner import SerialRunner
from gpquarto.training.checkpoint import read_checkpoint
from gpquarto.training.evolution import Evolution, EvolutionConfig, make_generator
from gpquarto.training.fitness import game_plan, parse_opponents
from gpquarto.training.hall_of_fame import GenerationHallOfFame
from gpquarto.training.pooling import pooled_record
from tests.test_gp_evolution import straight_resumed_and_parallel
from tests.test_gp_evolution import summary as loop_summary

SETTINGS = {
    "population": 6,
    "games": 4,
    "opponents": "random:1,novice:1",
    "min_rules": 2,
    "max_rules": 3,
    "immigrant_every": 2,
    "screening_games": 2,
    "hall_of_fame": 4,
    "seed": 21,
    "pooled_fitness": True,
}


@pytest.fixture(scope="module")
def library():
    return get_library(LibraryConfig())


def one_generation_score(evolution: Evolution, genome) -> float:
    """The genome's score on this generation's games alone, played again from scratch."""
    config = evolution.config
    plan = game_plan(
        parse_opponents(evolution.opponents_now()), config.games, config.seed, evolution.generation, config.openings
    )
    task = evolution.kind.task(evolution, genome, plan, evolution.hall_of_fame_texts(), SerialRunner())
    return evolution.kind.evaluate(task).score


def summary(evolution: Evolution) -> tuple:
    """The loop's summary (:func:`tests.test_gp_evolution.summary`), with the population's fitness and records
    and what the next generation carries."""
    population = [(genome.fitness.values, genome.record) for genome in evolution.population]
    return (*loop_summary(evolution), population, evolution.carried)


def test_pooled_record_sums_the_counts_and_averages_the_rates():
    evaluations = [
        {"score": 0.5, "wins": 2, "draws": 0, "losses": 2, "fallbacks": 1, "decisions": 30, "size": 9, "accuracy": 0.6},
        {
            "score": 0.75,
            "wins": 3,
            "draws": 0,
            "losses": 1,
            "fallbacks": 0,
            "decisions": 28,
            "size": 9,
            "accuracy": 0.6,
        },
        {"score": 0.3, "wins": 1, "draws": 1, "losses": 2, "fallbacks": 2, "decisions": 31, "size": 9, "accuracy": 0.9},
    ]
    record = None
    for latest in evaluations:
        record = pooled_record(record, latest)
    assert record["generations_played"] == 3
    assert record["score"] == pytest.approx(fmean(item["score"] for item in evaluations))
    assert record["accuracy"] == pytest.approx(0.7)
    assert (record["wins"], record["draws"], record["losses"]) == (6, 1, 5)
    assert (record["fallbacks"], record["decisions"], record["size"]) == (3, 89, 9)
    evaluator = {"score": 0.5, "wins": 1, "draws": 0, "losses": 1, "size": 5, "evaluations_per_square": 2.0}
    joined = pooled_record({**evaluator, "generations_played": 1}, {**evaluator, "wins": 0, "losses": 2, "score": 0.0})
    assert joined == {**evaluator, "wins": 1, "losses": 3, "score": 0.25, "generations_played": 2}


def test_a_genome_fitness_is_the_mean_of_every_generation_it_lived_through(library):
    evolution = Evolution.start(EvolutionConfig(generations=6, **SETTINGS), library)
    runner = SerialRunner()
    lineage: dict[tuple, list[float]] = {}
    longest = 0
    while evolution.generation < evolution.config.generations:
        evolution.evaluate(runner)
        scores = {genome.key(): one_generation_score(evolution, genome) for genome in evolution.population}
        lineage = {key: [*lineage.get(key, []), score] for key, score in scores.items()}
        for genome in evolution.population:
            history = lineage[genome.key()]
            assert genome.record["generations_played"] == len(history)
            assert genome.fitness.values[0] == pytest.approx(fmean(history))
            assert genome.record["generation"] == evolution.generation
        longest = max(longest, *(len(history) for history in lineage.values()))
        evolution.record()
        for member in evolution.hall_of_fame:
            history = lineage.get(member.key())
            if history is not None:  # alive: the member holds its latest, longest mean
                assert member.record["generations_played"] == len(history)
                assert member.fitness.values[0] == pytest.approx(fmean(history))
        keys = [member.key() for member in evolution.hall_of_fame]
        assert len(set(keys)) == len(keys)
        evolution.breed(runner)
    assert longest >= 3  # the elites lived on: the test saw pooling at work
    generations = [member.record["generation"] for member in evolution.hall_of_fame]
    assert len(set(generations)) == len(generations)  # still at most one member per generation


def test_a_pooled_run_is_the_same_after_a_resume_and_on_processes(library, tmp_path):
    config = EvolutionConfig(generations=5, **SETTINGS)
    straight, interrupted, resumed, parallel = straight_resumed_and_parallel(
        config, library, tmp_path / "checkpoint.dill", stop_after=3
    )
    assert any(record is not None for record in interrupted.carried)  # the checkpoint had records to carry
    assert summary(resumed) == summary(straight) == summary(parallel)


def test_without_pooling_nothing_is_carried_and_records_count_no_generations(library):
    evolution = Evolution.start(EvolutionConfig(generations=3, **{**SETTINGS, "pooled_fitness": False}), library)
    evolution.run(SerialRunner())
    assert evolution.carried == []
    assert not any("generations_played" in genome.record for genome in [*evolution.population, *evolution.hall_of_fame])


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda data: data["carried"].pop(), "the carried records must be a list of 6"),
        (lambda data: data["carried"].__setitem__(0, "x"), "the carried record of genome 0 must map names"),
        (lambda data: data["carried"].__setitem__(1, {"score": 0.5}), "genome 1 must count its generations played"),
        (
            lambda data: data["carried"].__setitem__(2, {"score": True, "generations_played": 1}),
            "genome 2 must count its generations played \\(a whole number >= 1\\) and hold a score",
        ),
        (
            lambda data: data["carried"].__setitem__(1, {"score": 0.5, "generations_played": 2, "wins": 1.5}),
            "genome 1 must hold whole-number counts of wins, draws, losses, fallbacks, decisions",
        ),
        (lambda data: data["config"].__setitem__("pooled_fitness", False), "a run without pooled fitness"),
    ],
)
def test_a_tampered_carried_record_is_refused_in_one_line(library, tmp_path, edit, message):
    evolution = Evolution.start(EvolutionConfig(generations=3, **SETTINGS), library)
    evolution.step(SerialRunner())
    counts = {"wins": 1, "draws": 0, "losses": 1, "fallbacks": 0, "decisions": 9}
    evolution.carried = [{"score": 0.5, **counts, "generations_played": 1}] * 6
    data = evolution.checkpoint().to_data()
    edit(data)
    path = tmp_path / "checkpoint.dill"
    path.write_bytes(pickle.dumps(data))
    with pytest.raises(ValueError, match=message) as error:
        read_checkpoint(str(path), library)
    assert "\n" not in str(error.value)


def hall_genome(library, seed: int, score: float, generation: int, generations_played: int):
    genome = random_genome(
        random.Random(seed), make_generator(library, 8), min_rules=1, max_rules=2, min_height=1, max_height=3
    )
    genome.fitness.values = (score, 3.0)
    genome.record = {"generation": generation, "generations_played": generations_played}
    return genome


def test_a_member_takes_the_longer_mean_of_its_genome_and_keeps_its_place(library):
    hall = GenerationHallOfFame(3)
    hall.update([hall_genome(library, 1, 0.5, 0, 1), hall_genome(library, 2, 0.9, 1, 1)])
    lived_on = hall_genome(library, 1, 0.7, 2, 2)  # genome 1 again, evaluated in generations 0 to 2
    hall.update([lived_on])
    assert [(member.fitness.values[0], member.record["generation"]) for member in hall] == [(0.9, 1), (0.7, 0)]
    assert hall[1].record["generations_played"] == 2 and hall[1] == lived_on
    hall.update([hall_genome(library, 1, 0.2, 3, 1)])  # a shorter history (the lineage was lost): no change
    assert hall[1].fitness.values[0] == 0.7
    # Genome 1 again, and a member of its generation ranked above its own member: it refreshes its own member
    # instead of replacing the other (which would hold the same genome twice).
    hall.update([hall_genome(library, 3, 0.8, 4, 1), hall_genome(library, 1, 0.85, 4, 3)])
    assert [member.record["generation"] for member in hall] == [1, 0, 4]
    assert hall[1].record["generations_played"] == 3 and len({member.key() for member in hall}) == 3


def test_evaluator_genomes_pool_their_games_and_resume_alike(tmp_path):
    settings = {
        "genome": "evaluator",
        "depth": 1,
        "population": 4,
        "games": 4,
        "seed": 5,
        "islands": 1,
        "hall_of_fame": 2,
    }
    config = EvolutionConfig.for_game(**settings, opponents="minimax:depth=1", generations=4, pooled_fitness=True)
    library = get_library(config.library())  # the run's library: the workers load it from the config
    straight = Evolution.start(config, library)
    straight.run(SerialRunner())
    assert max(member.record["generations_played"] for member in straight.hall_of_fame) >= 3  # the elites lived on
    assert any(record is not None for record in straight.carried)
    assert all("fallbacks" not in member.record for member in straight.hall_of_fame)
    interrupted = Evolution.start(config, library)
    interrupted.step(SerialRunner())
    interrupted.step(SerialRunner())
    interrupted.save_checkpoint(str(tmp_path / "checkpoint.dill"))
    resumed = Evolution.load_checkpoint(str(tmp_path / "checkpoint.dill"), library)
    resumed.run(SerialRunner())
    assert summary(resumed) == summary(straight)
