"""Features: computed lazily, once per decision; facts checked against slow recounts."""

from __future__ import annotations

import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.search import tactics
from gpquarto.gp.library import load_library
from gpquarto.gp.primitives import PrimitiveLibrary

ROWS = [[4 * row + col for col in range(4)] for row in range(4)]
COLUMNS = [[4 * row + col for row in range(4)] for col in range(4)]


@pytest.fixture(scope="module")
def library() -> PrimitiveLibrary:
    return load_library(entry_points=False)


def play_random(seed: int, *, until_draw: bool = False, pieces: int = 9) -> Board:
    rng = random.Random(seed)
    while True:
        board = Board(Rules.CLASSIC)
        while not board.is_over() and (until_draw or board.placed_count < pieces or not board.placement_due):
            actions = board.legal_actions()
            board.apply(actions[rng.randrange(len(actions))])
        if board.is_draw() if until_draw else not board.is_over():
            return board


def counting(monkeypatch, name: str) -> list[int]:
    """Replace ``tactics.<name>`` by a wrapper counting its calls."""
    calls = []
    original = getattr(tactics, name)

    def wrapper(*args):
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(tactics, name, wrapper)
    return calls


def test_nothing_is_computed_when_built(monkeypatch):
    calls = counting(monkeypatch, "safe_pieces")
    features = Features(play_random(1).view())
    cached = {
        "empty_squares",
        "line_counts",
        "line_shared",
        "safe_pieces",
        "safe_squares",
        "winning_squares",
        "characteristic_counts",
    }
    assert not cached & set(vars(features)) and not calls


def test_each_fact_is_computed_once_per_decision_and_only_when_used(monkeypatch, library):
    safe_calls = counting(monkeypatch, "safe_pieces")
    placement_calls = counting(monkeypatch, "safe_placements_mask")
    board = play_random(2)
    features = Features(board.view())
    for name in ("pieces_in_diagonal", "square_in_fuller_column", "in_diagonal", "most_used_row_square"):
        spec = library.get(name)
        spec.function(features, *([0] * len(spec.arg_types)))
    assert not safe_calls and not placement_calls and "line_shared" not in vars(features)
    some_piece = board.available_pieces()[0]
    for name, children in (
        ("safe_piece", ()),
        ("is_safe_piece", (some_piece,)),
        ("safe_piece_exists", ()),
        ("safe_pieces_left", ()),
    ):
        library.get(name).function(features, *children)
    assert len(safe_calls) == 1 and not placement_calls
    for _ in range(3):
        library.get("safe_square").function(features)
        library.get("is_safe_square").function(features, board.empty_squares()[0])
    assert len(placement_calls) == 1
    assert Features(board.view()).safe_pieces == features.safe_pieces  # a new decision computes again
    assert len(safe_calls) == 2


def test_line_facts_match_recounts_on_random_positions():
    for seed in range(60):
        board = play_random(seed, pieces=seed % 14)
        features = Features(board.view() if seed % 2 else board)  # a view or the board itself
        cells = board.cells
        rows = [sum(cells[s] != -1 for s in row) for row in ROWS]
        columns = [sum(cells[s] != -1 for s in column) for column in COLUMNS]
        assert features.line_counts[:8] == tuple(rows + columns)
        assert features.least_used_row == rows.index(min(rows)) and features.most_used_row == rows.index(max(rows))
        assert features.least_used_column == columns.index(min(columns))
        open_rows = [count if count < 4 else -1 for count in rows]
        assert features.most_used_row_not_complete == (open_rows.index(max(open_rows)) if max(open_rows) >= 0 else -1)
        assert features.empty_squares == tuple(s for s in range(16) if cells[s] == -1)
        assert features.available_pieces == tuple(p for p in range(16) if p not in cells and p != board.in_hand)


def test_full_board_has_no_open_line_and_no_proposal(library):
    board = play_random(3, until_draw=True)
    features = Features(board.view())
    assert features.most_used_row_not_complete == -1 and features.most_used_column_not_complete == -1
    assert library.get("pieces_in_most_used_row_not_complete").function(features) == 0
    assert library.get("most_used_column_square").function(features) == -1
    assert library.get("in_most_used_row_not_complete").function(features, 0) is False


def test_legality_helpers_reject_out_of_range_values():
    board = Board()
    board.choose(5)
    board.place(0)
    features = Features(board.view())
    assert not features.is_legal_square(0) and features.is_legal_square(15)
    assert not features.is_legal_square(-1) and not features.is_legal_square(16)
    assert not features.is_legal_piece(5) and features.is_legal_piece(0)
    assert not features.is_legal_piece(-1) and not features.is_legal_piece(16)
