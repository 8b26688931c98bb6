"""The bitboard engine against the slow reference (tests/reference.py) on thousands of seeded random games of
several board sizes, and the interface's promises: legal actions, outcomes, position text, undo, mirror keys,
one-line errors."""

from __future__ import annotations

import os
import random

import pytest
from connect_four.game import CONNECT_FOUR
from reference import SlowConnectFour

from gpquarto.games.interface import DecisionKind, GameState, GameView, IllegalActionError, Outcome, Termination

SIZES = ((6, 7), (4, 4), (4, 9), (9, 4), (5, 6), (9, 9), (7, 5))
#: The share of the random games to play (``CONNECT_FOUR_TEST_SCALE=0.2`` for a quick run).
SCALE = float(os.environ.get("CONNECT_FOUR_TEST_SCALE", "1"))


def random_games(rows: int, columns: int, games: int, seed: int):
    """Every position of ``games`` seeded random games as (engine state, reference, action played next or None)."""
    rng = random.Random(seed)
    for _ in range(games):
        state, slow = CONNECT_FOUR.new_state(rows=rows, columns=columns), SlowConnectFour(rows, columns)
        while True:
            legal = slow.legal()
            action = rng.choice(legal) if legal else None
            yield state, slow, action
            if action is None:
                break
            state.apply(action)
            slow.drop(action)


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_the_engine_plays_as_the_reference(rows, columns):
    games = max(20, int(SCALE * {(6, 7): 500, (9, 9): 120}.get((rows, columns), 250)))
    ends = set()
    for state, slow, action in random_games(rows, columns, games, seed=rows * 10 + columns):
        assert state.legal_actions() == slow.legal() == state.view().legal_actions()
        assert [
            column for column in range(columns) if state.height(column) < rows and not state.is_over()
        ] == slow.legal()
        assert state.text() == slow.text()
        assert state.player == slow.player
        assert state.history == tuple(slow.moves)
        assert state.is_over() == slow.over() == (state.outcome() is not None)
        if action is None:
            winner = slow.winner()
            expected = Outcome(Termination.DRAW) if winner is None else Outcome(Termination.WIN, winner)
            assert state.outcome() == expected
            ends.add(expected.termination)
            assert state.legal_actions() == []
    assert Termination.WIN in ends


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_text_round_trips_and_undo_restores_every_position(rows, columns):
    for state, _, action in random_games(rows, columns, max(10, int(SCALE * 60)), seed=7 + rows + columns):
        again = CONNECT_FOUR.from_text(state.text())
        assert again.text() == state.text()
        assert again.outcome() == state.outcome()
        assert again.legal_actions() == state.legal_actions()
        assert again.canonical_key() == state.canonical_key()
        assert CONNECT_FOUR.from_text(state.text(), **state.settings()).text() == state.text()
        if action is None:
            continue
        before = (state.text(), state.canonical_key(), state.history, state.player, state.outcome())
        state.apply(action)
        assert state.undo() == action
        assert (state.text(), state.canonical_key(), state.history, state.player, state.outcome()) == before


def test_canonical_keys_join_a_position_and_its_mirror_and_nothing_else():
    owners: dict[int, set[str]] = {}
    for rows, columns in SIZES[:3]:
        owners.clear()
        for state, slow, _ in random_games(rows, columns, max(40, int(SCALE * 150)), seed=11):
            mirror = CONNECT_FOUR.from_text(slow.mirror_text())
            assert mirror.canonical_key() == state.canonical_key()
            owners.setdefault(state.canonical_key(), set()).update({slow.text(), slow.mirror_text()})
        assert all(len(texts) <= 2 for texts in owners.values())
        assert len(owners) > 250


def test_boards_of_two_sizes_share_no_key():
    keys = {CONNECT_FOUR.new_state(rows=rows, columns=columns).canonical_key() for rows, columns in SIZES}
    assert len(keys) == len(SIZES)
    for state, _, _ in random_games(9, 9, 5, seed=3):
        assert state.canonical_key() < 2**98


def test_positions_of_symmetric_boards_share_a_key_with_themselves_only():
    state = CONNECT_FOUR.new_state()
    state.apply(3)
    assert CONNECT_FOUR.from_text(state.text()).canonical_key() == state.canonical_key()
    other = CONNECT_FOUR.new_state()
    other.apply(2)
    mirror = CONNECT_FOUR.new_state()
    mirror.apply(4)
    assert other.canonical_key() == mirror.canonical_key() != state.canonical_key()


def test_a_state_and_its_view_meet_the_protocols():
    state = CONNECT_FOUR.new_state()
    view = state.view()
    assert isinstance(state, GameState) and isinstance(view, GameView)
    assert not hasattr(view, "apply") and not hasattr(view, "undo")
    assert state.game_name == view.game_name == CONNECT_FOUR.name == "connect_four"
    assert state.decision_kind() is DecisionKind.MOVE and CONNECT_FOUR.decision_kinds == (DecisionKind.MOVE,)
    state.apply(3)
    assert view.text() == state.text() and view.history == (3,)
    copy = view.copy()
    copy.apply(3)
    assert view.text() == state.text() != copy.text()
    assert state.settings() == {"rows": 6, "columns": 7}
    assert view.legal_actions() == list(range(7))


