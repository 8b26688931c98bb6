"""Evaluator runs of several islands: island 0 is the run of one population, the islands never meet (each is the
same in a run of more islands), each keeps its own hall of fame members, the final choice replays them all, and
checkpoints, configs and the CLI check the islands in one line."""

from __future__ import annotations

import json
import operator
import random

import dill
import pytest
from deap import tools

from gpquarto.cli import main
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.library import get_library
from gpquarto.gp.types import Score
from gpquarto.runner import SERIAL, make_runner
from gpquarto.training import EvolutionConfig, open_run, resume, train
from gpquarto.training.checkpoint import read_checkpoint_data
from gpquarto.training.evolution import Evolution
from gpquarto.training.hall_of_fame import IslandHallOfFame, new_hall_of_fame, restored_hall_of_fame
from tests.test_train_evaluator import TINY as EVALUATOR_TINY

TINY = {**EVALUATOR_TINY, "seed": 11, "final_games": 4}


def config_of(**settings) -> EvolutionConfig:
    return EvolutionConfig.for_game(**{**TINY, **settings})


def islands_of(evolution: Evolution) -> list[list[tuple]]:
    """Each island's genomes as (text, fitness, record without the island)."""
    size = evolution.config.population
    genomes = [
        (
            genome.to_data(),
            genome.fitness.values,
            {key: value for key, value in genome.record.items() if key != "island"},
        )
        for genome in evolution.population
    ]
    return [genomes[start : start + size] for start in range(0, len(genomes), size)]


def whole_run(config: EvolutionConfig) -> tuple[list[list[list[tuple]]], Evolution]:
    """Every generation's islands, evaluated, and the evolution at the end of the run."""
    evolution = Evolution.start(config, get_library(config.library()))
    generations = []
    while evolution.generation < config.generations:
        evolution.evaluate(SERIAL)
        generations.append(islands_of(evolution))
        evolution.record()
        evolution.breed()
    return generations, evolution


def evaluated_generations(config: EvolutionConfig) -> list[list[list[tuple]]]:
    """Every generation's islands, evaluated."""
    return whole_run(config)[0]


def test_island_zero_is_the_run_of_one_population_and_islands_never_meet():
    one, two, three = (evaluated_generations(config_of(islands=islands)) for islands in (1, 2, 3))
    for generation in range(TINY["generations"]):
        assert len(three[generation]) == 3 and all(len(island) == 4 for island in three[generation])
        assert three[generation][0] == one[generation][0]
        # no migration: the first two islands of a run of three are those of a run of two
        assert three[generation][:2] == two[generation]
    texts = [[genome[0] for genome in island] for island in three[0]]
    assert texts[0] != texts[1] != texts[2] != texts[0]  # each island from seeds of its own


def test_every_genome_names_its_island_only_when_there_are_several():
    for islands in (1, 3):
        config = config_of(islands=islands, generations=1)
        evolution = Evolution.start(config, get_library(config.library()))
        evolution.evaluate(SERIAL)
        named = [genome.record.get("island") for genome in evolution.population]
        assert named == ([None] * 4 if islands == 1 else [0] * 4 + [1] * 4 + [2] * 4)


def genome_with(score: float, generation: int, island: int, text: str = "one") -> EvaluatorGenome:
    library = get_library(config_of().library())
    genome = EvaluatorGenome.from_text(text, library)
    genome.fitness.values = (score, 1.0)
    genome.record = {"generation": generation, "island": island}
    return genome


def slow_island_hall(members: list[EvaluatorGenome], size: int, islands: int) -> list[tuple]:
    """The reference: per island, each generation's best, the ``size`` best of them; all, best score first."""
    kept = []
    for island in range(islands):
        best_of_generation: dict[int, EvaluatorGenome] = {}
        for genome in members:
            if genome.record["island"] == island:
                held = best_of_generation.get(genome.record["generation"])
                if held is None or genome.fitness.values[0] > held.fitness.values[0]:
                    best_of_generation[genome.record["generation"]] = genome
        kept += sorted(best_of_generation.values(), key=lambda genome: -genome.fitness.values[0])[:size]
    return sorted((-genome.fitness.values[0], genome.record["island"], genome.record["generation"]) for genome in kept)


