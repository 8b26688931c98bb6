"""Every command on OpenSpiel's games (``--game openspiel:NAME``), as :mod:`tests.test_game_commands` runs them on
tic-tac-toe: match, tournament, watch, play (a person types OpenSpiel's action names), bench, grade (the generic
exact solver on OpenSpiel's tic-tac-toe), train with the generic GP binding then show and match, learn with the
board encoder of a grid observation, and the web API with its grid; a bad game name is one line and exit 2."""

from __future__ import annotations

import io
import json

import pytest

from gpquarto.cli import main
from gpquarto.games.registry import unregister_plugin
from tests.openspiel_support import BOARD_GAMES, need_pyspiel

need_pyspiel()

TIC_TAC_TOE = "openspiel:tic_tac_toe"
CONNECT_FOUR = "openspiel:connect_four"


def test_a_match_of_openspiel_bots_on_openspiels_games(capsys):
    arguments = ["openspiel-mcts:simulations=30", "openspiel-alphabeta:depth=1", "--games", "4", "--workers", "1"]
    assert main(["match", *arguments, "--game", CONNECT_FOUR]) == 0
    assert "4 games" in capsys.readouterr().out


def test_bad_game_names_are_one_line_and_exit_two(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["match", "random", "random", "--game", "openspiel:kuhn_poker"])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "OpenSpiel's game 'kuhn_poker' is not deterministic" in err
    # a setting of another installed game (Quixo's ply limit) is not one of this game's
    assert main(["match", "random", "random", "--game", "openspiel:connect_four", "--ply-limit", "5"]) == 2
    assert capsys.readouterr().err == (
        "gpquarto: error: openspiel:connect_four has no setting 'ply_limit' (settings: none)\n"
    )


