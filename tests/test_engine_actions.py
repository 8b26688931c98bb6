"""Turn order, legal actions, apply/undo/copy, and illegal actions leaving the board unchanged."""

from __future__ import annotations

import random

import pytest

from gpquarto.games.quarto.board import PLACE_OFFSET, Board, IllegalActionError
from gpquarto.games.quarto.lines import Rules
from tests.helpers import RAW_STATE_FIELDS, play_randomly, random_positions

INTERNAL_FIELDS = (*RAW_STATE_FIELDS, "history")


def snapshot(board: Board) -> tuple[object, ...]:
    """Everything a board holds, copied, plus its text."""
    return (board.text(),) + tuple(
        list(getattr(board, name)) if isinstance(getattr(board, name), list) else getattr(board, name)
        for name in INTERNAL_FIELDS
    )


def finished_game(rng: random.Random, want_draw: bool) -> Board:
    while True:
        board = play_randomly(rng, 40)
        if board.is_draw() == want_draw:
            return board


# ---------------------------------------------------------------- turn order and legal actions
def test_start_position() -> None:
    board = Board()
    assert board.player == 0 and board.in_hand == -1 and board.choice_due and not board.placement_due
    assert board.legal_pieces() == tuple(range(16)) and board.legal_squares() == ()
    assert board.legal_actions() == tuple(range(16))
    assert board.available_pieces() == tuple(range(16)) and board.empty_squares() == tuple(range(16))
    assert board.placed_count == 0 and board.occupied_mask == 0 and board.available_mask == 0xFFFF
    assert board.winner is None and not board.is_over() and not board.is_draw() and board.history == ()


def test_turn_order_and_legal_actions_through_random_games() -> None:
    rng = random.Random(11)
    for _ in range(60):
        board = Board(rng.choice(list(Rules)))
        used: set[int] = set()
        while not board.is_over():
            k = board.placed_count
            # choice phase: the player who placed the previous piece (player 0 at the start) chooses
            assert board.choice_due and board.player == k % 2
            assert board.legal_squares() == ()
            assert board.legal_pieces() == tuple(p for p in range(16) if p not in used)
            assert board.legal_actions() == board.legal_pieces()
            piece = rng.choice(board.legal_pieces())
            board.choose(piece)
            used.add(piece)
            # placement phase: the placer of the k-th piece is player (k + 1) % 2
            assert board.placement_due and not board.choice_due and board.in_hand == piece
            assert board.player == (k + 1) % 2
            assert board.legal_pieces() == ()
            empty = tuple(s for s in range(16) if board.piece_at(s) == -1)
            assert board.legal_squares() == empty == board.empty_squares()
            assert board.legal_actions() == tuple(PLACE_OFFSET + s for s in empty)
            assert board.available_pieces() == tuple(p for p in range(16) if p not in used)
            assert board.available_mask == sum(1 << p for p in range(16) if p not in used)
            square = rng.choice(empty)
            board.place(square)
            assert board.piece_at(square) == piece and board.cells[square] == piece
            assert board.player == (k + 1) % 2  # the placer keeps the turn to choose
            assert board.placed_count == k + 1
            assert board.occupied_mask == sum(1 << s for s in range(16) if board.piece_at(s) != -1)
        assert board.legal_actions() == () and board.legal_pieces() == () and board.legal_squares() == ()
        assert not board.choice_due and not board.placement_due
        if board.winner is not None:
            last = board.placed_count - 1  # index k of the winning piece; its placer is (k + 1) % 2
            assert board.winner == (last + 1) % 2 == board.player


def test_apply_matches_choose_and_place() -> None:
    rng = random.Random(5)
    for _ in range(40):
        by_apply, by_methods = Board(), Board()
        while not by_apply.is_over():
            action = rng.choice(by_apply.legal_actions())
            by_apply.apply(action)
            if action < PLACE_OFFSET:
                by_methods.choose(action)
            else:
                by_methods.place(action - PLACE_OFFSET)
            assert snapshot(by_apply) == snapshot(by_methods)
            assert by_apply.history[-1] == action
        assert by_apply.is_over() and by_methods.is_over()


