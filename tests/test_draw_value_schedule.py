"""A draw value schedule (``EvolutionConfig.draw_value_end``, ``train --draw-value X:Y``): each generation's value
against a slow reference in exact fractions, each generation's scores (fitness, racing) and the hall of fame at the
value of the generation that judged them, the final choice at the end value, a resume bit-identical to a run that
was not stopped, and the refusals (bad values, a resume that changes the schedule or its span)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from gpquarto.cli import main
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.runner import SerialRunner
from gpquarto.training import open_run, resume, train
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.evolution import Evolution
from gpquarto.training.run import RunError
from tests.test_draw_value import SETTINGS  # a tiny Quarto run whose genomes draw some of their games

FILES = ("logbook.csv", "hall_of_fame.txt", "best_player.json")


def slow_value(start: float, end: float | None, generations: int, generation: int) -> Fraction:
    """The value of a draw in ``generation``, in exact fractions: ``start`` without a schedule; else the point
    ``generation / (generations - 1)`` of the way from ``start`` to ``end``, held at ``end`` after the last
    generation and for a run of one generation."""
    if end is None:
        return Fraction(start)
    if generations <= 1:
        return Fraction(end)
    share = Fraction(min(generation, generations - 1), generations - 1)
    return Fraction(start) + (Fraction(end) - Fraction(start)) * share


def slow_score(record: dict, draw_value: Fraction, fallback_weight: float) -> float:
    """A record's score rebuilt game by game: 1 a win, ``draw_value`` a draw, 0 a loss, the mean, less the fallback
    penalty."""
    points = [Fraction(1)] * record["wins"] + [draw_value] * record["draws"] + [Fraction(0)] * record["losses"]
    rate = record["fallbacks"] / record["decisions"] if record["decisions"] else 0.0
    return float(sum(points) / len(points)) - fallback_weight * rate


def test_each_generation_s_value_follows_the_slow_reference():
    for start, end, generations in [
        (0.25, 0.5, 40),
        (0.35, 0.5, 40),
        (0.0, 1.0, 7),
        (0.8, 0.2, 5),
        (0.3, 0.3, 3),
        (0.25, 0.5, 2),
        (0.25, 0.5, 1),
    ]:
        config = EvolutionConfig(generations=generations, draw_value=start, draw_value_end=end)
        values = [config.draw_value_at(generation) for generation in range(generations + 2)]
        for generation, value in enumerate(values):
            assert value == pytest.approx(float(slow_value(start, end, generations, generation)), abs=1e-15)
        assert values[-1] == values[-2] == config.final_draw_value == end  # exact at the end and after it
        if generations > 1:
            assert values[0] == start
        steps = [
            later - earlier for earlier, later in zip(values[: generations - 1], values[1:generations], strict=True)
        ]
        assert all(step == pytest.approx(steps[0], abs=1e-15) for step in steps)  # a straight line
    plain = EvolutionConfig(generations=40, draw_value=0.35)
    assert {plain.draw_value_at(generation) for generation in range(45)} == {0.35} == {plain.final_draw_value}


def test_the_schedule_is_written_only_when_set_and_read_back():
    plain = EvolutionConfig.for_game("quixo", draw_value=0.25)
    assert plain.draw_value_end is None and "draw_value_end" not in plain.as_dict()
    assert "draw_value_end" not in EvolutionConfig.for_game("quixo").as_dict()
    scheduled = EvolutionConfig.for_game("quixo", draw_value=0.25, draw_value_end=0.5)
    data = json.loads(json.dumps(scheduled.as_dict()))
    assert (data["draw_value"], data["draw_value_end"]) == (0.25, 0.5)
    assert EvolutionConfig.from_dict(data) == scheduled
    assert scheduled.differences(plain) == ["draw_value_end"]  # a resume may not change it


@pytest.mark.parametrize("value", [-0.1, 1.01, float("nan"), float("inf"), "0.5", True])
def test_a_bad_end_value_is_refused_in_one_line(value):
    with pytest.raises(ValueError, match="draw_value_end must be between 0 and 1") as error:
        EvolutionConfig(draw_value_end=value)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("racing", [False, True])
def test_each_generation_is_scored_at_its_value_and_the_final_choice_at_the_end(racing):
    # Seeds whose tiny runs draw games in the middle generations (the racing run of seed 5 has drawn none since
    # square_leaving_fewest_reply_placements takes wins).
    settings = {**SETTINGS, "seed": 8 if racing else 5}
    config = EvolutionConfig(generations=4, draw_value=0.0, draw_value_end=1.0, racing=racing, **settings)
    evolution = Evolution.start(config, get_library(LibraryConfig()))
    runner, draws = SerialRunner(), 0
    for generation in range(config.generations):
        assert evolution.generation == generation
        value = slow_value(0.0, 1.0, 4, generation)
        evolution.evaluate(runner)
        for genome in evolution.population:
            record = genome.record
            assert record["generation"] == generation
            assert record["score"] == pytest.approx(slow_score(record, value, config.fallback_weight), abs=1e-12)
            assert genome.fitness.values[0] == record["score"]
            draws += record["draws"] if 0 < generation < 3 else 0  # generations worth neither 0 nor 1
        evolution.record()
        evolution.breed(runner)
    assert draws  # the check saw draws valued between a loss and a win
    for member in evolution.hall_of_fame:  # ranked by the fitness of the generation that judged it
        value = slow_value(0.0, 1.0, 4, member.record["generation"])
        assert member.fitness.values[0] == pytest.approx(slow_score(member.record, value, config.fallback_weight))
    champion = evolution.champion(runner)
    assert champion is not None and "generation" not in champion.record  # the final games' record
    expected = slow_score(champion.record, Fraction(1), config.fallback_weight)
    assert champion.fitness.values[0] == pytest.approx(expected, abs=1e-12)


def test_a_run_with_a_schedule_differs_from_one_without_and_from_its_own_start_value():
    def bests(**draw) -> list[str]:
        run = Evolution.start(EvolutionConfig(generations=3, **draw, **SETTINGS), get_library(LibraryConfig()))
        run.run(SerialRunner())
        return [json.dumps(row, sort_keys=True) for row in run.logbook]

    scheduled = bests(draw_value=0.0, draw_value_end=1.0)
    assert scheduled != bests(draw_value=0.0) and scheduled != bests(draw_value=1.0)
    assert bests(draw_value=0.5, draw_value_end=0.5) == bests()  # a flat schedule is its value, to the bit


def test_a_stopped_run_with_a_schedule_resumes_bit_identically(tmp_path):
    config = EvolutionConfig(generations=4, draw_value=0.1, draw_value_end=0.6, **SETTINGS)
    straight = train(config, tmp_path / "straight", best_player_copy=None)

    class Stopped(Exception):
        """Stands for a run stopped after a generation (its checkpoint is written before the hook runs)."""

    def stop_after_two(evolution, row):
        if evolution.generation == 2:
            raise Stopped

    with pytest.raises(Stopped):
        train(config, tmp_path / "stopped", best_player_copy=None, on_generation=stop_after_two)
    assert open_run(tmp_path / "stopped").generations_done == 2
    with pytest.raises(RunError, match="draw value schedule rises over its 4 generations"):
        resume(tmp_path / "stopped", generations=6)
    resumed = resume(tmp_path / "stopped")
    assert resumed.trained_now == 2
    for name in FILES:
        text, again = ((folder / name).read_text() for folder in (straight.path, resumed.path))
        if name.endswith(".json"):
            text, again = (
                json.dumps({**json.loads(t), "run": None, "name": None}, sort_keys=True) for t in (text, again)
            )
        assert again == text, name


def exit_code(command: list[str]) -> int:
    """``main``'s exit code, whether it returns it or argparse exits with it (a value that does not parse)."""
    try:
        return main(command)
    except SystemExit as exit_:
        return int(exit_.code or 0)


