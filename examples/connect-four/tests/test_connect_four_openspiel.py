"""The engine against OpenSpiel's ``connect_four``, move for move, where OpenSpiel is installed (``pip install
open-spiel``): the same action ints, legal actions, boards, ends and returns on seeded random games of several
board sizes."""

from __future__ import annotations

import random

import pytest
from connect_four.game import CONNECT_FOUR

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize(("rows", "columns"), [(6, 7), (4, 5), (9, 9), (5, 4)])
def test_the_engine_plays_as_openspiel(rows, columns):
    game = pyspiel.load_game("connect_four", {"rows": rows, "columns": columns})
    rng = random.Random(rows * columns)
    for _ in range(200):
        state, theirs = CONNECT_FOUR.new_state(rows=rows, columns=columns), game.new_initial_state()
        while True:
            assert state.legal_actions() == list(theirs.legal_actions())
            assert state.is_over() == theirs.is_terminal()
            assert state.text().split()[0].lower().split("/") == str(theirs).split()
            if state.is_over():
                break
            action = rng.choice(state.legal_actions())
            state.apply(action)
            theirs.apply_action(action)
        outcome = state.outcome()
        expected = [0.0, 0.0] if outcome.winner is None else [1.0, -1.0] if outcome.winner == 0 else [-1.0, 1.0]
        assert list(theirs.returns()) == expected
