"""End to end: train a tiny run, kill -9 it, resume, and get exactly the uninterrupted run; then use the player."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from gpquarto.cli import main
from gpquarto.gp.storage import load_player
from tests.conftest import run_cli

TINY = [
    "--generations",
    "8",
    "--population",
    "8",
    "--games",
    "6",
    "--opponents",
    "random:1",
    "--seed",
    "21",
    "--final-games",
    "10",
    "--workers",
    "1",
    "--quiet",
]
OUTPUTS = ("logbook.csv", "hall_of_fame.txt", "best_player.json", "best_player.simplified.json", "config.json")


def without_run_identity(path: Path) -> str:
    """The file's text, less what names the run (its id and folder): the rest must match byte for byte."""
    if path.suffix != ".json":
        return path.read_text()
    data = json.loads(path.read_text())
    for key in ("run", "run_id", "best_player_copy"):
        data.pop(key, None)
    return json.dumps(data, sort_keys=True)


def train_command(run_dir: Path, *extra: str) -> list[str]:
    """The tiny run in four generations: enough to stop it after the first and resume the other three."""
    return [
        sys.executable,
        "-m",
        "gpquarto",
        "train",
        *TINY,
        "--generations",
        "4",
        "--run-dir",
        str(run_dir),
        "--filename",
        str(run_dir / "best.p"),
        *extra,
    ]


def test_interrupted_and_resumed_run_matches_an_uninterrupted_one(tmp_path, capsys):
    straight = tmp_path / "straight"
    done = run_cli(*train_command(straight)[3:])
    assert done.returncode == 0, done.stderr

    broken = tmp_path / "broken"
    process = subprocess.Popen(train_command(broken), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not (broken / "logbook.csv").exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert (broken / "checkpoint.dill").exists()
    assert not (broken / "best_player.p").exists(), "the run finished before it could be interrupted"

    again = run_cli(*train_command(broken)[3:], timeout=60)
    assert again.returncode == 2
    assert "holds an unfinished run" in again.stderr and "continue it with --resume" in again.stderr
    other = run_cli(*train_command(broken, "--resume", "--games", "8")[3:], timeout=60)
    assert other.returncode == 2 and "cannot resume with a different config: --games 8 (run has 6)" in other.stderr
    done = run_cli(*train_command(broken, "--resume")[3:])
    assert done.returncode == 0, done.stderr

    for name in OUTPUTS:
        assert without_run_identity(broken / name) == without_run_identity(straight / name), name
    assert (broken / "fitness.png").stat().st_size > 0
    assert (broken / "best.p").read_bytes() == (broken / "best_player.p").read_bytes()

    player = str(broken / "best_player.p")
    assert main(["show", player]) == 0
    shown = capsys.readouterr().out
    assert "choose rules:" in shown and "1. if " in shown and "fitness: score" in shown
    # show prints the simplified form kept beside the player (best_player.simplified.json); --original the player
    for extra, shown_file in (((), "best_player.simplified.json"), (("--original",), "best_player.json")):
        assert main(["show", str(broken / "best_player.json"), "--dot", *extra]) == 0
        dot = capsys.readouterr().out
        genome = load_player(broken / shown_file).genome
        assert dot.startswith("digraph player {") and dot.rstrip().endswith("}")
        assert dot.count(" -> ") == genome.size  # every tree node hangs under its parent or its rule's if/then
        assert dot.count("subgraph cluster_") == len(genome.choose_rules) + len(genome.place_rules)
    assert main(["match", player, "random", "--games", "4", "--quiet"]) == 0
    assert "random" in capsys.readouterr().out


def test_show_and_train_report_bad_input_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.p"
    bad.write_bytes(b"\x80\x04junk")
    assert main(["show", str(bad)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "bad.p" in error
    assert main(["train", "--run-dir", str(tmp_path / "none"), "--resume", "--quiet"]) == 2
    assert "nothing to resume" in capsys.readouterr().err
    assert main(["train", "--run-dir", str(tmp_path / "odd"), "--games", "5", "--quiet"]) == 2
    assert "positive even number" in capsys.readouterr().err
    tiny = ["--generations", "0", "--population", "4", "--games", "2", "--final-games", "0", "--workers", "1"]
    assert main(["train", "--run-dir", str(tmp_path / "inf"), "--fallback-weight", "inf", "--quiet", *tiny]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "fallback_weight must be a finite number" in error
    assert not (tmp_path / "inf").exists()


def test_the_hall_of_fame_holds_one_member_per_generation_unless_told(tmp_path):
    generations = {}  # runs without the accuracy term, which these places do not need
    for option in ("", "--no-hall-of-fame-per-generation"):
        run_dir = tmp_path / (option or "default")
        options = [*TINY, "--accuracy-weight", "0", "--run-dir", str(run_dir), "--filename", str(run_dir / "best.p")]
        assert main(["train", *options, *([option] if option else [])]) == 0
        saved = json.loads((run_dir / "config.json").read_text())["evolution"]
        assert saved["hall_of_fame_per_generation"] is not bool(option)
        headers = [line for line in (run_dir / "hall_of_fame.txt").read_text().splitlines() if line.startswith("# ")]
        generations[option] = [line.split(" in generation ")[1].split(":")[0] for line in headers]
    assert len(generations[""]) == 8 and len(set(generations[""])) == 8  # eight generations, ten places: one each
    plain = generations["--no-hall-of-fame-per-generation"]
    assert len(plain) == 10 and len(set(plain)) < 8


def test_pooled_fitness_and_the_training_bank_depth_are_set_from_the_command_line(tmp_path):
    run_dir = tmp_path / "pooled"
    options = [*TINY, "--run-dir", str(run_dir), "--filename", str(run_dir / "best.p")]
    extra = ["--pooled-fitness", "--accuracy-max-empties", "7", "--accuracy-positions", "10"]
    assert main(["train", *options, *extra]) == 0
    saved = json.loads((run_dir / "config.json").read_text())["evolution"]
    assert saved["pooled_fitness"] is True and saved["accuracy_max_empties"] == 7
    headers = [line for line in (run_dir / "hall_of_fame.txt").read_text().splitlines() if line.startswith("# ")]
    pooled = [line for line in headers if "generations' games" in line]
    assert pooled, "an elite lived on, and its member says over how many generations its mean runs"
    for line in pooled:
        count = int(line.split(", the mean of ")[1].split(" ")[0])
        wins, draws, losses = (int(line.split(f" {word}")[0].rsplit(" ", 1)[1]) for word in ("wins", "draws", "losses"))
        assert wins + draws + losses == 6 * count  # six games a generation, all of them counted