def test_train_takes_a_schedule_and_refuses_bad_ones_in_one_line(tmp_path, capsys):
    folder = tmp_path / "run"
    command = ["train", "--generations", "2", "--population", "4", "--games", "4", "--final-games", "4"]
    command += ["--workers", "1", "--quiet", "--no-racing", "--accuracy-weight", "0", "--run-dir", str(folder)]
    for bad, message in [
        ("0.25:1.5", "draw_value_end must be between 0 and 1"),
        ("-0.1:0.5", "draw_value must be between 0 and 1"),
        ("0.25:x", "expected X or X:Y (numbers from 0 to 1)"),
        ("0.1:0.2:0.3", "expected X or X:Y"),
        ("0.25:", "expected X or X:Y"),
    ]:
        assert exit_code([*command, f"--draw-value={bad}"]) == 2, bad
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and message in error, error
        assert not folder.exists()
    assert main([*command, "--draw-value", "0.25:0.5", "--filename", str(folder / "p.json")]) == 0
    assert "a draw worth" not in capsys.readouterr().out  # the final choice values a draw at 0.5
    data = json.loads((folder / "config.json").read_text())["evolution"]
    assert (data["draw_value"], data["draw_value_end"]) == (0.25, 0.5)
    for again, message in [
        (["--draw-value", "0.25"], "--draw-value 0.25 (run has 0.25:0.5)"),
        (["--draw-value", "0.25:0.4"], "--draw-value 0.25:0.4 (run has 0.25:0.5)"),
        (["--generations", "3"], "the run's draw value schedule rises over its 2 generations"),
    ]:
        assert main(["train", "--resume", "--run-dir", str(folder), "--quiet", *again]) == 2
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and message in error, error
    assert main(["train", "--resume", "--run-dir", str(folder), "--quiet", "--draw-value", "0.25:0.5"]) == 0
    assert "nothing left to train" in capsys.readouterr().out


def test_train_help_documents_the_schedule(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["train", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "X:Y is a schedule: X at generation 0, rising in a straight line to Y at the last generation" in text
