"""The value of a draw in a genome's score (``EvolutionConfig.draw_value``): the scores of rule and evaluator genomes
and of racing against a slow reference that adds up each game's points, the config field (written only when set,
read back, refused out of range) and the ``train`` option."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from gpquarto.cli import main
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.runner import SerialRunner
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.evolution import Evolution
from gpquarto.training.fitness import evaluate, game_plan, game_score, parse_opponents
from gpquarto.training.genome_kinds import EvaluatorTask, evaluate_evaluator
from gpquarto.training.racing import combined

SETTINGS = {
    "population": 6,
    "games": 8,
    "opponents": "random:1,minimax:depth=1:1",
    "min_rules": 2,
    "max_rules": 3,
    "screening_games": 2,
    "seed": 5,
    "accuracy_weight": 0.0,
    "final_games": 4,
}


def slow_score(outcomes: list[str], draw_value: float) -> float:
    """The mean of each game's points: 1 for a win, ``draw_value`` for a draw, 0 for a loss."""
    points = {"win": 1.0, "draw": draw_value, "loss": 0.0}
    return sum(points[outcome] for outcome in outcomes) / len(outcomes)


def test_the_score_of_games_adds_up_each_game_s_points():
    rng = random.Random(3)
    for _ in range(300):
        outcomes = rng.choices(["win", "draw", "loss"], k=rng.randint(1, 60))
        wins, draws = outcomes.count("win"), outcomes.count("draw")
        for draw_value in (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, rng.random()):
            assert game_score(wins, draws, len(outcomes), draw_value) == pytest.approx(slow_score(outcomes, draw_value))
        assert game_score(wins, draws, len(outcomes)) == (wins + draws / 2) / len(outcomes)  # today's, to the bit
    assert game_score(0, 0, 0, 0.25) == 0.0


@pytest.fixture(scope="module")
def evolution():
    return Evolution.start(EvolutionConfig(generations=1, **SETTINGS), get_library(LibraryConfig()))


def test_a_rule_genome_s_score_values_its_draws_at_the_draw_value(evolution):
    plan = game_plan(parse_opponents(SETTINGS["opponents"]), 16, 5, "draws")
    draws = 0
    for genome in evolution.population:
        task = evolution.kind.task(evolution, genome, plan, (), SerialRunner())
        assert task.draw_value == 0.5
        half = evaluate(task)
        draws += half.draws
        for draw_value in (0.0, 0.25, 1.0):
            result = evaluate(replace(task, draw_value=draw_value))
            assert (result.wins, result.draws, result.losses) == (half.wins, half.draws, half.losses)
            outcomes = ["win"] * result.wins + ["draw"] * result.draws + ["loss"] * result.losses
            expected = slow_score(outcomes, draw_value) - task.fallback_weight * result.fallback_rate
            assert result.score == pytest.approx(expected)
            rounds = [
                evaluate(replace(task, games=plan[:6], draw_value=draw_value)),
                evaluate(replace(task, games=plan[6:], draw_value=draw_value, accuracy_positions=())),
            ]
            assert combined(rounds, task.fallback_weight, task.accuracy_weight, draw_value) == result
    assert draws  # the check saw draws


def test_a_run_passes_its_draw_value_to_the_tasks():
    config = EvolutionConfig(generations=1, draw_value=0.25, **SETTINGS)
    evolution = Evolution.start(config, get_library(LibraryConfig()))
    plan = game_plan(parse_opponents(SETTINGS["opponents"]), 4, 5, 0)
    assert evolution.kind.task(evolution, evolution.population[0], plan, (), SerialRunner()).draw_value == 0.25


def test_an_evaluator_s_score_values_its_draws_at_the_draw_value():
    plan = game_plan(parse_opponents("minimax:depth=1:1"), 8, 11, "draws")
    draws = 0
    for text in ("safe_square_count", "one"):
        half = evaluate_evaluator(EvaluatorTask(text, 1, plan, LibraryConfig()))
        draws += half.draws
        for draw_value in (0.0, 0.3):
            result = evaluate_evaluator(EvaluatorTask(text, 1, plan, LibraryConfig(), draw_value=draw_value))
            assert (result.wins, result.draws, result.losses) == (half.wins, half.draws, half.losses)
            outcomes = ["win"] * result.wins + ["draw"] * result.draws + ["loss"] * result.losses
            assert result.score == pytest.approx(slow_score(outcomes, draw_value))
    assert draws


def test_the_draw_value_is_written_only_when_set_and_read_back():
    plain = EvolutionConfig.for_game("quixo")
    assert plain.draw_value == 0.5 and "draw_value" not in plain.as_dict()
    assert EvolutionConfig.from_dict(plain.as_dict()) == plain
    set_ = EvolutionConfig.for_game("quixo", draw_value=0.25)
    assert set_.as_dict()["draw_value"] == 0.25
    assert EvolutionConfig.from_dict(json.loads(json.dumps(set_.as_dict()))) == set_
    assert set_.differences(plain) == ["draw_value"]  # a resume may not change it
    assert EvolutionConfig(genome="evaluator", draw_value=0).draw_value == 0


@pytest.mark.parametrize("value", [-0.1, 1.01, float("nan"), float("inf"), "0.3", True, None])
def test_a_draw_value_out_of_range_is_refused_in_one_line(value):
    with pytest.raises(ValueError, match="draw_value") as error:
        EvolutionConfig(draw_value=value)
    assert "\n" not in str(error.value)


def test_train_takes_a_draw_value_and_refuses_a_bad_one(tmp_path, capsys):
    folder = tmp_path / "run"
    command = ["train", "--generations", "1", "--population", "4", "--games", "4", "--final-games", "4"]
    command += ["--workers", "1", "--quiet", "--no-racing", "--accuracy-weight", "0"]
    command += ["--run-dir", str(folder), "--filename", str(folder / "p.json")]
    assert main([*command, "--draw-value", "1.5"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "draw_value must be between 0 and 1" in error
    assert not folder.exists()
    assert main([*command, "--draw-value", "0.25"]) == 0
    assert "a draw worth 0.25" in capsys.readouterr().out
    assert json.loads((folder / "config.json").read_text())["evolution"]["draw_value"] == 0.25


def test_train_help_documents_the_draw_value(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["train", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--draw-value X" in text and "(wins + X x draws) / games" in text and "default 0.5" in text
