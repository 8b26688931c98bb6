"""The Quixo zoo: alpha-beta against plain negamax, the official rule and repetitions in search, time limits,
minimax (the seed's), MCTS, and the registry."""

from __future__ import annotations

import random
import time

import pytest

from gpquarto.games.quixo import QuixoBoard
from gpquarto.games.quixo.players.mcts import QuixoMCTSPlayer
from gpquarto.games.quixo.players.search_players import QuixoAlphaBetaPlayer, QuixoMinimaxPlayer
from gpquarto.games.quixo.search.alphabeta import WIN, QuixoSearch
from gpquarto.players.registry import make_named_player


def plain_negamax(search: QuixoSearch, own: int, other: int, depth: int, ply: int = 0) -> float:
    """Every move to ``depth``, no pruning and no table, the same scores."""
    table, best = search.table, None
    for action in table.legal(other):
        own2, other2 = table.play(own, other, action)
        result = table.mover_result(own2, other2, search.course)
        if result:
            score = result * (WIN - ply - 1)
        elif depth <= 1:
            score = -search.evaluate(other2, own2)
        else:
            score = -plain_negamax(search, other2, own2, depth - 1, ply + 1)
        best = score if best is None or score > best else best
    return best


def random_positions(count: int, seed: int, size: int = 5, rules: str = "official") -> list[QuixoBoard]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = QuixoBoard(size, rules)
        for _ in range(rng.randrange(4, 30)):
            if board.is_over():
                break
            board.apply(rng.choice(board.legal_actions()))
        if not board.is_over():
            positions.append(QuixoBoard.from_text(board.text()))  # no history: no repetitions to count
    return positions


@pytest.mark.parametrize(("size", "rules", "depth"), [(5, "official", 2), (4, "course", 3), (5, "official", 3)])
def test_alphabeta_scores_what_plain_negamax_scores(size, rules, depth):
    for heuristic in ("lines", "cubes"):
        for board in random_positions(6 if depth == 3 else 15, seed=depth + size, size=size, rules=rules):
            search = QuixoSearch(size, rules, heuristic)
            own, other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)
            assert search.search(board, depth).score == plain_negamax(search, own, other, depth)


@pytest.mark.parametrize(("size", "rules"), [(3, "official"), (3, "course"), (4, "course"), (4, "official")])
def test_a_win_or_loss_the_search_reports_is_exactly_as_far_as_it_says(size, rules):
    """Deep searches on small boards reach one position at different plies, and a player's search keeps its
    table between calls: a decided score ``WIN - d`` (or its negative) must still be the exact distance, which
    full-width negamax to exactly that depth confirms."""
    search = QuixoSearch(size, rules, "lines")  # one table for all the positions, as a player keeps it
    decided = 0
    for board in random_positions(25, seed=size * 7, size=size, rules=rules):
        own, other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)
        for depth in (2, 4):
            score = search.search(board, depth).score
            if abs(score) >= WIN - 64:
                plies = WIN - abs(score)
                assert plain_negamax(search, own, other, plies) == score, (board.text(), depth)
                decided += 1
    assert decided >= 5  # enough of the positions are decided within the horizon


def test_search_takes_a_win_and_never_completes_the_opponents_line():
    # X to move: a3 to the right... any move completing O's row 2 loses; e5 to top completes both (loses).
    board = QuixoBoard.from_text("XXXX./OOOO./...../...../..... X")
    for depth in (1, 2, 3):
        action = QuixoSearch(5).search(board, depth).action
        board.apply(action)
        assert board.winner_index == 0
        board.undo()
    both = QuixoBoard.from_text("XXXXO/OOOO./...../...../X.... X")
    result = QuixoSearch(5).search(both, 2)
    both.apply(result.action)
    assert both.winner_index != 1
    assert both.parse_action("e5 to top") != result.action


def test_search_counts_repetitions_with_the_games_history():
    board = QuixoBoard.from_text("XX./O../.X. X", repetitions=3)
    cycle = [board.parse_action(name) for name in ("a1 to right", "a2 to right", "c1 to left", "c2 to left")]
    for action in cycle + cycle[:3]:
        board.apply(action)
    # O to move: c2 to left would be the third occurrence of the start, a draw. A search that likes draws (negative
    # contempt) plays it and scores it; on the same board without its history the move is no draw.
    liking = QuixoSearch(3, contempt=-(10**5))
    result = liking.search(board, 2)
    assert (result.action, result.score) == (cycle[3], 10**5)
    assert QuixoSearch(3, contempt=-(10**5)).search(QuixoBoard.from_text(board.text()), 2).score != 10**5


def test_time_limits_hold_and_a_decision_always_comes():
    board = random_positions(1, seed=9)[0]
    player = QuixoAlphaBetaPlayer(depth=0, seconds=0.05)
    began = time.perf_counter()
    action = player.decide(board.view())
    assert time.perf_counter() - began < 1.5 and action in board.legal_actions()
    with pytest.raises(ValueError, match="give depth >= 1 or seconds > 0"):
        QuixoAlphaBetaPlayer(depth=0)
    with pytest.raises(ValueError, match="unknown Quixo heuristic 'magic'"):
        QuixoAlphaBetaPlayer(heuristic="magic")


def test_minimax_is_the_seeds_search():
    board = QuixoBoard.from_text("XXXX./OOOO./...../...../..... X")
    player = QuixoMinimaxPlayer(depth=1)
    board.apply(player.decide(board.view()))
    assert board.winner_index == 0
    search = QuixoSearch(5, heuristic="cubes")
    start = QuixoBoard()
    score, action = search.minimax(start.x_mask, start.o_mask, 2)
    assert score == 0.0 and action == start.legal_actions()[0]  # every reply evens the cubes; the first move
    for board in random_positions(5, seed=3):
        assert QuixoMinimaxPlayer(depth=2).decide(board.view()) in board.legal_actions()


def test_mcts_is_reproducible_and_takes_a_win():
    board = QuixoBoard.from_text("XXXX./OOOO./...../...../..... X")
    action = QuixoMCTSPlayer(iterations=400, seed=1).decide(board.view())
    board.apply(action)
    assert board.winner_index == 0
    position = random_positions(1, seed=5)[0]
    assert QuixoMCTSPlayer(iterations=60, seed=3).decide(position.view()) == QuixoMCTSPlayer(
        iterations=60, seed=3
    ).decide(position.view())


def test_the_zoo_is_registered_for_quixo():
    board = random_positions(1, seed=6)[0]
    for spec in ("random", "minimax:depth=1", "alphabeta:depth=2", "mcts:iterations=30"):
        player = make_named_player(spec, game="quixo", seed=1)
        player.new_game(0)
        assert player.decide(board.view()) in board.legal_actions()
    with pytest.raises(ValueError, match="cannot play quarto"):
        from gpquarto.games import get_game

        QuixoMinimaxPlayer().decide(get_game("quarto").new_state().view())
