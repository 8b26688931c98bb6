"""Negamax for Quixo on the bitmasks: plain minimax (the seed's), and alpha-beta with iterative deepening, a
transposition table, move ordering, and a depth or time limit.

Scores are from the side to move's point of view. A move that ends the game scores ``WIN - ply`` or
``-(WIN - ply)`` (sooner wins score higher) under the board's rules: under the official rules a move that
completes the opponent's line loses even if it completes the mover's. Heuristics at the horizon:

* ``cubes`` (the seed's): the mover's cubes minus the opponent's.
* ``lines``: line potential: every row, column and diagonal holding cubes of one player only counts
  ``4**k`` for its ``k`` cubes, for the mover, minus the same for the opponent; plus the cube difference.

Repetition and the ply limit follow the rules exactly along each line of play: the search counts the occurrences
of every position in the game (since the last blank cube was taken: no earlier position can come back) and on the
path from the root, and a move that makes the ``repetitions``-th occurrence is a draw; so is a move that reaches
the ply limit. A draw scores ``-contempt`` for the player at the root (``+contempt`` for its opponent; default 100,
about a line of three cubes): a plain 0 made the search repeat rather than accept a slightly negative heuristic, and
scoring the first repetition as a draw (the usual shortcut) made it believe that an opponent who can undo a move
always holds the draw; each drew games against the random player that it should win.
Transposition-table entries ignore the path (the usual approximation: an entry may hold a value that a repetition
changed). They are keyed by the position and by whether the root player is to move (a draw's value depends on it),
and store win scores as distances from the entry's own position, so a win found through a transposition reached at
another ply keeps its exact distance. ``minimax`` ignores repetitions, like the seed's (its game had no such rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from gpquarto.games.quixo.board import QuixoBoard, QuixoRules, QuixoView
from gpquarto.games.quixo.playout import repetition_window
from gpquarto.games.quixo.tables import Tables, tables
from gpquarto.search.budget import CHECK_EVERY, Deadline, OutOfTime

WIN = 1_000_000
HEURISTICS = ("cubes", "lines")
#: The deepest iterative deepening goes (a search without a depth limit stops there, or at its time limit).
MAX_DEPTH = 64
_NEVER = 1 << 62  # a node count no search reaches
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Scores at least this large are wins or losses (``WIN - ply``); heuristics stay far below it.
_DECIDED = WIN - 10_000


def _to_entry(value: float, ply: int) -> float:
    """A score as stored in the table: a win's distance counted from the entry's position, not from the root."""
    if value >= _DECIDED:
        return value + ply
    if value <= -_DECIDED:
        return value - ply
    return value


def _from_entry(value: float, ply: int) -> float:
    """The inverse of :func:`_to_entry` for a position reached at ``ply``."""
    if value >= _DECIDED:
        return value - ply
    if value <= -_DECIDED:
        return value + ply
    return value


@dataclass(frozen=True)
class SearchResult:
    """The best action found, its score (side to move's view), the deepest complete depth and the nodes visited."""

    action: int
    score: float
    depth: int
    nodes: int


def _line_weights(n: int) -> tuple[int, ...]:
    return tuple(0 if k == 0 else 4**k for k in range(n + 1))


class QuixoSearch:
    """Searches from Quixo positions; keeps its transposition table between calls (clear it with :meth:`clear`)."""

    def __init__(
        self, size: int, rules: QuixoRules | str = QuixoRules.OFFICIAL, heuristic: str = "lines", contempt: float = 100
    ) -> None:
        if heuristic not in HEURISTICS:
            raise ValueError(f"unknown Quixo heuristic {heuristic!r} (known: {', '.join(HEURISTICS)})")
        self.table: Tables = tables(size)
        self.course = QuixoRules(rules) is QuixoRules.COURSE
        self.heuristic = heuristic
        self.contempt = contempt
        self.weights = _line_weights(size)
        self.tt: dict[int, tuple[int, int, float, int]] = {}
        self.history_scores = [0] * self.table.action_count
        self.nodes = 0
        self._minimax_deadline: Deadline | None = None
        self._deadline: Deadline | None = None
        self._check_at = _NEVER

    def clear(self) -> None:
        """Forget the transposition table and the move-ordering history."""
        self.tt.clear()
        self.history_scores = [0] * self.table.action_count

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, own: int, other: int) -> float:
        """The heuristic value of a position with ``own`` to move (see the module docstring)."""
        cubes = own.bit_count() - other.bit_count()
        if self.heuristic == "cubes":
            return cubes
        weights = self.weights
        score = cubes
        for line in self.table.lines:
            mine, theirs = own & line, other & line
            if not theirs:
                score += weights[mine.bit_count()]
            elif not mine:
                score -= weights[theirs.bit_count()]
        return score

    # ------------------------------------------------------------------ plain minimax (the seed)
    def minimax(self, own: int, other: int, depth: int, deadline: Deadline | None = None) -> tuple[float, int]:
        """Full-width negamax to ``depth`` without pruning or tables; terminal scores are +-1 and the horizon is
        (the heuristic) / 100, as in the seed. Returns (score, best action); the first best action in ascending
        order wins ties. Past ``deadline`` (read every few hundred nodes), :class:`OutOfTime`."""
        self._minimax_deadline = deadline
        self._check_at = self.nodes + CHECK_EVERY if deadline is not None else _NEVER
        return self._minimax(own, other, depth)

    def deepest_minimax(self, own: int, other: int, depth: int, deadline: Deadline | None) -> tuple[float, int]:
        """:meth:`minimax` at ``depth``; with a ``deadline``, by iterative deepening: the deepest depth completed
        before it answers (depth 1 always completes; a search completed in time answers as without a deadline)."""
        if deadline is None or depth == 1:
            return self.minimax(own, other, depth)
        result = self.minimax(own, other, 1)
        for deeper in range(2, depth + 1):
            try:
                result = self.minimax(own, other, deeper, deadline)
            except OutOfTime:
                break
        return result

    def _minimax(self, own: int, other: int, depth: int) -> tuple[float, int]:
        self.nodes += 1
        if self.nodes >= self._check_at:
            self._check_at = self.nodes + CHECK_EVERY
            self._minimax_deadline.check()  # type: ignore[union-attr]  # set by search
        table, course = self.table, self.course
        best, best_action = -2.0, -1
        for action in table.legal(other):
            own2, other2 = table.play(own, other, action)
            result = table.mover_result(own2, other2, course)
            if result:
                score = float(result)
            elif depth <= 1:
                score = -self.evaluate(other2, own2) / 100
            else:
                score = -self._minimax(other2, own2, depth - 1)[0]
            if score > best:
                best, best_action = score, action
        return best, best_action

    # ------------------------------------------------------------------ alpha-beta
    def search(
        self,
        board: QuixoBoard | QuixoView,
        depth: int | None = 4,
        seconds: float | None = None,
        deadline: Deadline | None = None,
    ) -> SearchResult:
        """Iterative deepening to ``depth`` (None: until the time runs out, at most :data:`MAX_DEPTH`) within
        ``seconds`` (None: no limit) and before ``deadline`` (None: none). At least depth 1 always completes; the
        deepest depth completed answers."""
        if board.is_over():
            raise ValueError("the game is over: there is nothing to search")
        if depth is None and seconds is None and deadline is None:
            raise ValueError("give a depth, a time limit or both")
        own, other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)
        cells = self.table.cells
        self._path: dict[int, int] = {}  # occurrences: mover | other << cells | player << 2 cells -> count
        for key in repetition_window(board):
            self._path[key] = self._path.get(key, 0) + 1
        self._repetitions = board.repetitions
        self._flip = 1 << (2 * cells)
        self._side = board.player << (2 * cells)
        self._plies_left = board.ply_limit - len(board.history)
        deadlines = ([] if seconds is None else [Deadline.after(seconds)]) + ([] if deadline is None else [deadline])
        self._deadline = min(deadlines, key=lambda each: each.end) if deadlines else None
        self.nodes = 0
        best: SearchResult | None = None
        limit = min(depth, MAX_DEPTH) if depth is not None else MAX_DEPTH
        for d in range(1, limit + 1):
            try:
                score, action = self._root(own, other, d, best.action if best else -1)
            except OutOfTime:
                break
            best = SearchResult(action, score, d, self.nodes)
            if abs(score) >= WIN - 64 or (self._deadline is not None and self._deadline.expired()):
                break
        assert best is not None
        return best

    def _ordered(self, other: int, first: int) -> list[int]:
        scores = self.history_scores
        moves = sorted(self.table.legal(other), key=scores.__getitem__, reverse=True)
        if first >= 0 and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        return moves

    def _root(self, own: int, other: int, depth: int, first: int) -> tuple[float, int]:
        if self._deadline is None or depth == 1:
            deadline, self._deadline = self._deadline, None
            try:
                return self._search_root(own, other, depth, first)
            finally:
                self._deadline = deadline
        return self._search_root(own, other, depth, first)

    def _search_root(self, own: int, other: int, depth: int, first: int) -> tuple[float, int]:
        alpha, beta = -WIN - 1.0, WIN + 1.0
        best_action = -1
        for action in self._ordered(other, first):
            score = self._child(own, other, action, depth, alpha, beta, 0)
            if score > alpha or best_action < 0:
                alpha, best_action = max(alpha, score), action
        return alpha, best_action

    def _child(self, own: int, other: int, action: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The score, for the mover, of playing ``action`` from (own, other)."""
        table = self.table
        own2, other2 = table.play(own, other, action)
        result = table.mover_result(own2, other2, self.course)
        if result:
            return result * (WIN - ply - 1)
        draw = -self.contempt if ply % 2 == 0 else self.contempt  # the root player's contempt for a draw
        if ply + 1 >= self._plies_left:
            return draw
        side = self._side ^ (self._flip if ply % 2 == 0 else 0)
        key = other2 | own2 << table.cells | side
        path = self._path
        count = path.get(key, 0) + 1
        if count >= self._repetitions:
            return draw
        path[key] = count
        try:
            return -self._negamax(other2, own2, depth - 1, -beta, -alpha, ply + 1)
        finally:
            path[key] = count - 1

    def _negamax(self, own: int, other: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if depth <= 0:
            return self.evaluate(own, other)
        if self._deadline is not None and not self.nodes & (CHECK_EVERY - 1):
            self._deadline.check()
        key = own | other << self.table.cells | (ply & 1) << (2 * self.table.cells)
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            entry_depth, flag, value, first = entry
            value = _from_entry(value, ply)
            if entry_depth >= depth:
                if flag == _EXACT:
                    return value
                if flag == _LOWER and value >= beta:
                    return value
                if flag == _UPPER and value <= alpha:
                    return value
        original_alpha = alpha
        best, best_action = -WIN - 1.0, -1
        for action in self._ordered(other, first):
            score = self._child(own, other, action, depth, alpha, beta, ply)
            if score > best:
                best, best_action = score, action
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self.history_scores[action] += depth * depth
                        break
        flag = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        self.tt[key] = (depth, flag, _to_entry(best, ply), best_action)
        return best
