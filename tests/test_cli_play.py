"""The play command, run as a user types it (and in-process for the cheaper checks)."""

from __future__ import annotations

import io

import pytest

from gpquarto.cli import main

# Every decision takes the first legal answer: "0".."9" are pieces and squares, "10".."15" squares only,
# so cycling through them always finishes a game.
CYCLING_ANSWERS = "".join(f"{number}\n" for number in range(16)) * 20


def final_status(stdout: str) -> str:
    """The status line under the final board: "player N won" or "draw"."""
    lines = stdout.splitlines()
    result_index = next(i for i, line in enumerate(lines) if line.startswith("Result: "))
    status = lines[result_index - 2]
    assert status in ("player 0 won", "player 1 won", "draw"), status
    return status


def test_a_whole_game_as_typed(cli) -> None:
    result = cli("play", "--opponent", "random", "--seed", "1", input_text=CYCLING_ANSWERS)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert out.startswith("Quarto, classic rules: you against random.")
    assert "Choose a piece for your opponent" in out and "Place piece" in out
    status, result_line = final_status(out), out.splitlines()[-1]
    # the human sits in seat 0 (--first is the default)
    expected = {"player 0 won": "Result: you win against random.", "player 1 won": "Result: you lose against random."}
    assert result_line == expected.get(status, "Result: draw against random (the board is full).")
    assert "Moves: choose " in out
    again = cli("play", "--opponent", "random", "--seed", "1", input_text=CYCLING_ANSWERS)
    assert again.stdout == out  # the same seed and the same answers replay the same game


def test_quit_says_goodbye_and_exits_0(cli) -> None:
    result = cli("play", "--opponent", "random", "--seed", "1", input_text="zz\nquit\n")
    assert result.returncode == 0 and result.stderr == ""
    assert "not a piece: 'zz'" in result.stdout
    assert result.stdout.rstrip().endswith("Goodbye.") and "Result:" not in result.stdout


def test_bad_opponent_is_a_one_line_error(cli) -> None:
    result = cli("play", "--opponent", "nosuch")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "unknown player 'nosuch'" in result.stderr and "Traceback" not in result.stderr


# ---------------------------------------------------------------- in process: cheaper
def run_play(
    argv: list[str], typed: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["play", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_second_lets_the_opponent_choose_first(monkeypatch, capsys) -> None:
    code, out, _ = run_play(["--second", "--seed", "4"], CYCLING_ANSWERS, monkeypatch, capsys)
    assert code == 0
    assert out.index("Place piece") < out.index("Choose a piece")
    assert "you are player 1 (your opponent chooses the first piece)" in out
    expected = {"player 1 won": "Result: you win against random.", "player 0 won": "Result: you lose against random."}
    assert out.splitlines()[-1] == expected.get(final_status(out), "Result: draw against random (the board is full).")


def test_advanced_rules_and_other_opponents(monkeypatch, capsys) -> None:
    code, out, _ = run_play(["--advanced", "--opponent", "novice", "--seed", "2"], CYCLING_ANSWERS, monkeypatch, capsys)
    assert code == 0 and out.startswith("Quarto, advanced rules: you against novice.")
    assert out.splitlines()[-1].startswith("Result: ")


def test_end_of_input_is_a_clean_goodbye(monkeypatch, capsys) -> None:
    code, out, err = run_play(["--seed", "1"], "", monkeypatch, capsys)
    assert code == 0 and out.rstrip().endswith("Goodbye.") and err == ""


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--first", "--second"], "not allowed with argument"),
        (["--seed", "-1"], "expected a number >= 0"),
        (["--seed", "x"], "expected a whole number"),
        (["--opponent", "random:depth=2"], "has no parameter 'depth'"),
    ],
)
def test_bad_arguments_exit_2(argv: list[str], message: str, monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    try:
        code = main(["play", *argv])
    except SystemExit as exit_:  # argparse errors leave through SystemExit
        code = exit_.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_undo_takes_back_your_decision_and_hint_asks_the_solver() -> None:
    import io

    from gpquarto.games.quarto import Board
    from gpquarto.games.quarto.players.human import HumanPlayer
    from gpquarto.games.quarto.search.solver import solve
    from gpquarto.players.human import TakeBack

    out = io.StringIO()
    human = HumanPlayer(input_stream=io.StringIO("undo\n0\nundo\n"), output_stream=out)
    board = Board()
    assert human.choose_piece(board.view()) == 0  # "undo" at the first decision: nothing to undo, asked again
    assert "nothing to undo yet" in out.getvalue()
    board.choose(0)
    board.place(5)
    with pytest.raises(TakeBack):
        human.choose_piece(board.view())
    assert human.positions == ["..../..../..../.... -", "..../.0../..../.... -"]

    endgame = Board.from_text("01.4/5..8/9A2D/.3.B -")
    expected = solve(endgame.copy())
    out = io.StringIO()
    HumanPlayer(input_stream=io.StringIO("hint\nquit\n"), output_stream=out)
    player = HumanPlayer(input_stream=io.StringIO("hint\n6\n"), output_stream=out)
    piece = player.choose_piece(endgame.view())
    shown = out.getvalue()
    assert "hint: " + {1: "win", 0: "draw", -1: "loss"}[expected.value] in shown
    assert piece == 6
    early = io.StringIO()
    HumanPlayer(input_stream=io.StringIO("hint\n0\n"), output_stream=early).choose_piece(Board().view())
    assert "too early to solve: 16 empty squares" in early.getvalue()


def test_play_goes_back_to_your_previous_decision_on_undo(cli) -> None:
    result = cli("play", "--opponent", "random", "--seed", "3", input_text="0\nundo\n1\nquit\n")
    assert result.returncode == 0
    assert "Taken back: your previous decision is due again." in result.stdout
    assert result.stdout.count("New game") == 1
