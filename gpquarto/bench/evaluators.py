"""What an evaluation costs: time per leaf of an evolved evaluator against the hand-written heuristics.

A *leaf* is what negamax hands to a heuristic: a position with a piece in hand that cannot win at once.
:func:`leaf_positions` draws such positions by seeded random play, spread over the game (4 to 13 pieces on the
board); :func:`time_per_leaf` times evaluations over them with :func:`~gpquarto.bench.timing.median_rates`
(interleaved repeats, medians: the machine is shared), so the ratios are fair.

Note: the built-in heuristics also have a specialised search (:mod:`gpquarto.search.negamax`, "the fast
search") whose last ply evaluates each square once for all the pieces placed there; an evolved evaluator
runs in the generic search, which calls it at every leaf. :func:`time_per_search` measures that end to end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from gpquarto.bench.timing import median_rates
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.pieces import CHARACTERISTICS
from gpquarto.search.negamax import Negamax
from gpquarto.search.tactics import threat_characteristics


def leaf_positions(count: int, seed: int = 0) -> list[Board]:
    """``count`` positions where a placement is due and the piece in hand cannot win at once (4..13 pieces down)."""
    rng = random.Random(seed)
    positions: list[Board] = []
    while len(positions) < count:
        board = Board()
        stop = rng.randint(4, 13)
        while not board.is_over() and not (board.placement_due and board.placed_count >= stop):
            actions = board.legal_actions()
            board.apply(actions[rng.randrange(len(actions))])
        if not board.is_over() and not CHARACTERISTICS[board.in_hand] & threat_characteristics(board):
            positions.append(board)
    return positions


def time_per_leaf(
    evaluations: Mapping[str, Callable[[Board], int]],
    positions: list[Board],
    *,
    repeats: int = 5,
    min_seconds: float = 0.2,
) -> dict[str, float]:
    """Median seconds per evaluation of each named function over ``positions``."""

    def batch(evaluate: Callable[[Board], int]) -> Callable[[], int]:
        def run() -> int:
            for board in positions:
                evaluate(board)
            return len(positions)

        return run

    rates = median_rates({name: batch(evaluate) for name, evaluate in evaluations.items()}, repeats, min_seconds)
    return {name: 1.0 / rate for name, (rate, _all) in rates.items()}


def time_per_search(
    searches: Mapping[str, Callable[[], Negamax]], positions: list[Board], depth: int, *, repeats: int = 3
) -> dict[str, float]:
    """Median seconds per placement search at ``depth`` of each searcher (a fresh one per batch) over ``positions``."""

    def batch(make: Callable[[], Negamax]) -> Callable[[], int]:
        def run() -> int:
            search = make()
            for board in positions:
                search.best_placement(board, depth)
            return len(positions)

        return run

    rates = median_rates({name: batch(make) for name, make in searches.items()}, repeats, 0.0)
    return {name: 1.0 / rate for name, (rate, _all) in rates.items()}
