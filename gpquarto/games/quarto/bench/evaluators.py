"""What an evaluation costs: time per leaf of an evolved evaluator against the hand-written heuristics.

A *leaf* is what negamax hands to a heuristic: a position with a piece in hand that cannot win at once.
:func:`~gpquarto.games.quarto.gp.evaluator.leaf_positions` draws such positions by seeded random play, spread over the game (4 to 13 pieces on the
board); :func:`time_per_leaf` times evaluations over them with :func:`~gpquarto.bench.timing.median_rates`
(interleaved repeats, medians: the machine is shared), so the ratios are fair. An evolved evaluator is timed
twice: on a Board (``evaluator(board)``, what a player outside a search pays) and on the fast search's leaf
(``evaluator.leaf``: :class:`~gpquarto.games.quarto.gp.features.LeafFeatures`, what the search pays).

The search is the fair comparison: the built-in heuristics' last ply evaluates each square once for all the
pieces given there, while an evolved evaluator is called for every piece given (its value may depend on it).
:func:`time_per_search` measures that end to end, beside ``lines``, ``quarticity``, ``guaranteed_loss`` (the
strongest hand-written heuristic, and a costly one: it walks the board one placement past the leaf) and ``lines``
one ply deeper (what the evaluator's time would buy as depth); ``python3 -m gpquarto bench evaluators --evaluator
FILE`` prints both tables (:func:`evaluator_benchmark`), and with ``--games N`` the time per decision of each
evaluator's ``minimax:depth=2`` against ``minimax:depth=2``, ``minimax:depth=2,heuristic=guaranteed_loss`` and
``minimax:depth=3``, each in N seeded games between the two (:func:`time_per_decision`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from gpquarto.bench.timing import median_rates
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.evaluator import CompiledEvaluator, leaf_positions
from gpquarto.games.quarto.search.heuristics import HEURISTICS
from gpquarto.games.quarto.search.negamax import Negamax
from gpquarto.games.quarto.search.tactics import SearchLeaf
from gpquarto.jobs.matches import run_matches

#: The hand-written heuristics timed beside the evaluators, per leaf and per search.
REFERENCE_HEURISTICS = ("lines", "quarticity", "guaranteed_loss")


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
    searches: Mapping[str, tuple[Callable[[], Negamax], int]], positions: list[Board], *, repeats: int = 3
) -> dict[str, float]:
    """Median seconds per placement search of each named ``(make a searcher, depth)`` (a fresh searcher per
    batch) over ``positions``, the searches interleaved."""

    def batch(make: Callable[[], Negamax], depth: int) -> Callable[[], int]:
        def run() -> int:
            search = make()
            for board in positions:
                search.best_placement(board, depth)
            return len(positions)

        return run

    rates = median_rates({name: batch(*search) for name, search in searches.items()}, repeats, 0.0)
    return {name: 1.0 / rate for name, (rate, _all) in rates.items()}


def _leaf_state(leaf: SearchLeaf) -> tuple:
    return leaf.rules, leaf.cells, leaf.chars, leaf.occupied, leaf.counters


def _searching(evaluator: CompiledEvaluator) -> Callable[[], Negamax]:
    """A fresh search with the evaluator's heuristic (made anew for each search)."""
    return lambda: Negamax(evaluator.heuristic())


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
    the fast search's leaf, each with a fresh :class:`SearchLeaf`: the worst case, no sibling sharing its facts) and
    per placement search at each depth (``"depth D"``) of the :data:`REFERENCE_HEURISTICS`, of ``lines`` at depth
    D + 1 (``"lines, depth D+1"``) and of each evaluator, over seeded leaf positions."""
    boards = leaf_positions(positions, seed)
    # The search shares a leaf's board facts among the pieces given there; a fresh SearchLeaf per call times the
    # worst case (no sharing).
    leaves = [(_leaf_state(SearchLeaf.from_board(board)), board.available_mask, board.in_hand) for board in boards]
    on_board: dict[str, Callable[[Board], int]] = {name: HEURISTICS[name].evaluate for name in REFERENCE_HEURISTICS}
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
    searches: dict[str, Callable[[], Negamax]] = {name: partial(Negamax, name) for name in REFERENCE_HEURISTICS}
    searches.update({name: _searching(evaluator) for name, evaluator in evaluators.items()})
    for depth in depths:
        at_depth = {name: (make, depth) for name, make in searches.items()}
        at_depth[f"lines, depth {depth + 1}"] = (searches["lines"], depth + 1)
        table[f"depth {depth}"] = time_per_search(at_depth, boards[:search_positions], repeats=repeats)
    return table


def reference_players(depth: int) -> tuple[str, ...]:
    """The players an evaluator's ``minimax:depth=D`` is timed against, per decision: ``minimax:depth=D``
    (``lines``), the same with ``guaranteed_loss``, and ``minimax:depth=D+1``."""
    return (f"minimax:depth={depth}", f"minimax:depth={depth},heuristic=guaranteed_loss", f"minimax:depth={depth + 1}")


def time_per_decision(
    paths: Sequence[str],
    *,
    depth: int = 2,
    games: int = 40,
    seed: int = 0,
    opponents: Sequence[str] | None = None,
) -> dict[tuple[str, str], tuple[float, float]]:
    """Mean seconds per decision of ``minimax:depth=D,evaluator=PATH`` and of its opponent in a seeded match of
    ``games`` games between them, for each path and each opponent (default :func:`reference_players`), keyed by
    ``(path, opponent)``: the two are timed side by side, in the same games, so their ratio is fair on a shared
    machine."""
    pairs = [(path, opponent) for path in paths for opponent in (opponents or reference_players(depth))]
    results = run_matches(
        [(f"minimax:depth={depth},evaluator={path}", opponent, seed) for path, opponent in pairs], games
    )
    return {
        pair: (result.mean_decision_time(0), result.mean_decision_time(1))
        for pair, result in zip(pairs, results, strict=True)
    }


def format_decision_times(times: dict[tuple[str, str], tuple[float, float]], depth: int = 2) -> str:
    """One line per evaluator and opponent: the two players' milliseconds per decision in their games, and the
    ratio."""
    return "\n".join(
        f"per decision in games at depth {depth}: {name} {mine * 1e3:.3g} ms, {opponent} "
        f"{theirs * 1e3:.3g} ms ({mine / theirs:.2f}x)"
        for (name, opponent), (mine, theirs) in times.items()
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
