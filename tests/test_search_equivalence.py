"""The fast search gives the same answers as the kept reference (tests/reference) on a bank of real positions.

For every minimax configuration (heuristic x depth strategy) the value and the *set* of best root moves
must be identical; the order of the moves and the node counts may differ.
"""

from __future__ import annotations

import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.players.mcts import novice_playout
from gpquarto.games.quarto.players.minimax import DEFAULT_NODE_BOUND, search_depth
from gpquarto.games.quarto.search import tactics
from gpquarto.games.quarto.search.heuristics import HEURISTICS
from gpquarto.games.quarto.search.negamax import Negamax
from gpquarto.resolve import make_player
from tests.reference import make_player as make_reference_player
from tests.reference.mcts import novice_playout as reference_novice_playout
from tests.reference.negamax import Negamax as ReferenceNegamax
from tests.search_bank import position_bank


@pytest.fixture(scope="module")
def bank() -> tuple[Board, ...]:
    """The bank of positions, built where this module runs (not as every test process collects it)."""
    return position_bank()


def answer(search, board: Board, depth: int) -> tuple[int, frozenset[tuple[int, int]]]:
    result = search.best_placement(board, depth) if board.placement_due else search.best_choice(board, depth)
    return result.value, frozenset(result.best_moves)


def depths(board: Board, heuristic: str, index: int) -> set[int]:
    """The depths the minimax strategies search here: fixed 1 and 2, full_below and deepest. Fixed 2 is
    checked where the reference is quick enough to keep the suite short: from 8 pieces placed, and for
    ``lines`` (the default) also on every third position with fewer."""
    empties = 16 - board.placed_count
    found = {1, search_depth("full_below", 1, DEFAULT_NODE_BOUND, empties)}
    found.add(search_depth("deepest", 1, DEFAULT_NODE_BOUND, empties))
    if board.placed_count >= 8 or (heuristic == "lines" and index % 3 == 0):
        found.add(2)
    return found


def test_bank_covers_both_decisions_from_0_to_12_pieces(bank) -> None:
    slots = {(board.placed_count, board.choice_due) for board in bank}
    assert slots == {(placed, choice) for placed in range(13) for choice in (True, False)}
    assert len(bank) >= 250 and len({board.text() for board in bank}) == len(bank)


@pytest.mark.parametrize("heuristic", sorted(HEURISTICS))
def test_same_values_and_best_moves_as_the_reference(bank, heuristic: str) -> None:
    checked = 0
    # The default heuristic on the whole bank; the others, slower in the reference, on every other position.
    for index, board in enumerate(bank if heuristic == "lines" else bank[::2]):
        for depth in sorted(depths(board, heuristic, index)):
            fast, slow = Negamax(heuristic), ReferenceNegamax(heuristic)
            assert answer(fast, board, depth) == answer(slow, board, depth), (board.text(), depth)
            checked += 1
    assert checked > len(bank) // 2


@pytest.mark.parametrize("heuristic", ["lines", "guaranteed_loss"])
def test_a_table_kept_through_a_game_gives_the_reference_answers(bank, heuristic: str) -> None:
    """One searcher for every decision of a game (as a player keeps it) answers like fresh references."""
    fast = Negamax(heuristic)
    games = [board for board in bank if board.placed_count == 12][:3]
    for final in games:
        fast.clear()
        replay = final.copy()
        history = []
        while replay.history:
            history.append(replay.undo())
        for action in reversed(history):
            if replay.placed_count >= 4:
                assert answer(fast, replay, 2) == answer(ReferenceNegamax(heuristic), replay, 2), replay.text()
            replay.apply(action)


def test_frontier_threat_search_matches_the_reference(bank) -> None:
    """The frontier player's threat-mode search (wins only, depth 3) on the bank's positions with a threat."""
    checked = 0
    for board in bank:
        if board.placed_count < 5 or not tactics.threat_line_count(board):
            continue
        assert answer(Negamax("wins"), board, 3) == answer(ReferenceNegamax("wins"), board, 3), board.text()
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("playout", ["random", "novice"])
def test_mcts_plays_like_the_reference(bank, playout: str) -> None:
    """Same seed, same search: MCTS picks the reference's action (its playouts draw the same numbers)."""
    for index, board in enumerate(bank[::10]):
        actions = []
        for player in (
            make_player(f"mcts:iterations=60,playout={playout}", seed=index),
            make_reference_player(f"mcts:iterations=60,playout={playout}", seed=index),
        ):
            view = board.copy().view()
            actions.append(player.choose_piece(view) if board.choice_due else player.place_piece(view, board.in_hand))
        assert actions[0] == actions[1], board.text()


def test_novice_playout_draws_like_the_reference(bank) -> None:
    for index, board in enumerate(bank):
        assert novice_playout(board, random.Random(index)) == reference_novice_playout(board, random.Random(index))
