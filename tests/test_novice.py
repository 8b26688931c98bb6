"""The novice: takes wins, gives safe pieces, is random otherwise, and reproducible by seed."""

from __future__ import annotations

from gpquarto.arena import play_game
from gpquarto.games.quarto import Board
from gpquarto.games.quarto.players.novice import NovicePlayer
from gpquarto.players.random_player import RandomPlayer
from gpquarto.resolve import make_player
from tests.helpers import random_positions


def positions(seed: int, count: int) -> list[Board]:
    return random_positions(seed, count)


def wins_at_once(board: Board, piece: int) -> bool:
    return any(board.is_winning_placement(square, piece) for square in board.empty_squares())


def test_takes_a_win_and_never_gives_one_while_a_safe_piece_exists() -> None:
    player = NovicePlayer(seed=1)
    checked_wins = checked_choices = 0
    for board in positions(seed=2, count=400):
        view = board.view()
        if board.placement_due:
            square = player.place_piece(view, board.in_hand)
            assert square in board.legal_squares()
            if wins_at_once(board, board.in_hand):
                assert board.is_winning_placement(square, board.in_hand), board.text()
                checked_wins += 1
        else:
            piece = player.choose_piece(view)
            assert piece in board.legal_pieces()
            if any(not wins_at_once(board, p) for p in board.legal_pieces()):
                assert not wins_at_once(board, piece), board.text()
                checked_choices += 1
    assert checked_wins > 10 and checked_choices > 100


def test_random_otherwise_and_reproducible_by_seed() -> None:
    board = Board()
    board.choose(3)
    squares = {NovicePlayer(seed=seed).place_piece(board.view(), 3) for seed in range(40)}
    assert len(squares) > 8
    boards = positions(seed=3, count=50)

    def decisions(player: NovicePlayer) -> list[int]:
        return [
            player.place_piece(b.view(), b.in_hand) if b.placement_due else player.choose_piece(b.view())
            for b in boards
        ]

    first = decisions(NovicePlayer(seed=5))
    assert decisions(NovicePlayer(seed=5)) == first
    reused = NovicePlayer(seed=6)
    decisions(reused)
    reused.seed(5)
    assert decisions(reused) == first
    assert decisions(NovicePlayer(seed=6)) != first
    games = [play_game((make_player("novice"), RandomPlayer()), seed=9).actions for _ in range(2)]
    assert games[0] == games[1]
