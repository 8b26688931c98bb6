"""Shared tactics, cross-checked against brute force through the engine's own win test."""

from __future__ import annotations

import pytest

from gpquarto.games.quarto import Board, Rules
from gpquarto.games.quarto.search import tactics
from tests.helpers import random_positions


def brute_winning_squares(board: Board, piece: int) -> tuple[int, ...]:
    return tuple(s for s in board.empty_squares() if board.is_winning_placement(s, piece))


def brute_safe_pieces(board: Board) -> tuple[int, ...]:
    return tuple(p for p in board.available_pieces() if not brute_winning_squares(board, p))


def brute_safe_placements(board: Board, piece: int) -> tuple[int, ...]:
    squares = []
    for square in board.empty_squares():
        after = board.copy()
        if after.in_hand != piece:
            after.choose(piece)
        after.place(square)
        if brute_safe_pieces(after):
            squares.append(square)
    return tuple(squares)


def brute_threat_line_count(board: Board) -> int:
    count = 0
    for line in board.rules.lines:
        pieces = [board.piece_at(s) for s in line if board.piece_at(s) >= 0]
        if len(pieces) == 3 and any(all(p >> bit & 1 == pieces[0] >> bit & 1 for p in pieces) for bit in range(4)):
            count += 1
    return count


@pytest.mark.parametrize("rules", list(Rules))
def test_tactics_match_brute_force_on_random_positions(rules: Rules) -> None:
    for board in random_positions(seed=11, count=300, rules=rules):
        unused = [p for p in range(16) if p not in board.cells]
        for piece in unused:
            assert tactics.winning_squares(board, piece) == brute_winning_squares(board, piece), board.text()
        safe = brute_safe_pieces(board)
        assert tactics.safe_pieces(board) == safe, board.text()
        assert tactics.safe_pieces_mask(board) == sum(1 << p for p in safe)
        assert tactics.deadly_pieces_mask(board) == sum(1 << p for p in board.available_pieces() if p not in safe)
        for piece in board.available_pieces():
            assert tactics.is_safe_piece(board, piece) == (piece in safe)
        assert tactics.threat_line_count(board) == brute_threat_line_count(board), board.text()
        assert len(tactics.threat_lines(board)) == tactics.threat_line_count(board)
        hand = [board.in_hand] if board.in_hand >= 0 else board.available_pieces()[:3]
        for piece in hand:
            assert tactics.safe_placements(board, piece) == brute_safe_placements(board, piece), board.text()
        view = board.view()  # players pass views: same answers
        assert tactics.safe_pieces(view) == safe
        assert tactics.square_threats(view) == tactics.square_threats(board)
        assert tactics.threat_lines(view) == tactics.threat_lines(board)
        assert tactics.safe_placements_mask(view, hand[0]) == tactics.safe_placements_mask(board, hand[0])


def test_square_threats_name_the_missing_square_and_shared_characteristics() -> None:
    # Row 1 holds 0, 1, 2 (short and light: characteristics 0x80 and 0x40); column a holds 0, 4, 8 (round, hollow).
    board = Board.from_text("012./4.../8.../.... -")
    threats = tactics.square_threats(board)
    assert threats[3] == 0xC0
    assert threats[12] == 0x10 | 0x20
    assert [s for s in range(16) if threats[s]] == [3, 12]
    assert sorted(tactics.threat_lines(board)) == [(3, 0xC0), (12, 0x30)]


def test_no_threat_on_an_empty_board() -> None:
    board = Board()
    assert tactics.safe_pieces(board) == tuple(range(16))
    assert tactics.threat_line_count(board) == 0
    assert tactics.winning_squares(board, 7) == ()


def test_a_full_line_is_not_a_threat() -> None:
    board = Board.from_text("0137/..../..../.... -")
    assert tactics.threat_line_count(board) == 0
    assert tactics.safe_pieces(board) == board.available_pieces()
