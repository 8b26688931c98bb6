"""Connect Four, a game from outside the tree (``examples/connect-four``), installed with pip as a user would: its
own tests pass where it is installed, and gpquarto's commands play it with no change to gpquarto.

One fresh virtual environment for the module: gpquarto's wheel and the package installed in it (without
dependencies, borrowed from this interpreter; pip fetches the package's build backend from its cache or the package
index). This interpreter never sees Connect Four: every command runs in that environment.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.cli_server import CliServer
from tests.helpers import REPO, installed_package_environment, isolated_environment, run_checked

EXAMPLE = REPO / "examples" / "connect-four"
SMALL = ("--game", "connect_four", "--rows", "4", "--columns", "5")


@pytest.fixture(scope="module")
def environment(tmp_path_factory, gpquarto_wheel):
    """(python, a working folder outside the checkout, the environment variables) with the package installed."""
    folder = tmp_path_factory.mktemp("connect-four-package")
    # pip builds in the project's folder (build/, *.egg-info): a copy, never the checkout
    example = shutil.copytree(
        EXAMPLE, folder / EXAMPLE.name, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    python, _ = isolated_environment(folder / "venv", gpquarto_wheel, example, offline=False)
    work = folder / "work"
    work.mkdir()
    SERVERS[python] = CliServer(work, python)
    yield python, work, installed_package_environment()
    SERVERS.pop(python).close()


#: The CLI server of the environment's python (see :mod:`tests.cli_server`): its commands run in its children.
SERVERS: dict[Path, CliServer] = {}


def gpquarto(environment, *args: str, input: str | None = None) -> str:
    """The output of ``python -m gpquarto ARGS`` in the environment (asserting it succeeded)."""
    python, work, env = environment
    result = SERVERS[python].run(list(args), input, work, env, 300) or subprocess.run(
        [str(python), "-m", "gpquarto", *args], input=input, cwd=work, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, (
        f"gpquarto {' '.join(args)} failed:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    )
    return result.stdout


def gpquarto_error(environment, *args: str) -> str:
    """The one-line error of a command that must fail (exit status 2)."""
    python, work, env = environment
    result = subprocess.run(
        [str(python), "-m", "gpquarto", *args], cwd=work, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_this_interpreter_does_not_see_the_game():
    from gpquarto.games.registry import game_names

    assert "connect_four" not in game_names()


def test_the_package_tests_pass_where_it_is_installed(environment, tmp_path):
    python, _, env = environment
    env = dict(env, CONNECT_FOUR_TEST_SCALE="0.1")  # a tenth of the random games: the suite's time is shared
    tests = shutil.copytree(EXAMPLE / "tests", tmp_path / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    result = subprocess.run(
        [str(python), "-m", "pytest", str(tests), "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "failed" not in result.stdout
    # the tests ran against the installed package, not a copy beside them
    where = run_checked([str(python), "-c", "import connect_four; print(connect_four.__file__)"], env=env, cwd=tmp_path)
    assert "site-packages" in where.stdout


def test_gpquarto_interface_tests_pass_on_the_game(environment, tmp_path):
    """gpquarto's own interface tests (each game installed, over seeded random games), run where the package is."""
    python, _, env = environment
    shutil.copy(REPO / "tests" / "test_game_interface.py", tmp_path / "test_game_interface.py")
    result = subprocess.run(
        [str(python), "-m", "pytest", "test_game_interface.py", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-k", "connect_four"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "deselected" in result.stdout  # only the Connect Four cases ran


def test_the_game_and_its_settings_are_on_every_command(environment):
    for command in ("match", "watch", "solve", "grade", "bench", "play"):
        help_text = gpquarto(environment, command, "--help")
        assert "connect_four" in help_text and "--rows" in help_text and "--columns" in help_text, command
    listing = gpquarto(environment, "players", "--game", "connect_four")
    for name in ("alphabeta", "mcts", "random", "solver"):
        assert f"\n{name}  " in listing


def test_bad_settings_and_positions_are_one_line_errors(environment):
    assert gpquarto_error(environment, "match", "random", "random", "--game", "connect_four", "--rows", "3") == (
        "gpquarto: error: connect_four: rows must be int from 4 to 9, got 3"
    )
    assert gpquarto_error(environment, "match", "random", "random", "--game", "connect_four", "--size", "4") == (
        "gpquarto: error: connect_four has no setting 'size' (settings: rows, columns)"
    )
    assert gpquarto_error(environment, "solve", "--game", "connect_four", "..../X.../..../.... O") == (
        "gpquarto: error: malformed position: column a has a disc above an empty cell"
    )


def results(output: str, player: str) -> tuple[int, int, int]:
    """(wins, draws, losses) of ``player`` in a match's table."""
    for line in output.splitlines():
        words = line.split()
        if words[:1] == [player] and words[1].isdigit():
            return int(words[1]), int(words[2]), int(words[3])
    raise AssertionError(f"no results of {player} in:\n{output}")


def test_a_match_plays_the_small_board_and_saves_its_records(environment):
    _, work, _ = environment
    output = gpquarto(
        environment, "match", "alphabeta:depth=2", "random", *SMALL, "--games", "6", "--seed", "1",
        "--save-records", "match-records", "--quiet",
    )  # fmt: skip
    assert "alphabeta:depth=2 vs random: 6 games, connect_four, rows 4, columns 5, seed 1" in output
    wins, draws, losses = results(output, "alphabeta:depth=2")
    assert wins + draws + losses == 6 and wins >= 4 and losses == 0
    records = sorted((work / "match-records").glob("*.json"))
    assert len(records) == 6
    for path in records:
        record = json.loads(path.read_text())
        assert record["game"] == "connect_four" and record["settings"] == {"rows": 4, "columns": 5}
        assert record["start"] == "...../...../...../..... X"
        assert all(0 <= action < 5 for action in record["actions"]) and 7 <= len(record["actions"]) <= 20


def test_a_tournament_ranks_the_players_and_writes_its_files(environment):
    _, work, _ = environment
    output = gpquarto(
        environment, "tournament", "random", "alphabeta:depth=2", "mcts:iterations=50", *SMALL, "--games", "4",
        "--quiet", "--out", "tournament",
    )  # fmt: skip
    ranks = [line.split()[1] for line in output.splitlines() if line.split()[:1] in (["1"], ["2"], ["3"])]
    assert len(ranks) == 3 and ranks[-1] == "random"
    assert "12 games" in output
    for name in ("pairings.csv", "ratings.csv", "tournament.png", "config.json"):
        assert (work / "tournament" / name).exists(), name


def test_grade_builds_a_bank_with_the_exact_solver(environment):
    output = gpquarto(
        environment, "grade", "alphabeta:depth=2", "random", *SMALL, "--positions", "30", "--quiet",
        "--csv", "grades.csv",
    )  # fmt: skip
    assert "bank: 30 positions, 5-9 empty cells, connect_four, 4 rows, 5 columns, seed 0, grade" in output
    accuracy = {line.split()[0]: float(line.split()[1].rstrip("%")) for line in output.splitlines()[2:4]}
    assert accuracy["alphabeta:depth=2"] > accuracy["random"]
    _, work, _ = environment
    assert "alphabeta:depth=2" in (work / "grades.csv").read_text()


def test_bench_measures_games_decisions_and_solves(environment):
    engine = gpquarto(environment, "bench", "engine", *SMALL, "--repeats", "1", "--seconds", "0.2")
    assert "Connect Four, rows 4, columns 5: games per second" in engine and "games/s" in engine
    players = gpquarto(
        environment, "bench", "players", *SMALL, "--repeats", "1", "--seconds", "0.1", "--positions", "4",
        "--players", "alphabeta:depth=2",
    )  # fmt: skip
    assert "alphabeta:depth=2" in players and " ms " in players
    solver = gpquarto(environment, "bench", "solver", *SMALL, "--repeats", "1", "--seconds", "0.1")
    assert "exact solver (ConnectFourSolver)" in solver and "10 empty cells: median" in solver


def test_train_evolves_a_rule_player_that_show_and_match_use(environment):
    _, work, _ = environment
    output = gpquarto(
        environment, "train", *SMALL, "--generations", "2", "--population", "6", "--games", "4",
        "--final-games", "0", "--workers", "1", "--quiet", "--run-dir", "runs/evolved", "--filename", "evolved.p",
    )  # fmt: skip
    assert "trained 2 generations" in output and (work / "evolved.p").exists()
    config = json.loads((work / "runs" / "evolved" / "config.json").read_text())["evolution"]
    assert config["game"] == "connect_four" and config["settings"] == {"columns": 5, "rows": 4}
    shown = gpquarto(environment, "show", "evolved.p", "--games", "2")  # the game's evaluation opponents
    assert "player evolved-simplified, connect_four" in shown and "move rules:" in shown  # its readable form
    assert "\n  1. if " in shown
    played = gpquarto(environment, "match", "evolved.p", "random", *SMALL, "--games", "4", "--quiet")
    assert sum(results(played, "evolved.p")) == 4


def test_learn_makes_a_player_that_plays(environment):
    _, work, _ = environment
    output = gpquarto(
        environment, "learn", *SMALL, "--run-dir", "runs/learned", "--episodes", "50", "--eval-games", "10", "--quiet"
    )
    assert "learned 50 episodes (50 in all) of connect_four" in output
    assert "after 50 episodes against random: score " in output
    player = work / "runs" / "learned" / "learned_player.npz"
    assert player.exists()
    played = gpquarto(environment, "match", str(player), "random", *SMALL, "--games", "4", "--quiet")
    assert sum(results(played, str(player))) == 4


def test_an_experiment_compares_its_variants(environment):
    _, work, _ = environment
    output = gpquarto(
        environment, "experiment", *SMALL, "--seeds", "1", "--set", "generations=1",
        "--set", "population=4", "--set", "games=2", "--eval-games", "4", "--out", "runs/experiment",
        "--workers", "1", "--quiet",
    )  # fmt: skip
    assert "1 variants x 1 seeds" in output and "vs random" in output and "vs alphabeta:depth=2" in output
    for name in ("summary.csv", "comparisons.csv", "experiment.json"):
        assert (work / "runs" / "experiment" / name).exists(), name
    plan = json.loads((work / "runs" / "experiment" / "experiment.json").read_text())
    assert plan["base"]["game"] == "connect_four" and plan["base"]["settings"] == {"columns": 5, "rows": 4}


def test_mcts_beats_random_on_the_full_board(environment):
    output = gpquarto(
        environment, "match", "mcts:iterations=300", "random", "--game", "connect_four", "--games", "4", "--quiet"
    )
    assert results(output, "mcts:iterations=300") == (4, 0, 0)


def test_a_human_plays_through_the_terminal(environment):
    answers = "z\nhint\na\nundo\nb\n" + "a\nb\nc\nd\ne\n" * 6
    output = gpquarto(environment, "play", *SMALL, "--opponent", "random", "--seed", "2", input=answers)
    assert "Connect Four, rows 4, columns 5: you against random." in output
    assert "you play X, you move first" in output
    assert "not a column: 'z' (a letter a..e, 'drop a', or 0..4)" in output
    assert "hint: draw with best play: drop b, drop c, drop d" in output
    assert "Taken back: your previous decision is due again." in output
    assert "Moves: drop b, " in output and "Result: you " in output


def test_the_solver_player_plays_perfectly_on_a_small_board(environment):
    output = gpquarto(environment, "match", "solver", "alphabeta:depth=2", "--game", "connect_four", "--rows", "4",
                      "--columns", "4", "--games", "2", "--openings", "2", "--quiet")  # fmt: skip
    assert results(output, "solver")[2] == 0  # never loses


def test_watch_draws_the_board_and_saves_the_game(environment):
    _, work, _ = environment
    output = gpquarto(
        environment, "watch", "random", "alphabeta:depth=2", *SMALL, "--seed", "3", "--delay", "0",
        "--record", "watched.json", "--png", "watched.png",
    )  # fmt: skip
    assert " a  b  c  d  e\n" in output and "X to move" in output
    assert "Result: alphabeta:depth=2 wins." in output
    assert (work / "watched.png").read_bytes().startswith(b"\x89PNG")
    record = json.loads((work / "watched.json").read_text())
    assert record["game"] == "connect_four" and record["winner"] == 1 and record["end"] == "win"


def test_show_replays_a_record_and_draws_a_position(environment):
    _, work, _ = environment
    watch = ("watch", "random", "alphabeta:depth=2", *SMALL, "--seed", "3", "--delay", "0", "--record", "shown.json")
    gpquarto(environment, *watch)
    output = gpquarto(environment, "show", "shown.json", "--png", "shown.png")
    assert "Connect Four, rows 4, columns 5" in output and "Moves: drop " in output
    assert "O wins" in output and "Result: alphabeta:depth=2 wins." in output
    assert (work / "shown.png").read_bytes().startswith(b"\x89PNG")
    position = gpquarto(environment, "show", "....../....../.OO.../.XX... X")
    assert "Connect Four, rows 4, columns 6" in position and " a  b  c  d  e  f\n" in position


def test_solve_gives_the_value_and_every_best_move(environment):
    _, work, _ = environment
    output = gpquarto(
        environment, "solve", "--game", "connect_four", "....../....../.OO.../.XX... X", "--max-empty", "20",
        "--png", "solved.png",
    )  # fmt: skip
    assert "value: win in 3 plies for X (player 0, to move)" in output
    assert "best actions (1): drop d" in output
    assert (work / "solved.png").read_bytes().startswith(b"\x89PNG")
    start = gpquarto(environment, "solve", "--game", "connect_four", "--rows", "4", "--columns", "4", "--force")
    assert "value: draw for X (player 0, to move)" in start
    assert "best actions (4): drop a, drop b, drop c, drop d" in start
    assert gpquarto_error(environment, "solve", "--game", "connect_four", "--rows", "6", "--force").startswith(
        "gpquarto: error: the solver handles positions with at most 28 empty cells, this one has 42"
    )


def call(base: str, method: str, path: str, body: object = None) -> tuple[int, dict | str]:
    """``(status, answer)`` of one request to the server: JSON decoded, the page as text."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            text = response.read().decode()
            is_json = response.headers.get_content_type() == "application/json"
            return response.status, json.loads(text) if is_json else text
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture(scope="module")
def server(environment):
    """The base address of ``gpquarto serve`` running in the environment."""
    python, work, env = environment
    command = [str(python), "-m", "gpquarto", "serve", "--port", "0", "--runs-dir", str(work / "runs")]
    process = subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("gpquarto: serving on http://127.0.0.1:"), line + process.stderr.read()
        base = line.split()[3].rstrip("/")
        deadline = time.monotonic() + 60
        while True:
            try:
                call(base, "GET", "/api/runs")
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_server_plays_the_game_with_its_board_data(server):
    status, page = call(server, "GET", "/")
    assert status == 200 and "<html" in page
    status, listing = call(server, "GET", "/api/players?game=connect_four")
    offered = {player["name"] for player in listing["players"]}
    assert status == 200 and {"alphabeta", "mcts", "random", "solver"} <= offered and "human" not in offered
    status, game = call(
        server, "POST", "/api/games",
        {"game": "connect_four", "rows": 4, "columns": 5, "opponent": "alphabeta:depth=2", "seat": 1, "seed": 1},
    )  # fmt: skip
    assert status == 201, game
    assert (game["game"], game["settings"], game["rows"], game["columns"]) == (
        "connect_four",
        {"rows": 4, "columns": 5},
        4,
        5,
    )
    assert game["letters"] == list("abcde") and game["your_turn"] and game["to_move"] == "O"
    assert [mark for mark in game["cells"] if mark] == ["X"] and len(game["cells"]) == 20
    column = game["moves"][0]["action"]
    assert game["last_move"] == {"row": 3, "column": column} and game["winning_line"] == []
    status, hint = call(server, "GET", f"/api/games/{game['id']}/hint")
    assert status == 200 and hint["solved"] and hint["value"] in (-1, 0, 1), hint
    assert hint["text"].startswith(("win", "draw", "loss")) and hint["best_actions"]
    status, after = call(server, "POST", f"/api/games/{game['id']}/move", {"action": game["letters"][column]})
    assert status == 200, after
    assert sorted(mark for mark in after["cells"] if mark) == ["O", "X", "X"]
    assert after["cells"][2 * 5 + column] == "O"


def test_the_server_lists_the_game_and_explains_a_board_too_large_to_hint(server):
    status, listing = call(server, "GET", "/api/games")
    (ours,) = [game for game in listing["games"] if game["name"] == "connect_four"]
    assert ours["title"] == "Connect Four"
    assert [(s["name"], s["default"], s["minimum"], s["maximum"]) for s in ours["settings"]] == [
        ("rows", 6, 4, 9),
        ("columns", 7, 4, 9),
    ]
    status, game = call(server, "POST", "/api/games", {"game": "connect_four", "opponent": "random", "seed": 1})
    assert status == 201 and game["position"] == "......./......./......./......./......./....... X"
    status, hint = call(server, "GET", f"/api/games/{game['id']}/hint")
    assert status == 200 and not hint["solved"]
    assert "at most 28 empty cells, this one has 42" in hint["text"]


def test_the_server_watches_and_replays_games(server):
    status, watched = call(
        server, "POST", "/api/watch",
        {"game": "connect_four", "rows": 4, "columns": 4, "players": ["random", "alphabeta:depth=2"], "seed": 2},
    )  # fmt: skip
    assert status == 200, watched
    frames = watched["frames"]
    assert len(frames) == len(watched["record"]["actions"]) + 1
    assert all(frame["rows"] == 4 and frame["columns"] == 4 and len(frame["cells"]) == 16 for frame in frames)
    assert watched["result"]
    status, replayed = call(server, "POST", "/api/replay", watched["record"])
    assert status == 200, replayed
    assert [frame["cells"] for frame in replayed["frames"]] == [frame["cells"] for frame in frames]