def test_illegal_actions_are_refused_and_change_nothing():
    state = CONNECT_FOUR.from_text("X..../O..../X..../O.... X")
    before = (state.text(), state.history)
    for bad in (0, -1, 5, 7, True, "1", 1.0, None):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
        assert (state.text(), state.history) == before
    with pytest.raises(IllegalActionError, match="column a is full"):
        state.apply(0)
    won = CONNECT_FOUR.from_text("..../X.../XO../XO.O X")
    won.apply(0)
    with pytest.raises(IllegalActionError, match="the game is over"):
        won.apply(1)
    with pytest.raises(IllegalActionError, match="no move to take back"):
        CONNECT_FOUR.new_state().undo()


def test_forget_history_makes_the_position_the_start():
    state = CONNECT_FOUR.new_state(rows=4, columns=5)
    for column in (2, 2, 3):
        state.apply(column)
    state.forget_history()
    assert state.history == ()
    with pytest.raises(IllegalActionError):
        state.undo()
    state.apply(1)
    assert state.undo() == 1 and state.text() == "...../...../..O../..XX. O"


def test_action_names_and_parsing():
    state = CONNECT_FOUR.new_state(columns=9)
    assert [state.action_name(column) for column in (0, 3, 8)] == ["drop a", "drop d", "drop i"]
    for column in range(9):
        assert state.parse_action(state.action_name(column)) == column
        assert state.parse_action("abcdefghi"[column]) == column
        assert state.parse_action(str(column)) == column
    assert state.parse_action("  DROP C ") == 2
    small = CONNECT_FOUR.new_state(columns=4)
    for bad in ("e", "4", "-1", "", "drop", "dd", "a1", "drop z", "\u00b2", "\u0663", "1.0"):
        with pytest.raises(ValueError, match="not a column") as error:
            small.parse_action(bad)
        assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected rows"),
        ("...... X", "expected 4 to 9 rows"),
        ("..../..../..../.... X extra", "expected rows"),
        ("..../..../..../... X", "row 4 from the top has 3 cells"),
        ("../../../.. X", "row 1 from the top has 2 cells"),
        ("..../..../..../..x. X", "row 4 from the top has 'x'"),
        ("..../..../..../.... -", "side to move must be X or O"),
        ("..../..../X.../.... O", "column a has a disc above an empty cell"),
        ("..../..../..../X... X", "so O is to move, not X"),
        ("..../..../..../O... X", "X has as many as O or one more"),
        ("..../..../..../XX.. O", "X has as many as O or one more"),
        ("...../...../OOOO./XXXX. X", "both X and O have four in a line"),
        ("..../X.../XO../XO.X O", "X has 4 discs and O 2"),
        ("X.../X.../XO../XOOO X", "X has four in a line but is to move"),
        ("...../X..../OOXOO/XXXXO O", "X has four in a line that no last disc can have made"),
    ],
)
def test_bad_position_texts_are_one_line_errors(text, message):
    with pytest.raises(ValueError, match=message) as error:
        CONNECT_FOUR.from_text(text)
    assert "\n" not in str(error.value)


def test_position_text_and_settings_must_agree():
    text = "...../...../...../...../..X.. O"
    assert CONNECT_FOUR.from_text(text, rows=5).settings() == {"rows": 5, "columns": 5}
    with pytest.raises(ValueError, match="the position has 5 columns, not 7"):
        CONNECT_FOUR.from_text(text, columns=7)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"rows": 3}, "rows must be an int from 4 to 9, got 3"),
        ({"columns": 10}, "columns must be an int from 4 to 9, got 10"),
        ({"rows": "6"}, "rows must be an int from 4 to 9, got '6'"),
        ({"rows": True}, "rows must be an int from 4 to 9, got True"),
        ({"size": 5}, "connect_four has no setting 'size'"),
    ],
)
def test_bad_settings_are_one_line_errors(settings, message):
    with pytest.raises(ValueError, match=message) as error:
        CONNECT_FOUR.new_state(**settings)
    assert "\n" not in str(error.value)


def test_finished_positions_from_text_have_their_outcome():
    won = CONNECT_FOUR.from_text("X.../XO../XO../XO.. O")
    assert won.outcome() == Outcome(Termination.WIN, 0) and won.legal_actions() == []
    assert won.winning_line() == ((0, 0), (1, 0), (2, 0), (3, 0))
    lost = CONNECT_FOUR.from_text("O.../O.../OX../OXXX X")
    assert lost.outcome() == Outcome(Termination.WIN, 1)
    full = CONNECT_FOUR.from_text("XOXO/XOXO/OXOX/OXOX X")
    assert full.outcome() == Outcome(Termination.DRAW)
