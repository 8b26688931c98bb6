"""gpquarto's games as OpenSpiel games (``import gpquarto.adapters.openspiel``): Quarto and Quixo registered as
``python_gpquarto_quarto`` / ``python_gpquarto_quixo`` with their settings as parameters, passing OpenSpiel's own
``random_sim_test``, and played by OpenSpiel's Python algorithms; a gpquarto player as an OpenSpiel bot."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.openspiel_support import need_pyspiel

pyspiel = need_pyspiel()

from gpquarto.adapters import openspiel as adapter  # noqa: E402  (needs pyspiel)
from gpquarto.adapters.openspiel.bots import PlayerBot  # noqa: E402
from gpquarto.resolve import make_player  # noqa: E402


@pytest.mark.parametrize("name", ["python_gpquarto_quarto", "python_gpquarto_quixo(size=4)"])
def test_openspiels_random_simulation_test_passes(name):
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=20, serialize=True, verbose=False)


def test_settings_are_game_parameters():
    assert {"python_gpquarto_quarto", "python_gpquarto_quixo"} <= set(pyspiel.registered_names())
    quixo = pyspiel.load_game("python_gpquarto_quixo(size=3,ply_limit=40)")
    assert quixo.get_parameters()["size"] == 3 and quixo.max_game_length() == 40
    assert quixo.new_initial_state().position.settings()["size"] == 3
    quarto = pyspiel.load_game("python_gpquarto_quarto(rules=advanced)")
    assert quarto.new_initial_state().position.settings() == {"rules": "advanced"}
    assert quarto.max_game_length() >= 32 and quarto.num_distinct_actions() == 32
    with pytest.raises(Exception, match="rules must be one of classic, advanced, got 'blitz'"):
        pyspiel.load_game("python_gpquarto_quarto(rules=blitz)")


def test_openspiels_states_follow_the_game_and_clone_independently():
    game = pyspiel.load_game("python_gpquarto_quarto")
    state = game.new_initial_state()
    state.apply_action(5)  # give piece 5
    assert state.current_player() == 1 and state.legal_actions() == list(range(16, 32))
    twin = state.clone()
    twin.apply_action(16)
    assert state.history() == [5] and twin.history() == [5, 16] and str(twin) != str(state)
    assert state.action_to_string(1, 16) == "place a1"
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == 0 and state.current_player() == pyspiel.PlayerId.TERMINAL


def test_openspiels_python_algorithms_play_quixo():
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game("python_gpquarto_quixo(size=3)")
    rng = np.random.RandomState(0)
    bots = [
        mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), random_state=rng),
        uniform_random.UniformRandomBot(1, np.random.RandomState(2)),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_a_gpquarto_player_is_an_openspiel_bot_on_both_kinds_of_game():
    from open_spiel.python.algorithms import evaluate_bots

    for name, game in (("python_gpquarto_quixo(size=3)", "quixo"), ("tic_tac_toe", "openspiel:tic_tac_toe")):
        spiel = pyspiel.load_game(name)
        bots = [
            PlayerBot(make_player("alphabeta:depth=2", game=game), 0),
            PlayerBot(make_player("random", seed=1, game=game), 1),
        ]
        returns = evaluate_bots.evaluate_bots(spiel.new_initial_state(), bots, np.random.RandomState(0))
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_every_installed_game_is_registered_once():
    assert adapter.register_game("quarto") == "python_gpquarto_quarto"
    assert adapter.registered_name("quixo") == "python_gpquarto_quixo"
    with pytest.raises(ValueError, match="a game a provider makes"):
        adapter.register_game("openspiel:tic_tac_toe")


def test_gpquarto_openspiel_is_the_adapter_by_the_issues_name():
    import gpquarto.openspiel

    assert gpquarto.openspiel.register_game is adapter.register_game
