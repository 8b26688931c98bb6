"""Rough edges a new user hit: output paths checked before the work, no silent overwrite, usual file modes,
plugins accepted wherever players are, a finished run says so."""

from __future__ import annotations

import os
import stat

from gpquarto.atomic import write_text_atomic
from gpquarto.cli import main


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
