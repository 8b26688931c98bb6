"""Every command and code example in the README works as written.

Each ``python -m gpquarto ...`` line of the README's shell blocks is run: as written, or, for a line the
README marks ``# long``, as its small variant (``SMALL`` below, the sizes the README gives). A long line
with no small variant fails the test, and so does a line naming no registered command. Everything runs
in one folder per test process, as a reader following the tutorial would: a small ``train`` first makes
``runs/default`` and ``best_player.p``. ``serve`` is started on a free port, asked for ``/`` and stopped;
the Dask cluster lines run on a real scheduler and worker on 127.0.0.1.
"""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from gpquarto.cli import build_parser
from tests.conftest import REPO, run_cli

README = (REPO / "README.md").read_text()
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", README, flags=re.DOTALL)
SCHEDULER = "tcp://HEAD:8786"

#: The Quick start's training command, in its small size: the tutorial fixture runs it, every other command after it.
FIRST = "train --generations 2 --population 6 --games 4 --final-games 10 --workers 1"

#: A long README command -> the small variant the test runs (the sizes the README gives for it).
SMALL = {
    "train --generations 120": FIRST,
    "train --generations 120 --run-dir runs/second --filename second_player.p": (
        f"{FIRST} --run-dir runs/small --filename small_player.p"
    ),
    "train --generations 120 --no-tactical --run-dir runs/basic --filename basic_player.p": (
        "train --generations 2 --population 6 --games 4 --final-games 10 --workers 1 --no-tactical "
        "--run-dir runs/basic --filename basic_player.p"
    ),
    "match best_player.p random --games 2000 --workers 2": "match best_player.p random --games 100 --workers 2",
    "tournament random novice minimax:depth=1 minimax:depth=2 frontier mcts --games 200 --seed 1": (
        "tournament random novice best_player.p --games 10 --seed 1"
    ),
    "serve --port 8000": "serve --port 0",
    f"train --scheduler {SCHEDULER} --generations 120 --run-dir runs/cluster --filename cluster_player.p": (
        f"train --scheduler {SCHEDULER} --generations 2 --population 6 --games 4 --final-games 10 "
        "--run-dir runs/cluster --filename cluster_player.p"
    ),
    f"experiment --scheduler {SCHEDULER} --seeds 10 --set generations=60": (
        f"experiment --scheduler {SCHEDULER} --seeds 2 --set generations=2 --set population=6 --set games=4 "
        "--set final_games=0 --eval-games 4 --against random --out runs/cluster-experiment"
    ),
    "experiment --seeds 5 --set generations=30 --variant basic --set tactical=false --variant tactical": (
        "experiment --seeds 2 --set generations=2 --set population=6 --set games=4 --set final_games=0 "
        "--eval-games 4 --against random --workers 1 --variant basic --set tactical=false --variant tactical"
    ),
    "match examples/players/trap_setter.json minimax:depth=2 --games 1000 --seed 1": (
        "match examples/players/trap_setter.json minimax:depth=2 --games 10 --seed 1"
    ),
    "grade examples/players/reply_counter.json minimax:depth=3": (
        "grade examples/players/reply_counter.json minimax:depth=3 --positions 20 --max-empty 7"
    ),
    "bench engine": "bench engine --repeats 1 --seconds 0.1",
    "bench players": "bench players --repeats 1 --seconds 0.1",
    "bench train": "bench train --repeats 1 --set population=10 --set games=8",
    "tournament random minimax alphabeta:depth=2 alphabeta:depth=4 mcts --game quixo --games 50 --seed 0 --workers 2 "
    "--out runs/quixo-tournament": "tournament random minimax alphabeta:depth=2 --game quixo --games 4 --seed 0 "
    "--out runs/quixo-tournament-small",
    "grade random alphabeta:depth=1 alphabeta:depth=2 solver --game quixo --positions 300": (
        "grade random alphabeta:depth=1 solver --game quixo --size 3 --positions 40"
    ),
    "bench engine --game quixo --compare tests.reference": (
        "bench engine --game quixo --repeats 1 --seconds 0.1 --compare tests.reference"
    ),
    "bench players --game quixo": "bench players --game quixo --positions 2",
    "bench learn --game quixo": "bench learn --game quixo --methods td-ntuple --episodes 10 --repeats 1",
    "grade best_player.p novice minimax:depth=2 --positions 300 --seed 1 --csv grade.csv --png grade.png": (
        "grade best_player.p novice minimax:depth=2 --positions 20 --max-empty 7 --seed 1 --csv grade.csv --png grade.png"
    ),
}

