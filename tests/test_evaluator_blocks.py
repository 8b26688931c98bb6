"""The evaluator building blocks (``gpquarto.games.quarto.primitives.evaluation_blocks``) against definitions played
out move by move in this test, and the config switch that keeps them out of the runs recorded before them."""

from __future__ import annotations

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import Features, LeafFeatures
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.primitives.evaluation import forced_win
from gpquarto.games.quarto.primitives.evaluation_blocks import (
    FORCED_LOSS_HORIZON,
    _forced_losses,
    forced_loss,
    forced_outcome,
    safe_pair_parity,
)
from gpquarto.games.quarto.search.tactics import FORCED_WIN_HORIZON, SearchLeaf
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.library import EVALUATOR_BLOCKS_FAMILY, LibraryConfig, get_library
from gpquarto.training.config import EVALUATOR, EvolutionConfig
from tests.helpers import random_positions
from tests.test_evaluator_leaves import given, slow_forced_win, slow_safe_pairs, wins_somewhere


def slow_forced_loss(board: Board) -> bool:
    """Within the horizon, with a piece left to give after the one in hand: the piece in hand wins nowhere, and every
    square for it and every piece given then either wins at once for the opponent or leaves it a forced win
    (:func:`slow_forced_win`, played out on the board)."""
    pieces_left = [piece for piece in range(16) if board.available_mask >> piece & 1]
    if len(board.empty_squares()) > FORCED_LOSS_HORIZON or not pieces_left or wins_somewhere(board):
        return False
    for square in board.empty_squares():
        board.place(square)
        for piece in pieces_left:
            board.choose(piece)
            escaped = not wins_somewhere(board) and not slow_forced_win(board)
            board.undo()
            if escaped:
                board.undo()
                return False
        board.undo()
    return True


def late_positions(seed: int, rules: Rules) -> list[Board]:
    """Random positions late enough for the blocks' horizons: 80 from ``seed``, 60 later ones from ``seed + 1``."""
    return [
        *random_positions(seed, 80, rules, min_actions=18, max_actions=26),
        *random_positions(seed + 1, 60, rules, min_actions=22, max_actions=30),
    ]


@pytest.mark.parametrize("rules", [Rules.CLASSIC, Rules.ADVANCED])
def test_forced_loss_equals_its_played_out_definition_on_boards_and_leaves(rules):
    boards = late_positions(91, rules)
    seen = set()
    checked = 0
    for board in boards:
        if board.placement_due:
            expected = slow_forced_loss(board.copy())
            assert forced_loss(Features(board)) == (-100 if expected else 0), board.text()
            assert safe_pair_parity(Features(board)) == slow_safe_pairs(board.copy()) % 2, board.text()
            seen.add(expected)
            checked += 1
            continue
        pieces = board.available_mask
        candidates = tuple(piece for piece in range(16) if pieces >> piece & 1)
        losses = _forced_losses(SearchLeaf.from_board(board), pieces, candidates)
        for piece, lost in zip(candidates, losses, strict=True):
            expected = slow_forced_loss(given(board, piece))
            assert lost == expected, (board.text(), piece)
            seen.add(expected)
            checked += 1
    assert seen == {False, True} and checked > 200


def slow_forced_outcome(board: Board) -> int:
    """100 when the player to move has a forced win within the horizon (:func:`slow_forced_win`, played out on the
    board), -100 when it cannot escape the opponent's (:func:`slow_forced_loss`), else 0; both at once fails the
    test."""
    won = len(board.empty_squares()) <= FORCED_WIN_HORIZON and slow_forced_win(board.copy())
    lost = slow_forced_loss(board.copy())
    assert not (won and lost), board.text()
    return 100 if won else -100 if lost else 0


@pytest.mark.parametrize("rules", [Rules.CLASSIC, Rules.ADVANCED])
def test_forced_outcome_equals_its_played_out_definition_on_boards_and_leaves(rules):
    boards = late_positions(93, rules)
    seen = set()
    checked = 0
    for board in boards:
        if board.placement_due:
            expected = slow_forced_outcome(board)
            assert forced_outcome(Features(board)) == expected, board.text()
            seen.add(expected)
            checked += 1
            continue
        leaf = SearchLeaf.from_board(board)
        for piece in range(16):
            if board.available_mask >> piece & 1:
                expected = slow_forced_outcome(given(board, piece))
                features = LeafFeatures(leaf, board.available_mask ^ 1 << piece, piece)
                assert forced_outcome(features) == expected, (board.text(), piece)
                again = LeafFeatures(leaf, board.available_mask ^ 1 << piece, piece)  # the facts the leaf keeps
                assert forced_win(again) + forced_loss(again) == expected, (board.text(), piece)
                seen.add(expected)
                checked += 1
    assert seen == {-100, 0, 100} and checked > 200


def test_an_evaluator_config_without_the_setting_reads_without_the_blocks():
    library = get_library(LibraryConfig())
    assert {"forced_loss", "safe_pair_parity"} <= {spec.name for spec in library}
    old = EvolutionConfig.from_dict({**EvolutionConfig(genome=EVALUATOR).as_dict()})
    assert not old.evaluator_blocks and "evaluator_blocks" not in old.as_dict()
    old_library = get_library(old.library())
    assert not {spec.family for spec in old_library} & {EVALUATOR_BLOCKS_FAMILY}
    assert [spec.name for spec in old_library] == [
        spec.name for spec in library if spec.family != EVALUATOR_BLOCKS_FAMILY
    ]
    with pytest.raises(ValueError, match="forced_loss"):
        EvaluatorGenome.from_text("plus(forced_loss, one)", old_library)
    blocks = EvolutionConfig.for_game(genome=EVALUATOR, evaluator_blocks=True)
    assert blocks.as_dict()["evaluator_blocks"] is True
    assert EvolutionConfig.from_dict(blocks.as_dict()) == blocks
    EvaluatorGenome.from_text("plus(forced_loss, one)", get_library(blocks.library()))
    with pytest.raises(ValueError, match="evaluator_blocks"):
        EvolutionConfig(evaluator_blocks=True)
