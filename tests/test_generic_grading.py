"""The grade bank of a game that offers no bank of its own (tic-tac-toe, written in the tests): positions from the
generic zoo's games, solved by the generic solver, checked here against a plain minimax; cached, graded and
described like Quarto's and Quixo's."""

from __future__ import annotations

import pytest

from gpquarto.games.registry import register_plugin, unregister_plugin
from gpquarto.grading.bank import BankParameters, GenericBank, build_bank, grading_bank
from gpquarto.grading.cache import load_or_build_bank
from gpquarto.grading.grade import grade_players
from gpquarto.grading.report import format_reports
from tests import tictactoe


@pytest.fixture(autouse=True)
def tictactoe_installed():
    register_plugin(tictactoe.PLUGIN)
    yield
    unregister_plugin(tictactoe.GAME.name)


def exact(state) -> int:
    """1, 0 or -1 for the side to move: every line to the end, no pruning."""
    best = -1
    for action in state.legal_actions():
        state.apply(action)
        if state.is_over():
            winner = state.outcome().winner
            value = 0 if winner is None else (1 if winner == 1 - state.player else -1)
        else:
            value = -exact(state)
        state.undo()
        best = max(best, value)
    return best


def action_values(state) -> dict[int, int]:
    values = {}
    for action in state.legal_actions():
        state.apply(action)
        if state.is_over():
            winner = state.outcome().winner
            values[action] = 0 if winner is None else (1 if winner != state.player else -1)
        else:
            values[action] = -exact(state)
        state.undo()
    return values


@pytest.mark.parametrize("misere", [False, True])
def test_a_generic_bank_keeps_exactly_the_actions_a_plain_minimax_keeps(misere):
    bank = build_bank(game="tictactoe", positions=16, seed=3, max_empties=7, game_settings={"misere": misere})
    assert isinstance(grading_bank("tictactoe"), GenericBank)
    assert len(bank) == 16 and bank.parameters.settings == {"misere": misere}
    assert (bank.parameters.min_empties, bank.parameters.max_empties) == (4, 7)  # 4: the game's default
    for position in bank:
        state = tictactoe.GAME.from_text(position.text, misere=misere)
        values = action_values(state)
        value = max(values.values())
        assert position.value == value and value in (0, 1)
        assert position.best_actions == tuple(action for action in sorted(values) if values[action] == value)
        assert len(position.best_actions) < len(values)  # the decision matters
        assert set(position.exact_actions) <= set(position.best_actions) and position.exact_actions
        assert position.empties == position.text.count(".") and 4 <= position.empties <= 7
    assert bank.describe().startswith("bank: 16 positions, 4-7 legal actions, tictactoe")


def test_a_generic_bank_is_cached_graded_and_reported(tmp_path):
    parameters = BankParameters(game="tictactoe", positions=10, seed=1)
    built = load_or_build_bank(parameters, cache_dir=tmp_path)
    cached = load_or_build_bank(parameters, cache_dir=tmp_path)
    assert cached == built and cached.cached and not built.cached
    assert parameters.to_json()["game"] == "tictactoe"  # its key names the game and its settings
    solver, rival = grade_players(["solver", "random"], cached)
    assert solver.accuracy == 1.0 and rival.accuracy < 1.0
    table = format_reports([solver, rival], cached)
    assert "best move" in table and "solver" in table


def test_a_bank_setting_the_game_lacks_or_an_absurd_range_is_one_line():
    with pytest.raises(ValueError, match="tictactoe has no setting 'size'"):
        BankParameters(game="tictactoe", size=4)
    with pytest.raises(ValueError, match=r"1 <= min \(0\)"):
        BankParameters(game="tictactoe", min_empties=0)


def test_the_accuracy_term_reads_bank_positions_under_the_runs_settings():
    """A misère bank graded under misère rules: the solver keeps every decision; read under the normal rules (the
    position text does not say misère), the same positions would be other games with other best moves."""
    from gpquarto.resolve import make_unattended_player
    from gpquarto.training.fitness import bank_accuracy

    settings = (("misere", True),)
    bank = build_bank(seed=2, positions=12, game="tictactoe", game_settings=dict(settings))
    positions = tuple((item.text, tuple(item.best_actions)) for item in bank.positions)
    solver = make_unattended_player("solver", game="tictactoe")
    assert bank_accuracy(solver, positions, "tictactoe", settings) == 1.0
    assert bank_accuracy(solver, positions, "tictactoe") < 1.0  # the normal game's best moves differ somewhere
