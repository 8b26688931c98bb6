"""The exact solver against slow, obviously correct references written here over the engine's Board."""

from __future__ import annotations

import functools
import random

import pytest

from gpquarto.games.quarto.board import PLACE_OFFSET, Board, transform
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.search import solver
from gpquarto.games.quarto.search.solver import NodeLimitReached, SolverTable, solve
from gpquarto.games.quarto.symmetry import PIECE_MAPS, square_maps
from gpquarto.resolve import make_player


def outcome(board: Board) -> int:
    """Value of a finished game for ``board.player`` (after a win, the player who just placed)."""
    if board.winner is None:
        return 0
    return 1 if board.winner == board.player else -1


def brute_value(board: Board) -> int:
    """Plain negamax over every action: no pruning, no table."""
    if board.is_over():
        return outcome(board)
    me = board.player
    best = -1
    for action in board.legal_actions():
        board.apply(action)
        value = brute_value(board) if board.player == me else -brute_value(board)
        board.undo()
        best = max(best, value)
    return best


def memo_value(board: Board, memo: dict) -> int:
    """Exhaustive negamax remembering exact values by (cells, piece in hand): no pruning, no bounds."""
    if board.is_over():
        return outcome(board)
    key = (board.cells, board.in_hand)
    if key not in memo:
        me = board.player
        best = -1
        for action in board.legal_actions():
            board.apply(action)
            value = memo_value(board, memo) if board.player == me else -memo_value(board, memo)
            board.undo()
            best = max(best, value)
        memo[key] = best
    return memo[key]


def reference(board: Board, value_of) -> tuple[int, tuple[int, ...]]:
    """Value and every optimal action, from the value of each child."""
    me = board.player
    values = {}
    for action in board.legal_actions():
        board.apply(action)
        values[action] = value_of(board) if board.player == me else -value_of(board)
        board.undo()
    best = max(values.values())
    return best, tuple(sorted(a for a, v in values.items() if v == best))


def random_endgame(rng: random.Random, empties: int, rules: Rules, placement_due: bool) -> Board:
    """A position reached by random play with ``empties`` empty squares and the given phase, game not over."""
    while True:
        board = Board(rules)
        while not board.is_over() and (16 - board.placed_count > empties or board.placement_due != placement_due):
            actions = board.legal_actions()
            board.apply(actions[int(rng.random() * len(actions))])
        if not board.is_over() and 16 - board.placed_count == empties:
            return board


CASES = [(rules, placement_due) for rules in Rules for placement_due in (False, True)]


@pytest.mark.parametrize("rules, placement_due", CASES)
def test_matches_brute_force_on_small_endgames(rules: Rules, placement_due: bool) -> None:
    rng = random.Random(f"small {rules.value} {placement_due}")
    sizes = [1, 2, 3, 4, 5] * 12 + ([6] * 4 if placement_due else [])  # a 6-empty choice takes seconds here
    for empties in sizes:
        board = random_endgame(rng, empties, rules, placement_due)
        result = solve(board)
        assert (result.value, result.best_actions) == reference(board, brute_value), board.text()


@pytest.mark.parametrize("rules, placement_due", CASES)
def test_matches_exhaustive_search_on_six_and_seven_empty_squares(rules: Rules, placement_due: bool) -> None:
    rng = random.Random(f"large {rules.value} {placement_due}")
    for empties in (6, 6, 7):
        board = random_endgame(rng, empties, rules, placement_due)
        result = solve(board)
        expected = reference(board, functools.partial(memo_value, memo={}))
        assert (result.value, result.best_actions) == expected, board.text()


@pytest.mark.parametrize("rules", list(Rules))
def test_lean_and_table_searches_match_exhaustive_search_wherever_they_split(rules: Rules, monkeypatch) -> None:
    """Choices with at most ``LEAN_MAX`` empty squares take the lean search, bigger ones the table and move
    ordering: wherever the split lies, both decision kinds get the exhaustive value and best actions."""
    rng = random.Random(f"lean {rules.value}")
    for index, empties in enumerate([4, 5, 5, 6, 6, 7, 7] * 2):
        board = random_endgame(rng, empties, rules, placement_due=index % 2 == 1)
        expected = reference(board, functools.partial(memo_value, memo={}))
        for lean_max in (2, 3, 4, solver.LEAN_MAX, 7):
            monkeypatch.setattr(solver, "LEAN_MAX", lean_max)
            result = solve(board)
            assert (result.value, result.best_actions) == expected, (board.text(), lean_max)


