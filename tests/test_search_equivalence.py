"""The fast search gives the same answers as the kept reference (tests/reference) on a bank of real positions.

For every minimax configuration (heuristic x depth strategy) the value and the *set* of best root moves
must be identical; the order of the moves and the node counts may differ.
"""

from __future__ import annotations

import pytest

from gpquarto.engine.board import Board
from gpquarto.players.minimax import DEFAULT_NODE_BOUND, search_depth
from gpquarto.search.heuristics import HEURISTICS
from gpquarto.search.negamax import Negamax
from tests.reference.negamax import Negamax as ReferenceNegamax
from tests.search_bank import position_bank

BANK = position_bank()


def answer(search, board: Board, depth: int) -> tuple[int, frozenset[tuple[int, int]]]:
    result = search.best_placement(board, depth) if board.placement_due else search.best_choice(board, depth)
    return result.value, frozenset(result.best_moves)


def depths(board: Board, heuristic: str) -> set[int]:
    """The depths the minimax strategies search here: fixed 1 and 2 (2 only with few pieces for the slower
    heuristics, to keep the suite short), full_below and deepest."""
    empties = 16 - board.placed_count
    found = {1, search_depth("full_below", 1, DEFAULT_NODE_BOUND, empties)}
    found.add(search_depth("deepest", 1, DEFAULT_NODE_BOUND, empties))
    if heuristic == "lines" or board.placed_count >= 6:
        found.add(2)
    return found


def test_bank_covers_both_decisions_from_0_to_12_pieces() -> None:
    slots = {(board.placed_count, board.choice_due) for board in BANK}
    assert slots == {(placed, choice) for placed in range(13) for choice in (True, False)}
    assert len(BANK) >= 250 and len({board.text() for board in BANK}) == len(BANK)


@pytest.mark.parametrize("heuristic", sorted(HEURISTICS))
def test_same_values_and_best_moves_as_the_reference(heuristic: str) -> None:
    checked = 0
    for board in BANK:
        for depth in sorted(depths(board, heuristic)):
            fast, slow = Negamax(heuristic), ReferenceNegamax(heuristic)
            assert answer(fast, board, depth) == answer(slow, board, depth), (board.text(), depth)
            checked += 1
    assert checked > len(BANK)


@pytest.mark.parametrize("heuristic", ["lines", "guaranteed_loss"])
def test_a_table_kept_through_a_game_gives_the_reference_answers(heuristic: str) -> None:
    """One searcher for every decision of a game (as a player keeps it) answers like fresh references."""
    fast = Negamax(heuristic)
    games = [board for board in BANK if board.placed_count == 12][:3]
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
