"""Negamax search and the minimax player: values against brute force, pruning against plain search, options."""

from __future__ import annotations

import math
import random

import pytest

from gpquarto.arena import play_game
from gpquarto.games.quarto import Board
from gpquarto.games.quarto.board import PLACE_OFFSET
from gpquarto.games.quarto.players.minimax import STRATEGIES, MinimaxPlayer, search_depth
from gpquarto.games.quarto.players.solver_player import SolverPlayer
from gpquarto.games.quarto.search import heuristics, tactics
from gpquarto.games.quarto.search.negamax import WIN_SCORE, Negamax, estimated_tree_size, outcome
from gpquarto.games.quarto.search.solver import solve
from gpquarto.players.random_player import RandomPlayer
from gpquarto.resolve import make_player


def random_positions(seed: int, count: int, empty_squares: range) -> list[Board]:
    """Unfinished positions reached by random play with a number of empty squares in the given range."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = Board()
        target = 16 - rng.choice(empty_squares)
        stop_at_choice = rng.random() < 0.5
        while not board.is_over() and (board.placed_count < target or (board.choice_due != stop_at_choice)):
            board.apply(rng.choice(board.legal_actions()))
        if not board.is_over():
            positions.append(board)
    return positions


def brute_score(board: Board) -> int:
    """Exact score for the player to act by exhaustive search over the engine's legal actions: a win made with
    ``e`` squares empty before the winning placement scores ``WIN_SCORE + e`` (quicker wins are better), a draw 0."""
    best = -2 * WIN_SCORE
    for action in board.legal_actions():
        me, empty = board.player, 16 - board.placed_count
        board.apply(action)
        if board.winner is not None:
            value = WIN_SCORE + empty
        elif board.is_draw():
            value = 0
        else:
            value = brute_score(board) if board.player == me else -brute_score(board)
        board.undo()
        best = max(best, value)
    return best


def brute_outcome(board: Board) -> int:
    """1, 0 or -1 for the player to act."""
    score = brute_score(board)
    return (score > 0) - (score < 0)


def test_full_depth_search_matches_brute_force_on_small_endgames() -> None:
    for board in random_positions(seed=3, count=80, empty_squares=range(1, 6)):
        expected = brute_score(board.copy())
        for table in (False, True):
            for ordering in (False, True):
                search = Negamax("lines", table=table, ordering=ordering)
                assert search.value(board, depth=16) == expected, (board.text(), table, ordering)
        assert outcome(expected) == brute_outcome(board)


def test_best_moves_achieve_the_value_on_small_endgames() -> None:
    search = Negamax("lines")
    for board in random_positions(seed=4, count=40, empty_squares=range(2, 6)):
        expected = brute_outcome(board.copy())
        after = board.copy()
        if board.placement_due:
            result = search.best_placement(board, depth=16)
            after.place(result.square)
            if after.winner is not None:
                assert expected == 1
                continue
            if after.is_draw():
                assert expected == 0
                continue
            after.choose(result.piece)
        else:
            after.choose(search.best_choice(board, depth=16).piece)
        assert -brute_outcome(after) == expected, board.text()


@pytest.mark.parametrize("name", sorted(heuristics.HEURISTICS))
def test_pruning_and_table_do_not_change_values(name: str) -> None:
    cases = [(board, 1) for board in random_positions(seed=5, count=40, empty_squares=range(3, 10))]
    cases += [(board, 2) for board in random_positions(seed=6, count=25, empty_squares=range(4, 10))]
    cases += [(board, 3) for board in random_positions(seed=7, count=12, empty_squares=range(5, 8))]
    for board, depth in cases:
        values = {
            (table, ordering): Negamax(name, table=table, ordering=ordering).value(board, depth)
            for table in (False, True)
            for ordering in (False, True)
        }
        assert len(set(values.values())) == 1, (board.text(), values)


def test_table_does_not_change_values_where_transpositions_abound() -> None:
    for board in random_positions(seed=9, count=20, empty_squares=range(6, 8)):
        with_table, without = Negamax("lines"), Negamax("lines", table=False)
        assert with_table.value(board, 16) == without.value(board, 16), board.text()
        assert with_table.nodes <= without.nodes
    for board in random_positions(seed=10, count=10, empty_squares=range(8, 10)):
        assert Negamax("quarticity").value(board, 3) == Negamax("quarticity", table=False).value(board, 3), board.text()


def test_shallow_entries_do_not_answer_deeper_searches() -> None:
    for board in random_positions(seed=11, count=10, empty_squares=range(7, 10)):
        shared = Negamax("lines")
        shared.value(board, 1)
        shared.value(board, 2)
        assert shared.value(board, 3) == Negamax("lines", table=False).value(board, 3), board.text()


@pytest.mark.parametrize(("name", "for_searcher"), [("quarticity", True), ("lines", True), ("guaranteed_loss", False)])
def test_whose_score_a_heuristic_is(name: str, for_searcher: bool) -> None:
    # Depth 1 with two or three squares left: each leaf is the opponent about to place. Tension heuristics
    # score it for the searcher (the root gets +h); the others score it for the player to move (root: -h).
    evaluate = heuristics.HEURISTICS[name].evaluate
    nonzero = 0
    for board in random_positions(seed=13, count=300, empty_squares=range(2, 4)):
        if not board.placement_due or tactics.winning_squares(board, board.in_hand):
            continue
        empty = 16 - board.placed_count
        values = []
        for square in board.empty_squares():
            after = board.copy()
            after.place(square)
            for piece in after.available_pieces():
                after.choose(piece)
                if any(after.is_winning_placement(s, piece) for s in after.empty_squares()):
                    values.append(-(WIN_SCORE + empty - 1))
                else:
                    leaf = evaluate(after)
                    nonzero += leaf != 0
                    values.append(leaf if for_searcher else -leaf)
                after.undo()
        assert Negamax(name).value(board, 1) == max(values), board.text()
    assert nonzero > 5


def test_one_searcher_for_both_players_matches_fresh_searches() -> None:
    # The second search starts one turn later, for the other player, among entries the first one stored.
    rng = random.Random(14)
    for board in random_positions(seed=14, count=12, empty_squares=range(7, 9)):
        shared = Negamax("lines")
        shared.value(board, 3)
        later = board.copy()
        later.apply(rng.choice(later.legal_actions()))
        while not later.is_over() and later.player == board.player:
            later.apply(rng.choice(later.legal_actions()))
        if not later.is_over():
            assert shared.value(later, 2) == Negamax("lines").value(later, 2), later.text()


def test_a_table_kept_through_a_game_keeps_values() -> None:
    # Searching the positions of one game in order at a fixed depth, as a player does, each stored entry is
    # shallower than a later search needs, so it may only reorder moves: values must stay those of a fresh search.
    rng = random.Random(8)
    for depth in (1, 2, 3):
        shared = Negamax("quarticity")
        board = Board()
        while not board.is_over():
            if board.player == 0 and board.placed_count >= 5 and (depth < 3 or board.placed_count >= 8):
                assert shared.value(board, depth) == Negamax("quarticity", table=False).value(board, depth), (
                    board.text()
                )
            board.apply(rng.choice(board.legal_actions()))


def move_value(board: Board, square: int, piece: int, depth: int, heuristic: str) -> int:
    """Value of one root move for the player to act, by a fresh full-window search of the position after it.

    ``square`` is -1 for a choice; ``depth`` counts the move's ply, so it must be at least 2 (a heuristic
    that credits no searcher makes the opponent's search the exact negation)."""
    after = board.copy()
    empty = 16 - board.placed_count
    if square >= 0:
        after.place(square)
        if after.winner is not None:
            return WIN_SCORE + empty
        if after.is_draw():
            return 0
        after.choose(piece)
        return -Negamax(heuristic, table=False, ordering=False).value(after, depth - 1)
    after.choose(piece)
    return -Negamax(heuristic, table=False, ordering=False).value(after, depth)


