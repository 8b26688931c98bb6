"""Training as a library: train, resume and open run folders from Python, without the CLI."""

from __future__ import annotations

import json
import pickle

import pytest
from deap import tools

from gpquarto.cli import main
from gpquarto.games.quarto.gp.player import EvolvedPlayer
from gpquarto.runner import make_runner
from gpquarto.training import EvolutionConfig, RunError, open_run, resume, train

TINY = {"population": 6, "games": 4, "opponents": "random:1,novice:1", "seed": 9, "final_games": 6}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    run = train(EvolutionConfig(generations=3, **TINY), folder / "three", best_player_copy=folder / "best.p")
    return folder, run


def test_a_finished_run_opens_with_its_logbook_hall_of_fame_and_best_player(finished):
    folder, run = finished
    assert run.trained_now == 3
    opened = open_run(run.path)
    assert opened.config == EvolutionConfig(generations=3, **TINY)
    assert opened.finished and opened.generations_done == 3
    logbook = opened.logbook()
    assert isinstance(logbook, tools.Logbook)
    assert logbook.select("generation") == [0, 1, 2]
    # a fitness is the game score (0 to 1), less the fallback penalty, plus the weighted accuracy (0 to 1)
    low, high = -opened.config.fallback_weight, 1 + opened.config.accuracy_weight
    assert len(logbook.select("best")) == 3 and all(low <= value <= high for value in logbook.select("best"))
    hall = opened.hall_of_fame()
    assert hall and all(a.fitness.values[0] >= b.fitness.values[0] for a, b in zip(hall, hall[1:], strict=False))
    player = opened.best_player(seed=1)
    assert isinstance(player, EvolvedPlayer)
    assert (folder / "best.p").read_bytes() == (run.path / "best_player.p").read_bytes()
    assert opened.best_player_copy == (folder / "best.p").absolute()


def test_resume_extends_a_run_bit_identically_and_says_when_nothing_is_left(finished, tmp_path):
    straight = train(EvolutionConfig(generations=5, **TINY), tmp_path / "five", best_player_copy=None)
    short = train(EvolutionConfig(generations=3, **TINY), tmp_path / "three", best_player_copy=None)
    extended = resume(short.path, generations=5)
    assert extended.trained_now == 2
    assert open_run(extended.path).logbook() == open_run(straight.path).logbook()
    assert open_run(extended.path).best_player().genome == open_run(straight.path).best_player().genome
    again = resume(short.path)
    assert again.trained_now == 0


def test_same_run_on_processes_as_serial(tmp_path):
    serial = train(EvolutionConfig(generations=2, **TINY), tmp_path / "serial", best_player_copy=None)
    with make_runner(2) as runner:
        parallel = train(
            EvolutionConfig(generations=2, **TINY), tmp_path / "pool", best_player_copy=None, runner=runner
        )
    assert (serial.path / "logbook.csv").read_text() == (parallel.path / "logbook.csv").read_text()
    assert open_run(serial.path).best_player().genome == open_run(parallel.path).best_player().genome


def test_a_run_never_writes_over_another_runs_player(finished, tmp_path):
    folder, _ = finished
    before = (folder / "best.p").read_bytes()
    with pytest.raises(RunError, match="belongs to another run"):
        train(EvolutionConfig(generations=1, **TINY), tmp_path / "other", best_player_copy=folder / "best.p")
    assert not (tmp_path / "other").exists()  # refused before anything was written
    assert (folder / "best.p").read_bytes() == before
    unrelated = tmp_path / "notes.json"
    unrelated.write_text("{}")
    with pytest.raises(RunError, match="belongs to another run"):
        train(EvolutionConfig(generations=1, **TINY), tmp_path / "third", best_player_copy=unrelated)
    assert unrelated.read_text() == "{}"


def test_resume_from_the_cli_copies_where_the_run_was_told_and_refuses_another_file(finished, tmp_path, capsys):
    folder, run = finished
    assert main(["train", "--resume", "--run-dir", str(run.path), "--quiet"]) == 0
    assert "nothing left to train" in capsys.readouterr().out
    assert main(["train", "--resume", "--run-dir", str(run.path), "--filename", str(tmp_path / "x.p")]) == 2
    assert "cannot resume with a different --filename" in capsys.readouterr().err


class Exploit:
    """Unpickling this would run ``touch`` (a tampered checkpoint)."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        import os

        return (os.system, (f"touch {self.marker}",))


def test_a_code_running_checkpoint_is_refused_and_runs_nothing(tmp_path, capsys):
    run = train(EvolutionConfig(generations=1, **TINY), tmp_path / "run", best_player_copy=None)
    marker = tmp_path / "pwned"
    (run.path / "checkpoint.dill").write_bytes(pickle.dumps({"format": Exploit(marker)}))
    assert main(["train", "--resume", "--generations", "2", "--run-dir", str(run.path), "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "checkpoint.dill" in error and "posix.system" in error
    assert not marker.exists()


def test_open_refuses_what_is_not_a_run_folder(tmp_path):
    with pytest.raises(RunError, match="not a run folder"):
        open_run(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"evolution": {"nonsense": 1}}))
    with pytest.raises(RunError, match="unreadable run config"):
        open_run(tmp_path)
