"""Every command on a game that ships nothing but its rules and a board (tic-tac-toe, written in the tests): the
generic players, bank, benchmarks and drawings stand in for what Quarto and Quixo bring of their own."""

from __future__ import annotations

import csv
import json

import pytest

from gpquarto.cli import main
from gpquarto.games.registry import register_plugin, unregister_plugin
from tests import tictactoe


@pytest.fixture(autouse=True)
def tictactoe_installed():
    register_plugin(tictactoe.PLUGIN)
    yield
    unregister_plugin(tictactoe.GAME.name)


def test_watch_draws_the_board_from_its_cells(capsys):
    assert main(["watch", "random", "alphabeta", "--game", "tictactoe", "--seed", "2", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Tic-tac-toe, no misere: random (seat 0) against alphabeta (seat 1)."
    assert ". . .\n. . .\n. . .\n.../.../... X" in out  # the empty grid, then its position text
    assert "\n1. random: " in out and "Result: " in out and out.count("X") > 3


def test_tournament_grades_its_players_on_the_generic_bank(tmp_path, capsys):
    out = tmp_path / "tournament"
    arguments = ["random", "solver", "--game", "tictactoe", "--games", "6", "--workers", "1", "--quiet"]
    arguments += ["--out", str(out), "--grade", "--grade-positions", "12"]
    assert main(["tournament", *arguments]) == 0
    table = capsys.readouterr().out
    assert "accuracy (95% CI)" in table
    rows = {row["player"]: row for row in csv.DictReader((out / "grade.csv").open()) if row["split"] == "all"}
    assert float(rows["solver"]["accuracy"]) == 1.0 and float(rows["random"]["accuracy"]) < 1.0
    ratings = list(csv.DictReader((out / "ratings.csv").open()))
    assert {row["player"] for row in ratings} == {"random", "solver"}
    config = json.loads((out / "config.json").read_text())
    assert config["game"] == "tictactoe"


def test_grade_builds_caches_and_reads_the_generic_bank(tmp_path, capsys):
    arguments = ["grade", "random", "solver", "--game", "tictactoe", "--positions", "12", "--quiet"]
    arguments += ["--cache-dir", str(tmp_path), "--misere", "yes"]
    assert main(arguments) == 0
    first = capsys.readouterr().out
    assert first.startswith("bank: 12 positions, 4-7 legal actions, tictactoe, misere, seed 0, grade")
    assert "bank built in" in first
    solver_row = next(line for line in first.splitlines() if line.startswith("solver"))
    assert solver_row.split()[1] == "100.0%"
    assert main(arguments) == 0
    assert "bank read from the cache" in capsys.readouterr().out
    assert main([*arguments, "--max-empty", "9"]) == 2
    assert "7 <= " not in capsys.readouterr().err  # the limit named is the board's, in one line


@pytest.mark.parametrize(
    ("target", "extra", "expected"),
    [
        ("engine", ["--repeats", "1", "--seconds", "0.05"], "random games over the game interface: "),
        ("players", ["--positions", "3", "--players", "alphabeta:depth=3"], "alphabeta:depth=3, CPU:  median "),
        ("solver", ["--empties", "5", "--positions", "2"], "5 legal actions: median "),
    ],
)
def test_bench_measures_a_game_over_the_interface(capsys, target, extra, expected):
    assert main(["bench", target, "--game", "tictactoe", *extra]) == 0
    assert expected in capsys.readouterr().out


def test_bench_names_what_a_game_lacks_in_one_line(capsys):
    assert main(["bench", "evaluators", "--game", "tictactoe"]) == 2
    assert capsys.readouterr().err == (
        "gpquarto: error: game 'tictactoe' has no evaluator benchmark (evolved evaluators are not made for it)\n"
    )
    assert main(["bench", "engine", "--game", "tictactoe", "--compiled"]) == 2
    assert "tictactoe has none" in capsys.readouterr().err


def test_play_lets_a_person_type_moves_by_name_with_hint_and_undo(monkeypatch, capsys):
    import io

    moves = "b2\nzz\na1\nhint\nundo\nc3\na3\nc1\nb1\nb3\nc2\na2\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(moves))
    assert main(["play", "--opponent", "alphabeta:depth=2", "--game", "tictactoe"]) == 0
    out = capsys.readouterr().out
    assert "Your moves: a1, b1, c1, a2, b2, c2, a3, b3, c3" in out
    assert "not a tic-tac-toe move: 'zz'" in out and "a1 is not a legal move now" in out
    assert "hint: " in out and "with best play: " in out
    assert "Taken back: your previous decision is due again." in out
    assert out.rstrip().splitlines()[-1].startswith("Result: you ")


def test_train_show_and_match_a_rule_player_of_a_game_without_primitives(tmp_path, capsys):
    run, player = tmp_path / "run", tmp_path / "tictactoe.p"
    arguments = ["train", "--game", "tictactoe", "--misere", "no", "--generations", "2", "--population", "8"]
    arguments += ["--games", "8", "--final-games", "20", "--workers", "1", "--quiet"]
    assert main([*arguments, "--run-dir", str(run), "--filename", str(player)]) == 0
    config = json.loads((run / "config.json").read_text())["evolution"]
    assert config["game"] == "tictactoe" and config["settings"] == {"misere": False}
    assert config["opponents"] == "random:1,alphabeta:depth=2:1" and config["openings"] == 4  # the generic defaults
    capsys.readouterr()
    assert main(["show", str(player), "--games", "10"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("player tictactoe-simplified, tictactoe (saved by gpquarto ")  # its readable form
    assert "move rules:" in shown and "rule usage over 10 games against random, alphabeta:depth=2" in shown
    assert main(["match", str(player), "random", "--game", "tictactoe", "--games", "40", "--workers", "1"]) == 0
    assert "40 games" in capsys.readouterr().out


def test_learn_a_player_with_the_board_encoder_and_play_it(tmp_path, capsys):
    run = tmp_path / "learn"
    assert main(["learn", "--game", "tictactoe", "--episodes", "300", "--run-dir", str(run), "--quiet"]) == 0
    assert "learned 300 episodes (300 in all) of tictactoe by td-ntuple" in capsys.readouterr().out
    learned = run / "learned_player.npz"
    assert main(["match", str(learned), "random", "--game", "tictactoe", "--games", "20", "--workers", "1"]) == 0


def test_an_experiment_compares_variants_of_a_game_without_primitives(tmp_path, capsys):
    arguments = ["experiment", "--game", "tictactoe", "--seeds", "1", "--set", "generations=1", "--set", "population=6"]
    arguments += ["--set", "games=4", "--set", "final_games=2", "--eval-games", "4", "--workers", "1"]
    arguments += ["--grade-positions", "12", "--out", str(tmp_path / "experiment")]
    assert main(arguments) == 0
    out = capsys.readouterr().out
    assert "vs random" in out and "vs alphabeta:depth=2" in out and "grade accuracy" in out
    assert (tmp_path / "experiment" / "summary.csv").exists()
