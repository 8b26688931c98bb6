"""The searches written once over the game interface (alpha-beta, its exact solve, MCTS) and their players,
checked against a plain minimax written here (no pruning, no table) on tic-tac-toe, and against Quarto's own
exact solver where turns do not alternate (the placer also chooses)."""

from __future__ import annotations

import random
import time

import pytest

from gpquarto.arena.match import play_match
from gpquarto.games import get_game
from gpquarto.games.capabilities import SearchHooks
from gpquarto.games.interface import GameState
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.quarto.search.solver import solve as quarto_solve
from gpquarto.games.registry import register_plugin, unregister_plugin
from gpquarto.players.registry import available_players, make_named_player
from gpquarto.players.searchers import AlphaBetaPlayer, MCTSPlayer, SolverPlayer
from gpquarto.search.alphabeta import PROVEN, WIN, AlphaBeta, TooLargeToSolve
from gpquarto.search.budget import Deadline
from gpquarto.search.mcts import MCTS
from tests import tictactoe


@pytest.fixture(autouse=True)
def tictactoe_installed():
    register_plugin(tictactoe.PLUGIN)
    yield
    unregister_plugin(tictactoe.GAME.name)


def slow_value(state: GameState, ply: int = 0) -> float:
    """The exact value for the side to move: every line to the end, a win worth WIN less its plies."""
    seat, best = state.player, -float("inf")
    for action in state.legal_actions():
        state.apply(action)
        if state.is_over():
            winner = state.outcome().winner
            value = 0.0 if winner is None else (WIN - ply - 1) * (1 if winner == seat else -1)
        else:
            value = slow_value(state, ply + 1) * (1 if state.player == seat else -1)
        state.undo()
        best = max(best, value)
    return best


def random_positions(game, count: int, seed: int, plies: range, **settings) -> list[GameState]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_state(**settings)
        for _ in range(rng.choice(plies)):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over():
            found.append(state)
    return found


@pytest.mark.parametrize("misere", [False, True])
def test_exact_values_agree_with_a_plain_minimax(misere):
    search = AlphaBeta()
    positions = random_positions(tictactoe.GAME, 60, seed=1, plies=range(2, 8), misere=misere)
    for state in positions:
        before = state.text()
        values = search.solve(state, max_nodes=10**6)
        assert state.text() == before and set(values) == set(state.legal_actions())
        seat = state.player
        for action, value in values.items():
            state.apply(action)
            if state.is_over():
                winner = state.outcome().winner
                expected = 0.0 if winner is None else (WIN - 1 if winner == seat else -(WIN - 1))
            else:
                expected = slow_value(state, 1) * (1 if state.player == seat else -1)
            state.undo()
            assert value == expected, (state.text(), action)
        result = search.search(state, depth=9)
        assert result.value == max(values.values()) == slow_value(state)
        assert values[result.action] == result.value
    assert max(search.solve(tictactoe.GAME.new_state(), max_nodes=10**6).values()) == 0  # a draw


def test_iterative_deepening_stops_at_the_budget_with_a_legal_action():
    state = get_game("quixo").new_state()
    started = time.perf_counter()
    result = AlphaBeta().search(state, depth=64, deadline=Deadline.after(0.2))
    assert time.perf_counter() - started < 1.5  # the budget is read inside the search, not after it
    assert result.timed_out and result.action in state.legal_actions() and result.depth >= 1
    done = AlphaBeta().search(state, depth=1)
    assert not done.timed_out and done.depth == 1 and done.action in state.legal_actions()
    with pytest.raises(TooLargeToSolve, match="more than 1,000 positions: too large to solve exactly"):
        AlphaBeta().solve(get_game("quarto").new_state(), max_nodes=1000)


def test_values_where_the_same_side_moves_twice_match_quartos_exact_solver():
    quarto = get_game("quarto")
    search = AlphaBeta()
    positions = random_positions(quarto, 40, seed=5, plies=range(23, 29))
    for state in positions:
        exact = quarto_solve(state)
        values = search.solve(state.copy(), max_nodes=5 * 10**6)
        best = max(values.values())
        sign = 0 if abs(best) < PROVEN else (1 if best > 0 else -1)
        assert sign == exact.value, state.text()
        assert sorted(action for action, value in values.items() if _sign(value) == exact.value) == sorted(
            exact.best_actions
        ), state.text()


