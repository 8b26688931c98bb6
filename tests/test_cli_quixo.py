"""Quixo on the command line: watch, show, play, solve, grade and bench with ``--game quixo``, run as a user
types them (and in-process for the cheaper checks)."""

from __future__ import annotations

import pytest

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games import get_game
from gpquarto.players.base import BasePlayer
from gpquarto.resolve import make_unattended_player


class Scripted(BasePlayer):
    """Plays the actions it is given, in turn (by name)."""

    game = "quixo"

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)

    def decide(self, view) -> int:
        return view.parse_action(self.names.pop(0))


def one_line_error(done, message: str) -> None:
    assert done.returncode == 2, done.stdout
    assert len(done.stderr.strip().splitlines()) == 1 and "gpquarto: error: " in done.stderr, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr, done.stderr


# ------------------------------------------------------------------------------------------------ watch and show
def test_watch_shows_every_move_with_the_board_and_saves_a_record_that_replays(cli, tmp_path):
    path = tmp_path / "game.json"
    done = cli(
        "watch", "alphabeta:depth=1", "random", "--game", "quixo", "--delay", "0", "--seed", "3", "--record", str(path)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        "Quixo, official rules, size 5, ply_limit 300, repetitions 3: alphabeta:depth=1 (seat 0)"
    )
    record = GameRecord.load(path)
    assert record.game == "quixo" and record.settings["size"] == 5
    players = tuple(make_unattended_player(spec, seed=3, game="quixo") for spec in ("alphabeta:depth=1", "random"))
    assert record.actions == play_game(players, game="quixo", seed=3).actions  # the seed decides the game
    state = record.start_state()
    for number, (action, position) in enumerate(zip(record.actions, record.to_dict()["positions"], strict=True), 1):
        mover = record.players[state.player]
        assert f"\n{number}. {mover}: {state.action_name(action)}\n" in done.stdout
        state.apply(action)
        assert state.text() == position  # the record keeps the position text after each action
        assert str(state) in done.stdout
    assert f"Result: {record.players[record.winner]} wins." in done.stdout
    assert f"game record saved to {path}" in done.stdout


def test_watch_from_a_position_on_a_small_board(cli):
    done = cli(
        "watch", "random", "random", "--game", "quixo", "--position", "XX./.O./... O", "--delay", "0", "--seed", "1"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Quixo, official rules, size 3,")
    assert "1  X X .\n2  . O .\n3  . . .\nO to move" in done.stdout and "Result: " in done.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--position", "XX./.O./... Z"), "malformed position: the side to move is X or O, got 'Z'"),
        (("--position", "XQ./.O./... O"), "cell b1 is 'Q'"),
        (("--size", "4", "--position", "XX./.O./... O"), "has size 3, not 4"),
        (
            (
                "--size",
                "6",
            ),
            "a Quixo size is 3, 4 or 5",
        ),
        (
            (
                "--rules",
                "advanced",
            ),
            "unknown Quixo rules 'advanced'",
        ),
        (("--png", "x.png"), "--png draws Quarto games"),
    ],
)
def test_watch_quixo_errors_are_one_line(cli, arguments, message):
    one_line_error(cli("watch", "random", "random", "--game", "quixo", "--delay", "0", *arguments), message)


def test_watch_refuses_a_player_of_the_other_game_in_one_line(cli):
    one_line_error(cli("watch", "novice", "random", "--game", "quixo"), "novice")
    one_line_error(cli("watch", "mcts:iterations=5", "random", "--game", "quixo", "--rules", "classic"), "rules")


def test_show_a_quixo_record_with_its_moves_final_board_and_result(cli, tmp_path):
    record = play_game(
        tuple(make_unattended_player("random", seed=seat, game="quixo") for seat in (0, 1)),
        game="quixo",
        settings={"size": 4},
        seed=7,
        names=("ann", "bob"),
    )
    record.save(tmp_path / "game.json")
    done = cli("show", str(tmp_path / "game.json"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        f"Quixo, official rules, size 4, ply_limit 300, repetitions 3, {len(record.actions)} moves"
    )
    assert f"Moves: {', '.join(record.action_names())}" in done.stdout and " to " in record.action_names()[0]
    assert str(record.replay()) in done.stdout
    assert "Result: " in done.stdout


@pytest.mark.parametrize(
    ("settings", "moves", "result"),
    [
        (
            {"size": 3, "repetitions": 2},
            ["a1 to right", "c3 to left", "c1 to left", "a3 to right", "a1 to right", "c3 to left"],
            "draw by repetition: the same position with the same side to move for the 2nd time",
        ),
        (
            {"size": 3, "ply_limit": 3},
            ["a1 to right", "c3 to left", "c1 to left"],
            "draw: the ply limit (3 plies) was reached",
        ),
    ],
)
def test_show_says_how_a_drawn_quixo_game_ended(cli, tmp_path, settings, moves, result):
    record = play_game(
        (Scripted(moves[0::2]), Scripted(moves[1::2])), game="quixo", settings=settings, names=("a", "b")
    )
    assert record.end in ("repetition", "ply_limit") and len(record.actions) == len(moves)
    record.save(tmp_path / "game.json")
    done = cli("show", str(tmp_path / "game.json"))
    assert done.returncode == 0, done.stderr
    assert f"Result: {result}." in done.stdout


def test_show_quixo_position_text(cli):
    done = cli("show", "XX../.O../..../.... O")
    assert done.returncode == 0, done.stderr
    assert str(get_game("quixo").from_text("XX../.O../..../.... O")) in done.stdout
    one_line_error(cli("show", "XX./.O./... Z"), "quixo: the side to move is X or O")
    one_line_error(cli("show", "XX../.O../..../.... O", "--png", "x.png"), "--png draws Quarto")