def test_best_actions_are_legal_and_both_phases_are_solved() -> None:
    rng = random.Random(11)
    for placement_due in (False, True):
        board = random_endgame(rng, 6, Rules.CLASSIC, placement_due)
        result = solve(board)
        assert set(result.best_actions) <= set(board.legal_actions())
        assert all((a >= PLACE_OFFSET) == placement_due for a in result.best_actions)
        assert result.nodes >= 0
        assert solve(board.view()) == result


def test_value_is_invariant_under_symmetries() -> None:
    rng = random.Random(12)
    for rules in Rules:
        board = random_endgame(rng, 7, rules, False)
        value = solve(board).value
        for square_map in square_maps(rules)[::3]:
            image = transform(board, square_map, PIECE_MAPS[rng.randrange(len(PIECE_MAPS))])
            assert solve(image).value == value


def test_shared_table_gives_the_same_answer_with_fewer_nodes() -> None:
    board = random_endgame(random.Random(13), 8, Rules.CLASSIC, False)
    table = SolverTable()
    first = solve(board, table=table)
    again = solve(board, table=table)
    assert (again.value, again.best_actions) == (first.value, first.best_actions)
    assert again.nodes < first.nodes
    assert len(table) > 0


def test_table_size_is_capped() -> None:
    board = random_endgame(random.Random(14), 8, Rules.CLASSIC, False)
    table = SolverTable(max_entries=50)
    assert (solve(board, table=table).value, len(table) <= 50) == (solve(board).value, True)


def test_node_limit_stops_the_search() -> None:
    board = random_endgame(random.Random(15), 9, Rules.CLASSIC, False)
    needed = solve(board).nodes
    assert needed > 10
    with pytest.raises(NodeLimitReached):
        solve(board, node_limit=needed // 2)
    assert solve(board, node_limit=needed).nodes == needed


def test_finished_game_is_refused() -> None:
    board = Board.from_text("0123/..../..../.... -")  # short pieces fill the top row
    assert board.is_over()
    with pytest.raises(ValueError, match="over"):
        solve(board)
    with pytest.raises(ValueError, match="max_entries"):
        SolverTable(max_entries=0)


def test_solver_player_plays_optimal_actions_in_the_endgame_and_safe_ones_before() -> None:
    rng = random.Random(16)
    for index in range(12):
        placement_due = index % 2 == 1
        board = random_endgame(rng, 5 + index % 3, Rules.CLASSIC, placement_due)
        player = make_player("solver:empties=7", seed=index)
        if placement_due:
            action = PLACE_OFFSET + player.place_piece(board.view(), board.in_hand)
        else:
            action = player.choose_piece(board.view())
        assert action in solve(board).best_actions, board.text()
    for index in range(12):
        board = random_endgame(rng, 10, Rules.CLASSIC, False)
        safe = [piece for piece in board.legal_pieces() if not board.winning_squares(piece)]
        piece = make_player("solver:empties=7", seed=index).choose_piece(board.view())
        assert piece in (safe or board.legal_pieces())
        board.choose(piece)
        winning = board.winning_squares(piece)
        square = make_player("solver:empties=7", seed=index).place_piece(board.view(), piece)
        assert square in (winning or board.legal_squares())


@pytest.mark.parametrize("rules", list(Rules))
def test_every_symmetric_image_has_the_same_value_and_the_mapped_best_actions(rules: Rules) -> None:
    """Each position of a seeded set against several images (square map x piece map): same value, and the
    best actions are the images of the original's."""
    rng = random.Random(f"images {rules.value}")
    maps = square_maps(rules)
    for index in range(6):
        board = random_endgame(rng, 6 + index % 3, rules, placement_due=index % 2 == 1)
        result = solve(board)
        for _ in range(4):
            square_map, piece_map = maps[rng.randrange(len(maps))], PIECE_MAPS[rng.randrange(len(PIECE_MAPS))]
            image = solve(transform(board, square_map, piece_map))
            assert image.value == result.value, board.text()
            # new[s] = old[square_map[s]]: the action on old square q lands on the s with square_map[s] == q
            where = {old: new for new, old in enumerate(square_map)}
            expected = sorted(
                PLACE_OFFSET + where[action - PLACE_OFFSET] if action >= PLACE_OFFSET else piece_map[action]
                for action in result.best_actions
            )
            assert sorted(image.best_actions) == expected, board.text()
