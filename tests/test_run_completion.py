""" "Finished" means every output was written: a completion mark comes last, a resume completes whatever is
missing, and output paths are checked before any training."""

from __future__ import annotations

import errno
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpquarto.atomic import write_bytes_atomic
from gpquarto.cli import main
from gpquarto.folder_lock import folder_lock
from gpquarto.gp import storage
from gpquarto.training import EvolutionConfig, RunError, open_run, resume, train
from gpquarto.training.evolution import Evolution

TINY = {"population": 6, "games": 4, "opponents": "random:1", "seed": 8, "final_games": 6, "accuracy_weight": 0.0}
TINY_CLI = [
    "--population", "6", "--games", "4", "--opponents", "random:1", "--seed", "8", "--final-games", "6",
    "--accuracy-weight", "0", "--workers", "1", "--quiet",
]  # fmt: skip

#: A stand-in for a train process at work: it holds the run folder's lock until it is killed.
HOLD_LOCK = """
import sys, time
from gpquarto.folder_lock import folder_lock
with folder_lock(sys.argv[1]):
    print("locked", flush=True)
    time.sleep(120)
"""


def one_line_error(capsys) -> str:
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("gpquarto: error: "), error
    return error


def test_a_run_killed_while_its_champion_is_chosen_is_not_finished_and_resume_completes_it(
    tmp_path, monkeypatch, capsys
):
    straight = train(EvolutionConfig(generations=3, **TINY), tmp_path / "straight", best_player_copy=None)
    extended = train(EvolutionConfig(generations=2, **TINY), tmp_path / "extended", best_player_copy=tmp_path / "x.p")
    assert open_run(extended.path).finished and (extended.path / "finished.json").is_file()

    def killed(self, runner):
        raise KeyboardInterrupt  # as a kill -9 would: nothing after this point is written

    with monkeypatch.context() as patch:
        patch.setattr(Evolution, "champion", killed)
        with pytest.raises(KeyboardInterrupt):
            resume(extended.path, generations=3)
    run = open_run(extended.path)
    assert run.generations_done == 3 and not run.finished  # the best player of 2 generations is stale
    assert main(["train", "--resume", "--run-dir", str(extended.path), "--quiet", "--workers", "1"]) == 0
    assert "nothing left to train" not in capsys.readouterr().out
    run = open_run(extended.path)
    assert run.finished and run.best_player().genome == open_run(straight.path).best_player().genome
    assert (tmp_path / "x.p").read_bytes() == (extended.path / "best_player.p").read_bytes()
    assert main(["train", "--resume", "--run-dir", str(extended.path), "--quiet"]) == 0
    assert "nothing left to train" in capsys.readouterr().out


def test_a_full_disk_names_the_file_says_how_to_resume_and_resume_completes_the_run(tmp_path, monkeypatch, capsys):
    run_dir, copy = tmp_path / "run", tmp_path / "copy.p"

    def full_disk(path, data):
        if Path(path).name == "best_player.json":
            raise OSError(errno.ENOSPC, f"cannot write {path}: No space left on device")
        write_bytes_atomic(path, data)

    with monkeypatch.context() as patch:
        patch.setattr(storage, "write_bytes_atomic", full_disk)
        arguments = ["train", "--generations", "2", *TINY_CLI, "--run-dir", str(run_dir), "--filename", str(copy)]
        assert main(arguments) == 2
    error = one_line_error(capsys)
    assert "best_player.json: No space left on device" in error and f"--resume --run-dir {run_dir}" in error
    assert (run_dir / "best_player.p").is_file() and not copy.exists()
    assert not open_run(run_dir).finished
    assert main(["train", "--resume", "--run-dir", str(run_dir), "--quiet", "--workers", "1"]) == 0
    assert open_run(run_dir).finished and copy.read_bytes() == (run_dir / "best_player.p").read_bytes()
    mark = json.loads((run_dir / "finished.json").read_text())
    assert mark["generations"] == 2 and set(mark["outputs"]) >= {"best_player.p", "best_player.json", str(copy)}


def test_an_output_removed_after_the_end_makes_the_run_unfinished_until_resumed(tmp_path):
    run = train(EvolutionConfig(generations=1, **TINY), tmp_path / "run", best_player_copy=None)
    (run.path / "best_player.json").unlink()
    assert not open_run(run.path).finished
    assert resume(run.path).trained_now == 0 and open_run(run.path).finished
    assert (run.path / "best_player.json").is_file()


@pytest.mark.parametrize(
    ("filename", "message"),
    [
        ("out.txt", "the best player's copy must end in .p or .json"),
        ("missing/best.p", "does not exist (create it, or choose another file)"),
        ("/proc/self/best.p", "/proc/self/best.p: "),
        ("/proc/nonexistent/best.p", "does not exist"),
    ],
)
def test_output_paths_are_checked_before_training(tmp_path, capsys, monkeypatch, filename, message):
    monkeypatch.chdir(tmp_path)
    arguments = ["train", "--generations", "1", *TINY_CLI, "--run-dir", str(tmp_path / "run"), "--filename", filename]
    assert main(arguments) == 2
    assert message in one_line_error(capsys)
    assert not (tmp_path / "run").exists() and not (tmp_path / "missing").exists()


def test_a_run_folder_that_cannot_be_written_or_no_generation_is_refused_before_training(tmp_path, capsys):
    for run_dir in ("/proc/self/run", "/proc/gpquarto-run"):
        assert main(["train", "--generations", "1", *TINY_CLI, "--run-dir", run_dir]) == 2
        assert "cannot write in" in one_line_error(capsys)
    assert main(["train", "--generations", "0", *TINY_CLI, "--run-dir", str(tmp_path / "zero")]) == 2
    assert "a new run trains 1 generation or more" in one_line_error(capsys)
    assert not (tmp_path / "zero").exists()
    with pytest.raises(RunError, match="1 generation or more"):
        train(EvolutionConfig(generations=0, **TINY), tmp_path / "zero")


def test_an_atomic_write_that_fails_names_the_file(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(OSError, match=f"cannot write {blocker / 'x.p'}"):
        write_bytes_atomic(blocker / "x.p", b"data")


def test_a_second_train_process_on_the_same_run_folder_is_refused_and_a_dead_one_leaves_no_lock(tmp_path, capsys):
    run = train(EvolutionConfig(generations=1, **TINY), tmp_path / "run", best_player_copy=None)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(run.path)], stdout=subprocess.PIPE, text=True
    )  # another train process, working in the folder
    try:
        assert holder.stdout.readline().strip() == "locked"
        resume_arguments = ["train", "--resume", "--generations", "2", "--run-dir", str(run.path), "--quiet"]
        assert main([*resume_arguments, "--workers", "1"]) == 2
        assert f"is in use: process {holder.pid} is training in it" in one_line_error(capsys)
        assert open_run(run.path).generations_done == 1
    finally:
        holder.kill()  # a kill -9: the lock goes with the process
        holder.wait()
    assert (run.path / "train.lock").exists()
    assert main([*resume_arguments, "--workers", "1"]) == 0
    assert open_run(run.path).generations_done == 2 and open_run(run.path).finished


def test_a_new_run_started_meanwhile_in_the_same_folder_is_refused(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    with folder_lock(folder):
        with pytest.raises(ValueError, match="is in use"):
            train(EvolutionConfig(generations=1, **TINY), folder, best_player_copy=None)
    assert sorted(item.name for item in folder.iterdir()) == ["train.lock"]
