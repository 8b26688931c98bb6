"""Fitness that keeps teaching: any spec at any weight, the run's own hall of fame, and a schedule of mixes."""

from __future__ import annotations

import pytest

from gpquarto.runner import SerialRunner, make_runner
from gpquarto.training import Evolution, EvolutionConfig, open_run, resume, train
from gpquarto.training.fitness import HALL_OF_FAME, game_plan, opponents_at, parse_opponents, parse_schedule

TINY = {"population": 6, "games": 4, "seed": 3, "final_games": 4}


def test_the_default_mix_follows_the_vocabulary_and_is_saved_resolved():
    full = EvolutionConfig(**TINY)
    basic = EvolutionConfig(tactical=False, **TINY)
    assert parse_opponents(full.opponents) == [("random", 1.0), ("minimax:depth=2", 3.0)]
    assert parse_opponents(basic.opponents) == [("random", 1.0), ("minimax:depth=2", 1.0)]
    assert EvolutionConfig(tactical=False, opponents="novice:1", **TINY).opponents == "novice:1"
    # a saved config holds the mix it ran with, so changing the defaults later cannot change a resumed run
    assert EvolutionConfig.from_dict(basic.as_dict()) == basic and basic.as_dict()["opponents"] == basic.opponents


def test_schedules_switch_mixes_at_their_generations():
    schedule = "2:novice:1;5:minimax:depth=1:1,hof:1"
    assert parse_schedule(schedule) == [(2, "novice:1"), (5, "minimax:depth=1:1,hof:1")]
    mixes = [opponents_at("random", schedule, generation) for generation in range(7)]
    assert mixes == ["random"] * 2 + ["novice:1"] * 3 + ["minimax:depth=1:1,hof:1"] * 2
    assert opponents_at("random", "", 9) == "random"
    for bad, message in [
        ("novice", "GENERATION:MIX"),
        ("5:novice;2:random", "must increase"),
        ("3:nobody:1", "unknown player 'nobody'"),
        ("3:human:1", "needs a person"),
    ]:
        with pytest.raises(ValueError, match=message):
            EvolutionConfig(schedule=bad, **TINY)


def test_hof_games_are_planned_like_any_opponent_and_members_take_turns():
    plan = game_plan(parse_opponents("random:1,hof:3"), 8, 0, 1)
    hof_games = [game for game in plan if game.opponent == HALL_OF_FAME]
    assert len(hof_games) == 6 and [game.member for game in hof_games] == [0, 0, 1, 1, 2, 2]
    assert [game.seat for game in hof_games] == [0, 1] * 3


def test_a_run_against_its_hall_of_fame_is_reproducible_on_any_runner_and_on_resume(tmp_path):
    config = EvolutionConfig(generations=4, opponents="random:1,hof:1", **TINY)
    serial = train(config, tmp_path / "serial", best_player_copy=None)
    with make_runner(2) as runner:
        parallel = train(config, tmp_path / "pool", best_player_copy=None, runner=runner)
    assert open_run(serial.path).logbook() == open_run(parallel.path).logbook()
    half = train(EvolutionConfig(**{**config.as_dict(), "generations": 2}), tmp_path / "half", best_player_copy=None)
    resumed = resume(half.path, generations=4)
    assert open_run(resumed.path).logbook() == open_run(serial.path).logbook()
    assert open_run(resumed.path).best_player().genome == open_run(serial.path).best_player().genome


def test_hof_games_need_a_hall_of_fame_and_use_it_once_there_is_one():
    from gpquarto.gp.library import get_library

    config = EvolutionConfig(generations=2, opponents="hof", **TINY)
    evolution = Evolution.start(config, get_library(config.library()))
    assert evolution.hall_of_fame_texts() == ()  # generation 0: hof games are played against random
    evolution.step(SerialRunner())
    assert len(evolution.hall_of_fame_texts()) == len(evolution.hall_of_fame) > 0
    assert evolution.hall_of_fame_texts()[0] == evolution.hall_of_fame[0].to_data()


def test_the_accuracy_term_grades_every_decision_of_the_training_bank(tmp_path, monkeypatch):
    from gpquarto.grading.cache import load_or_build_bank
    from gpquarto.grading.grade import grade_player
    from gpquarto.training.fitness import bank_accuracy

    monkeypatch.setenv("GPQUARTO_CACHE", str(tmp_path / "cache"))
    config = EvolutionConfig(
        generations=2, opponents="random", accuracy_weight=0.5, accuracy_positions=12, accuracy_max_empties=7, **TINY
    )
    bank = load_or_build_bank(config.training_bank())
    assert bank.parameters.purpose == "training" and len(bank.positions) == 12
    serial = train(config, tmp_path / "serial", best_player_copy=None)
    with make_runner(2) as runner:
        parallel = train(config, tmp_path / "pool", best_player_copy=None, runner=runner)
    logbook = open_run(serial.path).logbook()
    assert logbook == open_run(parallel.path).logbook()
    assert all(0 <= value <= 1 for value in logbook.select("best_accuracy"))
    player = open_run(serial.path).best_player()
    fitness = player.metadata["fitness"]
    games = fitness["wins"] + fitness["draws"] + fitness["losses"]
    rate = fitness["fallbacks"] / fitness["decisions"]
    expected = (fitness["wins"] + fitness["draws"] / 2) / games - config.fallback_weight * rate
    assert fitness["score"] == pytest.approx(expected + 0.5 * fitness["accuracy"])
    positions = tuple((item.text, tuple(item.best_actions)) for item in bank.positions)
    assert bank_accuracy(player, positions) == pytest.approx(grade_player(player, bank).accuracy)
