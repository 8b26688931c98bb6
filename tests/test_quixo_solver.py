"""The Quixo retrograde solver against brute force (3x3, and 4x4 near the end when its solution is cached), its
fixed point, symmetry invariance, the cache, and the solver player."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from gpquarto.games.quixo import QuixoBoard, map_mask
from gpquarto.games.quixo.players.search_players import QuixoSolverPlayer
from gpquarto.games.quixo.search import solution_values, solver
from gpquarto.games.quixo.tables import tables
from tests.reference import quixo as ref
from tests.reference import quixo_solver as slow_solver


@pytest.fixture(scope="module")
def solved3():
    return solver.compute(3, compiled=False)


def nodes(solution):
    n2 = solution.size**2
    for index in np.flatnonzero(solution.values != solution_values.TERMINAL):
        own = other = 0
        rest = int(index)
        for cell in range(n2):
            rest, digit = divmod(rest, 3)
            own |= (digit == 1) << cell
            other |= (digit == 2) << cell
        yield int(index), own, other


def test_3x3_is_a_first_player_win_with_no_draws(solved3):
    assert solved3.start_value() == "first player wins in 7 plies"
    assert solved3.lookup(QuixoBoard(3)) == (1, 7)
    assert not (solved3.values == solution_values.DRAW).any()


def test_every_3x3_value_is_the_best_of_its_moves(solved3):
    table = tables(3)
    for index, own, other in nodes(solved3):
        assert solved3.index(own, other) == index
        options = []
        for action in table.legal(other):
            own2, other2 = table.play(own, other, action)
            result = table.mover_result(own2, other2, False)
            if result:
                options.append((result, 1))
            else:
                child = solved3.index(other2, own2)
                options.append((-int(solved3.values[child]), int(solved3.dists[child]) + 1))
        value = max(v for v, _ in options)
        if value == 1:
            dist = min(d for v, d in options if v == 1)
        elif value == -1:
            dist = max(d for _, d in options)
        else:
            dist = 0
        assert (int(solved3.values[index]), int(solved3.dists[index])) == (value, dist)


def brute_force(n: int, rules: str = "official"):
    """Forced results within k plies by plain forward search on the slow reference board (memoised)."""

    @cache
    def wins_within(board: tuple, player: int, k: int) -> bool:
        grid = [list(row) for row in board]
        for move in ref.legal_moves(grid, player):
            after = ref.play(grid, player, move)
            win = ref.winner(after, player, rules)
            if win == player:
                return True
            if win == -1 and k >= 3 and loses_within(tuple(map(tuple, after)), 1 - player, k - 1):
                return True
        return False

    @cache
    def loses_within(board: tuple, player: int, k: int) -> bool:
        grid = [list(row) for row in board]
        for move in ref.legal_moves(grid, player):
            after = ref.play(grid, player, move)
            win = ref.winner(after, player, rules)
            if win == player:
                return False
            if win == -1 and (k < 2 or not wins_within(tuple(map(tuple, after)), 1 - player, k - 1)):
                return False
        return True

    return wins_within, loses_within


def grid_of(n: int, own: int, other: int) -> tuple:
    return tuple(
        tuple(0 if own >> (n * r + c) & 1 else 1 if other >> (n * r + c) & 1 else -1 for c in range(n))
        for r in range(n)
    )


def test_3x3_agrees_with_brute_force(solved3):
    wins_within, loses_within = brute_force(3)
    rng = random.Random(1)
    sample = rng.sample(list(nodes(solved3)), 400)
    for index, own, other in sample:
        value, dist = int(solved3.values[index]), int(solved3.dists[index])
        board = grid_of(3, own, other)
        for k in (1, 3, 5):
            assert wins_within(board, 0, k) == (value == 1 and dist <= k)
        for k in (1, 2, 4):
            assert loses_within(board, 0, k) == (value == -1 and dist <= k)


def test_values_are_the_same_for_every_image(solved3):
    for index, own, other in nodes(solved3):
        for k in range(8):
            image = solved3.index(map_mask(3, k, own), map_mask(3, k, other))
            assert solved3.values[image] == solved3.values[index] and solved3.dists[image] == solved3.dists[index]


@pytest.mark.parametrize("rules", ["official", "course"])
def test_the_solver_agrees_with_its_kernels_of_before_on_every_3x3_position(solved3, rules):
    values, dists = slow_solver.compute(3, rules)
    solution = solved3 if rules == "official" else solver.compute(3, rules, compiled=False)
    assert np.array_equal(solution.values, values) and np.array_equal(solution.dists, dists)
    assert {int(v) for v in np.unique(values)} == {solution_values.WIN, solution_values.LOSS, solution_values.TERMINAL}


@pytest.mark.skipif(solver.numba is None, reason="numba is not installed (pip install 'gpquarto[fast]')")
def test_the_compiled_solver_gives_the_same_solution(solved3):
    compiled = solver.compute(3, compiled=True)
    assert np.array_equal(compiled.values, solved3.values) and np.array_equal(compiled.dists, solved3.dists)
    course = solver.compute(3, "course", compiled=True)
    assert np.array_equal(course.values, solver.compute(3, "course", compiled=False).values)


@pytest.mark.skipif(solver.numba is None, reason="solving 4x4 takes numba (pip install 'gpquarto[fast]')")
def test_4x4_positions_near_the_end_agree_with_brute_force(quixo_4x4_solution):
    solution = quixo_4x4_solution
    assert solution.start_value().startswith("first player wins")
    table = tables(4)
    wins_within, loses_within = brute_force(4)
    rng = random.Random(2)
    checked = 0
    while checked < 25:
        own, other = 0, 0
        for cell in range(16):
            digit = rng.choice((0, 1, 1, 2, 2))
            own |= (digit == 1) << cell
            other |= (digit == 2) << cell
        if table.has_line(own) or table.has_line(other):
            continue
        index = solution.index(own, other)
        value, dist = int(solution.values[index]), int(solution.dists[index])
        board = grid_of(4, own, other)
        assert wins_within(board, 0, 3) == (value == 1 and dist <= 3)
        assert loses_within(board, 0, 2) == (value == -1 and dist <= 2)
        checked += 1


def test_solutions_are_cached_atomically_and_checked(tmp_path, monkeypatch):
    first = solver.solve(3, cache_dir=tmp_path)
    path = solver.solution_path(3, "official", tmp_path)
    assert path.exists() and not list(path.parent.glob("*.tmp"))
    monkeypatch.setattr(solver, "compute", lambda *a, **k: pytest.fail("the cached solution was not used"))
    again = solver.solve(3, cache_dir=tmp_path)
    assert np.array_equal(again.values, first.values)
    monkeypatch.undo()
    path.write_bytes(b"not a solution")
    with pytest.warns(solver.SolverCacheWarning, match="unusable"):
        solver.solve(3, cache_dir=tmp_path)
    assert np.array_equal(solver.solve(3, cache_dir=tmp_path).values, first.values)
    with pytest.raises(ValueError, match="3x3 and 4x4 boards, not 5x5"):
        solver.compute(5)
    with pytest.raises(ValueError, match="for 3x3 official rules, not 4x4"):
        first.lookup(QuixoBoard(4))


def test_the_solver_player_wins_3x3_from_the_start(tmp_path, monkeypatch, solved3):
    monkeypatch.setattr(solver, "solve", lambda size, rules: solved3)
    monkeypatch.setattr("gpquarto.games.quixo.players.search_players.solve", lambda size, rules: solved3)
    rng = random.Random(4)
    for game in range(30):
        board = QuixoBoard(3)
        player = QuixoSolverPlayer(seed=game)
        while not board.is_over():
            if board.player == 0:
                board.apply(player.decide(board.view()))
            else:
                board.apply(rng.choice(board.legal_actions()))
        assert board.winner_index == 0 and len(board.history) <= 7


def test_the_interpreted_steps_call_only_interpreted_helpers():
    """``pure`` gives steps whose helpers are Python functions too, not the compiled ones: the solver without numba
    runs exactly that code, and the comparisons of the two kinds compare two implementations."""
    import types

    from gpquarto.games.quixo.search import solver_kernels

    for step in (solver_kernels.initialise, solver_kernels.wave):
        interpreted = solver_kernels.pure(step)
        helpers = [name for name in interpreted.__code__.co_names if name.startswith("_")]
        assert helpers, step
        assert all(type(interpreted.__globals__[name]) is types.FunctionType for name in helpers), helpers
