"""``python -m gpquarto grade``, run as a user types it."""

from __future__ import annotations

import json

from tests.conftest import run_cli

SMALL = ("--positions", "12", "--min-empty", "6", "--max-empty", "7", "--seed", "2")


def test_grade_prints_the_table_and_writes_csv_and_png(tmp_path):
    csv_file, png_file = tmp_path / "grade.csv", tmp_path / "grade.png"
    arguments = ("grade", "random", "solver", *SMALL, "--cache-dir", str(tmp_path / "cache"), "--quiet")
    done = run_cli(*arguments, "--csv", str(csv_file), "--png", str(png_file))
    assert done.returncode == 0, done.stderr
    assert "bank: 12 positions (6 choices, 6 placements), 6-7 empty squares, classic rules, seed 2" in done.stdout
    solver_row = next(line for line in done.stdout.splitlines() if line.startswith("solver "))
    assert "100.0%" in solver_row
    assert "random: examples of blunders" in done.stdout
    assert "bank built in" in done.stdout
    assert csv_file.read_text().splitlines()[0].startswith("player,split,group,decisions,correct,accuracy")
    assert png_file.read_bytes()[:4] == b"\x89PNG"
    again = run_cli(*arguments)
    assert again.returncode == 0, again.stderr
    assert "bank read from the cache" in again.stdout


def test_corrupt_cache_warns_in_one_line_and_rebuilds(tmp_path):
    arguments = ("grade", "novice", *SMALL, "--cache-dir", str(tmp_path), "--quiet")
    assert run_cli(*arguments).returncode == 0
    (cached,) = (tmp_path / "banks").iterdir()
    cached.write_text("{not json")
    done = run_cli(*arguments)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("gpquarto: warning:")]
    assert len(warnings) == 1 and "unusable" in warnings[0] and "rebuilding" in warnings[0]
    assert "bank built in" in done.stdout


def test_errors_are_one_line_with_exit_code_2(tmp_path):
    for arguments, expected in [
        (("grade", "nobody", "--cache-dir", str(tmp_path)), "unknown player 'nobody'"),
        (("grade", "random", "--positions", "0"), "--positions"),
        (("grade", "random", "--positions", "many"), "--positions"),
        (("grade", "random", "--min-empty", "9", "--max-empty", "7"), "empty squares"),
        (("grade", "random", "random"), "listed twice"),
        (("grade", "missing_player.p"), "player file not found"),
    ]:
        done = run_cli(*arguments)
        assert done.returncode == 2, (arguments, done.stderr)
        assert expected in done.stderr and len(done.stderr.strip().splitlines()) == 1, (arguments, done.stderr)
    assert not (tmp_path / "banks").exists()  # nothing was built


def test_tournament_grade_adds_an_accuracy_column(tmp_path, monkeypatch):
    monkeypatch.setenv("GPQUARTO_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "out"
    arguments = ("tournament", "random", "solver", "--games", "4", "--workers", "1", "--quiet", "--out", str(out))
    done = run_cli(*arguments, "--grade", "--grade-positions", "10")
    assert done.returncode == 0, done.stderr
    header = done.stdout.splitlines()[1]
    assert header.endswith("accuracy (95% CI)")
    solver_row = next(line for line in done.stdout.splitlines()[2:4] if " solver " in line)
    assert solver_row.endswith("100.0% (72.2%-100.0%)")
    assert "grade.csv" in done.stdout and (out / "grade.csv").read_text().startswith("player,split,group")
    assert len(list((tmp_path / "cache" / "banks").iterdir())) == 1
    assert json.loads((out / "config.json").read_text())["grade_positions"] == 10
