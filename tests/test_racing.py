"""Racing: successive halving of a generation's games, checked against its definition (a slow reference that
replays the rounds), for the same run on any number of workers and after a resume, and as a config option that
leaves runs without it as they were."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from gpquarto.cli import main
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.runner import SerialRunner
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.evolution import Evolution
from gpquarto.training.fitness import EvaluationResult, evaluate, game_plan, parse_opponents
from gpquarto.training.racing import FINALISTS, combined, first_round_games, race, race_schedule
from tests.test_gp_evolution import straight_resumed_and_parallel, summary

SETTINGS = {
    "population": 10,
    "games": 8,
    "opponents": "random:1,novice:1",
    "min_rules": 2,
    "max_rules": 3,
    "immigrant_every": 2,
    "screening_games": 2,
    "hall_of_fame": 4,
    "seed": 23,
    "accuracy_positions": 8,
    "final_games": 8,
    "racing": True,
}


@pytest.fixture(scope="module")
def library():
    return get_library(LibraryConfig())


def test_the_schedule_halves_the_genomes_and_doubles_their_games():
    rounds = race_schedule(50, 80)
    assert rounds == [(50, 20), (25, 20), (13, 40), (7, 80), (4, 160)]
    assert sum(count * games for count, games in rounds) == 3220 < 50 * 80
    assert race_schedule(4, 80) == [(4, 20)] and race_schedule(5, 6) == [(5, 2), (3, 2)]
    assert [first_round_games(games) for games in (2, 4, 8, 10, 80)] == [2, 2, 2, 2, 20]
    for genomes in range(1, 60):
        rounds = race_schedule(genomes, 80)
        assert rounds[0] == (genomes, 20) and (len(rounds) == 1) == (genomes <= FINALISTS)
        assert rounds[-1][0] <= max(FINALISTS, genomes)
        assert all(later[0] == (earlier[0] + 1) // 2 for earlier, later in zip(rounds, rounds[1:], strict=False))
        new_games = [games for _, games in rounds]
        assert all(new_games[k] == sum(new_games[:k]) for k in range(1, len(rounds)))  # as many as played before


def test_a_genome_result_over_its_rounds_is_its_result_over_all_their_games(library):
    evolution = Evolution.start(EvolutionConfig(generations=1, **SETTINGS), library)
    plan = game_plan(parse_opponents(SETTINGS["opponents"]), 12, 23, "combined")
    for genome in evolution.population[:4]:
        task = evolution.kind.task(evolution, genome, plan, (), SerialRunner())
        rounds = [
            evaluate(replace(task, games=plan[:4])),
            evaluate(replace(task, games=plan[4:], accuracy_positions=())),
        ]
        whole = evaluate(task)
        assert combined(rounds, task.fallback_weight, task.accuracy_weight) == whole


class Recorder:
    """A serial runner that notes every map's tasks."""

    def __init__(self) -> None:
        self.maps: list[list] = []

    def map(self, function, items, **options):
        items = list(items)
        self.maps.append(items)
        return [function(item) for item in items]


def reference_race(tasks, plans: list, counts: list[int]) -> tuple[list[list[int]], list[EvaluationResult]]:
    """The race written plainly: who plays in each batch, and every genome's result."""
    played: dict[int, list[EvaluationResult]] = {index: [] for index in range(len(tasks))}
    batches = []

    def score(index: int) -> tuple:
        result = combined(played[index], 0.4, 1.0)
        return (-result.score, result.size, index)

    def play(indices: list[int]) -> None:
        batches.append(indices)
        for index in indices:
            number = len(played[index])
            positions = tasks[index].accuracy_positions if number == 0 else ()
            played[index].append(evaluate(replace(tasks[index], games=plans[number], accuracy_positions=positions)))

    racing = list(range(len(tasks)))
    for count in counts:
        if len(racing) > count:
            racing = sorted(sorted(racing, key=score)[:count])
        play(racing)
    while behind := [i for i in sorted(sorted(played, key=score)[:FINALISTS]) if len(played[i]) < len(plans)]:
        play(behind)
    return batches, [combined(played[index], 0.4, 1.0) for index in range(len(tasks))]


