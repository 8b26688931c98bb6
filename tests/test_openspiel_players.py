"""OpenSpiel's bots as gpquarto players of every game (``openspiel-mcts``, ``openspiel-alphabeta``): registered for
every game, seeded, the C++ MCTS only on OpenSpiel's own games, and playing sensibly on positions whose answer is
known."""

from __future__ import annotations

import pytest

from gpquarto.arena.match import play_match
from gpquarto.games.registry import get_game, register_plugin, unregister_plugin
from gpquarto.players.registry import available_players
from gpquarto.resolve import make_player
from tests import tictactoe
from tests.openspiel_support import need_pyspiel

pyspiel = need_pyspiel()


@pytest.fixture
def tictactoe_installed():
    register_plugin(tictactoe.PLUGIN)
    yield tictactoe.GAME.name
    unregister_plugin(tictactoe.GAME.name)


def position(game: str, actions: tuple[int, ...]):
    state = get_game(game).new_state()
    for action in actions:
        state.apply(action)
    return state


@pytest.mark.parametrize("game", ["quarto", "quixo", "openspiel:connect_four"])
def test_the_bots_are_players_of_every_game(game):
    names = {info.name for info in available_players(game)}
    assert {"openspiel-mcts", "openspiel-alphabeta"} <= names


def test_mcts_is_seeded_and_uses_the_cpp_bot_only_on_openspiels_games(tictactoe_installed):
    state = position("openspiel:connect_four", (3, 3, 2))
    decisions = []
    for seed in (1, 1, 2):
        player = make_player("openspiel-mcts:simulations=40", seed=seed, game="openspiel:connect_four")
        decisions.append([player.decide(state.view()) for _ in range(4)])
    assert decisions[0] == decisions[1]
    assert type(player._bots["openspiel:connect_four"]).__module__ == "pyspiel"
    python = make_player("openspiel-mcts:simulations=40", seed=1, game=tictactoe_installed)
    python.decide(position(tictactoe_installed, (4,)).view())
    assert type(python._bots[tictactoe_installed]).__module__ == "open_spiel.python.algorithms.mcts"


@pytest.mark.parametrize("game", ["openspiel:tic_tac_toe", "tictactoe"])
@pytest.mark.parametrize("spec", ["openspiel-mcts:simulations=300", "openspiel-alphabeta:depth=3"])
def test_the_bots_take_a_win_and_stop_a_loss(tictactoe_installed, game, spec):
    win = position(game, (0, 3, 1, 4))  # X to move: 2 completes the top row
    assert make_player(spec, seed=0, game=game).decide(win.view()) == 2
    block = position(game, (0, 4, 1))  # O to move must take 2
    assert make_player(spec, seed=0, game=game).decide(block.view()) == 2


def test_alphabeta_uses_the_games_evaluation_where_it_has_one():
    state = get_game("quixo").new_state()
    action = make_player("openspiel-alphabeta:depth=1", game="quixo").decide(state.view())
    assert action in state.legal_actions()


@pytest.mark.parametrize("game", ["quarto", "quixo"])
def test_python_mcts_plays_quarto_and_quixo(game):
    state = get_game(game).new_state()
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    player = make_player("openspiel-mcts:simulations=20", seed=3, game=game)
    assert player.decide(state.view()) in state.legal_actions()


def test_mcts_beats_random_on_an_openspiel_game():
    game = "openspiel:connect_four"
    players = [make_player(spec, seed=5, game=game) for spec in ("openspiel-mcts:simulations=200", "random")]
    result = play_match(*players, 10, seed=5, game=game)
    assert result.wins >= 8 and result.forfeits == [0, 0]
