"""Exact endgame solver: the game-theoretic value of a position and every optimal action.

``solve(board)`` searches the whole game tree below ``board`` with fail-soft negamax and alpha-beta on
values in {-1, 0, 1} (loss, draw, win for the player to act). The root asks yes/no questions ("is this
action worth at least a win? at least a draw?") with null windows, which also yields every optimal action.
Quarto-specific pruning:

* one search *ply* is "choose a piece, then the opponent places it", so the transposition table is only
  consulted at choice positions, whose key is just the cells (:func:`~gpquarto.games.quarto.search.tactics.cells_key`:
  sound because at a choice position the cells determine everything else, the pieces left and the player
  to choose, and the value is a function of the position alone);
* a piece that can complete a line somewhere is a loss for whoever gives it and is never searched: the
  safe pieces are those sharing no characteristic with any *threat* (the common characteristics of three
  pieces in a line whose fourth square is empty), found with one table look-up per position;
* a placement after which the opponent has no safe piece to give back is a loss for that opponent, found
  without recursing; a piece that leaves the opponent only such placements wins at once;
* a chooser with no safe piece loses; a safe piece for the last square is a draw;
* a choice with at most ``LEAN_MAX`` (5) empty squares is searched by a lean function without the table,
  move lists or sorting: those nodes are most of the search, few of them are found in the table, and
  ordering saves fewer nodes there than it costs (more nodes, less time: ``bench solver``, docs/benchmarks.md). With two squares left a safe piece for the last square is
  a draw, and with three the chooser can only win if the placer has no safe piece to give back, so when a
  draw is already enough to refute a piece such a reply refutes it without searching further.

Symmetric images are *not* merged in the table: from one root the search almost never meets two distinct
images of one position (the pieces already placed pin both the square and the piece maps): the positions
stored by a solve fall into as many classes of :func:`~gpquarto.games.quarto.symmetry.canonical_key` as there are
positions, so a canonical key, dearer than a node, would only cost time. The optional compiled solver
(:mod:`gpquarto.games.quarto.search.compiled`, ``pip install "gpquarto[fast]"``) runs the table search at every level
(the lean split pays in Python only), about 10x faster.

Example (a piece is due; of the three that do not lose at once, only piece 6 wins)::

    >>> from gpquarto.games.quarto import Board
    >>> result = solve(Board.from_text(".DC9/.3../.8../F045 -"))
    >>> result.value, result.best_actions
    (1, (6,))
"""

from __future__ import annotations

from dataclasses import dataclass

from gpquarto.games.capabilities import ExactSolver, Progress, Solution
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, SQUARE_COUNT
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE
from gpquarto.games.quarto.search.tactics import cells_key, threat_counters
from gpquarto.games.quarto.tables import (
    COUNTER_CARRY,
    COUNTER_HIGH,
    COUNTER_OF,
    OTHERS_THROUGH,
    PIECES_MEETING,
    UNSAFE_OF_COUNTERS,
)
from gpquarto.search.budget import CHECK_EVERY, Deadline

WIN, DRAW, LOSS = 1, 0, -1
#: Choice positions with at most this many empty squares are searched without the table and move ordering.
LEAN_MAX = 5
# Table entries are (lower bound, upper bound) pairs; only six exist, so they are shared, not rebuilt.
_EXACT = {value: (value, value) for value in (LOSS, DRAW, WIN)}
_AT_MOST = {value: (LOSS, value) for value in (LOSS, DRAW, WIN)}
_AT_LEAST = {value: (value, WIN) for value in (LOSS, DRAW, WIN)}


def _next_stop(nodes: int, node_limit: int) -> int:
    """The node count at which a search with a deadline stops to read the clock, or ends at its ``node_limit``."""
    return nodes + CHECK_EVERY if node_limit < 0 or nodes + CHECK_EVERY < node_limit else node_limit


class NodeLimitReached(RuntimeError):
    """The search visited more positions than ``node_limit`` allowed; no result is available."""


@dataclass(frozen=True)
class SolveResult:
    """Outcome of :func:`solve`.

    ``value`` is 1 (win), 0 (draw) or -1 (loss) for the player to act; ``best_actions`` lists every action
    that achieves it (single-int encoding: 0..15 choose that piece, 16..31 place on square ``a - 16``);
    ``nodes`` counts the choice positions searched.
    """

    value: int
    best_actions: tuple[int, ...]
    nodes: int


class SolverTable:
    """Transposition table that can be shared by many :func:`solve` calls (e.g. along one game).

    Entries hold proven bounds on the value of choice positions, so they stay valid forever; when more
    than ``max_entries`` are stored the table is emptied and refills.
    """

    def __init__(self, max_entries: int = 1_000_000) -> None:
        if max_entries < 1:
            raise ValueError(f"max_entries must be at least 1, got {max_entries}")
        self.max_entries = max_entries
        self.entries: dict[int, tuple[int, int]] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        """Forget every entry."""
        self.entries.clear()


