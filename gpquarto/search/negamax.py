"""Depth-limited negamax with alpha-beta pruning and a transposition table.

One *ply* is a whole turn: place the piece in hand, then (unless the game is over) choose the piece for the
opponent. Values are from the point of view of the player to act: a win found when ``e`` squares are
still empty (before the winning placement) scores ``WIN_SCORE + e``, so quicker wins score higher and slower
losses lose less; a draw scores 0; positions at the depth limit get the heuristic
(:mod:`gpquarto.search.heuristics`), whose values stay well inside ``(-WIN_SCORE, WIN_SCORE)``. A heuristic that credits
the searching player is negated at leaves where its opponent is to move; the table is then only valid for
one searching player, so it is cleared when a search starts for the other one.

With ``ordering=True`` (the default) the search uses exact Quarto tactics: a piece in hand that can win
wins at once; only safe pieces are given (a piece the opponent could win with is never better than a safe
one), and a placement after which no safe piece remains is a loss without further search; the table's best
move is tried first. ``ordering=False`` gives a plain alpha-beta over every (square, piece) pair that
relies on the engine's win test alone: tests use it to check the tactics.

Speed (issue 8): with ordering and one of the built-in heuristics the search runs on its own state (the
characteristic set of each cell, bit masks, the threat counters of :mod:`gpquarto.games.quarto.tables` updated
per placement, an int key built incrementally) instead of a Board. The last ply is not searched piece by
piece: after a placement every safe piece to give leads to the same leaf value for ``wins``, ``lines`` and
``quarticity`` (a safe piece completes no threat line, so it is not among the pieces a heuristic counts),
so each square is evaluated once, from per-square "plans" (what filling the square does to the lines
through it) shared by all the pieces placed there. Values and best root moves are those of the plain
search: tests check them against the kept pre-issue-8 implementation on a bank of real positions. On
the empty board, root moves that a symmetry maps onto each other are searched once. A heuristic of your own
(any other :class:`~gpquarto.search.heuristics.Heuristic`) and ``ordering=False`` use the generic search
over a Board, which calls the heuristic at every leaf.

Example::

    >>> from gpquarto import Board
    >>> search = Negamax("wins")
    >>> board = Board.from_text("012./..../..../.... 5")   # piece 5 completes the top row on d1
    >>> result = search.best_placement(board, depth=2)
    >>> result.square, result.value > WIN_SCORE
    (3, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, Rules
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE
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
from gpquarto.search.heuristics import (
    HEURISTIC_LIMIT,
    Heuristic,
    get_heuristic,
    guaranteed_loss,
    quarticity,
    three_piece_lines,
    wins_only,
)
from gpquarto.search.tactics import (
    SearchLeaf,
    SquarePlan,
    cells_key,
    square_plans,
    threat_characteristics,
    threat_counters,
    winning_squares,
)

#: Base score of a proven win; a win with ``e`` empty squares left scores ``WIN_SCORE + e``.
WIN_SCORE = 1000
_INFINITY = 10 * WIN_SCORE
_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a root search: its value, and the best square and/or piece (``-1`` when none).

    ``best_moves`` lists every root move worth exactly ``value`` as ``(square, piece)`` pairs (``-1`` /
    ``NO_PIECE`` where a part does not apply), the returned one first: players draw among them to vary
    their games.
    """

    value: int
    square: int = -1
    piece: int = NO_PIECE
    best_moves: tuple[tuple[int, int], ...] = ()


def outcome(value: int) -> int:
    """1, 0 or -1: whether a search value is a proven win, not proven either way, or a proven loss."""
    return 1 if value > WIN_SCORE - 100 else -1 if value < 100 - WIN_SCORE else 0


def estimated_tree_size(empty_squares: int, depth: int) -> int:
    """Seed 004's estimate of a search's size: each ply multiplies by (squares left) x (pieces left).

    ``estimated_tree_size(5, 5) == 120 ** 2``: the full tree with five squares left.
    """
    size = 1
    for ply in range(min(depth, empty_squares)):
        size *= (empty_squares - ply) ** 2
    return size


