"""The plug-in's capabilities: the exact solver against a plain minimax, the search hooks, the board of cells, the
drawing data and the pictures; and the plug-in as gpquarto finds it through the entry point."""

from __future__ import annotations

import io
import json
import random
from types import SimpleNamespace

import pytest
from connect_four.board_view import BOARD
from connect_four.drawing import DRAWING
from connect_four.game import CONNECT_FOUR
from connect_four.pictures import PICTURES
from connect_four.search_hooks import HOOKS
from connect_four.solver import ConnectFourSolver

from gpquarto.games.capabilities import Board, BoardDrawing, ExactSolver, Pictures, SearchHooks, Solution


def discs_on_board(state) -> int:
    first, second = state.discs
    return (first | second).bit_count()


def minimax(state, memo: dict) -> int:
    """The exact value for the side to move, counted as the solver does (a win with the k-th disc on a board of n
    cells is worth n + 1 - k to the winner): plain minimax over the interface, every action searched."""
    cells = state.rows * state.columns
    if state.is_over():
        winner = state.outcome().winner
        return 0 if winner is None else -(cells + 1 - discs_on_board(state))  # the side that just moved won
    key = state.canonical_key()
    if key not in memo:
        memo[key] = max(action_value(state, action, memo) for action in state.legal_actions())
    return memo[key]


def action_value(state, action: int, memo: dict) -> int:
    state.apply(action)
    try:
        return -minimax(state, memo)
    finally:
        state.undo()


def expected_solution(state, memo: dict) -> tuple[int, tuple[int, ...], int | None]:
    values = {action: action_value(state, action, memo) for action in state.legal_actions()}
    best = max(values.values())
    distance = state.rows * state.columns + 1 - abs(best) - discs_on_board(state) if best else None
    return (best > 0) - (best < 0), tuple(a for a in sorted(values) if values[a] == best), distance


def positions_near_the_end(rows: int, columns: int, empty: int, count: int, seed: int):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = CONNECT_FOUR.new_state(rows=rows, columns=columns)
        while not state.is_over() and rows * columns - discs_on_board(state) > empty:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over():
            found.append(CONNECT_FOUR.from_text(state.text()))
    return found


@pytest.mark.parametrize(("rows", "columns", "empty"), [(4, 4, 10), (4, 5, 9), (5, 4, 9), (6, 7, 8)])
def test_the_solver_agrees_with_plain_minimax_near_the_end(rows, columns, empty):
    solver, memo = ConnectFourSolver(), {}
    values = set()
    for state in positions_near_the_end(rows, columns, empty, 120, seed=rows * columns):
        solution = solver.solve(state)
        value, best, distance = expected_solution(state, memo)
        assert (solution.value, solution.best_actions, solution.distance) == (value, best, distance), state.text()
        values.add(value)
    assert values == {-1, 0, 1}


def test_the_solver_solves_the_whole_4x4_board_as_minimax_does():
    state = CONNECT_FOUR.new_state(rows=4, columns=4)
    solution = ConnectFourSolver().solve(state)
    assert isinstance(solution, Solution)
    assert (solution.value, solution.best_actions, solution.distance) == expected_solution(state, {})
    assert solution.value == 0 and solution.cost.startswith("nodes: ")


def test_known_values_of_small_boards():
    solver = ConnectFourSolver()
    assert solver.solve(CONNECT_FOUR.new_state(rows=4, columns=5)).value == 0
    assert solver.solve(CONNECT_FOUR.new_state(rows=5, columns=4)).value == 0
    # a quick win: the third disc of the bottom row with both ends open (d), and the win two moves later
    state = CONNECT_FOUR.from_text("....../....../.OO.../.XX... X")
    solution = solver.solve(state)
    assert (solution.value, solution.best_actions, solution.distance) == (1, (3,), 3)