# Threats are kept as threat counters (gpquarto.games.quarto.tables): placing a piece changes only the lines
# through its square, so a child's counters are the parent's plus a few table additions (no rescan).
_EMPTY_CHARS = 0xFF  # an empty square's characteristic set: neutral for AND


class _Search:
    """One solver run: characteristic sets per square (0xFF when empty) and the recursive search."""

    def __init__(
        self, board: Board, table: SolverTable, node_limit: int | None, deadline: Deadline | None = None
    ) -> None:
        self.rules = board.rules
        self.deadline = deadline
        self.others = OTHERS_THROUGH[board.rules]
        self.chars = [_EMPTY_CHARS if piece == NO_PIECE else CHARACTERISTICS[piece] for piece in board.raw_cells]
        self.table = table
        self.node_limit = node_limit + 1 if node_limit is not None else -1  # the node count that stops
        self.nodes = 0
        self.choice_value, self.small_value, self.counters_after = self._make_choice_value()

    def _make_choice_value(self):
        chars = self.chars
        others = self.others
        entries = self.table.entries
        max_entries = self.table.max_entries
        node_limit = self.node_limit
        deadline = self.deadline
        # The node count that stops the search or reads the clock next: one comparison per node either way.
        stop_at = node_limit if deadline is None else _next_stop(0, node_limit)

        def stop() -> None:
            nonlocal stop_at
            if self.nodes == node_limit:
                raise NodeLimitReached(f"solver stopped after {node_limit - 1} nodes")
            stop_at = _next_stop(self.nodes, node_limit)
            deadline.check()

        spread = COUNTER_OF
        unsafe = UNSAFE_OF_COUNTERS
        unsafe_with = PIECES_MEETING
        add, high = COUNTER_CARRY, COUNTER_HIGH
        members = MEMBERS
        characteristics = CHARACTERISTICS
        full = ALL_SQUARES_MASK
        exact, at_most, at_least = _EXACT, _AT_MOST, _AT_LEAST

        def counters_after(square: int, own: int, occupied: int, counters: int) -> int:
            """Threat counters once a piece with characteristics ``own`` is on the empty ``square`` (not a win)."""
            for mask, a, b, c in others[square]:
                seen = occupied & mask
                if seen == mask:  # the line is full: its threat, if any, is gone
                    counters -= spread[chars[a] & chars[b] & chars[c]]
                elif seen & (seen - 1):  # the line now holds three pieces
                    counters += spread[chars[a] & chars[b] & chars[c] & own]
            return counters

        def wins_with_two_left(occupied: int, safe: int, available: int) -> bool:
            """True when the chooser, with two squares and the two pieces ``available`` left, wins: some
            ``safe`` piece leaves the placer no square after which the last piece is safe on the last square.

            The same answer as a choice node with two empty squares, without its table and bookkeeping
            (those nodes were a quarter of the search)."""
            first, second = members[occupied ^ full]
            for piece in members[safe]:
                own = characteristics[piece]
                last = characteristics[(available ^ (1 << piece)).bit_length() - 1]
                for square, other in ((first, second), (second, first)):
                    chars[square] = own
                    needs = 0
                    for _, a, b, c in others[other]:
                        needs |= chars[a] & chars[b] & chars[c]
                    chars[square] = _EMPTY_CHARS
                    if not needs & last:
                        break  # the placer puts the piece here and gives the last one safely
                else:
                    return True
            return False

        def small_value(
            occupied: int, safe: int, available: int, counters: int, alpha: int, beta: int, left: int
        ) -> int:
            """Value for the player to choose, fail-soft in (alpha, beta), with ``left`` (2 to ``LEAN_MAX``)
            empty squares and ``safe`` non-empty: the same answer as :func:`choice_value`, without its table
            and its move ordering."""
            self.nodes += 1
            if self.nodes == stop_at:
                stop()
            empties = members[occupied ^ full]
            best = LOSS
            for piece in members[safe]:
                own = characteristics[piece]
                rest = available ^ (1 << piece)
                floor = alpha if alpha > best else best
                worst = WIN
                for square in empties:
                    after = counters_after(square, own, occupied, counters)
                    reply_safe = rest & ~unsafe[(after + add) & high]
                    if not reply_safe:
                        continue  # the placer has no safe piece to give back: a win for the chooser here
                    if left == 2 or (left == 3 and floor >= DRAW):
                        # With two squares left the placer gives the last piece safely: a draw. With three, the
                        # chooser places only a piece given safely: at most a draw, enough to refute ``piece``.
                        value = DRAW
                    else:
                        chars[square] = own
                        if left == 3:
                            value = LOSS if wins_with_two_left(occupied | 1 << square, reply_safe, rest) else DRAW
                        else:
                            value = -small_value(
                                occupied | 1 << square,
                                reply_safe,
                                rest,
                                after,
                                -(beta if beta < worst else worst),
                                -floor,
                                left - 1,
                            )
                        chars[square] = _EMPTY_CHARS
                    if value < worst:
                        worst = value
                        if worst <= floor:
                            break
                if worst > best:
                    best = worst
                    if best >= beta:
                        break
            return best

        def choice_value(
            occupied: int, safe: int, available: int, counters: int, key: int, alpha: int, beta: int
        ) -> int:
            """Value for the player to choose, fail-soft in (alpha, beta); ``safe`` is non-empty, more than
            ``LEAN_MAX`` empty squares."""
            self.nodes += 1
            if self.nodes == stop_at:
                stop()
            entry = entries.get(key)
            if entry is not None:
                low, high_bound = entry
                if low == high_bound or low >= beta:
                    return low
                if high_bound <= alpha:
                    return high_bound
                if low > alpha:
                    alpha = low
                if high_bound < beta:
                    beta = high_bound
            empties = members[occupied ^ full]
            # Per empty square, what placing there does whatever the piece: the pieces left unsafe by the
            # lines it fills (they lose their threat), and the characteristics of the lines it brings to three
            # pieces (to AND with the placed piece's).
            squares = []
            for square in empties:
                base = counters
                joined = 0
                for mask, a, b, c in others[square]:
                    seen = occupied & mask
                    if seen == mask:
                        base -= spread[chars[a] & chars[b] & chars[c]]
                    elif seen & (seen - 1):
                        joined |= chars[a] & chars[b] & chars[c]
                squares.append((square, unsafe[(base + add) & high], joined))
            # For each safe piece, the opponent's replies: the squares after which it still has a safe
            # piece to give back (any other square loses for it at once), each as one int
            # (safe pieces left << 20 | square << 16 | those pieces), so that sorting compares plain ints.
            plans = []
            for piece in members[safe]:
                own = characteristics[piece]
                rest = available ^ (1 << piece)
                replies = []
                total = 0
                for square, base_unsafe, joined in squares:
                    reply_safe = rest & ~(base_unsafe | unsafe_with[joined & own])
                    if reply_safe:
                        size = reply_safe.bit_count()
                        total += size
                        replies.append(size << 20 | square << 16 | reply_safe)
                if not replies:  # every placement leaves the opponent without a safe piece
                    entries[key] = exact[WIN]
                    return WIN
                plans.append(((len(replies) << 8 | total) << 4 | piece, replies))
            # Pieces with the fewest replies (then fewest safe pieces over the replies) first; the
            # opponent tries first the squares that leave it fewest safe pieces (far fewer nodes than board
            # order).
            plans.sort()
            lean = len(empties) <= LEAN_MAX + 1
            left = len(empties) - 1
            best = LOSS - 1
            for order, replies in plans:
                piece = order & 15
                rest = available ^ (1 << piece)
                floor = alpha if alpha > best else best
                own = characteristics[piece]
                shift = piece + 1
                worst = WIN
                replies.sort()
                for reply in replies:
                    square = reply >> 16 & 15
                    after = counters_after(square, own, occupied, counters)
                    chars[square] = own
                    if lean:
                        value = -small_value(
                            occupied | 1 << square,
                            reply & 0xFFFF,
                            rest,
                            after,
                            -(beta if beta < worst else worst),
                            -floor,
                            left,
                        )
                    else:
                        value = -choice_value(
                            occupied | 1 << square,
                            reply & 0xFFFF,
                            rest,
                            after,
                            key + (shift << (5 * square)),
                            -(beta if beta < worst else worst),
                            -floor,
                        )
                    chars[square] = _EMPTY_CHARS
                    if value < worst:
                        worst = value
                        if worst <= floor:
                            break
                if worst > best:
                    best = worst
                    if best >= beta:
                        break
            if len(entries) >= max_entries:
                entries.clear()
            if best <= alpha:
                entries[key] = at_most[best]
            elif best >= beta:
                entries[key] = at_least[best]
            else:
                entries[key] = exact[best]
            return best

        return choice_value, small_value, counters_after

    def after_placement(
        self, square: int, piece: int, occupied: int, available: int, counters: int, key: int, alpha: int, beta: int
    ) -> int:
        """Value for the placer of ``piece`` on ``square`` (not a win): it must then choose a piece."""
        after = self.counters_after(square, CHARACTERISTICS[piece], occupied, counters)
        safe = available & ~UNSAFE_OF_COUNTERS[(after + COUNTER_CARRY) & COUNTER_HIGH]
        occupied |= 1 << square
        left = occupied ^ ALL_SQUARES_MASK
        if not left:
            return DRAW
        if not safe:
            return LOSS
        if not left & (left - 1):
            return DRAW  # one square left for a safe piece
        self.chars[square] = CHARACTERISTICS[piece]
        try:
            count = left.bit_count()
            if count <= LEAN_MAX:
                return self.small_value(occupied, safe, available, after, alpha, beta, count)
            return self.choice_value(occupied, safe, available, after, key + ((piece + 1) << (5 * square)), alpha, beta)
        finally:
            self.chars[square] = _EMPTY_CHARS

    def piece_value(
        self, piece: int, occupied: int, available: int, counters: int, key: int, alpha: int, beta: int
    ) -> int:
        """Value for the chooser of giving the safe ``piece``: the opponent places it where it hurts most."""
        rest = available ^ (1 << piece)
        worst = WIN + 1
        for square in MEMBERS[occupied ^ ALL_SQUARES_MASK]:
            value = -self.after_placement(square, piece, occupied, rest, counters, key, -min(beta, worst), -alpha)
            if value < worst:
                worst = value
                if worst <= alpha:
                    break
        return worst