class Negamax:
    """A reusable searcher: ``best_placement``, ``best_choice``, ``value``; ``nodes`` counts positions searched.

    The transposition table (``table=True``) maps (cells, piece in hand) to the depth searched, a bound
    and the best move; it lives until :meth:`clear` (or until it holds ``table_limit`` entries).
    """

    def __init__(
        self,
        heuristic: Heuristic | str = "wins",
        *,
        table: bool = True,
        ordering: bool = True,
        table_limit: int = 200_000,
    ) -> None:
        self.heuristic = get_heuristic(heuristic) if isinstance(heuristic, str) else heuristic
        self._evaluate = self.heuristic.evaluate
        self._credits_searcher = self.heuristic.credits_searcher
        self._searcher = -1
        self.use_table = table
        self.ordering = ordering
        self.table_limit = table_limit
        self.nodes = 0
        self._table: dict[tuple[tuple[int, ...], int], tuple[int, int, int, int]] = {}
        self._root_move = -1
        self._root_ties: list[int] = []
        kind = (
            ("evaluator" if self.heuristic.leaf is not None else _FAST_KINDS.get(self.heuristic.evaluate))
            if ordering
            else None
        )
        self._fast = _FastSearch(self, kind) if kind is not None else None

    def clear(self) -> None:
        """Forget the transposition table (not the node counter)."""
        self._table.clear()

    # ------------------------------------------------------------------ roots
    def best_placement(self, board: Board, depth: int) -> SearchResult:
        """Best square for the piece in hand and the piece to give after it, searching ``depth`` plies."""
        if not board.placement_due:
            raise ValueError("best_placement needs a position where a piece is in hand")
        _check_depth(depth)
        self._start(board)
        if self._fast is not None:
            self.nodes += 1
            if CHARACTERISTICS[board.in_hand] & threat_characteristics(board):
                value, encoded = WIN_SCORE + 16 - board.placed_count, []
            else:
                value, encoded = self._fast.best_placement(board, depth)
        else:
            value = self._search(board.copy(), depth, -_INFINITY, _INFINITY, root=True)
            encoded = [] if self._root_move < 0 else [self._root_move, *self._root_ties]
        if not encoded:  # an immediate win: no piece to give
            moves = tuple((square, NO_PIECE) for square in winning_squares(board, board.in_hand))
        else:
            last_square = board.placed_count == 15
            moves = tuple((move >> 4, NO_PIECE if last_square else move & 15) for move in encoded)
        return SearchResult(value, *moves[0], best_moves=moves)

    def best_choice(self, board: Board, depth: int) -> SearchResult:
        """Best piece to give, searching ``depth`` plies after the choice."""
        if not board.choice_due:
            raise ValueError("best_choice needs a position where a piece must be chosen")
        _check_depth(depth)
        self._start(board)
        search = board.copy()
        pieces = MEMBERS[search.available_mask]
        if self.ordering:
            safe = MEMBERS[~PIECES_MEETING[threat_characteristics(search)] & search.available_mask]
            if not safe:
                self.nodes += 1
                moves = tuple((-1, piece) for piece in pieces)
                return SearchResult(-(WIN_SCORE + 16 - search.placed_count), piece=pieces[0], best_moves=moves)
            pieces = safe
            if self._fast is not None:
                safe_mask = sum(1 << piece for piece in safe)
                best, best_pieces = self._fast.best_choice(search, depth, safe_mask)
                return SearchResult(best, piece=best_pieces[0], best_moves=tuple((-1, piece) for piece in best_pieces))
        best, best_pieces, alpha = -_INFINITY, [pieces[0]], -_INFINITY
        for piece in pieces:
            search.choose(piece)
            value = -self._search(search, depth, -_INFINITY, -alpha)
            if value == best:  # only an upper bound: prove equality (see _search)
                value = min(value, -self._search(search, depth, -best, 1 - best))
            search.undo()
            if value > best:
                best, best_pieces = value, [piece]
                alpha = max(alpha, value)
            elif value == best:
                best_pieces.append(piece)
        return SearchResult(best, piece=best_pieces[0], best_moves=tuple((-1, piece) for piece in best_pieces))

    def value(self, board: Board, depth: int) -> int:
        """The value of ``board`` for the player to act (placement or choice due), searching ``depth`` plies."""
        if board.is_over():
            raise ValueError("the game is over: nothing to search")
        if board.placement_due:
            return self.best_placement(board, depth).value
        return self.best_choice(board, depth).value

    # ------------------------------------------------------------------ the search
    def _start(self, board: Board) -> None:
        """Note who searches; a table filled for the other player is useless to a searcher-credited heuristic."""
        if self._credits_searcher and board.player != self._searcher:
            self._table.clear()
        self._searcher = board.player

    def _leaf(self, board: Board) -> int:
        self.nodes += 1
        if not self.ordering and CHARACTERISTICS[board.in_hand] & threat_characteristics(board):
            return WIN_SCORE + 16 - board.placed_count
        value = self._evaluate(board)
        return -value if self._credits_searcher and board.player != self._searcher else value

    def _search(self, board: Board, depth: int, alpha: int, beta: int, root: bool = False) -> int:
        """Value of a position with a piece in hand, for the player to place it (fail-soft alpha-beta)."""
        self.nodes += 1
        piece = board.in_hand
        empty_count = 16 - board.placed_count
        depth = min(depth, empty_count)
        ordering = self.ordering
        if root:
            self._root_move = -1
            ties = self._root_ties = []
        if ordering and CHARACTERISTICS[piece] & threat_characteristics(board):
            return WIN_SCORE + empty_count
        key = None
        first_move = -1
        if self.use_table:
            key = (tuple(board.raw_cells), piece)
            entry = self._table.get(key)
            if entry is not None:
                stored_depth, flag, stored_value, first_move = entry
                if not root and stored_depth >= depth:
                    if (
                        flag == _EXACT
                        or (flag == _LOWER and stored_value >= beta)
                        or (flag == _UPPER and stored_value <= alpha)
                    ):
                        return stored_value
                if not ordering:
                    first_move = -1
        squares = MEMBERS[board.occupied_mask ^ ALL_SQUARES_MASK]
        if first_move >= 0:
            first_square = first_move >> 4
            squares = (first_square, *(s for s in squares if s != first_square))
        original_alpha = alpha
        best, best_move = -_INFINITY, -1
        for square in squares:
            board.push_placement(square)
            if board.winner_index != NO_PIECE:  # only without ordering: with it, wins were found above
                board.undo()
                best, best_move = WIN_SCORE + empty_count, -1
                break
            if empty_count == 1:  # the board is full: a draw
                value = 0
                if value > best:
                    best, best_move = value, square << 4
                board.undo()
                break
            available = board.available_mask
            pieces = MEMBERS[available]
            if ordering:
                pieces = MEMBERS[~PIECES_MEETING[threat_characteristics(board)] & available]
                if not pieces:  # every piece lets the opponent win at once
                    value = -(WIN_SCORE + empty_count - 1)
                    if value > best:
                        best, best_move = value, square << 4 | MEMBERS[available][0]
                        alpha = max(alpha, value)
                        if root:
                            ties.clear()
                    elif root and value == best:
                        ties.append(square << 4 | MEMBERS[available][0])
                    board.undo()
                    if alpha >= beta:
                        break
                    continue
                if first_move >= 0 and first_move >> 4 == square and first_move & 15 in pieces:
                    first_piece = first_move & 15
                    pieces = (first_piece, *(p for p in pieces if p != first_piece))
            for next_piece in pieces:
                board.push_choice(next_piece)
                if depth == 1:
                    value = -self._leaf(board)
                else:
                    value = -self._search(board, depth - 1, -beta, -alpha)
                    if root and value == best:
                        # At the root alpha is the best value so far: a move worth "best" may be worth less
                        # (fail-soft upper bound). A null window one below it (values are ints) proves
                        # whether it is exactly equal: then it is kept as a tie; else its bound drops below.
                        value = min(value, -self._search(board, depth - 1, -best, 1 - best))
                board.undo()
                if value > best:
                    best, best_move = value, square << 4 | next_piece
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
                    if root:
                        ties.clear()
                elif root and value == best:
                    ties.append(square << 4 | next_piece)
            board.undo()
            if alpha >= beta:
                break
        if root:
            self._root_move = best_move
        if key is not None:
            if best <= original_alpha:
                flag = _UPPER
            elif best >= beta:
                flag = _LOWER
            else:
                flag = _EXACT
            if len(self._table) >= self.table_limit:
                self._table.clear()
            self._table[key] = (depth, flag, best, best_move)
        return best