def test_the_solver_refuses_large_positions_in_one_line():
    solver = ConnectFourSolver()
    state = CONNECT_FOUR.new_state()
    reason = solver.why_not(state)
    assert reason is not None and "at most 28 empty cells, this one has 42" in reason and "\n" not in reason
    assert solver.size(state) == 42 and solver.size_word == "empty cells"
    with pytest.raises(ValueError, match="at most 28 empty cells"):
        solver.solve(state)
    tiny_budget = ConnectFourSolver(max_nodes=1000)
    with pytest.raises(ValueError, match="more than 1,000 positions: too large to solve exactly"):
        tiny_budget.solve(CONNECT_FOUR.new_state(rows=4, columns=6))
    assert solver.describe_mover(CONNECT_FOUR.new_state()) == "X (player 0, to move)"


def random_positions(count: int, seed: int, rows: int = 6, columns: int = 7):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = CONNECT_FOUR.new_state(rows=rows, columns=columns)
        for _ in range(rng.randrange(0, rows * columns - 4)):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over():
            found.append(state)
    return found


def test_the_ordering_puts_wins_then_blocks_first_and_keeps_every_action():
    for state in random_positions(300, seed=5):
        actions = state.legal_actions()
        ordered = list(HOOKS.order(state, actions))
        assert sorted(ordered) == actions
        winning = [a for a in actions if wins_now(state, a)]
        if winning:
            assert ordered[0] in winning
    assert HOOKS.order(CONNECT_FOUR.new_state(), list(range(7)))[:3] == [3, 2, 4]
    block = CONNECT_FOUR.from_text("......./......./......./......./X....../XOOO..X X")
    assert HOOKS.order(block, block.legal_actions())[0] == 4


def wins_now(state, action: int) -> bool:
    state.apply(action)
    try:
        return state.outcome() is not None and state.outcome().winner is not None
    finally:
        state.undo()


def test_the_evaluation_stays_inside_its_bounds_and_sees_a_win_next():
    for state in random_positions(300, seed=6):
        value = HOOKS.evaluate(state)
        assert -1 < value < 1
        if any(wins_now(state, a) for a in state.legal_actions()):
            assert value == 0.9
    assert HOOKS.evaluate(CONNECT_FOUR.new_state()) == 0.0


def test_generic_alphabeta_with_the_hooks_wins_and_blocks():
    from gpquarto.search.alphabeta import AlphaBeta

    search = AlphaBeta(HOOKS.evaluate, HOOKS.order)
    win = CONNECT_FOUR.from_text("......./......./......./......./.OO..../.XXX..O X")
    assert search.search(win, 4).action in (0, 4)
    block = CONNECT_FOUR.from_text("......./......./......./......./X....../XOOO..X X")
    assert search.search(block, 4).action == 4


def test_the_board_of_cells_and_the_drawing_data():
    state = CONNECT_FOUR.from_text("..../X.../XO../XO.O X")
    assert BOARD.shape({"rows": 4, "columns": 4}) == (4, 4) and BOARD.shape({}) == (6, 7)
    assert BOARD.cell_values({}) == 3
    assert BOARD.cells(state) == (0, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0, 1, 2, 0, 2)
    state.apply(0)
    data = DRAWING.board_data(state)
    assert json.loads(json.dumps(data)) == data
    assert (data["rows"], data["columns"], data["to_move"], data["legal_actions"]) == (4, 4, None, [])
    assert data["cells"][0] == "X" and data["cells"][1] is None and data["cells"][15] == "O"
    assert data["last_move"] == {"row": 0, "column": 0}
    assert data["winning_line"] == [{"row": 3 - r, "column": 0} for r in range(4)]
    assert [mark or "." for mark in data["cells"]] == list("".join(state.text().split()[0].split("/")))
    start = DRAWING.board_data(CONNECT_FOUR.new_state())
    assert start["last_move"] is None and start["winning_line"] == [] and start["to_move"] == "X"


def png_bytes(figure) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=40)
    return buffer.getvalue()


def test_pictures_of_a_position_and_a_game():
    state = CONNECT_FOUR.new_state(rows=4, columns=5)
    for column in (2, 2, 1, 3, 0, 4, 3):
        state.apply(column)
    assert png_bytes(PICTURES.position_figure(state, title="x", highlight=(1, 4))).startswith(b"\x89PNG")
    record = SimpleNamespace(
        start=CONNECT_FOUR.new_state(rows=4, columns=5).text(),
        actions=list(state.history),
        players=("random", "alphabeta"),
        settings={"rows": 4, "columns": 5},
    )
    assert png_bytes(PICTURES.game_figure(record, "X wins")).startswith(b"\x89PNG")


