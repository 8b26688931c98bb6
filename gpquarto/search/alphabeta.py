"""Alpha-beta over the game interface, for every game: negamax with iterative deepening, a transposition table
on ``canonical_key()``, move-ordering and evaluation hooks, and a time budget checked inside the search.

Values are from the point of view of the side to move: a win is ``WIN`` less the plies it takes (a quicker win
is worth more, a later loss less), a draw 0, and a position at the depth limit is worth ``evaluate(state)``
scaled into ``(-HEURISTIC_BOUND, HEURISTIC_BOUND)``. Turns need not alternate (in Quarto the placer also
chooses): a child's value is negated only when the side to move changes.

Example::

    >>> search = AlphaBeta()
    >>> result = search.search(state, depth=4, deadline=Deadline.after(1.0))         # doctest: +SKIP
    >>> result.action, result.value, result.depth                                     # doctest: +SKIP

The transposition table is keyed by the canonical key, so a game whose outcome depends on the history
(a repetition rule) is searched as if it did not, as OpenSpiel's searches do; a game's own accelerator can
count repetitions exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from gpquarto.games.interface import GameState, Outcome
from gpquarto.search.budget import CHECK_EVERY, Deadline

#: The value of a win now; wins later are worth less by one per ply.
WIN = 1_000_000.0
#: Values above this (in size) are wins or losses, not heuristic estimates.
PROVEN = WIN - 10_000
#: An evaluation is clipped into (-1, 1) and scaled by this: always far below a proven value.
HEURISTIC_BOUND = 1_000.0

#: ``evaluate(state) -> float``: how good the position is for the side to move, roughly in (-1, 1).
Evaluate = Callable[[GameState], float]
#: ``order(state, actions) -> actions``: the legal actions, most promising first.
Order = Callable[[GameState, Sequence[int]], Sequence[int]]

_EXACT, _LOWER, _UPPER = 0, 1, 2
#: The depth of an exact search: deeper than any game that can be solved.
_UNLIMITED = 1 << 30


class SearchTimeout(Exception):
    """The time budget ran out inside the search (caught by :meth:`AlphaBeta.search`; :meth:`AlphaBeta.solve`
    lets it through with the exact values of the actions it solved in time, in :attr:`values`)."""

    def __init__(self, values: dict[int, float] | None = None) -> None:
        super().__init__("the search's time budget ran out")
        self.values: dict[int, float] = values or {}


class TooLargeToSolve(ValueError):
    """An exact search met more positions than its budget allows (one line)."""


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the best action (None at a finished game), its value for the side to move, the
    deepest depth searched completely, the nodes visited, and whether the budget cut the last depth short."""

    action: int | None
    value: float
    depth: int
    nodes: int
    timed_out: bool = False

    @property
    def proven(self) -> bool:
        """True when the value is a proven win or loss (not an estimate)."""
        return abs(self.value) >= PROVEN


def terminal_value(outcome: Outcome, seat: int, ply: int) -> float:
    """The value of a finished game for ``seat``, reached ``ply`` plies below the root."""
    if outcome.winner is None:
        return 0.0
    return WIN - ply if outcome.winner == seat else -(WIN - ply)