def test_each_island_keeps_its_best_so_a_lucky_island_cannot_fill_the_hall():
    config = config_of(islands=3, hall_of_fame=2)
    rng = random.Random(4)
    terminals = ["one", "two", "five", "ten", "threats", "forced_win", "safe_pair_count", "live_threats", "safe_parity"]
    # distinct trees: the per-generation hall's other rule (a tree already in it is not entered again) stays out
    texts = iter(rng.sample([f"plus({first}, {second})" for first in terminals for second in terminals], 72))
    hall = new_hall_of_fame(config)
    assert isinstance(hall, IslandHallOfFame) and hall.maxsize == 6
    entered = []
    for generation in range(6):
        population = [
            # island 2 always scores more than the others: a plain hall of 6 would hold only its genomes
            genome_with(rng.random() + 10 * (island == 2), generation, island, next(texts))
            for island in range(3)
            for _ in range(4)
        ]
        hall.update(population)
        entered += population
        expected = slow_island_hall(entered, 2, 3)
        got = sorted(
            (-member.fitness.values[0], member.record["island"], member.record["generation"]) for member in hall
        )
        assert got == expected
        assert [member.fitness.values[0] for member in hall] == sorted(
            (member.fitness.values[0] for member in hall), reverse=True
        )
    plain = tools.HallOfFame(6, similar=operator.eq)
    plain.update(entered)
    assert {member.record["island"] for member in plain} == {2}
    assert {member.record["island"] for member in hall} == {0, 1, 2}


def test_a_restored_island_hall_is_the_saved_one_ties_included():
    config = config_of(islands=2, hall_of_fame=3)
    hall = new_hall_of_fame(config)
    for generation in range(4):  # equal scores across islands and generations: the order rests on the ties' rule
        hall.update([genome_with(0.5, generation, island, text) for island in (0, 1) for text in ("one", "two")])
    restored = restored_hall_of_fame(config, [member for member in hall])
    assert [(m.text(), m.record) for m in restored] == [(m.text(), m.record) for m in hall]
    for saved, again in zip(hall.halls, restored.halls, strict=True):
        assert [(m.text(), m.record) for m in again] == [(m.text(), m.record) for m in saved]
    # updated alike afterwards
    newcomers = [genome_with(0.5, 9, island, "ten") for island in (0, 1)]
    hall.update(newcomers)
    restored.update(newcomers)
    assert [(m.text(), m.record) for m in restored] == [(m.text(), m.record) for m in hall]


def test_the_final_choice_replays_every_islands_hall_of_fame(tmp_path):
    config = config_of(islands=3, hall_of_fame=2)
    run = train(config, tmp_path / "run", best_player_copy=None)
    members = open_run(run.path).hall_of_fame()
    assert {member.record["island"] for member in members} == {0, 1, 2}
    assert all(sum(m.record["island"] == island for m in members) <= 2 for island in range(3))
    saved = json.loads((run.path / "best_evaluator.json").read_text())
    assert saved["fitness"]["island"] in {0, 1, 2} and saved["fitness"]["games"] == 4
    replayed = Evolution.load_checkpoint(str(run.checkpoint_path), get_library(config.library()))
    champion = replayed.champion(SERIAL)
    assert champion.text() == saved["tree"]["evaluator"]
    assert champion.text() in [member.text() for member in members]
    hall_text = (run.path / "hall_of_fame.txt").read_text()
    assert "of island 0" in hall_text and "of island 2" in hall_text


def hall_after(config: EvolutionConfig) -> tuple[list, list[tuple]]:
    """The run's islands, and its hall of fame at the end (each member's island, text and fitness)."""
    generations, evolution = whole_run(config)
    members = [(genome.record["island"], genome.text(), genome.fitness.values) for genome in evolution.hall_of_fame]
    return generations, members


def test_a_smaller_hall_keeps_each_islands_best_of_a_larger_one_and_changes_nothing_else():
    # What lets a finished run's final choice be replayed with a smaller hall: without hof opponents (none here)
    # the hall does not steer evolution, and each island's smaller hall is the best members of its larger one.
    large_run, large = hall_after(config_of(islands=3, hall_of_fame=3, generations=4))
    small_run, small = hall_after(config_of(islands=3, hall_of_fame=2, generations=4))
    assert small_run == large_run
    for island in range(3):
        of_large = [member for member in large if member[0] == island]
        of_small = [member for member in small if member[0] == island]
        assert len(of_small) == 2 and len(of_large) == 3
        assert sorted(of_small, key=lambda member: member[2][0]) == sorted(
            of_large[:2], key=lambda member: member[2][0]
        )
        assert min(member[2][0] for member in of_small) >= max(member[2][0] for member in of_large[2:])


def test_checkpoints_with_islands_are_checked_in_one_line(tmp_path):
    config = config_of(islands=2, generations=1)
    run = train(config, tmp_path / "run", best_player_copy=None)
    data = read_checkpoint_data(run.checkpoint_path)
    assert len(data["population"]) == 8 and len(data["hall_of_fame"]) >= 2

    def refused(change, message: str) -> None:
        broken = json.loads(json.dumps(data, default=list))
        change(broken)
        path = tmp_path / "broken.dill"
        path.write_bytes(dill.dumps(broken))
        with pytest.raises(ValueError, match=message) as caught:
            read_checkpoint_data(path)
        assert "\n" not in str(caught.value)

    refused(lambda d: d["population"].pop(), "the population must be a list of 8 genomes")
    refused(lambda d: d["hall_of_fame"][0]["record"].pop("island"), "must name its island, 0 to 1, got None")
    refused(lambda d: d["hall_of_fame"][0]["record"].update(island=2), "must name its island, 0 to 1, got 2")
    refused(lambda d: d["hall_of_fame"][0]["record"].update(island=True), "must name its island")


