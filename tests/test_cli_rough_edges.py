"""Rough edges a new user hit: output paths checked before the work, no silent overwrite, usual file modes,
plugins accepted wherever players are, a finished run says so."""

from __future__ import annotations

import os
import stat

import pytest

from gpquarto.atomic import write_text_atomic
from gpquarto.cli import main
from gpquarto.jobs import matches
from gpquarto.jobs.matches import run_match
from gpquarto.runner import SerialRunner


def test_output_paths_are_checked_before_any_game(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(["match", "random", "random", "--games", "4", "--save-records", str(blocker), "--quiet"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--save-records" in error and "not a folder" in error
    assert main(["tournament", "random", "novice", "--games", "2", "--out", str(blocker), "--quiet"]) == 2
    assert "--out" in capsys.readouterr().err


def test_a_tournament_does_not_overwrite_earlier_results_unless_asked(tmp_path, capsys):
    out = tmp_path / "results"
    arguments = ["tournament", "random", "novice", "--games", "2", "--workers", "1", "--quiet", "--out", str(out)]
    assert main(arguments) == 0
    before = (out / "ratings.csv").read_text()
    capsys.readouterr()
    assert main(arguments) == 2
    assert "already holds results (use --force" in capsys.readouterr().err
    assert (out / "ratings.csv").read_text() == before
    assert main([*arguments, "--force"]) == 0


def test_written_files_get_the_usual_mode(tmp_path):
    mask = os.umask(0o022)
    try:
        write_text_atomic(tmp_path / "x.txt", "hello")
    finally:
        os.umask(mask)
    mode = stat.S_IMODE((tmp_path / "x.txt").stat().st_mode)
    assert mode == 0o666 & ~mask


def test_commands_that_take_players_take_plugins_and_check_them(tmp_path, capsys):
    plugin = tmp_path / "mine.py"
    plugin.write_text("# no primitive needed unless a saved player uses one\n")
    for command in (["match", "random", "random"], ["tournament", "random", "novice"], ["grade", "random"], ["play"]):
        for given, expected in ((str(tmp_path / "missing.py"), "plugin file not found"), (str(tmp_path), "not found")):
            try:
                main([*command, "--plugin", given])
            except SystemExit as exit:
                assert exit.code == 2
            error = capsys.readouterr().err
            assert expected in error and error.count("\n") == 1, (command, error)


def one_line_error(capsys) -> str:
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("gpquarto: error: "), error
    return error


def test_absurd_sizes_are_refused_in_one_line_before_any_work(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the tournament's default --out folder is runs/ of the current folder
    assert main(["match", "random", "random", "--games", "1000000000000", "--quiet"]) == 2
    assert "games must be 0 to 1,000,000,000 per match" in one_line_error(capsys)
    assert main(["tournament", "random", "novice", "--games", "1000000000000", "--quiet", "--workers", "1"]) == 2
    assert "per match" in one_line_error(capsys)
    assert main(["experiment", "--seeds", "100000000000000", "--out", str(tmp_path / "exp")]) == 2
    assert "at most 10,000 seeds" in one_line_error(capsys)
    assert not (tmp_path / "exp").exists()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("minimax:depth=99999999999999999999", "parameter depth must be 1 to 16"),
        ("minimax:depth=17", "parameter depth must be 1 to 16"),
        ("frontier:depth=1000", "parameter depth must be 1 to 16"),
        ("mcts:iterations=99999999999999999", "parameter iterations must be 1 to 10,000,000"),
        ("mcts:time=1e300", "parameter time must be 0 to 3,600"),
    ],
)
def test_player_parameters_are_capped_at_what_the_game_allows(spec, message, capsys):
    assert main(["match", spec, "random", "--games", "2", "--quiet"]) == 2
    assert message in one_line_error(capsys)


def test_a_long_match_is_made_task_by_task_in_bounded_chunks_with_the_same_result(monkeypatch):
    seen = []

    class Spy(SerialRunner):
        def map(self, function, items, **options):
            seen.append(len(items))
            return super().map(function, items, **options)

    whole = run_match("random", "novice", 40, seed=3, runner=SerialRunner())
    monkeypatch.setattr(matches, "MAX_SLICE", 2)
    monkeypatch.setattr(matches, "CHUNK_TASKS", 3)
    chunked = run_match("random", "novice", 40, seed=3, runner=Spy())
    assert seen == [3] * 6 + [2] and sum(seen) == 20
    assert (chunked.wins, chunked.draws, chunked.losses) == (whole.wins, whole.draws, whole.losses)


def test_a_port_out_of_range_and_a_missing_compare_module_are_one_line(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["serve", "--port", "70000"])
    assert exit.value.code == 2
    assert "expected a number from 0 to 65535, got 70000" in capsys.readouterr().err
    for command in (["bench", "solver", "--empties", "8"], ["bench", "players", "--players", "random"]):
        assert main([*command, "--positions", "1", "--compare", "nosuchmodule"]) == 2
        assert "--compare nosuchmodule: cannot import it" in one_line_error(capsys)
    assert main(["bench", "solver", "--empties", "8", "--positions", "1", "--compare", "json"]) == 2
    assert "has no solve(board)" in one_line_error(capsys)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["watch", "random", "random", "--delay", "inf"], "argument --delay: expected a finite number, got inf"),
        (["watch", "random", "random", "--delay", "nan"], "argument --delay: expected a finite number, got nan"),
        (["watch", "random", "random", "--delay", "1e300"], "argument --delay: expected at most 86,400 seconds"),
        (["watch", "random", "random", "--delay", "-1"], "argument --delay: expected a number >= 0, got -1"),
        (["match", "random", "random", "--time-limit", "inf"], "argument --time-limit: expected a finite number"),
        (["match", "random", "random", "--time-limit", "1e9"], "argument --time-limit: expected at most 86,400"),
        (["bench", "players", "--seconds", "inf"], "argument --seconds: expected a finite number, got inf"),
        (["serve", "--time-limit", "nan"], "argument --time-limit: expected a finite number, got nan"),
    ],
)
def test_bad_numbers_are_one_line_errors_before_any_work(arguments, message, capsys):
    with pytest.raises(SystemExit) as exit:
        main(arguments)
    assert exit.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and message in error, error
