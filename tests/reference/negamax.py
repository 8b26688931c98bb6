"""Depth-limited negamax with alpha-beta pruning and a transposition table.

One *ply* is a whole turn: place the piece in hand, then (unless the game is over) choose the piece for the
opponent. Values are from the point of view of the player to act: a win found when ``e`` squares are
still empty (before the winning placement) scores ``WIN_SCORE + e``, so quicker wins score higher and slower
losses lose less; a draw scores 0; positions at the depth limit get the heuristic
(:mod:`gpquarto.games.quarto.search.heuristics`), whose values stay well inside ``(-WIN_SCORE, WIN_SCORE)``. A heuristic that credits
the searching player is negated at leaves where its opponent is to move; the table is then only valid for
one searching player, so it is cleared when a search starts for the other one.

With ``ordering=True`` (the default) the search uses exact Quarto tactics: a piece in hand that can win
wins at once; only safe pieces are given (a piece the opponent could win with is never better than a safe
one), and a placement after which no safe piece remains is a loss without further search; the table's best
move is tried first. ``ordering=False`` gives a plain alpha-beta over every (square, piece) pair that
relies on the engine's win test alone: tests use it to check the tactics.

Example::

    >>> from gpquarto.games.quarto import Board
    >>> search = Negamax("wins")
    >>> board = Board.from_text("012./..../..../.... 5")   # piece 5 completes the top row on d1
    >>> result = search.best_placement(board, depth=2)
    >>> result.square, result.value > WIN_SCORE
    (3, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE
from tests.reference.heuristics import Heuristic, get_heuristic
from tests.reference.tactics import PIECES_MEETING, threat_characteristics, winning_squares

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

    def clear(self) -> None:
        """Forget the transposition table (not the node counter)."""
        self._table.clear()

    def warm_up(self) -> None:
        """Nothing to load: the reference calls no compiled search (the player calls this before each game)."""

    # ------------------------------------------------------------------ roots
    def best_placement(self, board: Board, depth: int) -> SearchResult:
        """Best square for the piece in hand and the piece to give after it, searching ``depth`` plies."""
        if not board.placement_due:
            raise ValueError("best_placement needs a position where a piece is in hand")
        _check_depth(depth)
        self._start(board)
        search = board.copy()
        value = self._search(search, depth, -_INFINITY, _INFINITY, root=True)
        if self._root_move < 0:  # an immediate win: no piece to give
            moves = tuple((square, NO_PIECE) for square in winning_squares(board, board.in_hand))
        else:
            last_square = board.placed_count == 15
            moves = tuple(
                (move >> 4, NO_PIECE if last_square else move & 15) for move in (self._root_move, *self._root_ties)
            )
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