def test_watch_draws_openspiels_board(capsys):
    assert main(["watch", "random", "alphabeta", "--game", TIC_TAC_TOE, "--seed", "2", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "OpenSpiel's Tic Tac Toe: random (seat 0) against alphabeta (seat 1)."
    assert "...\n...\n...\nseat 0 to move" in out and "1. random: x(" in out and "Result: " in out


def test_tournament_and_grade_on_the_generic_bank(tmp_path, capsys):
    out = tmp_path / "tournament"
    arguments = ["random", "solver", "--game", TIC_TAC_TOE, "--games", "6", "--workers", "1", "--quiet"]
    assert main(["tournament", *arguments, "--out", str(out), "--grade", "--grade-positions", "12"]) == 0
    assert "accuracy (95% CI)" in capsys.readouterr().out
    assert json.loads((out / "config.json").read_text())["game"] == TIC_TAC_TOE
    arguments = ["grade", "random", "solver", "--game", TIC_TAC_TOE, "--positions", "12", "--quiet"]
    assert main([*arguments, "--cache-dir", str(tmp_path)]) == 0
    first = capsys.readouterr().out
    assert first.startswith("bank: 12 positions, 4-7 legal actions, openspiel:tic_tac_toe, seed 0, grade")
    assert next(line for line in first.splitlines() if line.startswith("solver")).split()[1] == "100.0%"


@pytest.mark.parametrize(
    ("target", "extra", "expected"),
    [
        ("engine", ["--repeats", "1", "--seconds", "0.05"], "x (target: within 3x)"),
        ("players", ["--positions", "2", "--players", "openspiel-mcts:simulations=20"], "simulations=20, CPU:  median"),
    ],
)
def test_bench_measures_an_openspiel_game(capsys, target, extra, expected):
    assert main(["bench", target, "--game", CONNECT_FOUR, *extra]) == 0
    assert expected in capsys.readouterr().out


def test_play_reads_openspiels_action_names(monkeypatch, capsys):
    moves = "x(1,1)\nzz\nhint\nx(0,0)\nx(2,2)\nx(0,2)\nx(2,0)\nx(0,1)\nx(1,0)\nx(1,2)\nx(2,1)\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(moves))
    assert main(["play", "--opponent", "alphabeta:depth=2", "--game", TIC_TAC_TOE]) == 0
    out = capsys.readouterr().out
    assert "Your moves: x(0,0), x(0,1), x(0,2), x(1,0), x(1,1)" in out
    assert "not a move of openspiel:tic_tac_toe: 'zz'" in out and "hint: " in out
    assert out.rstrip().splitlines()[-1].startswith("Result: you ")


def test_train_show_and_match_a_rule_player_of_an_openspiel_game(tmp_path, capsys):
    run, player = tmp_path / "run", tmp_path / "ttt.p"
    arguments = ["train", "--game", TIC_TAC_TOE, "--generations", "2", "--population", "8", "--games", "8"]
    arguments += ["--final-games", "20", "--workers", "1", "--quiet", "--run-dir", str(run), "--filename", str(player)]
    assert main(arguments) == 0
    assert json.loads((run / "config.json").read_text())["evolution"]["game"] == TIC_TAC_TOE
    capsys.readouterr()
    assert main(["show", str(player), "--games", "4"]) == 0
    shown = capsys.readouterr().out
    assert (
        shown.startswith("player ttt-simplified, openspiel:tic_tac_toe (saved by gpquarto ") and "move rules:" in shown
    )
    assert main(["match", str(player), "random", "--game", TIC_TAC_TOE, "--games", "10", "--workers", "1"]) == 0
    assert "10 games" in capsys.readouterr().out


def test_learn_with_the_board_encoder_of_a_grid_observation(tmp_path, capsys):
    run = tmp_path / "learn"
    assert main(["learn", "--game", TIC_TAC_TOE, "--episodes", "100", "--run-dir", str(run), "--quiet"]) == 0
    assert "learned 100 episodes (100 in all) of openspiel:tic_tac_toe by td-ntuple" in capsys.readouterr().out
    assert (
        main(["learn", "--game", "openspiel:ultimate_tic_tac_toe", "--episodes", "10", "--run-dir", str(run) + "2"])
        == 2
    )
    assert "has no n-tuple features for learning" in capsys.readouterr().err


def test_the_web_api_serves_an_openspiel_game_on_its_grid(tmp_path):
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from tests.web_support import call, running_server

    try:
        with running_server(runs_dir=tmp_path / "runs", time_limit=10, games=[CONNECT_FOUR]) as base:
            status, answer = call(base, "GET", "/api/games")
            assert status == 200 and CONNECT_FOUR in [game["name"] for game in answer["games"]]
            request = {"game": CONNECT_FOUR, "opponent": "openspiel-mcts:simulations=20"}
            status, game = call(base, "POST", "/api/games", request)
            assert status == 201 and game["grid"]["rows"] == 6 and game["grid"]["columns"] == 7
            assert game["action_names"][3] == "x3" and game["position"] == "start"
            status, game = call(base, "POST", f"/api/games/{game['id']}/move", {"action": "x3"})
            assert status == 200 and len(game["moves"]) == 2 and game["moves"][0]["text"] == "x3"
            cells = game["grid"]["cells"]
            assert cells.count(1) == 1 and cells.count(2) == 1 and cells[5 * 7 + 3] == 1  # the bottom row
    finally:
        unregister_plugin(CONNECT_FOUR)


@pytest.mark.parametrize("game", list(BOARD_GAMES))
def test_every_conformant_game_plays_match_watch_tournament_play_and_bench(game, tmp_path, monkeypatch, capsys):
    """The commands that need only the interface, on each of the OpenSpiel games that pass the conformance checks
    (train, learn, grade and serve are run on tic-tac-toe and Connect Four above)."""
    assert main(["match", "random", "alphabeta:depth=1", "--game", game, "--games", "2", "--workers", "1"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert main(["watch", "random", "random", "--game", game, "--seed", "1", "--delay", "0"]) == 0
    assert "Result: " in capsys.readouterr().out
    arguments = ["random", "alphabeta:depth=1", "--game", game, "--games", "2", "--workers", "1", "--quiet"]
    assert main(["tournament", *arguments, "--out", str(tmp_path / "t")]) == 0
    assert "round robin: 2 players" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    main(["play", "--opponent", "random", "--game", game])
    assert "Your moves: " in capsys.readouterr().out  # the legal moves by OpenSpiel's names, before the person quit
    assert main(["bench", "engine", "--game", game, "--repeats", "1", "--seconds", "0.02"]) == 0
    assert "games/s" in capsys.readouterr().out
