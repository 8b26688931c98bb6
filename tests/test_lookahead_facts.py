"""The lookahead family's facts, pure Python and compiled, against the code that computed them before they were
planned per board and compiled (``tests/lookahead_reference.py``), on seeded positions of both rule sets."""

from __future__ import annotations

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.games.quarto.primitives import lookahead
from gpquarto.games.quarto.search import compiled_tactics, tactics
from tests import lookahead_reference as reference
from tests.helpers import random_positions
from tests.test_compiled_tactics import careful_positions

MODES = [False, True] if compiled_tactics.AVAILABLE else [False]


@pytest.fixture(scope="module", params=list(Rules), ids=lambda rules: rules.value)
def positions(request):
    seed = 3620 + list(Rules).index(request.param)
    return careful_positions(seed, 400, request.param) + random_positions(seed, 400, request.param, max_actions=32)


@pytest.mark.parametrize("compiled", MODES, ids=lambda compiled: "compiled" if compiled else "pure")
def test_the_facts_are_those_of_the_code_before(positions, monkeypatch, compiled):
    monkeypatch.setattr(compiled_tactics, "ENABLED", compiled)
    traps = looked = 0
    for board in positions:
        for source in (board.view(), board):
            features = Features(source)
            if board.in_hand == NO_PIECE:
                assert lookahead._position_reply_squares(features) == reference.reply_squares(board), board.text()
                expected = reference.fewest_reply_placements(board)
                assert lookahead._position_fewest_reply_placements(features) == expected, board.text()
            else:
                assert lookahead._safe_left_after(features) == reference.safe_left_after(board), board.text()
                assert lookahead._trap_square(features) == reference.trap_square(board), board.text()
                expected = reference.square_reply_placements(board)
                assert lookahead._square_reply_placements(features) == expected, board.text()
                traps += reference.trap_square(board) >= 0
                looked += bool(expected)
    assert traps > 20 and looked > 100


def test_placement_plans_give_what_walking_the_lines_gives(positions):
    for board in positions:
        plans = tactics.placement_plans(board)
        assert [plan[0].bit_length() - 1 for plan in plans] == list(board.empty_squares())
        for piece in range(16):  # every piece not on the board, as the piece in hand
            if piece in board.raw_cells:
                continue
            holding = Board.from_cells(board.raw_cells, piece, board.rules)
            available = holding.available_mask
            assert tactics.planned_safe_placements(plans, available, piece) == tactics.safe_placements_mask(
                holding, piece
            )
            for plan in plans:
                placed = holding.copy()
                placed.push_placement(plan[0].bit_length() - 1)
                assert tactics.planned_safe_pieces(plan, available, piece) == tactics.safe_pieces_mask(placed)
