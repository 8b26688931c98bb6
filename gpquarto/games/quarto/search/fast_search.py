"""The fast search of :class:`~gpquarto.games.quarto.search.negamax.Negamax`: ordered alpha-beta on its own state, for the
built-in heuristics and evolved evaluators.

The search runs on the characteristic set of each cell, bit masks, the threat counters of
:mod:`gpquarto.games.quarto.tables` updated per placement and an int key built incrementally, instead of a
Board. The last ply is not searched piece by piece: after a placement every safe piece to give leads to the
same leaf value for ``wins``, ``lines`` and ``quarticity``, so each square is evaluated once, from per-square
plans shared by all the pieces placed there. An evolved evaluation says which attributes of the piece given it
read (``Heuristic.leaf``), and is evaluated once for all the safe pieces that agree on them: once per square
when it reads nothing of the piece. :class:`~gpquarto.games.quarto.search.negamax.Negamax` owns the transposition
table, the node count and the heuristic, and hands this module the searches it can take (its docstring says
which); values and best root moves are those of its generic search (tests check them against the kept
pre-issue-8 implementation).

Where numba is installed, a placement searched two plies deep with ``wins``, ``lines`` or ``quarticity`` (what the
default ``minimax:depth=2`` opponent searches at each turn) is searched by
:func:`~gpquarto.games.quarto.search.compiled_tactics.best_placement_2` instead (but on the empty board): the same windows, so the
same value, best moves in the same order and the same node count (tests check them against this module's search).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE
from gpquarto.games.quarto.search import compiled_tactics
from gpquarto.games.quarto.search.heuristics import (
    ALL_ATTRIBUTES,
    HEURISTIC_LIMIT,
    Heuristic,
    guaranteed_loss,
    quarticity,
    three_piece_lines,
    wins_only,
)
from gpquarto.games.quarto.search.tactics import (
    SearchLeaf,
    SquarePlan,
    cells_key,
    square_plans,
    threat_counters,
)
from gpquarto.games.quarto.symmetry import square_maps
from gpquarto.games.quarto.tables import (
    CELL_CHARACTERISTICS,
    COUNTER_CARRY,
    COUNTER_HIGH,
    COUNTER_OF,
    OTHERS_THROUGH,
    PIECES_MEETING,
    UNSAFE_OF_COUNTERS,
)
from gpquarto.search.budget import CHECK_EVERY, Deadline

#: Base score of a proven win; a win with ``e`` empty squares left scores ``WIN_SCORE + e``.
WIN_SCORE = 1000
INFINITY = 10 * WIN_SCORE
EXACT, LOWER, UPPER = 0, 1, 2


class SearchOwner(Protocol):
    """What the fast search reads and updates of the :class:`~gpquarto.games.quarto.search.negamax.Negamax` that owns it."""

    heuristic: Heuristic
    nodes: int
    evaluated_squares: int
    evaluations: int
    use_table: bool
    table_limit: int
    table: dict[tuple[tuple[int, ...], int], tuple[int, int, int, int]]


_NEVER = 1 << 62  # a node count no search reaches
_HAND_SHIFT = 80  # the piece in hand's field in a node key: cells take 5 bits x 16 squares below it
#: The fast last ply by built-in heuristic (matched by function, so a renamed copy still qualifies).
FAST_KINDS: dict[Callable[[Board], int], str] = {
    wins_only: "wins",
    guaranteed_loss: "guaranteed_loss",
    three_piece_lines: "lines",
    quarticity: "quarticity",
}

#: ``SQUARE_ORBIT[rules][square]``: the least square a symmetry of the rules' lines maps ``square`` to.
SQUARE_ORBIT = {rules: tuple(min(m[s] for m in square_maps(rules)) for s in range(16)) for rules in Rules}


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class FastSearch:
    """The search of :class:`Negamax` with ordering and a built-in heuristic (see the module docstring).

    ``chars`` is the position being searched, as characteristic sets (0xFF for an empty cell), changed in
    place and restored. A *node* is a position where the piece in hand cannot win at once; ``last_ply``
    scores a node one ply above the depth limit, ``node`` a deeper one (with the transposition table).
    When ``values`` is a list, ``last_ply`` appends ``(square, value, pieces)`` for every square (the
    pieces to give that reach that value) instead of cutting off: the root uses it at depth 1.
    """

    def __init__(self, owner: SearchOwner, kind: str) -> None:
        self.owner = owner
        self.chars = [0xFF] * 16
        self.cells = [NO_PIECE] * 16  # the pieces of the same position (read by evolved evaluations only)
        self.rules = Rules.CLASSIC
        # The built-in heuristics are invariant under the board's symmetries, so the empty board's roots
        # search one move per orbit; an evolved evaluation may read named rows or characteristics: it is not.
        self.symmetric = kind != "evaluator"
        self.parity = 0  # a placement node's mover is the searcher iff its empty count has this parity
        self.others = OTHERS_THROUGH[Rules.CLASSIC]  # of the rules of the search in progress
        self.last_ply = getattr(self, f"_make_{kind}")()
        self.node = self._make_node()
        #: The heuristic's name when :func:`~gpquarto.games.quarto.search.compiled_tactics.best_placement_2` can search a depth-2
        #: placement in its place (numba installed), else None.
        self.compiled_kind = kind if kind in compiled_tactics.SEARCH_KINDS else None

    # -------------------------------------------------------------- last ply, one per heuristic
    def _make_wins(self):
        owner = self.owner
        unsafe, carry, high = UNSAFE_OF_COUNTERS, COUNTER_CARRY, COUNTER_HIGH
        counter_of = COUNTER_OF

        def last_ply(depth, piece, empties, occupied, available, counters, key, plans, alpha, beta, values=None):
            owner.nodes += 1
            if empties == 1:
                return _last_square(plans, values)
            own = CHARACTERISTICS[piece]
            loss = -(WIN_SCORE + empties - 1)
            best = -INFINITY
            for square, after, _, pairs in plans:
                for common in pairs:
                    after += counter_of[common & own]
                safe = available & ~unsafe[(after + carry) & high]
                value = 0 if safe else loss
                if values is not None:
                    values.append((square, value, MEMBERS[safe] if safe else (_lowest(available),)))
                elif value > best:
                    best = value
                    if best >= beta:
                        break
            return best

        return last_ply

    def _make_counting(self, weigh: bool):
        """``lines`` (weigh each threat line by how many remaining pieces complete it) or ``quarticity``."""
        owner = self.owner
        unsafe, carry, high = UNSAFE_OF_COUNTERS, COUNTER_CARRY, COUNTER_HIGH
        counter_of, meeting = COUNTER_OF, PIECES_MEETING
        search = self
        cached: list = [None, [], 0]  # the last plans seen, their dropped lines' weights and the sum

        def weight(shared: int, available: int) -> int:
            if not weigh:
                return 10
            winners = (meeting[shared] & available).bit_count()
            return 0 if not winners else 10 if winners & 1 else 20

        def last_ply(depth, piece, empties, occupied, available, counters, key, plans, alpha, beta, values=None):
            owner.nodes += 1
            if empties == 1:
                return _last_square(plans, values)
            own = CHARACTERISTICS[piece]
            sign = 1 if empties & 1 == search.parity else -1
            loss = -(WIN_SCORE + empties - 1)
            # Each threat line on the board is "dropped" by its empty square's plan: sum their weights. The
            # piece in hand completes none of them, so siblings (same plans, other pieces) share the sums.
            if plans is not cached[0]:
                weights = [sum([weight(shared, available) for shared in plan[2]]) if plan[2] else 0 for plan in plans]
                cached[:] = plans, weights, sum(weights)
            _, weights, base = cached
            best = -INFINITY
            for (square, after, _, pairs), dropped_weight in zip(plans, weights, strict=True):
                score = base - dropped_weight
                for common in pairs:
                    made = common & own
                    if made:
                        after += counter_of[made]
                        score += weight(made, available)
                safe = available & ~unsafe[(after + carry) & high]
                value = sign * (score if score < HEURISTIC_LIMIT else HEURISTIC_LIMIT) if safe else loss
                if values is not None:
                    values.append((square, value, MEMBERS[safe] if safe else (_lowest(available),)))
                elif value > best:
                    best = value
                    if best >= beta:
                        break
            return best

        return last_ply

    def _make_lines(self):
        return self._make_counting(weigh=True)

    def _make_quarticity(self):
        return self._make_counting(weigh=False)

    def _make_guaranteed_loss(self):
        owner = self.owner
        chars = self.chars
        unsafe, carry, high = UNSAFE_OF_COUNTERS, COUNTER_CARRY, COUNTER_HIGH
        counter_of = COUNTER_OF
        search = self

        def keeps_a_safe_piece(plans, own, rest):
            """True when some square for a piece with set ``own`` leaves a piece of ``rest`` safe to give."""
            for _, after, _, pairs in plans:
                for common in pairs:
                    after += counter_of[common & own]
                if rest & ~unsafe[(after + carry) & high]:
                    return True
            return False

        def last_ply(depth, piece, empties, occupied, available, counters, key, plans, alpha, beta, values=None):
            owner.nodes += 1
            if empties == 1:
                return _last_square(plans, values)
            own = CHARACTERISTICS[piece]
            loss = -(WIN_SCORE + empties - 1)
            best = -INFINITY
            for square, after, _, pairs in plans:
                for common in pairs:
                    after += counter_of[common & own]
                safe = available & ~unsafe[(after + carry) & high]
                if not safe:
                    value, pieces = loss, (_lowest(available),)
                else:
                    # The opponent gets a safe piece; it is in "guaranteed loss" (scored -100 for it) when
                    # every square for that piece leaves it no safe piece to give back.
                    chars[square] = own
                    after_plans = square_plans(chars, occupied | 1 << square, after, search.others)
                    chars[square] = 0xFF
                    losing = []
                    for given in MEMBERS[safe]:
                        rest = available ^ (1 << given)
                        if rest and not keeps_a_safe_piece(after_plans, CHARACTERISTICS[given], rest):
                            losing.append(given)
                            if values is None:
                                break
                    value, pieces = (HEURISTIC_LIMIT, tuple(losing)) if losing else (0, MEMBERS[safe])
                if values is not None:
                    values.append((square, value, pieces))
                elif value > best:
                    best = value
                    if best >= beta:
                        break
            return best

        return last_ply

    def _make_evaluator(self):
        """An evolved evaluation (``Heuristic.leaf``) at every leaf. Unlike the built-in heuristics its value may
        depend on the piece given, so the safe pieces are evaluated one by one, except where the evaluation says it
        read none of the attributes that tell two of them apart: the value found for one piece is the value of
        every piece that agrees with it on the attributes read (all of them, when it read nothing of the piece).
        The board after the placement is shared by them (:class:`~gpquarto.games.quarto.search.tactics.SearchLeaf`: its square
        plans are computed once)."""
        owner = self.owner
        chars, cells = self.chars, self.cells
        evaluate = owner.heuristic.leaf
        unsafe, carry, high = UNSAFE_OF_COUNTERS, COUNTER_CARRY, COUNTER_HIGH
        counter_of = COUNTER_OF
        search = self

        killer = [-1, -1]  # the square and piece of the last cutoff: siblings are often refuted by the same reply

        def square_value(square, after, pairs, piece, occupied, available, beta, cut):
            """The best value of placing ``piece`` on ``square`` and giving a safe piece, and the pieces reaching
            it (the first piece reaching ``beta`` when ``cut``); a loss when no piece is safe."""
            own = CHARACTERISTICS[piece]
            for common in pairs:
                after += counter_of[common & own]
            safe = available & ~unsafe[(after + carry) & high]
            if not safe:
                return -(WIN_SCORE + (16 - occupied.bit_count()) - 1), [_lowest(available)]
            chars[square], cells[square] = own, piece
            leaf = SearchLeaf(search.rules, cells, chars, occupied | 1 << square, after)
            owner.evaluated_squares += 1
            value, pieces = -INFINITY, []
            order = MEMBERS[safe]
            if cut and square == killer[0] and safe >> killer[1] & 1:
                order = (killer[1], *(given for given in order if given != killer[1]))
            known = []  # (attributes read, their values in the piece evaluated, its score) at this leaf
            for given in order:
                for read, agreed, found in known:
                    if given & read == agreed:
                        score = found
                        break
                else:
                    score, read = evaluate(leaf, available ^ (1 << given), given)
                    owner.evaluations += 1
                    score = -score
                    if not read:  # the same for every safe piece given here
                        value, pieces = score, list(order)
                        if cut and score >= beta:
                            killer[:] = square, given
                        break
                    if read != ALL_ATTRIBUTES:
                        known.append((read, given & read, score))
                if score > value:
                    value, pieces = score, [given]
                    if cut and score >= beta:
                        killer[:] = square, given
                        break
                elif score == value:
                    pieces.append(given)
            chars[square], cells[square] = 0xFF, NO_PIECE
            return value, pieces

        def last_ply(depth, piece, empties, occupied, available, counters, key, plans, alpha, beta, values=None):
            owner.nodes += 1
            if empties == 1:
                return _last_square(plans, values)
            cut = values is None
            if cut and killer[0] >= 0 and not occupied >> killer[0] & 1:
                plans = sorted(plans, key=lambda plan: plan[0] != killer[0])
            best = -INFINITY
            for square, after, _, pairs in plans:
                value, pieces = square_value(square, after, pairs, piece, occupied, available, beta, cut)
                if not cut:
                    values.append((square, value, tuple(pieces)))
                    continue
                best = max(best, value)
                if best >= beta:
                    break
            return best

        return last_ply

    # -------------------------------------------------------------- deeper nodes
    def _make_node(self) -> Callable[..., int]:
        owner = self.owner
        chars = self.chars
        cells = self.cells
        table = owner.table
        use_table = owner.use_table
        last_ply = self.last_ply
        search = self
        unsafe, carry, high = UNSAFE_OF_COUNTERS, COUNTER_CARRY, COUNTER_HIGH
        counter_of = COUNTER_OF
        exact, lower, upper = EXACT, LOWER, UPPER
        # The node count at which the clock is read next (never, without a deadline): one comparison per node.
        check_at = _NEVER
        deadline: Deadline | None = None

        def arm(new_deadline: Deadline | None) -> None:
            nonlocal check_at, deadline
            deadline = new_deadline
            check_at = _NEVER if new_deadline is None else owner.nodes + CHECK_EVERY

        def checkpoint(nodes: int) -> None:
            nonlocal check_at
            check_at = nodes + CHECK_EVERY
            deadline.check()  # type: ignore[union-attr]  # armed with one

        self.arm = arm

        def node(depth, piece, empties, occupied, available, counters, key, plans, alpha, beta):
            """Value of a node for the player placing ``piece``, ``depth`` >= 2 plies (fail-soft)."""
            nodes = owner.nodes = owner.nodes + 1
            if nodes >= check_at:
                checkpoint(nodes)
            if empties == 1:
                return 0
            node_key = key + ((piece + 1) << _HAND_SHIFT)
            entry = table.get(node_key) if use_table else None
            first = -1
            if entry is not None:
                stored_depth, flag, stored_value, first = entry
                if stored_depth >= depth and (
                    flag == exact
                    or (flag == lower and stored_value >= beta)
                    or (flag == upper and stored_value <= alpha)
                ):
                    return stored_value
                if first >= 0:
                    first_square = first >> 4
                    plans = sorted(plans, key=lambda plan: plan[0] != first_square)
            own = CHARACTERISTICS[piece]
            shift = piece + 1
            others = search.others
            child = last_ply if depth == 2 else node
            original_alpha = alpha
            best, best_move = -INFINITY, -1
            for square, after, _, pairs in plans:
                for common in pairs:
                    after += counter_of[common & own]
                safe = available & ~unsafe[(after + carry) & high]
                if not safe:  # every piece lets the opponent win at once
                    value = -(WIN_SCORE + empties - 1)
                    if value > best:
                        best, best_move = value, square << 4 | _lowest(available)
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                break
                    continue
                child_occupied = occupied | 1 << square
                chars[square] = own
                cells[square] = piece
                child_plans = square_plans(chars, child_occupied, after, others)
                child_key = key + (shift << (5 * square))
                pieces = MEMBERS[safe]
                if first >= 0 and first >> 4 == square and safe >> (first & 15) & 1:
                    pieces = sorted(pieces, key=lambda given: given != first & 15)
                for given in pieces:
                    value = -child(
                        depth - 1,
                        given,
                        empties - 1,
                        child_occupied,
                        available ^ (1 << given),
                        after,
                        child_key,
                        child_plans,
                        -beta,
                        -alpha,
                    )
                    if value > best:
                        best, best_move = value, square << 4 | given
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                break
                chars[square] = 0xFF
                cells[square] = NO_PIECE
                if alpha >= beta:
                    break
            if use_table:
                flag = upper if best <= original_alpha else lower if best >= beta else exact
                if len(table) >= owner.table_limit:
                    table.clear()
                table[node_key] = (depth, flag, best, best_move)
            return best

        return node

    def _node_function(self, depth: int):
        """Call ``f(depth, piece, empties, occupied, available, counters, key, plans, alpha, beta)``."""
        return self.last_ply if depth == 1 else self.node

    # -------------------------------------------------------------- roots
    def setup(self, board: Board) -> tuple[int, int, int, int]:
        """Load ``board``; return its occupied mask, available mask, threat counters and cells key."""
        chars = self.chars
        for square, piece in enumerate(board.raw_cells):
            chars[square] = CELL_CHARACTERISTICS[piece]
        self.cells[:] = board.raw_cells
        self.rules = board.rules
        self.others = OTHERS_THROUGH[board.rules]
        occupied = board.occupied_mask
        # A placement node's mover is the searcher (board.player) iff (17 - empties) % 2 == searcher.
        self.parity = (1 + board.player) & 1
        return (
            occupied,
            board.available_mask,
            threat_counters(chars, occupied, board.rules),
            cells_key(board.raw_cells, board.rules),
        )

    def best_placement(self, board: Board, depth: int) -> tuple[int, list[int]]:
        """Value of placing the piece in hand (which cannot win at once) and every best (square << 4 | piece).
        With a deadline armed (:meth:`arm`), :class:`~gpquarto.search.budget.OutOfTime` once it passes (the
        compiled search two plies deep is not interrupted: it takes milliseconds)."""
        empties = 16 - board.placed_count
        depth = min(depth, empties)
        if depth == 2 and board.placed_count and self.compiled_kind is not None and compiled_tactics.enabled():
            cells = board.raw_cells
            best, moves, searched = compiled_tactics.best_placement_2(
                cells if cells.__class__ is tuple else tuple(cells),
                board.in_hand,
                board.available_mask,
                board.rules,
                (1 + board.player) & 1,
                self.compiled_kind,
            )
            self.owner.nodes += searched
            return best, moves
        occupied, available, counters, key = self.setup(board)
        piece = board.in_hand
        chars, others = self.chars, self.others
        plans = square_plans(chars, occupied, counters, others)
        if depth == 1:
            values: list[tuple[int, int, tuple[int, ...]]] = []
            self.last_ply(1, piece, empties, occupied, available, counters, key, plans, -INFINITY, INFINITY, values)
            best = max(value for _, value, _ in values)
            return best, [square << 4 | given for square, value, pieces in values if value == best for given in pieces]
        own = CHARACTERISTICS[piece]
        child = self._node_function(depth - 1)
        ranking = _Ranking()
        # On the empty board a symmetry maps (square, piece) to any (square', piece') with square' in the
        # square's orbit and piece' as far from the piece in hand (in attributes) as piece: one search each.
        orbit = SQUARE_ORBIT[board.rules] if board.placed_count == 0 and self.symmetric else None
        found: dict[tuple[int, int], int] = {}
        for square, after, _, pairs in plans:
            for common in pairs:
                after += COUNTER_OF[common & own]
            safe = available & ~UNSAFE_OF_COUNTERS[(after + COUNTER_CARRY) & COUNTER_HIGH]
            if not safe:
                ranking.add(-(WIN_SCORE + empties - 1), square << 4 | _lowest(available))
                continue
            child_occupied = occupied | 1 << square
            chars[square] = own
            self.cells[square] = piece
            child_plans = (
                square_plans(chars, child_occupied, after, others) if orbit is None or orbit[square] == square else []
            )
            child_key = key + ((piece + 1) << (5 * square))
            for given in MEMBERS[safe]:
                if orbit is not None and (orbit[square], (given ^ piece).bit_count()) in found:
                    ranking.add(found[orbit[square], (given ^ piece).bit_count()], square << 4 | given)
                    continue
                arguments = (
                    given,
                    empties - 1,
                    child_occupied,
                    available ^ (1 << given),
                    after,
                    child_key,
                    child_plans,
                )
                value = ranking.add_searched(child, depth - 1, arguments, square << 4 | given)
                if orbit is not None:
                    found[square, (given ^ piece).bit_count()] = value
            chars[square] = 0xFF
            self.cells[square] = NO_PIECE
        return ranking.best, ranking.moves

    def best_choice(self, board: Board, depth: int, safe: int) -> tuple[int, list[int]]:
        """Value of giving one of the ``safe`` pieces, and every best piece."""
        occupied, available, counters, key = self.setup(board)
        empties = 16 - board.placed_count
        depth = min(depth, empties)
        plans = square_plans(self.chars, occupied, counters, self.others)
        child = self._node_function(depth)
        ranking = _Ranking()
        for given in MEMBERS[safe]:
            if board.placed_count == 0 and ranking.moves and self.symmetric:  # every piece is any other's image
                ranking.add(ranking.best, given)
                continue
            arguments = (given, empties, occupied, available ^ (1 << given), counters, key, plans)
            ranking.add_searched(child, depth, arguments, given)
        return ranking.best, ranking.moves


class _Ranking:
    """The best value of a root's moves so far, and every move reaching it."""

    def __init__(self) -> None:
        self.best = -INFINITY
        self.moves: list[int] = []

    def add(self, value: int, move: int) -> None:
        """Count a move of exactly ``value``."""
        if value > self.best:
            self.best, self.moves = value, [move]
        elif value == self.best:
            self.moves.append(move)

    def add_searched(self, child, depth: int, arguments: tuple, move: int) -> int:
        """Count a move worth ``-child(depth, *arguments, -high, -low)`` searched in the window (low, high).

        The window is (best so far, infinity): a move worth less fails low, returning an upper bound that
        may equal the best (fail-soft). A null window just below the best (values are ints) then proves
        whether it is exactly equal (a tie) or less. Returns the value counted (exact when not below the best).
        """
        best = self.best
        value = -child(depth, *arguments, -INFINITY, -best)
        if value == best:
            value = min(value, -child(depth, *arguments, -best, 1 - best))
        self.add(value, move)
        return value


def _last_square(plans: list[SquarePlan], values: list | None) -> int:
    """A node with one empty square (its piece cannot win there): a draw."""
    if values is not None:
        values.append((plans[0][0], 0, (0,)))  # the root writes NO_PIECE: nothing is left to give
    return 0