def _check_depth(depth: int) -> None:
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
        raise ValueError(f"search depth must be an int >= 1, got {depth!r}")


# ---------------------------------------------------------------------- the fast search (built-in heuristics)
_HAND_SHIFT = 80  # the piece in hand's field in a node key: cells take 5 bits x 16 squares below it
#: The fast last ply by built-in heuristic (matched by function, so a renamed copy still qualifies).
_FAST_KINDS = {
    wins_only: "wins",
    guaranteed_loss: "guaranteed_loss",
    three_piece_lines: "lines",
    quarticity: "quarticity",
}

#: ``SQUARE_ORBIT[rules][square]``: the least square a symmetry of the rules' lines maps ``square`` to.
SQUARE_ORBIT = {rules: tuple(min(m[s] for m in square_maps(rules)) for s in range(16)) for rules in Rules}


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class _FastSearch:
    """The search of :class:`Negamax` with ordering and a built-in heuristic (see the module docstring).

    ``chars`` is the position being searched, as characteristic sets (0xFF for an empty cell), changed in
    place and restored. A *node* is a position where the piece in hand cannot win at once; ``last_ply``
    scores a node one ply above the depth limit, ``node`` a deeper one (with the transposition table).
    When ``values`` is a list, ``last_ply`` appends ``(square, value, pieces)`` for every square (the
    pieces to give that reach that value) instead of cutting off: the root uses it at depth 1.
    """

    def __init__(self, owner: Negamax, kind: str) -> None:
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
            best = -_INFINITY
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
            best = -_INFINITY
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
            best = -_INFINITY
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
        """An evolved evaluation (``Heuristic.leaf``) at every leaf: unlike the built-in heuristics its value may
        depend on the piece given, so each safe piece is evaluated; the board after the placement is shared by
        them (:class:`~gpquarto.search.tactics.SearchLeaf`: its square plans are computed once)."""
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
            value, pieces = -_INFINITY, []
            order = MEMBERS[safe]
            if cut and square == killer[0] and safe >> killer[1] & 1:
                order = (killer[1], *(given for given in order if given != killer[1]))
            for given in order:
                score = -evaluate(leaf, available ^ (1 << given), given)
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
            best = -_INFINITY
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
    def _make_node(self):
        owner = self.owner
        chars = self.chars
        cells = self.cells
        table = owner._table
        use_table = owner.use_table
        last_ply = self.last_ply
        search = self
        unsafe, carry, high = UNSAFE_OF_COUNTERS, COUNTER_CARRY, COUNTER_HIGH
        counter_of = COUNTER_OF
        exact, lower, upper = _EXACT, _LOWER, _UPPER

        def node(depth, piece, empties, occupied, available, counters, key, plans, alpha, beta):
            """Value of a node for the player placing ``piece``, ``depth`` >= 2 plies (fail-soft)."""
            owner.nodes += 1
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
            best, best_move = -_INFINITY, -1
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
        """Value of placing the piece in hand (which cannot win at once) and every best (square << 4 | piece)."""
        occupied, available, counters, key = self.setup(board)
        empties = 16 - board.placed_count
        depth = min(depth, empties)
        piece = board.in_hand
        chars, others = self.chars, self.others
        plans = square_plans(chars, occupied, counters, others)
        if depth == 1:
            values: list[tuple[int, int, tuple[int, ...]]] = []
            self.last_ply(1, piece, empties, occupied, available, counters, key, plans, -_INFINITY, _INFINITY, values)
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
        self.best = -_INFINITY
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
        value = -child(depth, *arguments, -_INFINITY, -best)
        if value == best:
            value = min(value, -child(depth, *arguments, -best, 1 - best))
        self.add(value, move)
        return value


def _last_square(plans: list[SquarePlan], values: list | None) -> int:
    """A node with one empty square (its piece cannot win there): a draw."""
    if values is not None:
        values.append((plans[0][0], 0, (0,)))  # the root writes NO_PIECE: nothing is left to give
    return 0
