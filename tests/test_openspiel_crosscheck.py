"""Cross-checks against OpenSpiel, an implementation nobody here wrote: the Connect Four example plug-in against
OpenSpiel's ``connect_four`` on seeded random games (legal actions, outcomes, action names); gpquarto's generic
alpha-beta against OpenSpiel's ``minimax.alpha_beta_search`` (the same root value); and a gpquarto player against
OpenSpiel's Python MCTS played in gpquarto's arena and in OpenSpiel's ``evaluate_bots`` (the same games)."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest

from gpquarto.games.registry import get_game
from gpquarto.search.alphabeta import AlphaBeta
from tests.openspiel_support import need_pyspiel

pyspiel = need_pyspiel()

#: Random games of the Connect Four cross-check (the issue's 10,000; fewer with GPQUARTO_CROSSCHECK_GAMES).
CROSSCHECK_GAMES = int(os.environ.get("GPQUARTO_CROSSCHECK_GAMES", "10000"))


def test_the_connect_four_package_plays_openspiels_rules():
    pytest.importorskip("connect_four", reason="the example Connect Four package is not installed")
    ours = get_game("connect_four")
    theirs = pyspiel.load_game("connect_four")
    rng = random.Random(34)
    ends = {"win": 0, "draw": 0}
    for _ in range(CROSSCHECK_GAMES):
        state, spiel = ours.new_state(), theirs.new_initial_state()
        while not spiel.is_terminal():
            legal = spiel.legal_actions()
            assert state.legal_actions() == legal and not state.is_over() and state.player == spiel.current_player()
            action = legal[int(rng.random() * len(legal))]
            # OpenSpiel names a drop by the mover's mark and the column, ours by the column's letter
            assert spiel.action_to_string(spiel.current_player(), action) == "xo"[state.player] + str(action)
            assert state.action_name(action) == "drop " + "abcdefg"[action]
            state.apply(action)
            spiel.apply_action(action)
        assert state.is_over() and state.legal_actions() == []
        returns = spiel.returns()
        outcome = state.outcome()
        assert outcome.winner == (None if returns[0] == 0 else 0 if returns[0] > 0 else 1)
        ends["draw" if outcome.winner is None else "win"] += 1
    assert ends["win"] > 0 and (CROSSCHECK_GAMES < 1000 or ends["draw"] > 0)


def late_positions(game: str, count: int, empties: int, seed: int):
    """``count`` positions of seeded random games of ``game`` with at most ``empties`` plies... left to play
    (stopped ``empties`` actions before a random game's end), not over."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = get_game(game).new_state()
        actions = []
        while not state.is_over():
            action = rng.choice(state.legal_actions())
            actions.append(action)
            state.apply(action)
        for _ in range(min(empties, len(actions) - 1)):
            state.undo()
        if not state.is_over():
            found.append(state)
    return found


@pytest.mark.parametrize(
    ("game", "count", "back"),
    [
        ("openspiel:tic_tac_toe", 40, 5),
        ("openspiel:connect_four(columns=4,rows=4)", 25, 9),
        ("openspiel:breakthrough(columns=3,rows=4)", 20, 6),
    ],
)
def test_generic_alphabeta_agrees_with_openspiels_alpha_beta_search(game, count, back):
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    values = set()
    for state in late_positions(game, count, back, seed=7):
        ours = AlphaBeta().solve(state.copy(), 2_000_000)
        best = max(ours.values())
        value = 0 if best == 0 else 1 if best > 0 else -1
        spiel = state.spiel_state
        theirs, action = alpha_beta_search(spiel.get_game(), state=spiel, maximizing_player_id=spiel.current_player())
        assert value == theirs, state.text()
        assert ours[action] == best or (best > 0) == (ours[action] > 0)  # their move keeps the value
        values.add(value)
    assert len(values) >= 2  # the positions are not all of one value


def test_a_gpquarto_player_meets_openspiels_mcts_in_both_loops():
    """Alpha-beta against OpenSpiel's Python MCTS on gpquarto's tic-tac-toe-sized Quixo: in gpquarto's arena (the
    MCTS as the zoo's ``openspiel-mcts``) and in OpenSpiel's ``evaluate_bots`` (gpquarto's player as a bot, the
    MCTS built here from OpenSpiel's module): the same actions either way."""
    from open_spiel.python.algorithms import evaluate_bots, mcts

    from gpquarto.adapters.openspiel.bots import PlayerBot
    from gpquarto.adapters.openspiel.game import spiel_game
    from gpquarto.arena.game import play_game
    from gpquarto.resolve import make_player

    settings = {"size": 3}
    for seed, ours_first in ((3, True), (4, False)):
        ours = make_player("alphabeta:depth=2", game="quixo")
        bot = make_player("openspiel-mcts:simulations=30", seed=seed, game="quixo")
        pair = (ours, bot) if ours_first else (bot, ours)
        arena_actions = play_game(pair, game="quixo", settings=settings).actions

        game = spiel_game("quixo", settings)
        theirs = mcts.MCTSBot(
            game,
            2.0,
            30,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
            solve=True,
            random_state=np.random.RandomState(seed + 1),
        )
        seat = 0 if ours_first else 1
        bots = [PlayerBot(make_player("alphabeta:depth=2", game="quixo"), seat), theirs]
        bots = bots if ours_first else bots[::-1]
        state = game.new_initial_state()
        evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
        assert state.history() == arena_actions
        assert len(arena_actions) >= 5