#: README commands a test cannot run, and why.
SKIPPED: dict[str, str] = {}

#: README commands that fail because of a known gpquarto bug: the start of the error, and the bug. Each is
#: run; it must fail so (an expected failure) until the bug is fixed, and then this entry must go.
KNOWN_BUGS: dict[str, tuple[str, str]] = {}

#: Standard input for the interactive commands.
INPUT = {"play": "quit\n"}


def readme_lines() -> list[tuple[str, str]]:
    """(command after ``python -m gpquarto``, its comment) per README line."""
    lines = []
    for language, body in BLOCKS:
        if language:
            continue
        for line in body.splitlines():
            command, _, comment = line.partition("  #")
            for part in command.split("&&"):
                words = shlex.split(part)
                if words[:3] in (["python", "-m", "gpquarto"], ["python3", "-m", "gpquarto"]):
                    lines.append((shlex.join(words[3:]), comment.strip()))
    return lines


def gpquarto_commands() -> list[list[str]]:
    """The arguments of every ``python -m gpquarto ...`` line in the README's shell blocks."""
    return [shlex.split(command) for command, _ in readme_lines()]


def registered_commands() -> set[str]:
    (subparsers,) = [action for action in build_parser()._actions if action.dest == "command"]
    return set(subparsers.choices)


def check_registered(arguments: list[str]) -> None:
    assert arguments[0] in registered_commands(), f"README command {arguments[0]!r} is not a gpquarto command"


def test_readme_shows_many_commands():
    assert len(gpquarto_commands()) >= 12


@pytest.mark.parametrize("command, comment", readme_lines(), ids=lambda value: str(value)[:60])
def test_every_readme_command_is_accepted_by_the_cli(command, comment, tutorial, monkeypatch):
    arguments = shlex.split(command)
    check_registered(arguments)
    monkeypatch.chdir(tutorial)  # where the tutorial's files are (a plugin file is checked when given)
    args = build_parser().parse_args(arguments)
    assert callable(args.handler)


def test_every_long_command_has_a_small_variant_or_a_reason():
    commands = {command: comment for command, comment in readme_lines()}
    for command, comment in commands.items():
        if comment.startswith("long"):
            assert command in SMALL, f"README command marked long has no small variant in SMALL: {command}"
            assert SMALL[command] or command in SKIPPED, f"no small variant and no reason: {command}"
    stale = [command for command in [*SMALL, *SKIPPED, *KNOWN_BUGS] if command not in commands]
    assert not stale, f"SMALL/SKIPPED name commands the README no longer shows: {stale}"
    assert SMALL.get("train --generations 120") == FIRST and "train --generations 120" in commands, (
        "the tutorial starts where the Quick start's training command leaves it, in the small size of FIRST"
    )


