"""Fitness: opponent mixes, game plans, deterministic scores, and every back-end giving the same results."""

from __future__ import annotations

import random
import sys
from dataclasses import replace

import pytest

from gpquarto.games.registry import get_game
from gpquarto.gp.genome import Genome
from gpquarto.gp.variation import random_genome
from gpquarto.runner import RunnerError, SerialRunner, make_runner
from gpquarto.training.evolution import make_generator
from gpquarto.training.fitness import (
    EvaluationTask,
    LibraryConfig,
    allocate,
    evaluate,
    fitness_start,
    game_plan,
    get_library,
    parse_opponents,
)


def test_parse_opponents():
    assert parse_opponents("random:1,novice:2") == [("random", 1.0), ("novice", 2.0)]
    assert parse_opponents("random") == [("random", 1.0)]
    assert parse_opponents("minimax:depth=2:3") == [("minimax:depth=2", 3.0)]
    assert parse_opponents("minimax:depth=2,heuristic=lines:2, random") == [
        ("minimax:depth=2,heuristic=lines", 2.0),
        ("random", 1.0),
    ]
    for bad in ("", "random:0", "random:-1,novice", "random,,novice", "random:nan"):
        with pytest.raises(ValueError, match="bad opponent mix"):
            parse_opponents(bad)


def test_allocate_is_proportional_and_complete():
    rng = random.Random(0)
    for _ in range(200):
        weights = [rng.choice([0.5, 1, 2, 3]) for _ in range(rng.randint(1, 4))]
        count = rng.randint(0, 50)
        counts = allocate(weights, count)
        assert sum(counts) == count
        for weight, got in zip(weights, counts, strict=True):
            share = count * weight / sum(weights)
            assert share - 1 < got < share + 1


def test_game_plan_pairs_seats_and_seeds_by_generation():
    mix = [("random", 1.0), ("novice", 1.0)]
    plan = game_plan(mix, 8, run_seed=5, generation=3)
    assert [game.seat for game in plan] == [0, 1] * 4
    assert [game.opponent for game in plan] == ["random"] * 4 + ["novice"] * 4
    assert all(plan[index].seed == plan[index + 1].seed for index in range(0, 8, 2))
    assert len({game.seed for game in plan}) == 4
    assert plan == game_plan(mix, 8, run_seed=5, generation=3)
    assert {game.seed for game in plan}.isdisjoint(game.seed for game in game_plan(mix, 8, run_seed=5, generation=4))
    with pytest.raises(ValueError, match="positive even number"):
        game_plan(mix, 7, 0, 0)


def test_openings_start_each_pair_from_its_own_seeded_position():
    settings = {"size": 5, "rules": "official"}
    plan = game_plan([("random", 1.0)], 6, run_seed=5, generation=3, openings=4)
    assert all(game.opening == 4 for game in plan)
    assert game_plan([("random", 1.0)], 6, 5, 3) == tuple(replace(game, opening=0) for game in plan)
    starts = [fitness_start(game, "quixo", settings).text() for game in plan]
    assert starts == [fitness_start(game, "quixo", settings).text() for game in plan]  # reproducible
    assert starts[0] == starts[1] and starts[2] == starts[3] and len(set(starts)) == 3  # a pair shares its opening
    fresh = get_game("quixo").new_state(**settings).text()
    assert fresh not in starts
    later = game_plan([("random", 1.0)], 6, run_seed=5, generation=4, openings=4)
    assert set(starts).isdisjoint(fitness_start(game, "quixo", settings).text() for game in later)
    assert fitness_start(replace(plan[0], opening=0), "quixo", settings) is None


def test_evaluation_from_openings_is_deterministic_and_differs_from_the_start():
    library = LibraryConfig(game="quixo")
    genome = {"move": [["True", "safe_potential_move"]]}
    settings = (("rules", "official"), ("size", 5))
    tasks = [
        EvaluationTask(
            genome, game_plan([("alphabeta:depth=1", 1.0)], 4, 0, 0, openings), 0.4, library, settings=settings
        )
        for openings in (0, 4)
    ]
    results = [evaluate(task) for task in tasks]
    assert results == [evaluate(task) for task in tasks]
    assert results[0].decisions != results[1].decisions


@pytest.fixture(scope="module")
def tasks():
    library = get_library(LibraryConfig())
    generator = make_generator(library, 8)
    rng = random.Random(2)
    plan = game_plan([("random", 1.0)], 6, run_seed=1, generation=0)
    genomes = [random_genome(rng, generator, min_rules=2, max_rules=5, min_height=1, max_height=3) for _ in range(5)]
    return [EvaluationTask(genome.to_data(), plan, 0.4, LibraryConfig()) for genome in genomes]


def test_evaluation_is_deterministic_and_scored_as_documented(tasks):
    for task in tasks:
        first, second = evaluate(task), evaluate(task)
        assert first == second
        assert first.wins + first.draws + first.losses == len(task.games)
        expected = (first.wins + first.draws / 2) / len(task.games) - 0.4 * first.fallbacks / first.decisions
        assert first.score == pytest.approx(expected)
        assert first.size == Genome.from_data(task.genome, get_library(LibraryConfig()).primitive_set()).size


def test_a_genome_that_never_fires_pays_for_every_decision():
    never = {"choose": [["greater_than(0, 1)", "safe_piece"]], "place": [["greater_than(0, 1)", "safe_square"]]}
    plan = game_plan([("random", 1.0)], 4, run_seed=0, generation=0)
    result = evaluate(EvaluationTask(never, plan, 0.25, LibraryConfig()))
    assert result.fallbacks == result.decisions > 0
    assert result.score == pytest.approx((result.wins + result.draws / 2) / 4 - 0.25)


PLUGIN = '''
from gpquarto.games.quarto.gp.features import Features
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Square


@primitive
def last_free_square(features: Features) -> Square:
    """The highest free square."""
    return max(features.empty_squares, default=NO_ACTION)
'''


def test_serial_and_processes_give_identical_results_and_workers_load_plugins(tasks, tmp_path):
    plugin = tmp_path / "my_plugin.py"
    plugin.write_text(PLUGIN)
    with_plugin = LibraryConfig(plugins=(str(plugin),))
    genome = {
        "choose": [["greater_than(pieces_left, 2)", "safe_piece"]],
        "place": [["greater_than(pieces_left, 2)", "last_free_square"]],
    }
    items = [*tasks, EvaluationTask(genome, tasks[0].games, 0.4, with_plugin)]
    serial = SerialRunner().map(evaluate, items)
    with make_runner(2) as runner:
        parallel = runner.map(evaluate, items)
    assert parallel == serial
    assert serial[-1].fallbacks < serial[-1].decisions / 2


def test_dask_runner_without_distributed_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(RunnerError, match="needs the distributed extra: pip install"):
        make_runner(dask_workers=1)