def solve(
    board: Board | BoardView,
    *,
    table: SolverTable | None = None,
    node_limit: int | None = None,
    deadline: Deadline | None = None,
) -> SolveResult:
    """Solve ``board`` exactly: its value for the player to act and every action that achieves it.

    Works whether a choice or a placement is due. ``table`` may be reused across calls; ``node_limit``
    bounds the number of choice positions searched (:class:`NodeLimitReached` is raised beyond it), and
    ``deadline`` the time (:class:`~gpquarto.search.budget.OutOfTime` once it passes, read every few hundred nodes).
    Raises ``ValueError`` if the game is already over. A :class:`BoardView` is accepted too.
    """
    if isinstance(board, BoardView):
        board = board.copy()
    if board.is_over():
        raise ValueError(f"the game is over, nothing to solve: {board.text()}")
    search = _Search(board, table if table is not None else SolverTable(), node_limit, deadline)
    occupied = board.occupied_mask
    available = board.available_mask
    key = cells_key(board.raw_cells, board.rules)
    counters = threat_counters(search.chars, occupied, board.rules)
    unsafe = UNSAFE_OF_COUNTERS[(counters + COUNTER_CARRY) & COUNTER_HIGH]
    in_hand = board.in_hand

    def reaches(action: int, threshold: int) -> bool:
        """True when ``action`` is worth at least ``threshold``: a null-window search (threshold-1, threshold)."""
        if in_hand == NO_PIECE:
            if unsafe >> action & 1:
                return LOSS >= threshold
            value = search.piece_value(action, occupied, available, counters, key, threshold - 1, threshold)
        elif board.is_winning_placement(action - PLACE_OFFSET, in_hand):
            return True
        else:
            square = action - PLACE_OFFSET
            value = search.after_placement(
                square, in_hand, occupied, available, counters, key, threshold - 1, threshold
            )
        return value >= threshold

    actions = board.legal_actions()
    for threshold in (WIN, DRAW):
        best_actions = tuple(action for action in actions if reaches(action, threshold))
        if best_actions:
            return SolveResult(threshold, best_actions, search.nodes)
    return SolveResult(LOSS, actions, search.nodes)