@pytest.mark.parametrize("heuristic", ["wins", "guaranteed_loss"])
def test_root_ties_hold_exactly_the_best_value(heuristic: str) -> None:
    # Every move the search reports as a tie must have exactly the best value under an open-window search of
    # its own (a fail-hard "not better" is not enough); and no equally good square or piece is missed.
    cases = [(board, 2) for board in random_positions(seed=15, count=30, empty_squares=range(5, 11))]
    cases += [(board, 16) for board in random_positions(seed=16, count=20, empty_squares=range(3, 6))]
    several = 0
    for board, depth in cases:
        result = (
            Negamax(heuristic).best_placement(board, depth)
            if board.placement_due
            else Negamax(heuristic).best_choice(board, depth)
        )
        if board.placement_due:
            moves = [
                (square, piece)
                for square in board.empty_squares()
                for piece in (
                    [-1]
                    if board.placed_count == 15 or board.is_winning_placement(square, board.in_hand)
                    else board.available_pieces()
                )
            ]
        else:
            moves = [(-1, piece) for piece in board.legal_pieces()]
        values = {move: move_value(board, *move, depth, heuristic) for move in moves}
        best = max(values.values())
        equal = {move for move, value in values.items() if value == best}
        assert result.value == best, board.text()
        assert (result.square, result.piece) == result.best_moves[0]
        assert len(set(result.best_moves)) == len(result.best_moves), board.text()
        assert set(result.best_moves) <= equal, board.text()
        if board.placement_due:  # when the board is lost whatever is given, one piece per square stands for all
            assert {square for square, _ in result.best_moves} == {square for square, _ in equal}, board.text()
        else:
            assert set(result.best_moves) == equal, board.text()
        several += len(result.best_moves) > 1
    assert several > 10


