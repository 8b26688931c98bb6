"""Nothing is written through a link in a run folder: a run folder is something people share, so its lock file
is opened without following links (a link of either kind is refused in one line) and every other file is
replaced atomically, which puts a new file where a link was instead of writing into the link's target. And one
process at a time works in a learning run folder, as in a training one."""

from __future__ import annotations

import os

import pytest

from gpquarto.cli import main
from gpquarto.folder_lock import FolderInUse, LockFileRefused, folder_lock
from gpquarto.learning import LearnConfig, learn
from gpquarto.learning import resume as resume_learning
from gpquarto.training import EvolutionConfig, open_run, train

TINY = {"population": 6, "games": 4, "opponents": "random:1", "seed": 8, "final_games": 4, "accuracy_weight": 0.0}
NOTES = "my notes: not to be written by gpquarto\n"


@pytest.fixture
def trained(tmp_path):
    return train(EvolutionConfig(generations=1, **TINY), tmp_path / "run", best_player_copy=None)


@pytest.fixture
def notes(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text(NOTES)
    return path


def resume_command(run) -> list[str]:
    return ["train", "--resume", "--generations", "2", "--run-dir", str(run.path), "--quiet", "--workers", "1"]


@pytest.mark.parametrize("link", [os.symlink, os.link], ids=["symbolic", "hard"])
def test_a_lock_file_that_is_a_link_is_refused_and_its_target_untouched(trained, notes, link, capsys):
    lock = trained.path / "train.lock"
    lock.unlink(missing_ok=True)
    link(notes, lock)
    assert main(resume_command(trained)) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"{lock} is a link or not a plain file" in error
    assert notes.read_text() == NOTES
    assert open_run(trained.path).generations_done == 1
    lock.unlink()
    assert main(resume_command(trained)) == 0 and open_run(trained.path).generations_done == 2


def test_a_dangling_link_or_a_folder_as_the_lock_is_refused(tmp_path):
    (tmp_path / "train.lock").symlink_to(tmp_path / "nowhere.txt")
    with pytest.raises(LockFileRefused, match="is a link or not a plain file"):
        with folder_lock(tmp_path):
            pass
    assert not (tmp_path / "nowhere.txt").exists()
    (tmp_path / "train.lock").unlink()
    (tmp_path / "train.lock").mkdir()
    with pytest.raises(LockFileRefused):
        with folder_lock(tmp_path):
            pass


def test_run_files_that_are_links_are_replaced_not_written_through(trained, notes, tmp_path):
    targets = {}
    for name in ("logbook.csv", "hall_of_fame.txt", "checkpoint.dill", "finished.json", "best_player.json"):
        target = tmp_path / f"target-{name}"
        target.write_bytes((trained.path / name).read_bytes())
        targets[name] = target.read_bytes()
        (trained.path / name).unlink()
        (trained.path / name).symlink_to(target)
    (trained.path / "fitness.png").unlink()
    (trained.path / "fitness.png").symlink_to(notes)
    assert main(resume_command(trained)) == 0
    assert notes.read_text() == NOTES
    for name, before in targets.items():
        assert (tmp_path / f"target-{name}").read_bytes() == before, name
        assert not (trained.path / name).is_symlink(), name
    assert open_run(trained.path).generations_done == 2 and open_run(trained.path).finished


LEARN = LearnConfig(episodes=20, batch=10, seed=1, opponents="random", eval_games=0)


def test_a_learning_run_folder_takes_one_process_at_a_time(tmp_path, notes):
    folder = tmp_path / "learn"
    folder.mkdir()
    with folder_lock(folder, "learn.lock", "learning"):  # another learn working in the folder
        with pytest.raises(FolderInUse, match=f"process {os.getpid()} is learning in it"):
            learn(LEARN, folder)
    assert sorted(item.name for item in folder.iterdir()) == ["learn.lock"]
    learn(LEARN, folder)
    with folder_lock(folder, "learn.lock", "learning"):
        with pytest.raises(FolderInUse, match="is learning in it"):
            resume_learning(folder, episodes=30)
    (folder / "learn.lock").unlink()
    (folder / "learn.lock").symlink_to(notes)
    with pytest.raises(LockFileRefused):
        resume_learning(folder, episodes=30)
    assert notes.read_text() == NOTES