#: Hints solve positions with at most this many empty squares, and give up after ``HINT_NODE_LIMIT`` nodes
#: (the lean search counts more, cheaper, positions than the search before it had: its limit is higher for the
#: same time).
HINT_MAX_EMPTY = 10
HINT_NODE_LIMIT = 500_000


def hint(board: Board | BoardView) -> SolveResult | str:
    """The exact value and best actions for the player to act, or, when the position is too big to solve
    quickly, a one-line reason starting with "too early to solve"."""
    empty = SQUARE_COUNT - board.placed_count
    if empty > HINT_MAX_EMPTY:
        return f"too early to solve: {empty} empty squares (hints from {HINT_MAX_EMPTY})"
    try:
        return solve(board, node_limit=HINT_NODE_LIMIT)
    except NodeLimitReached:
        return f"too early to solve: more than {HINT_NODE_LIMIT:,} positions to search"


class QuartoSolver(ExactSolver):
    """Quarto's exact solver as its plug-in offers it (:class:`~gpquarto.games.capabilities.ExactSolver`)."""

    size_word = "empty squares"

    def size(self, state: Board | BoardView) -> int:
        return SQUARE_COUNT - state.placed_count

    def solve(self, state: Board | BoardView, progress: Progress | None = None) -> Solution:
        result = solve(state)
        return Solution(result.value, result.best_actions, cost=f"nodes: {result.nodes}")

    def describe_mover(self, state: Board | BoardView) -> str:
        task = "place the piece in hand" if state.placement_due else "choose a piece"
        return f"player {state.player} (to {task})"


QUARTO_SOLVER = QuartoSolver()
