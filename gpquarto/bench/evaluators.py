"""What an evaluation costs: time per leaf of an evolved evaluator against the hand-written heuristics.

A *leaf* is what negamax hands to a heuristic: a position with a piece in hand that cannot win at once.
:func:`~gpquarto.gp.evaluator.leaf_positions` draws such positions by seeded random play, spread over the game (4 to 13 pieces on the
board); :func:`time_per_leaf` times evaluations over them with :func:`~gpquarto.bench.timing.median_rates`
(interleaved repeats, medians: the machine is shared), so the ratios are fair. An evolved evaluator is timed
twice: on a Board (``evaluator(board)``, what a player outside a search pays) and on the fast search's leaf
(``evaluator.leaf``: :class:`~gpquarto.gp.features.LeafFeatures`, what the search pays).

The search is the fair comparison: the built-in heuristics' last ply evaluates each square once for all the
pieces given there, while an evolved evaluator is called for every piece given (its value may depend on it).
:func:`time_per_search` measures that end to end; ``python -m gpquarto bench evaluators --evaluator FILE``
prints both tables (:func:`evaluator_benchmark`), and with ``--games N`` the time per decision of each evaluator's
``minimax:depth=2`` against plain ``minimax:depth=2`` in N seeded games between them (:func:`time_per_decision`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gpquarto.bench.timing import median_rates
from gpquarto.games.quarto.board import Board
from gpquarto.gp.evaluator import CompiledEvaluator, leaf_positions
from gpquarto.jobs.matches import run_matches
from gpquarto.search.heuristics import HEURISTICS
from gpquarto.search.negamax import Negamax
from gpquarto.search.tactics import SearchLeaf


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


def _leaf_state(leaf: SearchLeaf) -> tuple:
    return leaf.rules, leaf.cells, leaf.chars, leaf.occupied, leaf.counters


def evaluator_benchmark(
    evaluators: Mapping[str, CompiledEvaluator],
    *,
    positions: int = 300,
    search_positions: int = 40,
    depths: tuple[int, ...] = (1, 2),
    repeats: int = 5,
    seconds: float = 0.2,
    seed: int = 0,
) -> dict[str, dict[str, float]]:
    """Median seconds per leaf (``"leaf"``: heuristics and evaluators on a Board; ``"search leaf"``: evaluators on
    the fast search's leaf, each with a fresh :class:`SearchLeaf`: the worst case, no sibling sharing its facts) and per placement search at each depth (``"depth D"``) of ``lines``, ``quarticity``
    and each evaluator, over seeded leaf positions."""
    boards = leaf_positions(positions, seed)
    # The search shares a leaf's board facts among the pieces given there; a fresh SearchLeaf per call times the
    # worst case (no sharing).
    leaves = [(_leaf_state(SearchLeaf.from_board(board)), board.available_mask, board.in_hand) for board in boards]
    on_board: dict[str, Callable[[Board], int]] = {name: HEURISTICS[name].evaluate for name in ("lines", "quarticity")}
    on_board.update(evaluators)
    table: dict[str, dict[str, float]] = {"leaf": time_per_leaf(on_board, boards, repeats=repeats, min_seconds=seconds)}

    def leaf_batch(evaluator: CompiledEvaluator) -> Callable[[], int]:
        def run() -> int:
            for state, available, in_hand in leaves:
                evaluator.leaf(SearchLeaf(*state), available, in_hand)
            return len(leaves)

        return run

    rates = median_rates({name: leaf_batch(evaluator) for name, evaluator in evaluators.items()}, repeats, seconds)
    table["search leaf"] = {name: 1.0 / rate for name, (rate, _all) in rates.items()}
    searches: dict[str, Callable[[], Negamax]] = {
        name: (lambda name=name: Negamax(name)) for name in ("lines", "quarticity")
    }
    searches.update({name: (lambda e=evaluator: Negamax(e.heuristic())) for name, evaluator in evaluators.items()})
    for depth in depths:
        table[f"depth {depth}"] = time_per_search(searches, boards[:search_positions], depth, repeats=repeats)
    return table


def time_per_decision(
    paths: Sequence[str], *, depth: int = 2, games: int = 40, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """Mean seconds per decision of ``minimax:depth=D,evaluator=PATH`` and of its opponent ``minimax:depth=D``
    (``lines``) in a seeded match of ``games`` games between them, for each path: the two are timed side by side,
    in the same games, so their ratio is fair on a shared machine."""
    results = run_matches(
        [(f"minimax:depth={depth},evaluator={path}", f"minimax:depth={depth}", seed) for path in paths], games
    )
    return {
        path: (result.mean_decision_time(0), result.mean_decision_time(1))
        for path, result in zip(paths, results, strict=True)
    }


def format_decision_times(times: dict[str, tuple[float, float]], depth: int = 2) -> str:
    """One line per evaluator: its milliseconds per decision in the games, and the ratio to ``minimax:depth=D``."""
    return "\n".join(
        f"per decision in games at depth {depth}: {name} {mine * 1e3:.3g} ms, minimax:depth={depth} "
        f"{theirs * 1e3:.3g} ms ({mine / theirs:.1f}x)"
        for name, (mine, theirs) in times.items()
    )


def format_evaluator_benchmark(table: dict[str, dict[str, float]]) -> str:
    """The table as text: microseconds per leaf, milliseconds per search, and each one's ratio to ``lines``."""
    lines = []
    for row, times in table.items():
        unit, scale = ("us", 1e6) if "leaf" in row else ("ms", 1e3)
        reference = table["leaf"]["lines"] if row == "search leaf" else times["lines"]
        cells = [f"{name} {value * scale:.3g} {unit} ({value / reference:.1f}x lines)" for name, value in times.items()]
        what = (
            "per leaf on the fast search's leaf"
            if row == "search leaf"
            else f"per {'leaf' if row == 'leaf' else 'placement search at ' + row}"
        )
        lines.append(f"{what}: " + "; ".join(cells))
    return "\n".join(lines)