def test_ci_runs_the_readme_install_and_test_commands():
    def after(marker: str) -> str:
        return re.search(r"```\n(.*?)\n```", README[README.index(f"<!-- {marker} -->") :]).group(1)

    assert after("test-install") == 'python3 -m pip install -e ".[test,distributed,web,fast,openspiel]"'
    assert after("test-command") == "python3 -m pytest -q -n auto"
    ci = subprocess.run(
        ["bash", "-c", "source <(sed -n '/^readme_command()/,/^}/p' .ci/run); readme_command test-install; "
         "readme_command test-command"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    assert ci == [after("test-install"), after("test-command")]  # what CI extracts is what the README says
    run = (REPO / ".ci" / "run").read_text()
    assert run.index('bash -c "$install_command"') < run.index('bash -c "$test_command"')


# --------------------------------------------------------------------------- running the tutorial
@pytest.fixture(scope="module")
def tutorial(tmp_path_factory) -> Path:
    """A folder where the tutorial's first command ran: ``runs/default`` and ``best_player.p``, and the
    README's plugin file saved as ``my_primitives.py``."""
    folder = tmp_path_factory.mktemp("tutorial")
    result = run_cli(*shlex.split(FIRST), "--quiet", cwd=folder)
    assert result.returncode == 0, result.stderr
    assert (folder / "best_player.p").is_file() and (folder / "runs" / "default").is_dir()
    plugin = next(body for language, body in BLOCKS if language == "python" and "@primitive" in body)
    (folder / "my_primitives.py").write_text(plugin)
    (folder / "examples").symlink_to(REPO / "examples")  # the README's example players, read where they are
    return folder


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """A Dask scheduler and one worker on 127.0.0.1 (the cluster of tests/test_dask.py)."""
    from tests.test_dask import Cluster

    folder = tmp_path_factory.mktemp("cluster")
    cluster = Cluster(folder)
    cluster.add_worker("w1")
    try:
        cluster.wait_for_workers(1)
        yield cluster
    finally:
        cluster.stop()


def serve_once(arguments: list[str], cwd: Path) -> None:
    """Start ``serve`` (on the port the arguments give: 0 picks a free one), fetch ``/`` and stop it with Ctrl-C."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gpquarto", *arguments],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        found = re.search(r"http://\S+/", line)
        assert found, (
            f"serve printed no address: {line!r} {process.stderr.read() if process.poll() is not None else ''}"
        )
        with urllib.request.urlopen(found.group(0), timeout=60) as response:
            assert response.status == 200 and b"<html" in response.read().lower()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)


@pytest.mark.parametrize("command, comment", readme_lines(), ids=lambda value: str(value)[:60])
def test_readme_command_runs(command, comment, tutorial, request):
    arguments = shlex.split(command)
    check_registered(arguments)
    if command in SKIPPED:
        pytest.skip(SKIPPED[command])
    commands = [line for line, _ in readme_lines()]
    if FIRST in (command, SMALL.get(command)) or (command in SMALL and SMALL[command] in commands):
        return  # the tutorial fixture ran it (the Quick start's run), or its small variant is a README line of its own
    arguments = shlex.split(SMALL.get(command) or command)
    if arguments[0] == "serve":
        serve_once(arguments, tutorial)
        return
    if SCHEDULER in arguments:
        cluster = request.getfixturevalue("dask_cluster")
        arguments = [cluster.address if word == SCHEDULER else word for word in arguments]
    if arguments[0] in ("train", "experiment", "tournament", "match"):
        arguments.append("--quiet")
    if "quixo" in command:  # e.g. show grades 4x4 decisions: the session's solution, not one solved again
        request.getfixturevalue("quixo_4x4_solution")
    # ``--compare tests.reference`` imports the tests of a source checkout; everything else runs (and writes)
    # in the tutorial folder, never in the checkout.
    folder = REPO if "tests.reference" in arguments else tutorial
    result = run_cli(*arguments, input_text=INPUT.get(arguments[0]), cwd=folder)
    if command in KNOWN_BUGS:
        error, bug = KNOWN_BUGS[command]
        assert result.returncode != 0, f"fixed? remove this command from KNOWN_BUGS: {command}"
        assert result.stderr.startswith(error), result.stderr[-2000:]
        pytest.xfail(f"gpquarto bug: {bug}")
    assert result.returncode == 0, (arguments, result.stderr[-2000:])
    assert result.stdout.strip(), arguments
    if command == cluster_commands()[-1]:
        request.getfixturevalue("dask_cluster").stop()  # no other command uses it: it would only tick idly


def cluster_commands() -> list[str]:
    """The README commands that run on the Dask cluster, in order."""
    return [command for command, _ in readme_lines() if SCHEDULER in (SMALL.get(command) or command)]


def test_python_examples_run(tutorial, monkeypatch):
    monkeypatch.chdir(tutorial)
    examples = [body for language, body in BLOCKS if language == "python" and "@primitive" not in body]
    assert len(examples) >= 4
    for body in examples:
        exec(compile(body, "README.md", "exec"), {})


def test_plugin_example_loads(tutorial):
    result = run_cli("primitives", "--plugin", "my_primitives.py", cwd=tutorial)
    assert result.returncode == 0, result.stderr
    assert "centre_square" in result.stdout