def test_immediate_win_and_safe_choice() -> None:
    search = Negamax("lines")
    board = Board.from_text("012./..../..../.... 5")
    result = search.best_placement(board, depth=2)
    assert result.square == 3 and result.value == WIN_SCORE + 13
    board = Board.from_text("012./..../..../.... -")
    result = search.best_choice(board, depth=2)
    assert result.piece in tactics.safe_pieces(board)
    assert search.nodes > 0


def test_search_rejects_bad_requests() -> None:
    search = Negamax("wins")
    with pytest.raises(ValueError, match="depth"):
        search.best_choice(Board(), depth=0)
    with pytest.raises(ValueError, match="in hand"):
        search.best_placement(Board(), depth=1)
    with pytest.raises(ValueError, match="unknown heuristic 'nope'.*quarticity"):
        Negamax("nope")


def test_estimated_tree_size_follows_seed_004() -> None:
    assert estimated_tree_size(5, 5) == math.factorial(5) ** 2
    assert estimated_tree_size(16, 1) == 16 * 16
    assert estimated_tree_size(3, 10) == estimated_tree_size(3, 3)


@pytest.mark.parametrize("empty", range(1, 17))
def test_depth_strategies(empty: int) -> None:
    bound = 14_400
    assert search_depth("fixed", 3, bound, empty) == 3
    full = search_depth("full_below", 3, bound, empty)
    assert full == (empty if estimated_tree_size(empty, empty) <= bound else 1)
    deepest = search_depth("deepest", 3, bound, empty)
    assert 1 <= deepest <= empty
    assert deepest == 1 or estimated_tree_size(empty, deepest) <= bound
    assert deepest == empty or estimated_tree_size(empty, deepest + 1) > bound


def test_unknown_names_list_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="unknown heuristic 'x'.*wins.*guaranteed_loss.*lines.*quarticity"):
        make_player("minimax:heuristic=x")
    with pytest.raises(ValueError, match="unknown strategy 'x'.*" + ".*".join(STRATEGIES)):
        make_player("minimax:strategy=x")
    with pytest.raises(ValueError, match="depth must be 1 to 16, got 0"):
        make_player("minimax:depth=0")


def test_player_never_gives_a_winning_piece_when_a_safe_one_exists() -> None:
    player = MinimaxPlayer(depth=1, seed=1)
    for board in random_positions(seed=8, count=60, empty_squares=range(3, 13)):
        view = board.view()
        if board.placement_due:
            winning = tactics.winning_squares(board, board.in_hand)
            square = player.place_piece(view, board.in_hand)
            assert not winning or square in winning, board.text()
        else:
            safe = tactics.safe_pieces(board)
            assert not safe or player.choose_piece(view) in safe, board.text()


def test_player_gives_the_piece_its_placement_search_planned() -> None:
    player = MinimaxPlayer(depth=2, heuristic="quarticity")
    board = Board.from_text("0.../.5../..a./.... 3")
    square = player.place_piece(board.view(), 3)
    nodes = player.nodes
    board.place(square)
    piece = player.choose_piece(board.view())
    assert player.nodes == nodes  # no second search
    planned = Negamax("quarticity").best_placement(Board.from_text("0.../.5../..a./.... 3"), 2)
    assert (square, piece) in planned.best_moves


def test_novice_switch_and_random_opening() -> None:
    novice_only = MinimaxPlayer(novice_moves=16, seed=2)
    play_game((novice_only, RandomPlayer()), seed=3)
    assert novice_only.nodes == 0
    first_squares, opening_pieces = set(), set()
    for seed in range(30):
        player = MinimaxPlayer(random_opening=True, seed=seed)
        opening_pieces.add(player.choose_piece(Board().view()))
        board = Board()
        board.choose(0)
        first_squares.add(player.place_piece(board.view(), 0))
    assert first_squares <= {0, 5, 10, 15, 3, 6, 9, 12} and len(first_squares) > 2
    assert len(opening_pieces) > 2


def test_solver_decides_at_most_solver_below_empty_squares(monkeypatch: pytest.MonkeyPatch) -> None:
    calls, nodes = [], []

    def counting_solve(board: Board, **options):
        calls.append(16 - board.placed_count)
        result = solve(board, **options)
        nodes.append(result.nodes)
        return result

    monkeypatch.setattr("gpquarto.games.quarto.players.solver_player.solve", counting_solve)
    board = random_positions(seed=9, count=1, empty_squares=range(5, 6))[0]
    while not board.placement_due:
        board.choose(tactics.safe_pieces(board)[0] if tactics.safe_pieces(board) else board.legal_pieces()[0])
    empty = 16 - board.placed_count
    player = MinimaxPlayer(depth=1, solver_below=empty, seed=1)
    square = player.place_piece(board.view(), board.in_hand)
    assert calls == [empty] and player.nodes == sum(nodes)  # the solver's positions count as the player's
    assert PLACE_OFFSET + square in solve(board).best_actions
    calls.clear()
    MinimaxPlayer(depth=1, solver_below=empty - 1).place_piece(board.view(), board.in_hand)
    assert calls == []
    with pytest.raises(ValueError, match="solver_below must be 0..16"):
        make_player("minimax:solver_below=17")


