"""The tests' CLI server (:mod:`tests.cli_server`) runs a command as a fresh ``python -m gpquarto`` does: the same
output, exit code and files, from the command's folder, environment and standard input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.cli_server import FRESH
from tests.conftest import CLI_SERVER, run_cli
from tests.test_readme import BLOCKS


def fresh(*args: str, cwd: Path, input_text: str | None = None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "gpquarto", *args],
        input=input_text,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ, PYTHONIOENCODING="utf-8", **env),
        timeout=300,
    )


def same(served: subprocess.CompletedProcess, plain: subprocess.CompletedProcess) -> None:
    assert (served.returncode, served.stdout, served.stderr) == (plain.returncode, plain.stdout, plain.stderr)


def test_a_served_command_answers_as_a_fresh_interpreter(tmp_path):
    served_before = CLI_SERVER.count
    plugin = next(body for language, body in BLOCKS if language == "python" and "@primitive" in body)
    (tmp_path / "my_primitives.py").write_text(plugin)  # the README's plugin
    cases = [
        (("players",), None),
        (("match", "random", "nobody"), None),  # a one-line error, exit code 2
        (("nocommand",), None),  # argparse's error
        (("primitives", "--plugin", "my_primitives.py"), None),  # a file of the working folder
        (("play", "--opponent", "random", "--seed", "1"), "a1\nquit\n"),  # standard input
        (("show", "018F/4.../..../.... 9"), None),
    ]
    for args, input_text in cases:
        same(run_cli(*args, input_text=input_text, cwd=tmp_path), fresh(*args, cwd=tmp_path, input_text=input_text))
    assert CLI_SERVER.count == served_before + len(cases)  # each ran in a child of the server


def test_a_served_command_writes_its_files_and_runs_a_process_pool(tmp_path):
    args = ("match", "random", "random", "--games", "6", "--seed", "3", "--workers", "2", "--save-records", "games")
    for folder in ("served", "plain"):
        (tmp_path / folder).mkdir()
    served, plain = run_cli(*args, cwd=tmp_path / "served"), fresh(*args, cwd=tmp_path / "plain")
    assert served.returncode == plain.returncode == 0, served.stderr + plain.stderr
    listing = {folder: sorted(path.name for path in (tmp_path / folder).rglob("*")) for folder in ("served", "plain")}
    assert listing["served"] == listing["plain"] and listing["served"]


def test_the_environment_is_the_commands_and_a_changed_start_runs_a_fresh_interpreter(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    served_before = CLI_SERVER.count
    monkeypatch.setenv("GPQUARTO_CACHE", str(cache))  # read when used: the child applies it
    done = run_cli("solve", "--game", "quixo", "--size", "3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert list(cache.rglob("solution-3x3-*")) and CLI_SERVER.count == served_before + 1
    monkeypatch.setenv("GPQUARTO_PURE_PYTHON", "1")  # read as gpquarto is imported: a fresh interpreter
    assert run_cli("players", cwd=tmp_path).returncode == 0 and CLI_SERVER.count == served_before + 1
    monkeypatch.delenv("GPQUARTO_PURE_PYTHON")
    monkeypatch.setenv(FRESH, "1")
    assert run_cli("players", cwd=tmp_path).returncode == 0 and CLI_SERVER.count == served_before + 1
