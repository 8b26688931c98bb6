"""Parsimony (``EvolutionConfig.parsimony``, ``train --parsimony P``): a genome's score less ``P`` per node of it, in
the fitness, racing and the final choice; Quarto's rule runs take 0.0002 by default, other games and evaluators 0; a
parsimony of 0 is not written and scores as before the field existed; the same seed gives the same run, straight,
resumed, on processes, with pooled fitness or islands; bad values are refused in one line."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from gpquarto.cli import main
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.runner import SerialRunner
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.evolution import Evolution
from gpquarto.training.fitness import EvaluationTask, evaluate, game_plan, parse_opponents
from gpquarto.training.racing import combined
from tests.test_gp_evolution import straight_resumed_and_parallel, summary
from tests.test_racing import SETTINGS as RACING_SETTINGS

#: Quarto's default.
QUARTO_PARSIMONY = 0.0002
#: ``examples/players/reply_counter.json``'s rules.
REPLY_COUNTER = {
    "choose": [["True", "piece_leaving_fewest_safe_placements"], ["True", "safe_piece"]],
    "place": [
        ["True", "winning_square"],
        ["True", "square_leaving_fewest_reply_placements"],
        ["True", "tightest_safe_square"],
        ["True", "safe_square"],
    ],
}


@pytest.fixture(scope="module")
def library():
    return get_library(LibraryConfig())


def _task(genome: dict, parsimony: float, games: int = 12) -> EvaluationTask:
    plan = game_plan(parse_opponents("random:1,novice:1"), games, 3, "parsimony")
    return EvaluationTask(genome, plan, 0.4, LibraryConfig(), parsimony=parsimony)


def test_a_bigger_genome_with_the_same_games_scores_lower_by_parsimony_times_the_difference(library):
    # The same rules and a copy of the last place rule at the end, which never decides (the rule before it gives
    # the same answer): the same games, decisions and fallbacks, more nodes.
    bigger = {"choose": REPLY_COUNTER["choose"], "place": [*REPLY_COUNTER["place"], ["True", "safe_square"]]}
    sizes = [Genome.from_data(data, library.primitive_set()).size for data in (REPLY_COUNTER, bigger)]
    assert sizes[1] == sizes[0] + 2
    for parsimony in (0.0, QUARTO_PARSIMONY, 0.01):
        small, large = evaluate(_task(REPLY_COUNTER, parsimony)), evaluate(_task(bigger, parsimony))
        games = ("wins", "draws", "losses", "fallbacks", "decisions")
        assert [getattr(small, name) for name in games] == [getattr(large, name) for name in games]
        assert small.score - large.score == pytest.approx(parsimony * (sizes[1] - sizes[0]), abs=1e-12)
        plain = evaluate(_task(REPLY_COUNTER, 0.0))
        assert small.score == plain.score - parsimony * sizes[0]  # the last term, to the bit
        assert small.size == sizes[0]


def test_racing_s_combined_score_takes_the_same_term(library):
    evolution = Evolution.start(EvolutionConfig(generations=1, **RACING_SETTINGS), library)
    plan = game_plan(parse_opponents(RACING_SETTINGS["opponents"]), 12, 23, "combined")
    for genome in evolution.population[:5]:
        task = replace(evolution.kind.task(evolution, genome, plan, (), SerialRunner()), parsimony=QUARTO_PARSIMONY)
        whole = evaluate(task)
        rounds = [
            evaluate(replace(task, games=plan[:4])),
            evaluate(replace(task, games=plan[4:], accuracy_positions=())),
        ]
        weights = (task.fallback_weight, task.accuracy_weight, task.draw_value)
        assert combined(rounds, *weights, QUARTO_PARSIMONY) == whole
        plain = combined(rounds, *weights)
        assert combined(rounds, *weights, QUARTO_PARSIMONY).score == plain.score - QUARTO_PARSIMONY * genome.size


def test_a_run_passes_its_parsimony_to_the_tasks_and_its_final_choice(library):
    config = EvolutionConfig(generations=1, parsimony=0.001, **RACING_SETTINGS)
    evolution = Evolution.start(config, library)
    plan = game_plan(parse_opponents(RACING_SETTINGS["opponents"]), 4, 5, 0)
    assert evolution.kind.task(evolution, evolution.population[0], plan, (), SerialRunner()).parsimony == 0.001
    evolution.run(SerialRunner())
    for genome in evolution.hall_of_fame:
        assert genome.fitness.values == (genome.record["score"], float(genome.size))
    champion = evolution.champion(SerialRunner())
    assert champion is not None
    record = champion.record  # the final choice's games, scored with the parsimony term
    games = record["wins"] + record["draws"] + record["losses"]
    assert games == config.final_games
    points = (record["wins"] + record["draws"] / 2) / games - config.fallback_weight * (
        record["fallbacks"] / record["decisions"]
    )
    expected = points + config.accuracy_weight * record["accuracy"] - 0.001 * champion.size
    assert record["score"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "settings",
    [{"racing": True}, {"racing": False, "pooled_fitness": True}, {"racing": False, "islands": 2}],
    ids=["racing", "pooled", "islands"],
)
def test_the_same_seed_gives_the_same_run_resumed_and_on_processes(library, tmp_path, settings):
    config = EvolutionConfig(generations=4, **{**RACING_SETTINGS, **settings, "parsimony": 0.002})
    straight, _, resumed, parallel = straight_resumed_and_parallel(config, library, tmp_path / "checkpoint.dill")
    assert summary(resumed) == summary(straight) == summary(parallel)
    plain = Evolution.start(replace(config, parsimony=0.0), library)
    plain.run(SerialRunner())
    assert summary(plain) != summary(straight)


def test_quarto_rule_runs_take_the_default_and_others_none():
    assert EvolutionConfig.for_game("quarto").parsimony == QUARTO_PARSIMONY
    assert EvolutionConfig.for_game("quarto", parsimony=0.0).parsimony == 0.0
    assert EvolutionConfig.for_game("quarto", genome="evaluator").parsimony == 0.0
    assert EvolutionConfig.for_game("quixo").parsimony == 0.0
    assert EvolutionConfig().parsimony == 0.0  # the dataclass: what a config file without the field means


def test_the_parsimony_is_written_only_when_set_and_read_back():
    plain = EvolutionConfig.for_game("quixo")
    assert "parsimony" not in plain.as_dict()
    assert EvolutionConfig.from_dict(plain.as_dict()).parsimony == 0.0  # an old config reads as 0
    quarto = EvolutionConfig.for_game("quarto")
    written = json.loads(json.dumps(quarto.as_dict()))
    assert written["parsimony"] == QUARTO_PARSIMONY and EvolutionConfig.from_dict(written) == quarto
    older = {key: value for key, value in written.items() if key != "parsimony"}
    assert EvolutionConfig.from_dict(older).parsimony == 0.0  # a Quarto run saved before the field: as it was
    assert quarto.differences(EvolutionConfig.for_game("quarto", parsimony=0.0)) == ["parsimony"]  # resume keeps it


@pytest.mark.parametrize("value", [-0.0001, float("nan"), float("inf"), "0.1", True, None])
def test_a_bad_parsimony_is_refused_in_one_line(value):
    with pytest.raises(ValueError, match="parsimony must be") as error:
        EvolutionConfig(parsimony=value)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match="parsimony is a setting of rule genomes"):
        EvolutionConfig(genome="evaluator", parsimony=0.001)


def test_the_command_line_sets_the_parsimony_and_refuses_a_bad_one(tmp_path, capsys):
    from gpquarto.cli import build_parser
    from gpquarto.cli.train import _config

    assert _config(build_parser().parse_args(["train", "--parsimony", "0.001"])).parsimony == 0.001
    assert _config(build_parser().parse_args(["train"])).parsimony == QUARTO_PARSIMONY
    assert _config(build_parser().parse_args(["train", "--game", "quixo"])).parsimony == 0.0
    folder = tmp_path / "r"
    assert main(["train", "--parsimony", "-1", "--run-dir", str(folder), "--quiet", "--workers", "1"]) == 2
    error = capsys.readouterr().err.strip()
    assert "parsimony must be >= 0, got -1" in error and "\n" not in error
    assert not (folder / "config.json").exists()
    with pytest.raises(SystemExit):
        main(["train", "--parsimony", "some"])
