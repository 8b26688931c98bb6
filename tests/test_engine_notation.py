"""Position text and ``Board.from_cells``: round trips, the start position, and clear errors on bad input."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.notation import START_TEXT
from tests.helpers import RAW_STATE_FIELDS, play_randomly


def state(board: Board) -> tuple[object, ...]:
    """Everything but the history."""
    return tuple(getattr(board, name) for name in RAW_STATE_FIELDS)


def played_position(seed: int, actions: int, rules: Rules) -> Board:
    return play_randomly(random.Random(seed), actions, rules)


def reference_text(board: Board) -> str:
    """The text format written out from the conventions, independently of the engine's formatter."""
    cells = board.cells
    rows = [
        "".join("." if cells[4 * r + c] < 0 else "0123456789ABCDEF"[cells[4 * r + c]] for c in range(4))
        for r in range(4)
    ]
    hand = "-" if board.in_hand < 0 else "0123456789ABCDEF"[board.in_hand]
    return "/".join(rows) + " " + hand + (" advanced" if board.rules is Rules.ADVANCED else "")


# ---------------------------------------------------------------- round trips
def test_start_position_text() -> None:
    assert START_TEXT == "..../..../..../.... -"
    assert Board().text() == START_TEXT and Board(Rules.ADVANCED).text() == START_TEXT + " advanced"
    assert state(Board.from_text(START_TEXT)) == state(Board())
    assert state(Board.from_text(START_TEXT + " advanced")) == state(Board(Rules.ADVANCED))
    assert state(Board.from_text(START_TEXT + " classic")) == state(Board())


def test_text_after_a_few_known_actions() -> None:
    board = Board()
    board.choose(5)
    assert board.text() == "..../..../..../.... 5"
    board.place(0)
    assert board.text() == "5.../..../..../.... -"
    board.choose(15)
    board.place(15)
    board.choose(10)
    assert board.text() == "5.../..../..../...F A"


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), actions=st.integers(0, 40), rules=st.sampled_from(list(Rules)))
def test_played_positions_round_trip(seed: int, actions: int, rules: Rules) -> None:
    board = played_position(seed, actions, rules)
    text = board.text()
    assert text == reference_text(board)
    parsed = Board.from_text(text)
    assert parsed.text() == text
    assert state(parsed) == state(board)  # player, winner, counts and masks rebuilt from the text alone
    assert parsed == board and parsed.history == ()
    assert state(Board.from_cells(board.cells, board.in_hand, board.rules)) == state(board)
    assert Board.from_text(text.lower()).text() == text  # lower-case hex digits are accepted


@st.composite
def arbitrary_cells(draw: st.DrawFn) -> tuple[list[int], int]:
    """Any placement of distinct pieces (not necessarily reachable), and maybe a piece in hand."""
    squares = draw(st.lists(st.integers(0, 15), unique=True, max_size=16))
    pieces = draw(st.permutations(range(16)))
    cells = [-1] * 16
    for square, piece in zip(squares, pieces, strict=False):
        cells[square] = piece
    spare = pieces[len(squares)] if len(squares) < 16 else -1
    return cells, draw(st.sampled_from([-1, spare]))


@settings(max_examples=300, deadline=None)
@given(position=arbitrary_cells(), rules=st.sampled_from(list(Rules)))
def test_arbitrary_positions_are_accepted_exactly_when_valid(position: tuple[list[int], int], rules: Rules) -> None:
    cells, in_hand = position
    placed = sum(piece >= 0 for piece in cells)
    wins = [line for line in rules.lines if all(cells[s] >= 0 for s in line) and reference_shared(cells, line)]
    valid = not wins or (in_hand < 0 and set.intersection(*(set(line) for line in wins)))
    if not valid:
        with pytest.raises(ValueError):
            Board.from_cells(cells, in_hand, rules)
        return
    board = Board.from_cells(cells, in_hand, rules)
    assert board.text() == reference_text(board) and state(Board.from_text(board.text())) == state(board)
    assert board.winner == (placed % 2 if wins else None)
    assert board.player == (placed % 2 if in_hand < 0 else (placed + 1) % 2)
    assert board.in_hand == in_hand and board.placed_count == placed


def reference_shared(cells: list[int], line: tuple[int, ...]) -> bool:
    pieces = [cells[s] for s in line]
    return any(len({(p >> bit) & 1 for p in pieces}) == 1 for bit in range(4))


def test_advanced_suffix() -> None:
    board = Board.from_text("1.../..../..../.... 2 advanced")
    assert board.rules is Rules.ADVANCED and board.text() == "1.../..../..../.... 2 advanced"
    assert Board.from_text("1.../..../..../.... 2 ADVANCED").rules is Rules.ADVANCED
    # the same block is a win only with the suffix
    block = "01../23../..../.... -"
    assert Board.from_text(block).winner is None
    assert Board.from_text(block + " advanced").winner == 0


