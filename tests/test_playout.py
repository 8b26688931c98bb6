"""Fast playout paths agree exactly with the engine and in distribution with random players."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gpquarto.arena import play_game
from gpquarto.games.quarto.board import PLACE_OFFSET, Board
from gpquarto.games.quarto.playout import (
    NO_WINNER,
    PLAYOUT_RANDOM_BITS,
    playout_outcomes,
    random_playout,
    random_playouts,
)
from gpquarto.players.random_player import RandomPlayer
from tests.helpers import random_positions


def positions(count, seed, rules="classic"):
    """Positions reached by seeded random play, at every stage and both decision kinds, finished ones too."""
    return random_positions(seed, count, rules, min_actions=0, keep_over=True)


def reference_random_playout(board, rng):
    """Slow reference: the draws random_playout documents (the mixed-radix digits of one random
    integer, each indexing the pieces or squares left), played through the public Board API."""
    board = board.copy()
    pieces = list(board.available_pieces())
    squares = list(board.empty_squares())
    draws = rng.getrandbits(PLAYOUT_RANDOM_BITS)
    while not board.is_over():
        options = pieces if board.choice_due else squares
        draws, index = divmod(draws, len(options))
        board.apply(options.pop(index) + (0 if board.choice_due else PLACE_OFFSET))
    return NO_WINNER if board.winner is None else board.winner


@pytest.mark.parametrize("rules", ["classic", "advanced"])
def test_single_playout_equals_engine_play_with_the_same_draws(rules):
    for index, board in enumerate(positions(300, 1, rules)):
        before = board.text()
        fast = random_playout(board, random.Random(index))
        slow = reference_random_playout(board, random.Random(index))
        assert fast == slow, board.text()
        assert board.text() == before  # the board is not changed


@pytest.mark.parametrize("rules", ["classic", "advanced"])
def test_batched_outcomes_equal_engine_play_of_the_same_orders(rules):
    rng = np.random.default_rng(5)
    for board in positions(150, 2, rules):
        empty = np.array(board.empty_squares())
        available = np.array(board.available_pieces())
        square_order = np.array([rng.permutation(empty) for _ in range(4)]).reshape(4, len(empty))
        piece_order = np.array([rng.permutation(available) for _ in range(4)]).reshape(4, len(available))
        outcomes = playout_outcomes(board, square_order, piece_order)
        for game in range(4):
            replay = board.copy()
            pieces = list(piece_order[game])
            squares = list(square_order[game])
            while not replay.is_over():
                if replay.choice_due:
                    replay.choose(int(pieces.pop(0)))
                else:
                    replay.place(int(squares.pop(0)))
            expected = NO_WINNER if replay.winner is None else replay.winner
            assert outcomes[game] == expected, board.text()


def test_over_positions_return_their_result():
    won = Board.from_text("0123/..../..../.... -")
    assert random_playout(won) == won.winner
    assert set(random_playouts(won, 5, np.random.default_rng(0))) == {won.winner}


def test_three_paths_agree_in_distribution():
    """Seat-0 win rate from the start: player API vs both fast paths, within sampling error."""
    games = 4000
    api = [play_game((RandomPlayer(), RandomPlayer()), seed=s).winner for s in range(games)]
    api_rate = sum(1 for w in api if w == 0) / games
    rng = random.Random(1)
    single_rate = sum(1 for _ in range(games) if random_playout(Board(), rng) == 0) / games
    batched_rate = float(np.mean(random_playouts(Board(), 40000, np.random.default_rng(1)) == 0))
    # Three standard errors of a difference of two rates near one half with 4000 games is ~0.034.
    assert abs(api_rate - batched_rate) < 0.034
    assert abs(single_rate - batched_rate) < 0.034
    assert 0.4 < batched_rate < 0.6


def test_negative_games_rejected():
    with pytest.raises(ValueError, match="games must be >= 0"):
        random_playouts(Board(), -1, np.random.default_rng(0))
