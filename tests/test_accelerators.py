"""A game's own player under a name every game has (an *accelerator* of a generic search: Quarto's ``mcts`` and
``solver``, Quixo's ``alphabeta``, ``mcts`` and ``solver``) must decide like the generic player of that name
(:mod:`gpquarto.players.searchers`), only faster. Checked on seeded positions against the generic searches as the
reference: the exact solvers choose moves of the same exact value; the searches find the same forced wins; MCTS
takes a win on the board when there is one."""

from __future__ import annotations

import random

import pytest

from gpquarto.games import get_game
from gpquarto.players.registry import make_named_player
from gpquarto.players.searchers import MCTSPlayer, SolverPlayer
from gpquarto.search.alphabeta import PROVEN, AlphaBeta
from gpquarto.search.budget import Deadline


def random_positions(game: str, count: int, seed: int, *, until, **settings) -> list:
    """``count`` seeded random positions, each the first of its game for which ``until(state)`` holds."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = get_game(game).new_state(**settings)
        while not state.is_over() and not until(state):
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over():
            found.append(state)
    return found


def winning_actions(state) -> list[int]:
    """The actions that end the game at once with a win for the side to move."""
    wins = []
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        if child.is_over() and child.outcome().winner == state.player:
            wins.append(action)
    return wins


def exact_values(state) -> dict[int, int]:
    """The exact value (1 win, 0 draw, -1 loss) of every action, by the generic exact search: the accelerators
    need not rank wins and losses by their distance as it does."""
    found = AlphaBeta().solve(state.copy(), max_nodes=5_000_000)
    return {action: 0 if abs(value) < PROVEN else (1 if value > 0 else -1) for action, value in found.items()}


def test_quartos_solver_chooses_moves_as_good_as_the_generic_solvers():
    positions = random_positions("quarto", 8, 1, until=lambda state: state.text().split()[0].count(".") <= 5)
    for state in positions:
        values = exact_values(state)
        best = max(values.values())
        fast = make_named_player("solver", game="quarto").decide(state.view())
        generic = SolverPlayer().decide(state.view())
        assert values[fast] == best and values[generic] == best, state.text()


def test_quixos_solver_chooses_moves_as_good_as_the_generic_search_near_the_end():
    # close to a forced end, the generic exact search can follow every line (Quixo's repetitions aside)
    positions = random_positions("quixo", 8, 2, until=lambda state: bool(winning_actions(state)), size=3)
    for state in positions:
        fast = make_named_player("solver", game="quixo").decide(state.view())
        assert fast in winning_actions(state), state.text()  # the quickest win is a win now


@pytest.mark.parametrize("depth", [2, 3])
def test_quixos_alphabeta_proves_the_wins_the_generic_alphabeta_proves(depth):
    # positions where the mover can win at once: the generic search proves a win at any depth, and the accelerator
    # must play a move that keeps the win proven
    positions = random_positions("quixo", 6, 3 + depth, until=lambda state: bool(winning_actions(state)), size=4)
    for state in positions:
        generic = AlphaBeta().search(state.copy(), depth, Deadline.after(60))
        assert generic.value >= PROVEN and generic.action in winning_actions(state)
        fast = make_named_player(f"alphabeta:depth={depth}", game="quixo").decide(state.view())
        assert fast in winning_actions(state), state.text()


@pytest.mark.parametrize(("game", "settings"), [("quarto", {}), ("quixo", {"size": 5})])
def test_mcts_accelerators_take_a_win_on_the_board_as_the_generic_mcts_does(game, settings):
    positions = random_positions(game, 8, 4, until=lambda state: bool(winning_actions(state)), **settings)
    for number, state in enumerate(positions):
        wins = winning_actions(state)
        fast = make_named_player("mcts:iterations=400", seed=number, game=game).decide(state.view())
        generic = MCTSPlayer(iterations=400, seed=number).decide(state.view())
        assert fast in wins and generic in wins, state.text()
