"""MCTS: the novice playout cross-checked with the engine, tactical sanity, determinism, solver hand-off.

The random playout is the engine's own, tested in test_playout.py.
"""

from __future__ import annotations

import random

import pytest

from gpquarto.arena.game import play_game
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.games.quarto.players.mcts import NO_WINNER, MCTSPlayer, novice_playout
from gpquarto.games.quarto.players.solver_player import SolverPlayer
from gpquarto.games.quarto.search.solver import solve
from gpquarto.players.random_player import RandomPlayer
from gpquarto.resolve import make_player


def take(items: list[int], index: int) -> int:
    """The playouts' way to remove an item: the last item moves into its place."""
    item = items[index]
    items[index] = items[-1]
    items.pop()
    return item


def draw_from(items: list[int], random_float) -> int:
    """A random item, removed the playouts' way."""
    return take(items, int(random_float() * len(items)))


def reference_playout(board: Board, random_float, novice: bool) -> int:
    """The same playout policies, played on a Board copy with its own rules checks."""
    board = board.copy()
    pieces = list(board.available_pieces())
    squares = list(board.empty_squares())
    while not board.is_over():
        if board.choice_due:
            safe = [p for p in pieces if not board.winning_squares(p)]
            if novice and safe:
                piece = take(pieces, pieces.index(safe[int(random_float() * len(safe))]))
            else:
                piece = draw_from(pieces, random_float)
            board.choose(piece)
        winning = board.winning_squares(board.in_hand)
        if novice and winning:
            return board.player
        board.place(draw_from(squares, random_float))
    return NO_WINNER if board.winner is None else board.winner


def random_position(rng: random.Random, placed: int, rules: Rules = Rules.CLASSIC) -> Board:
    """A position after random play with ``placed`` pieces on the board (game not over)."""
    while True:
        board = Board(rules)
        while not board.is_over() and board.placed_count < placed:
            actions = board.legal_actions()
            board.apply(actions[int(rng.random() * len(actions))])
        if not board.is_over():
            return board


def test_novice_playout_wins_when_it_can_and_gives_safe_pieces() -> None:
    rng = random.Random(2)
    outcomes = set()
    for index in range(300):
        board = random_position(rng, index % 14)
        seed = rng.random()
        expected = reference_playout(board, random.Random(seed).random, novice=True)
        assert novice_playout(board, random.Random(seed)) == expected
        outcomes.add(expected)
    assert outcomes == {0, 1, NO_WINNER}


def test_takes_an_immediate_win() -> None:
    rng = random.Random(3)
    checked = 0
    while checked < 8:
        board = random_position(rng, rng.randrange(3, 11))
        if board.choice_due:
            board.choose(board.legal_pieces()[0])
        winning = board.winning_squares(board.in_hand)
        if not winning or len(winning) == len(board.legal_squares()):
            continue
        player = MCTSPlayer(iterations=1000, seed=checked)
        assert player.place_piece(board.view(), board.in_hand) in winning, board.text()
        checked += 1


def test_avoids_giving_a_winning_piece_when_a_safe_one_exists() -> None:
    rng = random.Random(4)
    checked = 0
    while checked < 6:
        board = random_position(rng, rng.randrange(5, 11))
        if not board.choice_due:
            continue
        safe = [p for p in board.legal_pieces() if not board.winning_squares(p)]
        if not safe or len(safe) == len(board.legal_pieces()):
            continue
        player = MCTSPlayer(iterations=3000, seed=checked)
        assert player.choose_piece(board.view()) in safe, board.text()
        checked += 1


def test_same_seed_same_game_and_counters() -> None:
    records = []
    for _ in range(2):
        player = make_player("mcts:iterations=200,playout=novice", seed=5)
        records.append(play_game((player, RandomPlayer()), seed=9).actions)
        assert player.last_iterations == 200
        assert player.total_iterations == 200 * ((len(records[-1]) + 1) // 2)
    assert records[0] == records[1]


def test_time_budget_runs_at_least_one_iteration() -> None:
    player = MCTSPlayer(time=0.01, seed=1)
    assert 0 <= player.choose_piece(Board().view()) < 16
    assert player.last_iterations >= 1


@pytest.mark.parametrize(
    "spec, problem",
    [
        ("mcts:iterations=0", "iterations"),
        ("mcts:time=-1", "time"),
        ("mcts:exploration=-0.5", "exploration"),
        ("mcts:playout=greedy", "playout"),
        ("mcts:solver_below=17", "solver_below"),
        ("mcts:solver_below=-1", "solver_below"),
        ("solver:empties=17", "empties"),
    ],
)
def test_bad_parameters_are_refused(spec: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        make_player(spec)


def won_endgames(rng: random.Random, count: int, empties: int) -> list[Board]:
    """Random positions with at most ``empties`` empty squares that the solver proves won for the side to act."""
    found = []
    while len(found) < count:
        board = random_position(rng, 16 - empties + rng.randrange(3))
        if board.in_hand == NO_PIECE and rng.random() < 0.5:
            board.choose(board.legal_pieces()[int(rng.random() * len(board.legal_pieces()))])
        if solve(board).value == 1:
            found.append(board)
    return found


def test_with_solver_hand_off_a_won_endgame_is_always_won() -> None:
    rng = random.Random(6)
    for index, board in enumerate(won_endgames(rng, 8, 9)):
        for opponent in (RandomPlayer(), SolverPlayer(empties=16)):
            mcts = MCTSPlayer(iterations=50, solver_below=9)
            seats = [opponent, opponent]
            seats[board.player] = mcts
            record = play_game(tuple(seats), start=board, seed=index)
            assert record.winner == board.player, (board.text(), record.actions)


def test_nodes_count_tree_nodes_and_solver_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    solved = []

    def counting_solve(board: Board, **options):
        result = solve(board, **options)
        solved.append(result.nodes)
        return result

    monkeypatch.setattr("gpquarto.games.quarto.players.solver_player.solve", counting_solve)
    player = MCTSPlayer(iterations=30, seed=1)
    player.choose_piece(Board().view())
    first = player.nodes
    assert 1 < first <= 31  # the root and at most one new node per iteration
    player.choose_piece(Board().view())
    assert first < player.nodes <= 2 * first + 31  # cumulative
    board = random_position(random.Random(8), 9)
    solver = SolverPlayer(empties=7, seed=2)
    seats = [RandomPlayer(), RandomPlayer()]
    seats[board.player] = solver
    solved.clear()
    play_game(tuple(seats), start=board, seed=4)
    assert solver.nodes == sum(solved) and solver.nodes > 0