def test_gpquarto_finds_the_plugin_and_its_capabilities():
    from gpquarto.games.registry import get_game, get_plugin

    plugin = get_plugin("connect_four")
    assert plugin.title == "Connect Four" and get_game("connect_four") is CONNECT_FOUR
    assert [(s.name, s.default, s.minimum, s.maximum) for s in plugin.settings] == [
        ("rows", 6, 4, 9),
        ("columns", 7, 4, 9),
    ]
    for kind in (Board, BoardDrawing, SearchHooks, ExactSolver, Pictures):
        assert isinstance(plugin.capability(kind), kind)
    assert plugin.check_settings({"rows": 4}) == {"rows": 4, "columns": 7}
    with pytest.raises(ValueError, match="rows must be int from 4 to 9, got 10"):
        plugin.check_settings({"rows": 10})


def test_the_solver_player_decides_as_the_generic_solver():
    from connect_four.players import ConnectFourSolverPlayer

    from gpquarto.players.searchers import SolverPlayer

    ours, generic = ConnectFourSolverPlayer(), SolverPlayer()
    for state in positions_near_the_end(4, 5, 11, 60, seed=9) + positions_near_the_end(5, 5, 10, 30, seed=10):
        assert ours.decide(state.view()) == generic.decide(state.view()), state.text()


def test_the_human_player_reads_columns_and_explains_bad_ones():
    from connect_four.players import ConnectFourHumanPlayer

    from gpquarto.players.human import QuitGame

    said = io.StringIO()
    state = CONNECT_FOUR.from_text("X..../O..../X..../O.... X")
    player = ConnectFourHumanPlayer(input_stream=io.StringIO("a\nz\nhint\ndrop c\n"), output_stream=said)
    player.new_game(0)
    assert player.decide(state.view()) == 2
    output = said.getvalue()
    assert "you play X, you move first" in output and " a  b  c  d  e\n" in output
    assert "column a is full: choose another" in output and "not a column: 'z'" in output
    assert "hint: " in output and "with best play: drop " in output
    with pytest.raises(QuitGame):
        ConnectFourHumanPlayer(input_stream=io.StringIO(""), output_stream=io.StringIO()).decide(state.view())


def test_the_plugin_registers_its_players_for_the_game_only():
    from gpquarto.players.registry import available_players

    ours = {info.name: info for info in available_players("connect_four")}
    assert {"human", "solver", "alphabeta", "mcts", "random"} <= set(ours)
    assert ours["human"].game == ours["solver"].game == "connect_four"
    assert ours["alphabeta"].game is None  # gpquarto's generic search, with the game's hooks


def test_the_grade_bank_takes_every_board_and_solves_as_minimax():
    from connect_four.grading import BANK

    assert BANK.settings({}) == {"rows": 6, "columns": 7}
    assert BANK.default_empties({"rows": 4, "columns": 4}) == (4, 8)
    assert BANK.default_empties({"rows": 6, "columns": 7}) == (16, 20)
    assert BANK.empties_limits({"rows": 6, "columns": 7}) == (1, 28)
    assert BANK.empties_limits({"rows": 4, "columns": 4}) == (1, 15)
    assert BANK.tag({"rows": 6, "columns": 7}) == "connect_four6x7"
    with pytest.raises(ValueError, match="rows must be int from 4 to 9"):
        BANK.settings({"rows": 3})
    memo: dict = {}
    for state in positions_near_the_end(4, 5, 9, 60, seed=12):
        value, keep, legal, best = BANK.solve(state)
        values = {action: action_value(state, action, memo) for action in state.legal_actions()}
        classes = {action: (v > 0) - (v < 0) for action, v in values.items()}
        assert value == max(classes.values()) and legal == len(values)
        assert keep == tuple(a for a in sorted(classes) if classes[a] == value)
        assert best == expected_solution(state, memo)[1]
