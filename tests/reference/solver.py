"""Exact endgame solver: the game-theoretic value of a position and every optimal action.

``solve(board)`` searches the whole game tree below ``board`` with fail-soft negamax and alpha-beta on
values in {-1, 0, 1} (loss, draw, win for the player to act). The root asks yes/no questions ("is this
action worth at least a win? at least a draw?") with null windows, which also yields every optimal action.
Quarto-specific pruning:

* one search *ply* is "choose a piece, then the opponent places it", so the transposition table is only
  consulted at choice positions, whose key is just the cells (see :func:`_cell_key` for why that is sound);
* a piece that can complete a line somewhere is a loss for whoever gives it and is never searched: the
  safe pieces are those sharing no characteristic with any *threat* (the common characteristics of three
  pieces in a line whose fourth square is empty), found with one table look-up per position;
* a placement after which the opponent has no safe piece to give back is a loss for that opponent, found
  without recursing; a piece that leaves the opponent only such placements wins at once;
* a chooser with no safe piece loses; a safe piece for the last square is a draw.

Example (a piece is due; of the three that do not lose at once, only piece 6 wins)::

    >>> from gpquarto.games.quarto import Board
    >>> result = solve(Board.from_text(".DC9/.3../.8../F045 -"))
    >>> result.value, result.best_actions
    (1, (6,))
"""

from __future__ import annotations

from dataclasses import dataclass

from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, LINES_THROUGH, Rules
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE

WIN, DRAW, LOSS = 1, 0, -1
# Table entries are (lower bound, upper bound) pairs; only six exist, so they are shared, not rebuilt.
_EXACT = {value: (value, value) for value in (LOSS, DRAW, WIN)}
_AT_MOST = {value: (LOSS, value) for value in (LOSS, DRAW, WIN)}
_AT_LEAST = {value: (value, WIN) for value in (LOSS, DRAW, WIN)}


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


# Threats are kept as one int of eight 6-bit counters, one per characteristic: how many lines hold three
# pieces sharing it with the fourth square empty. Placing a piece changes only the lines through its
# square, so a child's counters are the parent's plus a few table additions (no rescan of the board).
_FIELD = 6
_SPREAD = tuple(sum(1 << (_FIELD * c) for c in range(8) if mask >> c & 1) for mask in range(256))
_ADD = sum(31 << (_FIELD * c) for c in range(8))  # counters are at most 19 (lines), so 31 + 19 < 64
_HIGH = sum(32 << (_FIELD * c) for c in range(8))
#: ``_UNSAFE_WITH[threat]``: mask of the pieces having a characteristic of the 8-bit set ``threat``.
_UNSAFE_WITH = tuple(sum(1 << piece for piece in range(16) if CHARACTERISTICS[piece] & threat) for threat in range(256))
#: ``_UNSAFE[(counters + _ADD) & _HIGH]``: mask of the pieces that have a threatened characteristic.
_UNSAFE = {sum(32 << (_FIELD * c) for c in range(8) if threat >> c & 1): _UNSAFE_WITH[threat] for threat in range(256)}
_EMPTY_CHARS = 0xFF  # an empty square's characteristic set: neutral for AND


def _others(rules: Rules) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """For each square and each line through it: (mask of the other three squares, those squares)."""
    return tuple(
        tuple((sum(1 << s for s in others), *others) for _, others in entries) for entries in LINES_THROUGH[rules]
    )


_OTHERS = {rules: _others(rules) for rules in Rules}
_RULES_TAG = {Rules.CLASSIC: 0, Rules.ADVANCED: 1 << 80}


def _cell_key(cells: list[int], rules: Rules) -> int:
    """Key of a choice position: 5 bits per square (piece + 1, 0 when empty), plus a bit for the rules.

    Sound because it is injective: at a choice position the cells determine everything else (the pieces
    left are those not on the board, the player to choose is ``placed_count % 2``), and the value is a
    function of the position alone. Symmetric images are *not* merged: from one endgame root the search
    almost never meets two distinct images of one position (the pieces already placed pin both the square
    and the piece maps). Measured: in four 9-empty solves, the 12k-23k stored positions fell into exactly
    as many classes of :func:`~gpquarto.games.quarto.symmetry.canonical_key`, so a canonical form (~0.2 ms)
    would only cost time. The key is built incrementally during the search (add ``(piece + 1) << 5s``).
    """
    key = _RULES_TAG[rules]
    for square, piece in enumerate(cells):
        if piece != NO_PIECE:
            key += (piece + 1) << (5 * square)
    return key