def _sign(value: float) -> int:
    return 0 if abs(value) < PROVEN else (1 if value > 0 else -1)


def test_mcts_takes_a_win_and_blocks_a_loss_and_is_reproducible():
    win_now = tictactoe.GAME.from_text("XX./OO./... X")
    block = tictactoe.GAME.from_text("XX./O../..O O")
    for state, wanted in ((win_now, 2), (block, 2)):
        first = MCTS(random.Random(4)).search(state, iterations=400)
        again = MCTS(random.Random(4)).search(state, iterations=400)
        assert first.action == wanted and first == again and first.iterations == 400
        assert sum(first.visits.values()) == 400
    started = time.perf_counter()
    cut = MCTS(random.Random(4)).search(get_game("quixo").new_state(), iterations=10**7, deadline=Deadline.after(0.2))
    assert 1 <= cut.iterations < 10**7 and time.perf_counter() - started < 2


def test_the_generic_players_play_every_game_and_perfect_play_never_loses():
    names = {info.name for info in available_players("quarto")}
    assert {"alphabeta", "mcts", "solver", "random"} <= names
    solver, rival = SolverPlayer(), make_named_player("random", seed=3, game="tictactoe")
    result = play_match(solver, rival, games=40, seed=2, game="tictactoe")
    assert result.losses == 0 and result.wins > 20
    assert make_named_player("alphabeta:depth=3,seconds=0.5").name == "alphabeta:depth=3,seconds=0.5"
    with pytest.raises(ValueError, match="parameter depth must be 0 to 64"):
        make_named_player("alphabeta:depth=1000")
    with pytest.raises(ValueError, match="give depth >= 1 or seconds > 0"):
        make_named_player("alphabeta:depth=0")
    with pytest.raises(ValueError, match="parameter iterations must be 1 to 10,000,000"):
        make_named_player("mcts:iterations=1000000000", game="tictactoe")


def test_alphabeta_and_mcts_beat_random_at_tic_tac_toe():
    for player in (AlphaBetaPlayer(depth=9), MCTSPlayer(iterations=300, seed=1)):
        result = play_match(player, make_named_player("random", seed=8), games=40, seed=1, game="tictactoe", openings=1)
        assert result.losses == 0, player.name


class CentreHooks(SearchHooks):
    """Tic-tac-toe's centre is worth half a win to whoever holds it; counts its calls."""

    mcts_evaluates = True

    def __init__(self) -> None:
        self.evaluated = self.ordered = 0

    def evaluate(self, state):
        self.evaluated += 1
        holder = state.cells[4]
        return 0.0 if holder < 0 else (0.5 if holder == state.player else -0.5)

    def order(self, state, actions):
        self.ordered += 1
        return sorted(actions, reverse=True)


HOOKS = CentreHooks()


def test_the_generic_searches_use_the_games_search_hooks():
    bare = AlphaBetaPlayer(depth=1).decide(tictactoe.GAME.new_state().view())
    assert bare == 0  # every action is worth 0 at depth 1: the first
    unregister_plugin(tictactoe.GAME.name)
    hooked = GamePlugin(
        game=tictactoe.GAME, title="Tic-tac-toe", capabilities={SearchHooks: "tests.test_generic_search:HOOKS"}
    )
    register_plugin(hooked)
    state = tictactoe.GAME.new_state()
    assert AlphaBetaPlayer(depth=1).decide(state.view()) == 4
    assert HOOKS.evaluated >= 9 and HOOKS.ordered >= 1
    before = HOOKS.evaluated
    MCTSPlayer(iterations=50, seed=1).decide(state.view())
    assert HOOKS.evaluated > before  # leaves valued by the hook instead of rollouts


def test_the_generic_mcts_benchmark_script_plays_and_reports_a_match():
    import importlib.util

    from tests.helpers import REPO

    spec = importlib.util.spec_from_file_location("generic_mcts", REPO / "examples" / "generic_mcts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    line = module.main("tictactoe", 4)
    assert line.startswith("tictactoe: generic mcts:iterations=1000 vs random, 4 games: ")
    wins, draws, losses = (int(line.split(" wins")[0].split(": ")[-1]), int(line.split(" draws")[0].split(", ")[-1]),
                           int(line.split(" losses")[0].split(", ")[-1]))  # fmt: skip
    assert wins + draws + losses == 4 and losses == 0