def test_view_follows_the_board_and_copies_are_mutable() -> None:
    rng = random.Random(8)
    board = play_randomly(rng, 9)
    view = board.view()
    assert view.text() == board.text() and view.cells == board.cells and view.in_hand == board.in_hand
    assert view.legal_actions() == board.legal_actions() and view.player == board.player
    board.apply(board.legal_actions()[0])
    assert view.text() == board.text() and view.history == board.history
    search = view.copy()
    search.apply(search.legal_actions()[0])
    assert search.text() != board.text() and view.text() == board.text()
    assert not hasattr(view, "place") and not hasattr(view, "choose") and not hasattr(view, "undo")


# ---------------------------------------------------------------- undo and copy
def test_undo_restores_everything_exactly() -> None:
    rng = random.Random(2024)
    for _ in range(80):
        board = Board(rng.choice(list(Rules)))
        snapshots = [snapshot(board)]
        redo: list[int] = []
        for _step in range(60):
            move = rng.random()
            if move < 0.3 and board.history:
                action = board.undo()
                snapshots.pop()
                assert snapshot(board) == snapshots[-1]
                redo.append(action)
            elif move < 0.45 and redo:
                board.apply(redo.pop())
                snapshots.append(snapshot(board))
            elif not board.is_over():
                board.apply(rng.choice(board.legal_actions()))
                snapshots.append(snapshot(board))
                redo.clear()
        while board.history:  # unwind to the start
            board.undo()
            snapshots.pop()
            assert snapshot(board) == snapshots[-1]
        assert snapshot(board) == snapshot(Board(board.rules))


def test_undo_returns_the_action_and_refuses_an_empty_history() -> None:
    board = Board()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        board.undo()
    board.choose(3)
    board.place(7)
    assert board.undo() == PLACE_OFFSET + 7 and board.undo() == 3
    assert Board.from_text("3.../..../..../.... -").history == ()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        Board.from_text("3.../..../..../.... -").undo()


def test_undo_a_winning_placement_clears_the_winner() -> None:
    board = Board()
    for piece, square in ((0, 0), (1, 1), (2, 2)):
        board.choose(piece)
        board.place(square)
    board.choose(3)
    before = snapshot(board)
    board.place(3)
    assert board.winner == 0 and board.is_over()
    board.undo()
    assert snapshot(board) == before and board.winner is None and board.legal_squares() == tuple(range(3, 16))


def test_copy_is_independent() -> None:
    rng = random.Random(99)
    for _ in range(30):
        board = play_randomly(rng, rng.randrange(0, 25), rng.choice(list(Rules)))
        copy = board.copy()
        assert snapshot(copy) == snapshot(board) and copy == board and hash(copy) == hash(board)
        original = snapshot(board)
        while not copy.is_over():
            copy.apply(rng.choice(copy.legal_actions()))
        assert snapshot(board) == original
        while copy.history:
            copy.undo()
        assert snapshot(board) == original
        if not board.is_over():
            other = board.copy()
            board.apply(rng.choice(board.legal_actions()))
            assert snapshot(other) == original


# ---------------------------------------------------------------- illegal actions
def expect_illegal(board: Board, call, message: str) -> None:
    before = snapshot(board)
    with pytest.raises(IllegalActionError, match=message):
        call()
    assert snapshot(board) == before


def placement_due_board() -> Board:
    board = Board()
    board.choose(4)
    board.place(5)
    board.choose(9)
    return board


NON_INTS = [True, False, 1.0, 2.5, "3", "a1", None, [1]]


def test_illegal_actions_when_a_choice_is_due() -> None:
    board = Board()
    board.choose(4)
    board.place(5)
    expect_illegal(board, lambda: board.choose(4), "piece 4 is already used")
    expect_illegal(board, lambda: board.place(6), "a choice is due")
    expect_illegal(board, lambda: board.apply(PLACE_OFFSET + 6), "a choice is due")
    for bad in (-1, 16, 100):
        expect_illegal(board, lambda bad=bad: board.choose(bad), "a piece must be an int 0..15")
    for bad in NON_INTS:
        expect_illegal(board, lambda bad=bad: board.choose(bad), "a piece must be an int 0..15")
        expect_illegal(board, lambda bad=bad: board.apply(bad), "an action must be an int 0..31")
    for bad in (-1, 32, 1000):
        expect_illegal(board, lambda bad=bad: board.apply(bad), "an action must be an int 0..31")


