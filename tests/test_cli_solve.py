"""``python -m gpquarto solve``, run as a user types it."""

from __future__ import annotations

import subprocess

from gpquarto.games.quarto import Board
from tests.conftest import run_cli


def run_solve(*args: str) -> subprocess.CompletedProcess:
    return run_cli("solve", *args, timeout=120)


def test_placement_with_one_winning_square() -> None:
    # Two squares left (b1, a4); piece C completes the bottom row on a4, the other square cannot win.
    position = "9.6D/23B5/7F40/.81A C"
    board = Board.from_text(position)
    assert board.winning_squares(0xC) == (12,) and board.player == 1
    done = run_solve(position)
    assert done.returncode == 0, done.stderr
    assert "value: win for player 1 (to place the piece in hand)" in done.stdout
    assert "best actions (1): place a4" in done.stdout
    assert "nodes: " in done.stdout and " s" in done.stdout


def test_last_piece_that_wins_is_a_loss() -> None:
    # One square left (c2) and one piece left (5), which completes a line there.
    position = "AD0F/41.6/32E8/BC97 -"
    board = Board.from_text(position)
    assert board.winning_squares(5) == (6,) and board.player == 1
    done = run_solve(position)
    assert done.returncode == 0, done.stderr
    assert "value: loss for player 1 (to choose a piece)" in done.stdout
    assert "best actions (1): choose 5 (SDHQ)" in done.stdout


def test_many_empty_squares_warn_and_respect_max_empty() -> None:
    # Short pieces threaten d1 and tall pieces threaten d2: every piece loses, so solving is instant.
    position = "012./89A./..../.... -"
    done = run_solve(position)
    assert done.returncode == 0, done.stderr
    assert "warning: 10 empty squares" in done.stderr
    assert "value: loss for player 0" in done.stdout
    assert "best actions (10):" in done.stdout
    refused = run_solve(position, "--max-empty", "9")
    assert refused.returncode == 2
    assert "--max-empty 9" in refused.stderr and "--force" in refused.stderr
    assert refused.stderr.count("\n") == 1 and refused.stdout == ""
    forced = run_solve(position, "--max-empty", "9", "--force")
    assert forced.returncode == 0 and "value: loss" in forced.stdout


def test_bad_positions_give_one_line_and_exit_2() -> None:
    for position, problem in [
        ("5A3./.C../..x./.... -", "c3"),
        ("5A3./.C../.... -", "4 rows"),
        ("0123/..../..../.... -", "over"),
    ]:
        done = run_solve(position)
        assert done.returncode == 2, position
        assert done.stderr.count("\n") == 1 and problem in done.stderr, done.stderr
        assert done.stdout == ""