def test_the_race_stops_the_weak_early_and_scores_the_leaders_on_every_round(library):
    evolution = Evolution.start(EvolutionConfig(generations=1, **{**SETTINGS, "population": 24}), library)
    mix = parse_opponents(SETTINGS["opponents"])
    tasks = [evolution.kind.task(evolution, genome, (), (), SerialRunner()) for genome in evolution.population]
    schedule = race_schedule(len(tasks), 16)
    assert schedule == [(24, 4), (12, 4), (6, 8), (3, 16)]

    def plan(number: int, games: int):
        return game_plan(mix, games, 23, f"race test {number}")

    plans = [plan(number, games) for number, (_, games) in enumerate(schedule)]
    runner = Recorder()
    results = race(tasks, plan, 16, evaluate, runner)
    batches, expected = reference_race(tasks, plans, [count for count, _ in schedule])
    assert results == expected
    assert [[task.genome for task in items] for items in runner.maps] == [
        [tasks[index].genome for index in batch] for batch in batches
    ]
    rounds_of = {}  # every task of a batch plays the games of its genome's next round: the same games for all
    for batch, items in zip(batches, runner.maps, strict=True):
        for index, item in zip(batch, items, strict=True):
            number = rounds_of[index] = rounds_of.get(index, -1) + 1
            assert item.games == plans[number] and bool(item.accuracy_positions) == (number == 0)
    games = [result.wins + result.draws + result.losses for result in results]
    leaders = sorted(range(len(results)), key=lambda i: (-results[i].score, results[i].size, i))[:FINALISTS]
    assert all(games[index] == 32 for index in leaders) and games.count(4) >= 8  # the weak stopped after 4 games


def test_a_racing_run_is_the_same_after_a_resume_and_on_processes(library, tmp_path):
    config = EvolutionConfig(generations=4, **SETTINGS)
    straight, _, resumed, parallel = straight_resumed_and_parallel(config, library, tmp_path / "checkpoint.dill")
    assert summary(resumed) == summary(straight) == summary(parallel)
    first = Evolution.start(config, library)
    first.evaluate(SerialRunner())
    games = {genome.record["wins"] + genome.record["draws"] + genome.record["losses"] for genome in first.population}
    assert {2, 8} <= games <= {2, 4, 8}  # stopped after the first round or the second, or a finalist
    plain = Evolution.start(EvolutionConfig(generations=4, **{**SETTINGS, "racing": False}), library)
    plain.run(SerialRunner())
    assert summary(plain) != summary(straight)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"pooled_fitness": True}, "racing and pooled_fitness"),
        ({"islands": 2}, "racing needs one island"),
        ({"genome": "evaluator"}, "racing is a setting of rule genomes"),
    ],
)
def test_racing_is_refused_where_it_does_not_apply(settings, message):
    with pytest.raises(ValueError, match=message):
        EvolutionConfig(racing=True, **settings)


def test_racing_is_written_only_when_set_and_read_back():
    assert "racing" not in EvolutionConfig().as_dict()
    data = EvolutionConfig(racing=True).as_dict()
    assert data["racing"] is True and EvolutionConfig.from_dict(data).racing
    assert not EvolutionConfig.from_dict(EvolutionConfig().as_dict()).racing


def test_the_train_flag_races(tmp_path):
    folder = tmp_path / "run"
    command = ["train", "--generations", "1", "--population", "6", "--games", "8", "--final-games", "4"]
    command += ["--workers", "1", "--racing", "--quiet", "--run-dir", str(folder), "--filename", str(folder / "p.p")]
    assert main(command) == 0
    config = json.loads((folder / "config.json").read_text())["evolution"]
    assert config["racing"] is True


def test_train_races_quarto_rule_players_on_a_larger_bank_by_default():
    config = EvolutionConfig.for_game("quarto")
    assert config.racing and config.accuracy_positions == 1000
    assert not EvolutionConfig.for_game("quarto", racing=False).racing
    assert not EvolutionConfig.for_game("quixo").racing  # other games keep their own defaults
    evaluator = EvolutionConfig.for_game("quarto", genome="evaluator")
    assert not evaluator.racing and evaluator.accuracy_positions == EvolutionConfig().accuracy_positions


@pytest.mark.parametrize("settings", [{"pooled_fitness": True}, {"islands": 2}])
def test_default_racing_gives_way_to_pooled_fitness_and_islands(settings):
    assert not EvolutionConfig.for_game("quarto", **settings).racing
    with pytest.raises(ValueError, match="racing"):
        EvolutionConfig.for_game("quarto", racing=True, **settings)


def test_a_config_written_before_racing_was_the_default_reads_as_it_was():
    old = EvolutionConfig().as_dict()  # what a default run wrote: no racing key, a bank of 200 positions
    assert "racing" not in old and old["accuracy_positions"] == 200
    config = EvolutionConfig.from_dict(old)
    assert not config.racing and config.accuracy_positions == 200
    data = EvolutionConfig.for_game("quarto").as_dict()
    assert data["racing"] is True and EvolutionConfig.from_dict(data) == EvolutionConfig.for_game("quarto")


def test_train_races_by_default_and_not_with_no_racing(tmp_path):
    for number, (flags, racing) in enumerate((([], True), (["--no-racing"], False), (["--pooled-fitness"], False))):
        folder = tmp_path / f"run{number}"
        command = ["train", "--generations", "1", "--population", "4", "--games", "4", "--final-games", "2"]
        command += ["--accuracy-positions", "8", "--workers", "1", "--quiet", *flags]
        assert main([*command, "--run-dir", str(folder), "--filename", str(folder / "p.p")]) == 0
        config = json.loads((folder / "config.json").read_text())["evolution"]
        assert config.get("racing", False) is racing
