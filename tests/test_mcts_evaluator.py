"""The tree search with an evaluation at its leaves instead of playouts: ``mcts:iterations=N,evaluator=FILE``."""

from __future__ import annotations

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.players.mcts import MCTSPlayer
from gpquarto.games.quarto.players.mcts_leaves import leaf_reward
from gpquarto.games.quarto.search.heuristics import Heuristic, get_heuristic
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.evaluator_files import evaluator_data, save_evaluator
from gpquarto.gp.library import load_library
from gpquarto.resolve import make_player
from tests.helpers import random_positions

LIBRARY = load_library(entry_points=False)
#: Scores 10 for the player to move when the piece in hand is tall, -10 when it is short.
TALL_IS_GOOD = "score_if(in_hand_has(tall), ten, negative(ten))"


def evaluator_file(tmp_path, text: str, name: str) -> str:
    path = tmp_path / f"{name}.json"
    save_evaluator(path, evaluator_data(EvaluatorGenome.from_text(text, LIBRARY), LIBRARY))
    return str(path)


def test_the_evaluator_decides_which_piece_is_given(tmp_path):
    """From the empty board, a chooser whose evaluation says the piece in hand should be tall gives a short piece
    (the opponent would hold a tall one); the opposite evaluation gives a tall piece. Playouts alone give neither
    reliably: the evaluation is what is used."""
    good = evaluator_file(tmp_path, TALL_IS_GOOD, "tall")
    bad = evaluator_file(tmp_path, f"negative({TALL_IS_GOOD})", "short")
    for seed in range(3):
        short = make_player(f"mcts:iterations=200,evaluator={good}", seed=seed).choose_piece(Board().view())
        tall = make_player(f"mcts:iterations=200,evaluator={bad}", seed=seed).choose_piece(Board().view())
        assert short < 8 <= tall, seed  # bit 3 is tall


def test_a_seeded_search_with_an_evaluator_is_reproducible(tmp_path):
    spec = f"mcts:iterations=150,evaluator={evaluator_file(tmp_path, 'safe_square_count', 'ssc')}"
    for board in random_positions(61, 8, min_actions=1, max_actions=24):
        answers = set()
        for _ in range(2):
            player = make_player(spec, seed=5)
            view = board.view()
            answers.add(player.place_piece(view, board.in_hand) if board.placement_due else player.choose_piece(view))
        assert len(answers) == 1, board.text()
    player = make_player(spec, seed=5)
    assert isinstance(player, MCTSPlayer) and player.heuristic is not None and player.name == spec


def test_leaf_rewards_know_the_tactics_and_squash_scores():
    wins, score = get_heuristic("wins"), Heuristic("five", lambda board: 5)
    assert leaf_reward(Board.from_text("012./..../..../.... 5"), wins, searcher=0, scale=10) == (0, 1.0)
    # Pieces 0, 1, 2 on the top row: every short or light piece completes it; only the tall dark ones are safe.
    board = Board.from_text("012./..../..../.... -")
    assert leaf_reward(board, wins, searcher=0, scale=10) == (board.player, 0.5)
    player, reward = leaf_reward(board, score, searcher=0, scale=10)  # the opponent would score 5 with any safe piece
    assert player == board.player and reward == pytest.approx(1 / (1 + 2.718281828459045**0.5))
    no_safe = Board.from_text("012./89a./..../.... -")  # short or light pieces finish row 1, tall ones row 2
    assert leaf_reward(no_safe, wins, searcher=0, scale=10) == (no_safe.player, 0.0)


def test_a_heuristic_that_credits_the_searcher_is_turned_to_the_player_to_act():
    lines = get_heuristic("lines")
    boards = [
        board
        for board in random_positions(62, 200, min_actions=12, max_actions=24)
        if board.placement_due and not board.winning_squares(board.in_hand) and lines.evaluate(board)
    ]
    assert boards
    for board in boards[:5]:
        mine = leaf_reward(board, lines, searcher=board.player, scale=10)[1]
        theirs = leaf_reward(board, lines, searcher=1 - board.player, scale=10)[1]
        assert mine > 0.5 and mine == pytest.approx(1 - theirs)


def test_bad_leaf_options_are_refused_in_one_line(tmp_path):
    path = evaluator_file(tmp_path, "safe_square_count", "ssc")
    for spec, message in (
        (f"mcts:heuristic=lines,evaluator={path}", "not both"),
        ("mcts:scale=0,heuristic=wins", "scale"),
        ("mcts:heuristic=nothing", "unknown heuristic"),
    ):
        with pytest.raises(ValueError, match=message):
            make_player(spec)
