"""``python -m gpquarto watch A B``, ``show`` of game records and positions, and the ``--png`` pictures, run as a user types them."""

from __future__ import annotations

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games.quarto.board import Board, action_name
from gpquarto.resolve import make_unattended_player as load_player
from tests.web_support import TINY_RULES, save_tiny_player

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_watch_shows_every_action_and_the_result_and_saves_the_record(cli, tmp_path):
    done = cli("watch", "novice", "random", "--delay", "0", "--seed", "5", "--record", str(tmp_path / "game.json"))
    assert done.returncode == 0, done.stderr
    record = GameRecord.load(tmp_path / "game.json")
    same = play_game((load_player("novice", seed=5), load_player("random", seed=5)), seed=5, names=("novice", "random"))
    assert record.actions == same.actions  # the seed decides the game
    board = Board()
    for number, action in enumerate(record.actions, 1):
        assert f"\n{number}. {record.players[board.player]}: {action_name(action)}\n" in done.stdout
        board.apply(action)
    assert "Result: " in done.stdout and str(record.replay()) in done.stdout


def test_watch_explains_an_evolved_players_decisions(cli, tmp_path):
    save_tiny_player(tmp_path / "tiny.json")
    done = cli("watch", str(tmp_path / "tiny.json"), "random", "--delay", "0", "--seed", "1")
    assert done.returncode == 0, done.stderr
    first = done.stdout.split("\n1. ", 1)[1].splitlines()
    assert first[1].strip() == "choose rule 2: if {} then {}".format(*TINY_RULES["choose"][1])


def test_watch_step_waits_for_enter_and_q_plays_to_the_end(cli):
    # from a position eight actions before the end: after 'q' the rest is played at the default delay (0.5 s)
    done = cli(
        "watch", "random", "random", "--step", "--seed", "2", "--position", "5A3./.C8./1..F/.... -",
        input_text="\n\nq\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "\n4. random: " in done.stdout  # actions were left to play after the three answers
    assert "Result: " in done.stdout


def test_watch_and_solve_draw_pngs(cli, tmp_path):
    done = cli("watch", "novice", "random", "--delay", "0", "--seed", "3", "--png", str(tmp_path / "game.png"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "game.png").read_bytes()[:8] == PNG_MAGIC
    done = cli("solve", "5A3./.C8./1..F/.... 2", "--png", str(tmp_path / "position.png"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "position.png").read_bytes()[:8] == PNG_MAGIC
    assert f"picture saved to {tmp_path / 'position.png'}" in done.stdout


def test_watch_errors_are_one_line(cli, tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    for arguments in (
        ("watch", "nobody", "random"),
        ("watch", "random", "random", "--delay", "-1"),
        ("watch", "random", "random", "--position", "xyz"),
        ("watch", "random", "random", "--delay", "0", "--png", str(tmp_path / "a-file" / "game.png")),
        ("watch", "random", "random", "--step", "--delay", "1"),
    ):
        done = cli(*arguments)
        assert done.returncode == 2, arguments
        assert len(done.stderr.strip().splitlines()) == 1 and "error:" in done.stderr, done.stderr


def test_show_prints_and_draws_a_game_record_and_a_position(cli, tmp_path):
    record = play_game((load_player("random", seed=1), load_player("novice", seed=2)), seed=4, names=("ann", "bob"))
    record.save(tmp_path / "game.json")
    done = cli("show", str(tmp_path / "game.json"), "--png", str(tmp_path / "game.png"))
    assert done.returncode == 0, done.stderr
    assert f"Moves: {record.moves_text()}" in done.stdout and str(record.replay()) in done.stdout
    assert (tmp_path / "game.png").read_bytes()[:8] == PNG_MAGIC
    position = "5A3./.C8./1..F/.... 2"
    done = cli("show", position, "--png", str(tmp_path / "position.png"))
    assert done.returncode == 0, done.stderr
    assert str(Board.from_text(position)) in done.stdout
    assert (tmp_path / "position.png").read_bytes()[:8] == PNG_MAGIC


def test_show_errors_are_one_line(cli, tmp_path):
    save_tiny_player(tmp_path / "tiny.json")
    for arguments, message in (
        (("show", "5A3./.C8./1..F/.... Z"), "piece in hand"),
        (("show", str(tmp_path / "tiny.json"), "--png", str(tmp_path / "x.png")), "--png draws a game record"),
    ):
        done = cli(*arguments)
        assert done.returncode == 2 and message in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