def won_endgames(seed: int, count: int, empties: int) -> list[Board]:
    """Random positions with at most ``empties`` empty squares that the solver proves won for the side to act."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = random_positions(rng.randrange(10**9), 1, range(empties - 2, empties + 1))[0]
        if solve(board).value == 1:
            found.append(board)
    return found


def test_with_solver_hand_off_a_won_endgame_is_always_won() -> None:
    for index, board in enumerate(won_endgames(seed=17, count=10, empties=9)):
        for opponent in (RandomPlayer(seed=index), SolverPlayer(empties=16, seed=index)):
            minimax = MinimaxPlayer(depth=1, solver_below=9, seed=index)
            seats = [opponent, opponent]
            seats[board.player] = minimax
            record = play_game(tuple(seats), start=board, seed=index)
            assert record.winner == board.player, (board.text(), record.actions)


def test_same_seed_same_game_and_other_seeds_other_games() -> None:
    def game(seed: int) -> tuple[int, ...]:  # the arena seeds both players from the game's seed
        return tuple(play_game((make_player("minimax:depth=1"), make_player("minimax:depth=1")), seed=seed).actions)

    assert game(4) == game(4)
    assert len({game(seed) for seed in range(6)}) >= 5


def test_depth_two_beats_random() -> None:
    wins = 0
    for game in range(10):
        players = (MinimaxPlayer(depth=2), RandomPlayer())
        seat = game % 2
        record = play_game(players if seat == 0 else players[::-1], seed=game)
        wins += record.winner == seat
    assert wins >= 9


def test_heuristics_match_their_definitions() -> None:
    def shares(pieces: list[int]) -> bool:
        return any(len({p >> bit & 1 for p in pieces}) == 1 for bit in range(4))

    def safe_after(board: Board, square: int) -> bool:
        after = board.copy()
        after.place(square)
        return any(
            not any(after.is_winning_placement(s, p) for s in after.empty_squares()) for p in after.available_pieces()
        )

    checked = 0
    for board in random_positions(seed=12, count=200, empty_squares=range(2, 12)):
        if not board.placement_due:
            continue
        checked += 1
        lines = [[board.piece_at(s) for s in line if board.piece_at(s) >= 0] for line in board.rules.lines]
        threat = [pieces for pieces in lines if len(pieces) == 3 and shares(pieces)]
        assert heuristics.quarticity(board) == min(10 * len(threat), 100), board.text()
        winners = [sum(shares([*pieces, p]) for p in board.available_pieces()) for pieces in threat]
        weights = [20 if n % 2 == 0 else 10 for n in winners if n]
        assert heuristics.three_piece_lines(board) == min(sum(weights), 100), board.text()
        lost = bool(board.available_pieces()) and not any(safe_after(board, s) for s in board.empty_squares())
        assert heuristics.guaranteed_loss(board) == (-100 if lost else 0), board.text()
        assert heuristics.wins_only(board) == 0
    assert checked > 50


class ForgetfulMinimax(MinimaxPlayer):
    """Searches every decision afresh: the reference for the remembered answers."""

    def _best_moves(self, position, search):
        self._memo.clear()
        return super()._best_moves(position, search)


def records(player, games: int, seed: int, first_game: int = 0) -> list[tuple[int, ...]]:
    from gpquarto.arena.match import play_match

    result = play_match(player, RandomPlayer(), games, seed=seed, keep_records=True, first_game=first_game)
    return [tuple(record.actions) for record in result.records]


def test_remembered_answers_play_the_games_a_fresh_search_plays():
    remembering = MinimaxPlayer(depth=2, heuristic="lines")
    warm_up = records(remembering, 30, seed=8)  # meets positions again, in other games and other orders
    assert remembering._memo
    later = records(remembering, 30, seed=5)
    assert later == records(ForgetfulMinimax(depth=2, heuristic="lines"), 30, seed=5)
    assert warm_up == records(ForgetfulMinimax(depth=2, heuristic="lines"), 30, seed=8)
    assert records(remembering, 10, seed=5, first_game=20) == later[20:]  # a slice replays alike on a warm player


def test_only_the_fixed_strategy_remembers():
    player = MinimaxPlayer(depth=1, strategy="full_below")
    records(player, 4, seed=1)
    assert not player._memo
