"""OpenSpiel's games as gpquarto games (``openspiel:NAME(params)``): the interface's invariants on a dozen of its
board games (the checks of :mod:`tests.test_game_interface`), what the wrapper adds (undo, position text, names),
and the one-line refusals."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from gpquarto.games.capabilities import Board
from gpquarto.games.interface import IllegalActionError, Termination
from gpquarto.games.registry import get_game, get_plugin
from tests import test_game_interface as conformance
from tests.openspiel_support import BOARD_GAMES, need_pyspiel

pyspiel = need_pyspiel()


@pytest.mark.parametrize("name", BOARD_GAMES)
def test_board_games_meet_the_interface(name):
    games = BOARD_GAMES[name]
    game = get_game(name)
    conformance.check_protocols(game.name)
    conformance.check_invariants(game.name, games)
    conformance.check_illegal_actions(game.name, max(2, games // 10))
    conformance.check_view(game.name)


@pytest.mark.parametrize("name", [name for name in BOARD_GAMES if "ultimate" not in name and "morris" not in name])
def test_random_games_end_in_wins(name):
    conformance.check_outcomes(name, BOARD_GAMES[name])


def test_states_follow_pyspiel_move_for_move():
    game = get_game("openspiel:connect_four")
    rng = random.Random(4)
    for _ in range(50):
        state, spiel = game.new_state(), pyspiel.load_game("connect_four").new_initial_state()
        while not spiel.is_terminal():
            assert state.legal_actions() == spiel.legal_actions() and state.player == spiel.current_player()
            action = rng.choice(spiel.legal_actions())
            assert state.action_name(action) == spiel.action_to_string(spiel.current_player(), action)
            state.apply(action)
            spiel.apply_action(action)
        returns = spiel.returns()
        outcome = state.outcome()
        assert outcome.score(0) == {1.0: 1.0, 0.0: 0.5, -1.0: 0.0}[returns[0]]


def test_undo_goes_back_past_a_copy_and_forget_history_stops_it():
    game = get_game("openspiel:tic_tac_toe")
    state = game.new_state()
    for action in (4, 0, 8):
        state.apply(action)
    twin = state.copy()
    assert twin.undo() == 8 and twin.undo() == 0 and twin.text() == "start 4"  # replayed: a copy keeps no clones
    assert state.text() == "start 4 0 8" and state.history == (4, 0, 8)
    state.forget_history()
    assert state.history == () and state.text() == "start 4 0 8"
    with pytest.raises(IllegalActionError, match="no action to take back"):
        state.undo()
    for action in (1, 2, 3, 5):
        state.apply(action)
    assert state.outcome().winner == 0 and state.player == 1  # x filled 2-5-8
    assert state.undo() == 5 and not state.is_over()


def test_position_text_names_bad_actions_and_settings_in_one_line():
    game = get_game("openspiel:tic_tac_toe")
    assert game.from_text("start 4 0").text() == "start 4 0"
    for text, words in (("4 0", "expected 'start'"), ("start 4 4", "action 2 of the position, '4', is not legal"),
                        ("start x", "action 1 of the position, 'x'"), ("", "expected 'start'")):  # fmt: skip
        with pytest.raises(ValueError, match=words):
            game.from_text(text)
    with pytest.raises(ValueError, match="parameters go in its name"):
        game.new_state(rows=3)


def test_action_names_read_back_in_any_case_or_as_ints():
    state = get_game("openspiel:breakthrough(rows=5,columns=5)").new_state()
    first = state.legal_actions()[0]
    assert state.parse_action(state.action_name(first).upper()) == first
    assert state.parse_action(str(first)) == first
    with pytest.raises(
        ValueError, match="not a move of openspiel:breakthrough\\(columns=5,rows=5\\): 'zz' \\(legal now: "
    ):
        state.parse_action("zz")


def test_names_are_canonical_and_refusals_name_the_missing_trait():
    assert get_plugin("openspiel:breakthrough(rows=5, columns=5)").name == "openspiel:breakthrough(columns=5,rows=5)"
    assert get_plugin("openspiel:connect_four()") is get_plugin("openspiel:connect_four")
    for name, words in (
        ("openspiel:kuhn_poker", "OpenSpiel's game 'kuhn_poker' is not deterministic: gpquarto plays"),
        ("openspiel:matrix_rps", "is not sequential"),
        ("openspiel:chess_nonexistent", "OpenSpiel has no game 'chess_nonexistent'"),
        (
            "openspiel:breakthrough(rows=x)",
            "OpenSpiel cannot load 'breakthrough\\(rows=x\\)': Wrong type for parameter rows",
        ),
        ("openspiel:", "expected openspiel:NAME or openspiel:NAME\\(param=value,...\\)"),
        # an absurd board is refused before OpenSpiel allocates it (rows=99999999 exhausted the memory)
        ("openspiel:breakthrough(rows=99999999,columns=5)", "'breakthrough': a parameter of 99999999 is too large"),
        ("openspiel:hex(board_size=-101)", "a parameter of -101 is too large \\(at most 100 here\\)"),
        ("openspiel:hex(board_size=" + "9" * 5000 + ")", "a parameter of 999999999999 is too large"),
    ):
        with pytest.raises(ValueError, match=words):
            get_plugin(name)


def test_grid_observations_are_boards():
    plugin = get_plugin("openspiel:tic_tac_toe")
    board = plugin.capability(Board)
    state = plugin.game.new_state()
    assert board.shape({}) == (3, 3) and board.cells(state) == (0,) * 9
    state.apply(4)
    state.apply(0)
    cells = board.cells(state.view())
    assert cells[4] != 0 and cells[0] != 0 and cells[4] != cells[0] and cells.count(0) == 7
    assert not get_plugin("openspiel:ultimate_tic_tac_toe").offers(Board)  # a flat tensor: the text is the drawing
    connect_four = get_plugin("openspiel:connect_four")
    state = connect_four.game.new_state()
    state.apply(3)
    cells = connect_four.capability(Board).cells(state)
    assert cells[5 * 7 + 3] == 1 and cells.count(0) == 41  # the first disc in the bottom row, as OpenSpiel draws it


def test_a_finished_game_says_who_won():
    state = get_game("openspiel:tic_tac_toe").new_state()
    for action in (0, 3, 1, 4, 2):
        state.apply(action)
    assert state.outcome().termination is Termination.WIN and state.outcome().winner == 0
    assert str(state).endswith("seat 0 wins") and state.legal_actions() == []


def test_the_command_line_help_does_not_import_pyspiel():
    code = "import sys; from gpquarto.cli import main\ntry: main(['--help'])\nexcept SystemExit: pass\nprint('pyspiel' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert found.strip().splitlines()[-1] == "False"