class AlphaBeta:
    """A reusable alpha-beta search; its transposition table lives as long as the object (cleared with
    :meth:`clear`) and holds at most ``table_size`` entries (the oldest are dropped first)."""

    def __init__(self, evaluate: Evaluate | None = None, order: Order | None = None, table_size: int = 1 << 20) -> None:
        self.evaluate = evaluate
        self.order = order
        self.table_size = table_size
        self._table: dict[Hashable, tuple[int, float, int, int | None]] = {}
        self._nodes = 0
        self._deadline: Deadline | None = None
        self._max_nodes: int | None = None

    def clear(self) -> None:
        """Forget the transposition table."""
        self._table.clear()

    @property
    def nodes(self) -> int:
        """Positions the last search or solve visited."""
        return self._nodes

    def search(self, state: GameState, depth: int, deadline: Deadline | None = None) -> SearchResult:
        """Search ``state`` (left as it was) depth by depth to ``depth`` plies, until ``deadline`` (None: no
        limit). The result is the deepest depth searched completely; when even depth 1 is cut short, the first
        action of the move ordering."""
        if state.is_over():
            outcome = state.outcome()
            assert outcome is not None
            return SearchResult(None, terminal_value(outcome, state.player, 0), 0, 0)
        self._nodes, self._deadline, self._max_nodes = 0, deadline, None
        actions = list(state.legal_actions())
        best = SearchResult(self._ordered(state, actions, None)[0], 0.0, 0, 0)
        for current in range(1, max(depth, 1) + 1):
            try:
                action, value = self._root(state, current)
            except SearchTimeout:
                return SearchResult(best.action, best.value, best.depth, self._nodes, timed_out=True)
            best = SearchResult(action, value, current, self._nodes)
            if abs(value) >= PROVEN:  # a proven result does not change with depth
                break
        return best

    def solve(self, state: GameState, max_nodes: int, deadline: Deadline | None = None) -> dict[int, float]:
        """The exact value of every legal action of ``state`` for its side to move (searched to the end of the
        game: for games small enough); :class:`TooLargeToSolve` past ``max_nodes`` positions, and past ``deadline``
        (None: none) :class:`SearchTimeout` holding the values of the actions solved by then. The table keeps
        what it learned, so solving the positions of one game one after the other is cheap."""
        self._nodes, self._deadline, self._max_nodes = 0, deadline, max_nodes
        seat, values = state.player, {}
        try:
            for action in list(state.legal_actions()):
                state.apply(action)
                try:
                    values[action] = self._child_value(state, seat, _UNLIMITED, 1, -float("inf"), float("inf"))
                finally:
                    state.undo()
        except SearchTimeout:
            raise SearchTimeout(values) from None
        finally:
            self._max_nodes, self._deadline = None, None
        return values

    def _tick(self) -> None:
        self._nodes += 1
        if self._nodes % CHECK_EVERY == 0:
            if self._deadline is not None and self._deadline.expired():
                raise SearchTimeout
            if self._max_nodes is not None and self._nodes > self._max_nodes:
                raise TooLargeToSolve(f"more than {self._max_nodes:,} positions: too large to solve exactly")

    def _ordered(self, state: GameState, actions: list[int], first: int | None) -> list[int]:
        ordered = list(self.order(state, actions)) if self.order is not None else actions
        if first is not None and first in ordered:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    def _root(self, state: GameState, depth: int) -> tuple[int, float]:
        seat = state.player
        entry = self._table.get(state.canonical_key())
        actions = self._ordered(state, list(state.legal_actions()), entry[3] if entry else None)
        alpha, best_action = -float("inf"), actions[0]
        for action in actions:
            state.apply(action)
            try:
                value = self._child_value(state, seat, depth - 1, 1, alpha, float("inf"))
            finally:
                state.undo()
            if value > alpha:
                alpha, best_action = value, action
        return best_action, alpha

    def _child_value(self, state: GameState, seat: int, depth: int, ply: int, alpha: float, beta: float) -> float:
        """The value for ``seat`` (the side that just moved) of the position after its move, within the
        window (alpha, beta) of ``seat``'s values."""
        if state.is_over():
            self._tick()
            outcome = state.outcome()
            assert outcome is not None
            return terminal_value(outcome, seat, ply)
        if state.player == seat:
            return self._negamax(state, depth, ply, alpha, beta)
        return -self._negamax(state, depth, ply, -beta, -alpha)

    def _negamax(self, state: GameState, depth: int, ply: int, alpha: float, beta: float) -> float:
        """The value of ``state`` for its side to move (not a finished game)."""
        self._tick()
        if depth <= 0:
            return self._estimate(state)
        key = state.canonical_key()
        entry = self._table.get(key)
        first = None
        if entry is not None:
            stored_depth, stored, flag, first = entry
            if stored_depth >= depth:
                value = _from_table(stored, ply)
                if flag == _EXACT or (flag == _LOWER and value >= beta) or (flag == _UPPER and value <= alpha):
                    return value
        start_alpha, seat = alpha, state.player
        best, best_action = -float("inf"), None
        for action in self._ordered(state, list(state.legal_actions()), first):
            state.apply(action)
            try:
                value = self._child_value(state, seat, depth - 1, ply + 1, alpha, beta)
            finally:
                state.undo()
            if value > best:
                best, best_action = value, action
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        if len(self._table) >= self.table_size:
            del self._table[next(iter(self._table))]
        self._table[key] = (depth, _to_table(best, ply), flag, best_action)
        return best

    def _estimate(self, state: GameState) -> float:
        if self.evaluate is None:
            return 0.0
        return max(-0.999, min(0.999, float(self.evaluate(state)))) * HEURISTIC_BOUND


def _to_table(value: float, ply: int) -> float:
    """A value as stored: a proven one counted from this node, not from the root."""
    if value >= PROVEN:
        return value + ply
    if value <= -PROVEN:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value >= PROVEN:
        return value - ply
    if value <= -PROVEN:
        return value + ply
    return value