class _Search:
    """One solver run: characteristic sets per square (0xFF when empty) and the recursive search."""

    def __init__(self, board: Board, table: SolverTable, node_limit: int | None) -> None:
        self.rules = board.rules
        self.others = _OTHERS[board.rules]
        self.chars = [_EMPTY_CHARS if piece == NO_PIECE else CHARACTERISTICS[piece] for piece in board.raw_cells]
        self.table = table
        self.node_limit = node_limit + 1 if node_limit is not None else -1  # the node count that stops
        self.nodes = 0
        self.choice_value = self._make_choice_value()

    def threat_counters(self, occupied: int) -> int:
        """Counters of the threats on the current board, computed from scratch."""
        chars = self.chars
        counters = 0
        for line in self.rules.lines:
            empty = [s for s in line if not occupied >> s & 1]
            if len(empty) == 1:
                a, b, c = (s for s in line if s != empty[0])
                counters += _SPREAD[chars[a] & chars[b] & chars[c]]
        return counters

    def placement(self, square: int, piece: int, occupied: int, available: int, counters: int) -> tuple[int, int]:
        """Counters after ``piece`` goes on ``square`` (not a win), and the mask of pieces then safe to give."""
        chars = self.chars
        own = CHARACTERISTICS[piece]
        for mask, a, b, c in self.others[square]:
            seen = occupied & mask
            if seen == mask:
                counters -= _SPREAD[chars[a] & chars[b] & chars[c]]
            elif seen & (seen - 1):
                counters += _SPREAD[chars[a] & chars[b] & chars[c] & own]
        return counters, available & ~_UNSAFE[(counters + _ADD) & _HIGH]

    def _make_choice_value(self):
        chars = self.chars
        others = self.others
        entries = self.table.entries
        max_entries = self.table.max_entries
        node_limit = self.node_limit
        spread = _SPREAD
        unsafe = _UNSAFE
        unsafe_with = _UNSAFE_WITH
        add, high = _ADD, _HIGH
        members = MEMBERS
        characteristics = CHARACTERISTICS
        full = ALL_SQUARES_MASK
        exact, at_most, at_least = _EXACT, _AT_MOST, _AT_LEAST

        def choice_value(
            occupied: int, safe: int, available: int, counters: int, key: int, alpha: int, beta: int
        ) -> int:
            """Value for the player to choose, fail-soft in (alpha, beta); ``safe`` is non-empty, 2+ empties."""
            self.nodes += 1
            if self.nodes == node_limit:
                raise NodeLimitReached(f"solver stopped after {node_limit - 1} nodes")
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
            # Per empty square, what placing there does whatever the piece: the counters once the lines it
            # fills lose their threat, the pieces those leave unsafe, and the lines it brings to three
            # pieces (their common characteristics, to AND with the placed piece's).
            squares = []
            for square in empties:
                base = counters
                pairs = ()
                joined = 0
                for mask, a, b, c in others[square]:
                    seen = occupied & mask
                    if seen == mask:
                        base -= spread[chars[a] & chars[b] & chars[c]]
                    elif seen & (seen - 1):
                        common = chars[a] & chars[b] & chars[c]
                        pairs += (common,)
                        joined |= common
                squares.append((square, unsafe[(base + add) & high], joined, base, pairs))
            # For each safe piece, the opponent's replies: the squares after which it still has a safe
            # piece to give back (any other square loses for it at once).
            plans = []
            for piece in members[safe]:
                own = characteristics[piece]
                rest = available ^ (1 << piece)
                replies = []
                for square, base_unsafe, joined, base, pairs in squares:
                    reply_safe = rest & ~(base_unsafe | unsafe_with[joined & own])
                    if reply_safe:
                        replies.append((reply_safe.bit_count(), square, reply_safe, base, pairs))
                if not replies:  # every placement leaves the opponent without a safe piece
                    entries[key] = exact[WIN]
                    return WIN
                plans.append((len(replies), sum(reply[0] for reply in replies), piece, rest, replies))
            if len(empties) == 2:  # every reply leaves one safe piece for the last square: a draw
                best = DRAW
            else:
                # Pieces with the fewest replies (then fewest safe pieces over the replies) first; the
                # opponent tries first the squares that leave it fewest safe pieces (measured: about half
                # the nodes of board order).
                plans.sort()
                best = LOSS - 1
                for _, _, piece, rest, replies in plans:
                    floor = alpha if alpha > best else best
                    own = characteristics[piece]
                    shift = piece + 1
                    worst = WIN
                    replies.sort()
                    for _, square, reply_safe, after, pairs in replies:
                        for common in pairs:
                            after += spread[common & own]
                        chars[square] = own
                        value = -choice_value(
                            occupied | 1 << square,
                            reply_safe,
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

        return choice_value

    def after_placement(
        self, square: int, piece: int, occupied: int, available: int, counters: int, key: int, alpha: int, beta: int
    ) -> int:
        """Value for the placer of ``piece`` on ``square`` (not a win): it must then choose a piece."""
        after, safe = self.placement(square, piece, occupied, available, counters)
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


def solve(board: Board | BoardView, *, table: SolverTable | None = None, node_limit: int | None = None) -> SolveResult:
    """Solve ``board`` exactly: its value for the player to act and every action that achieves it.

    Works whether a choice or a placement is due. ``table`` may be reused across calls; ``node_limit``
    bounds the number of choice positions searched (:class:`NodeLimitReached` is raised beyond it).
    Raises ``ValueError`` if the game is already over. A :class:`BoardView` is accepted too.
    """
    if isinstance(board, BoardView):
        board = board.copy()
    if board.is_over():
        raise ValueError(f"the game is over, nothing to solve: {board.text()}")
    search = _Search(board, table if table is not None else SolverTable(), node_limit)
    occupied = board.occupied_mask
    available = board.available_mask
    key = _cell_key(board.raw_cells, board.rules)
    counters = search.threat_counters(occupied)
    unsafe = _UNSAFE[(counters + _ADD) & _HIGH]
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
