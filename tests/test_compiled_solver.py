"""The optional compiled solver (numba, ``gpquarto[fast]``) against the pure-Python solver, the reference."""

from __future__ import annotations

import random

import pytest

from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.search import compiled
from gpquarto.games.quarto.search.solver import solve
from tests.test_solver import random_endgame

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="numba is not installed (extra: fast)")


@pytest.mark.parametrize("rules", list(Rules))
def test_same_value_and_best_actions_as_the_python_solver(rules: Rules) -> None:
    rng = random.Random(f"compiled {rules.value}")
    for index in range(24):
        board = random_endgame(rng, 3 + index % 6, rules, placement_due=index % 2 == 1)
        fast, slow = compiled.solve(board), solve(board)
        assert (fast.value, fast.best_actions) == (slow.value, slow.best_actions), board.text()


def test_refuses_a_finished_game() -> None:
    board = random_endgame(random.Random(1), 5, Rules.CLASSIC, placement_due=False)
    while not board.is_over():
        board.apply(board.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        compiled.solve(board)