def test_islands_are_a_setting_within_limits(tmp_path, capsys):
    assert EvolutionConfig.for_game(genome="evaluator").islands == 2
    assert EvolutionConfig().islands == 1
    for settings, message in (
        ({"islands": 0}, "islands must be at least 1"),
        ({"islands": 101}, "islands must be at most 100"),
        ({"islands": 100, "population": 101}, "population x islands must be at most 10,000"),
        ({"islands": "3"}, "islands must be a whole number"),
    ):
        with pytest.raises(ValueError, match=message):
            config_of(**settings)
    common = ["--population", "3", "--games", "2", "--workers", "1", "--quiet", "--final-games", "2", "--generations"]
    run = tmp_path / "run"
    arguments = ["train", "--genome", "evaluator", "--depth", "1", "--islands", "2", *common, "1", "--run-dir"]
    assert main([*arguments, str(run), "--hall-of-fame", "1"]) == 0
    assert open_run(run).config.islands == 2 and len(read_checkpoint_data(run / "checkpoint.dill")["population"]) == 6
    assert open_run(run).config.hall_of_fame == 1 and len(open_run(run).hall_of_fame()) == 2  # one per island
    with pytest.raises(SystemExit) as exited:  # argparse's own refusal
        main(["train", "--genome", "evaluator", "--islands", "0", "--run-dir", str(tmp_path / "x")])
    assert exited.value.code == 2
    assert "argument --islands: expected a number >= 1, got 0" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["train", "--genome", "evaluator", "--hall-of-fame", "0", "--run-dir", str(tmp_path / "x")])
    assert exited.value.code == 2
    assert "argument --hall-of-fame: expected a number >= 1, got 0" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_generation_zero_of_each_island_is_random_trees_of_the_evaluator_type():
    config = config_of(islands=2, generations=1)
    evolution = Evolution.start(config, get_library(config.library()))
    assert len(evolution.population) == 8
    assert all(genome.tree[0].ret is Score for genome in evolution.population)


RULES_TINY = {
    "generations": 3,
    "population": 4,
    "games": 2,
    "opponents": "random",
    "final_games": 2,
    "accuracy_weight": 0.0,
    "immigrant_every": 2,
    "immigrants": 1,
    "seed": 3,
}


def test_rule_islands_too_start_from_island_zero_and_never_meet():
    one, two, three = (evaluated_generations(EvolutionConfig(**RULES_TINY, islands=islands)) for islands in (1, 2, 3))
    for generation in range(RULES_TINY["generations"]):
        assert three[generation][0] == one[generation][0]
        assert three[generation][:2] == two[generation]
    assert three[0][1] != three[0][2]
    start = "examples/players/trap_setter.json"
    config = EvolutionConfig(**RULES_TINY, islands=2, start_from=(start,))
    evolution = Evolution.start(config, get_library(config.library()))
    first = [genome.to_data() for genome in evolution.population]
    given = Evolution.start(EvolutionConfig(**RULES_TINY, start_from=(start,)), get_library(config.library()))
    assert first[0] == given.population[0].to_data()  # the player starts island 0 only
    assert given.population[0].to_data() not in first[4:]


def test_a_rule_run_of_islands_resumes_bit_identically_on_any_number_of_workers(tmp_path):
    config = EvolutionConfig(**RULES_TINY, islands=2)
    train(config, tmp_path / "straight", best_player_copy=None)
    short = EvolutionConfig(**{**RULES_TINY, "generations": 1}, islands=2)
    with make_runner(2) as runner:
        train(short, tmp_path / "resumed", best_player_copy=None, runner=runner)
    resume(tmp_path / "resumed", generations=3)
    assert read_checkpoint_data(tmp_path / "resumed" / "checkpoint.dill") == read_checkpoint_data(
        tmp_path / "straight" / "checkpoint.dill"
    )
    for name in ("logbook.csv", "hall_of_fame.txt", "best_player.json"):
        straight, resumed = ((tmp_path / run / name).read_text() for run in ("straight", "resumed"))
        if name == "best_player.json":  # the run's identity and name differ
            straight, resumed = (
                {key: value for key, value in json.loads(text).items() if key not in ("run", "name")}
                for text in (straight, resumed)
            )
        assert straight == resumed, name
    members = open_run(tmp_path / "straight").hall_of_fame()
    assert {member.record["island"] for member in members} == {0, 1}
