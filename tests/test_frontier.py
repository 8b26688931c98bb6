"""The frontier agent: score board by hand and by brute-force recount, and its defining decisions."""

from __future__ import annotations

import random

import pytest

from gpquarto.games.quarto import Board
from gpquarto.games.quarto.players.frontier import FrontierPlayer, frontier_rank, score_board
from gpquarto.jobs.matches import run_match
from gpquarto.resolve import make_player
from tests.helpers import random_positions


def positions(seed: int, count: int) -> list[Board]:
    return random_positions(seed, count, max_actions=28)


def agreeing_attributes(piece: int, source: list[int]) -> int:
    return sum(all((other >> bit & 1) == (piece >> bit & 1) for other in source) for bit in range(4))


def brute_score_board(board: Board, piece: int) -> list[int]:
    scores = [0] * 16
    for square in board.empty_squares():
        for line in board.rules.lines:
            if square in line:
                source = [board.piece_at(s) for s in line if board.piece_at(s) >= 0]
                if 1 <= len(source) <= 3:
                    scores[square] += agreeing_attributes(piece, source) * 10 ** (len(source) - 1)
    return scores


def wins_at_once(board: Board, piece: int) -> bool:
    return any(board.is_winning_placement(square, piece) for square in board.empty_squares())


def safe_pieces_after(board: Board, square: int, piece: int) -> list[int]:
    after = board.copy()
    if after.in_hand != piece:
        after.choose(piece)
    after.place(square)
    return [p for p in after.available_pieces() if not wins_at_once(after, p)]


def test_score_board_by_hand() -> None:
    # Piece 0 (short light hollow round) on a1, piece F (tall dark solid square) on d4. Piece 1 agrees with 0
    # on three attributes (rank 3), with F on one (square), and with both on none: the diagonal scores 0.
    board = Board.from_text("0.../..../..../...f -")
    expected = [0] * 16
    for square in (1, 2, 4, 8):
        expected[square] = 3
    expected[3] = expected[12] = 3 + 1
    for square in (7, 11, 13, 14):
        expected[square] = 1
    assert score_board(board, 1) == expected
    # Pieces 0, 1, 2 on row 1 share "short" and "light"; piece 5 is short (rank 1 against a three-piece
    # source: weight 100 on d1), and agrees with 0 on 2 attributes, with 1 on 3, with 2 on 1.
    board = Board.from_text("012./..../..../.... -")
    expected = [0] * 16
    expected[3] = 100
    for square in (4, 8, 12, 15):
        expected[square] = 2
    expected[5] = 3 + 2
    expected[9] = expected[13] = 3
    expected[6] = expected[14] = 1
    expected[10] = 1 + 2
    assert score_board(board, 5) == expected


def test_score_board_matches_a_recount_on_random_positions() -> None:
    for board in positions(seed=1, count=150):
        for piece in range(16):
            if piece not in board.cells:
                assert score_board(board, piece) == brute_score_board(board, piece), (board.text(), piece)


def test_frontier_rank() -> None:
    rng = random.Random(2)
    for _ in range(300):
        source = rng.sample(range(16), rng.randrange(1, 4))
        piece = rng.choice([p for p in range(16) if p not in source])
        assert frontier_rank(piece, source) == agreeing_attributes(piece, source)


def test_takes_a_win_and_never_gives_a_losing_piece_while_a_safe_one_exists() -> None:
    player = FrontierPlayer(depth=1)
    wins = choices = 0
    for board in positions(seed=3, count=300):
        view = board.view()
        if board.placement_due:
            square = player.place_piece(view, board.in_hand)
            if wins_at_once(board, board.in_hand):
                assert board.is_winning_placement(square, board.in_hand), board.text()
                wins += 1
        else:
            piece = player.choose_piece(view)
            if any(not wins_at_once(board, p) for p in board.legal_pieces()):
                assert not wins_at_once(board, piece), board.text()
                choices += 1
    assert wins > 10 and choices > 50


def test_safe_mode_follows_the_score_board() -> None:
    player = FrontierPlayer(seed=1)
    quiet = varied = 0
    for board in positions(seed=4, count=400):
        unused = [p for p in range(16) if p not in board.cells]
        if any(wins_at_once(board, p) for p in unused):
            continue  # threat mode
        quiet += 1
        if board.placement_due:
            piece = board.in_hand
            scores = brute_score_board(board, piece)
            ranked = sorted(board.empty_squares(), key=lambda s: (scores[s], s))
            candidates = [s for s in ranked if safe_pieces_after(board, s, piece)] or ranked
            lowest = [s for s in candidates if scores[s] == scores[candidates[0]]]
            picks = {player.place_piece(board.view(), piece) for _ in range(12)}
        else:
            totals = {p: sum(brute_score_board(board, p)) for p in board.legal_pieces()}
            lowest = [p for p in totals if totals[p] == min(totals.values())]
            picks = {player.choose_piece(board.view()) for _ in range(12)}
        assert picks <= set(lowest), board.text()
        varied += len(picks) > 1
    assert quiet > 100 and varied > 30  # ties are broken at random


def test_gives_the_piece_its_threat_search_planned() -> None:
    board = Board.from_text("012./4.../8.../.... 3")  # row 1 needs short or light, column a hollow or round
    player = FrontierPlayer()
    square = player.place_piece(board.view(), 3)
    assert board.is_winning_placement(square, 3)
    board = Board.from_text("012./4.../8.../.... f")  # F (tall dark solid square) wins nowhere: a search
    square = player.place_piece(board.view(), 15)
    nodes = player.nodes
    assert nodes > 0
    board.place(square)
    piece = player.choose_piece(board.view())
    assert player.nodes == nodes and piece in board.legal_pieces()


def test_same_seed_same_play() -> None:
    for board in positions(seed=5, count=40):
        decisions = []
        for _ in range(2):
            player = FrontierPlayer(seed=7)
            view = board.view()
            decisions.append(
                [
                    player.place_piece(view, board.in_hand) if board.placement_due else player.choose_piece(view)
                    for _ in range(5)
                ]
            )
        assert decisions[0] == decisions[1], board.text()


def test_a_match_against_minimax_plays_many_different_games() -> None:
    # Both players are deterministic searchers: only their seeded tie-breaking makes the games differ.
    result = run_match("frontier:depth=1", "minimax:depth=1", 12, seed=3, keep_records=True)
    assert len({tuple(record.actions) for record in result.records}) >= 10


def test_bad_depth() -> None:
    with pytest.raises(ValueError, match="depth must be 1 to 16, got 0"):
        make_player("frontier:depth=0")