def test_illegal_actions_when_a_placement_is_due() -> None:
    board = placement_due_board()
    expect_illegal(board, lambda: board.place(5), "square 5 is occupied")
    expect_illegal(board, lambda: board.apply(PLACE_OFFSET + 5), "square 5 is occupied")
    expect_illegal(board, lambda: board.choose(9), "a placement is due")  # the piece in hand, again
    expect_illegal(board, lambda: board.choose(0), "a placement is due")
    expect_illegal(board, lambda: board.apply(0), "a placement is due")
    for bad in (-1, 16, 100):
        expect_illegal(board, lambda bad=bad: board.place(bad), "a square must be an int 0..15")
    for bad in NON_INTS:
        expect_illegal(board, lambda bad=bad: board.place(bad), "a square must be an int 0..15")
        expect_illegal(board, lambda bad=bad: board.apply(bad), "an action must be an int 0..31")


@pytest.mark.parametrize("want_draw", [False, True])
def test_no_action_after_the_end(want_draw: bool) -> None:
    board = finished_game(random.Random(4 + want_draw), want_draw)
    assert board.is_over()
    for piece in range(16):
        expect_illegal(board, lambda piece=piece: board.choose(piece), "the game is over")
    for square in range(16):
        expect_illegal(board, lambda square=square: board.place(square), "the game is over")
        expect_illegal(board, lambda square=square: board.apply(PLACE_OFFSET + square), "the game is over")


def test_numpy_integers_are_accepted_and_stored_as_ints() -> None:
    numpy = pytest.importorskip("numpy")
    board = Board()
    board.choose(numpy.int64(4))
    board.place(numpy.uint8(5))
    board.apply(numpy.int32(9))
    board.apply(numpy.int16(PLACE_OFFSET + 6))
    assert board.history == (4, PLACE_OFFSET + 5, 9, PLACE_OFFSET + 6)
    assert all(type(value) is int for value in (*board.history, *board.cells))
    expect_illegal(board, lambda: board.choose(numpy.int64(4)), "piece 4 is already used")
    expect_illegal(board, lambda: board.choose(numpy.bool_(True)), "a piece must be an int 0..15")


def test_illegal_actions_are_value_errors_with_one_line_messages() -> None:
    board = placement_due_board()
    for call in (lambda: board.place(5), lambda: board.choose(1), lambda: board.place("x"), lambda: board.apply(None)):
        with pytest.raises(ValueError) as caught:
            call()
        assert isinstance(caught.value, IllegalActionError)
        assert str(caught.value) and "\n" not in str(caught.value)


def test_random_illegal_attempts_never_change_the_board() -> None:
    rng = random.Random(31)
    attempts = 0
    for _ in range(40):
        board = Board(rng.choice(list(Rules)))
        while not board.is_over():
            legal = set(board.legal_actions())
            for action in rng.sample(range(-2, 34), 10):
                if action not in legal:
                    expect_illegal(board, lambda board=board, action=action: board.apply(action), ".")
                    attempts += 1
            board.apply(rng.choice(sorted(legal)))
    assert attempts > 1000


def test_view_answers_every_query_like_its_board_and_cannot_change_it():
    for board in random_positions(5, 40, keep_over=True):
        view = board.view()
        for name in RAW_STATE_FIELDS + ("cells", "history", "choice_due", "placement_due", "winner"):
            assert (
                tuple(getattr(view, name)) == tuple(getattr(board, name))
                if name
                in (
                    "raw_cells",
                    "cells",
                    "history",
                )
                else getattr(view, name) == getattr(board, name)
            ), name
        assert view.legal_actions() == board.legal_actions()
        assert view.text() == board.text()
        assert isinstance(view.raw_cells, tuple)  # a copy: a player cannot write into the board
        for action in ("choose", "place", "apply", "undo", "push_choice", "push_placement"):
            assert not hasattr(view, action)
        with pytest.raises(AttributeError):
            view.in_hand = 3