# ---------------------------------------------------------------- malformed text
MALFORMED = [
    ("", r"needs 'ROWS HAND \[advanced\]', got 0 field"),
    ("..../..../..../....", "got 1 field"),
    ("..../..../..../.... - advanced extra", "got 4 field"),
    (42, "must be a string, got int"),
    ("..../..../.... -", "needs 4 rows separated by '/', got 3"),
    ("..../..../..../..../.... -", "needs 4 rows separated by '/', got 5"),
    ("..../...../..../.... -", "row 2 must have 4 cells, got 5"),
    ("..../..../..../... -", "row 4 must have 4 cells, got 3"),
    ("..../..G./..../.... -", r"cell c2 \(row 2, column 3\) must be a hex digit or '.', got 'G'"),
    ("..../..../..../...- -", r"cell d4 \(row 4, column 4\) must be a hex digit or '.', got '-'"),
    ("0.../0.../..../.... -", "piece 0 appears twice on the board \\(again at a2\\)"),
    ("..../..../..7./...7 -", "piece 7 appears twice on the board \\(again at d4\\)"),
    ("..../..../..../.... x", "piece in hand must be a hex digit or '-', got 'x'"),
    ("..../..../..../.... 12", "piece in hand must be a hex digit or '-', got '12'"),
    ("0.../..../..../.... 0", "piece in hand 0 is already on the board"),
    ("0123/4567/89AB/CDEF 0", "piece in hand 0 is already on the board"),  # a full board has no piece left
    ("0123/..../..../.... 5", "winning line, so the game is over and no piece can be in hand"),
    ("..../..../..../.... - expert", "third field must be 'advanced' or 'classic', got 'expert'"),
    # two winning lines with no square in common: no single placement could have made both
    ("0123/..../..../89AB -", "winning lines that no single last placement could have made"),
]


@pytest.mark.parametrize("text,message", MALFORMED)
def test_malformed_text_says_what_and_where(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        Board.from_text(text)
    assert "\n" not in str(caught.value)


def test_reachable_multiple_wins_are_accepted() -> None:
    # a row and a column both completed by the last piece, on a1: a legal final position
    board = Board.from_text("048C/1.../2.../3... -")
    assert board.winner == 1 and len(board.winning_lines()) == 2


# ---------------------------------------------------------------- from_cells
FROM_CELLS_ERRORS = [
    ([-1] * 15, -1, "a board has 16 cells, got 15"),
    ([-1] * 17, -1, "a board has 16 cells, got 17"),
    ([16] + [-1] * 15, -1, "cell a1 holds 16, not a piece 0..15"),
    ([-1] * 5 + [2.5] + [-1] * 10, -1, "cell b2 holds 2.5, not a piece 0..15"),
    ([-1] * 15 + ["3"], -1, "cell d4 holds '3', not a piece 0..15"),
    ([True] + [-1] * 15, -1, "cell a1 holds True, not a piece 0..15"),
    ([-1] * 16, True, "piece in hand must be 0..15 or -1, got True"),
    ([4, 4] + [-1] * 14, -1, "piece 4 appears twice on the board \\(again at b1\\)"),
    ([-1] * 16, 16, "piece in hand must be 0..15 or -1, got 16"),
    ([9] + [-1] * 15, 9, "piece in hand 9 is already on the board"),
    (list(range(4)) + [-1] * 12, 6, "winning line"),
]


@pytest.mark.parametrize("cells,in_hand,message", FROM_CELLS_ERRORS)
def test_from_cells_errors(cells: list[object], in_hand: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Board.from_cells(cells, in_hand)  # type: ignore[arg-type]


def test_from_cells_accepts_numpy_integers_and_stores_ints() -> None:
    numpy = pytest.importorskip("numpy")
    cells = numpy.full(16, -1, dtype=numpy.int8)
    cells[5] = 3
    board = Board.from_cells(list(cells), numpy.int64(7))
    assert board.text() == "..../.3../..../.... 7"
    assert all(type(cell) is int for cell in board.cells) and type(board.in_hand) is int


def test_from_cells_builds_the_position() -> None:
    cells = [-1] * 16
    cells[5], cells[10] = 3, 12
    board = Board.from_cells(tuple(cells), 7, "advanced")
    assert board.text() == "..../.3../..C./.... 7 advanced"
    assert board.player == 1 and board.in_hand == 7 and board.available_mask == 0xFFFF ^ (1 << 3 | 1 << 12 | 1 << 7)
    board.place(0)  # the position is playable
    assert board.player == 1 and board.choice_due
