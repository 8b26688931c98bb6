"""Lookahead: what the opponent can do in its immediate reply, and no further. Leave the family out with
``lookahead=False`` (``--no-lookahead``); ``tactical=False`` leaves it out too.

Bound: every fact here looks at one action of this player and the opponent's reply to it (which piece it
could give back, where it could put the piece it is given), using the tactics of
:mod:`gpquarto.games.quarto.search.tactics`; none searches deeper, and none calls negamax, the solver or MCTS.
Definitions (safe piece, safe square) are those of the ``tactical`` family:

* after this player puts the piece in hand on a square, the opponent may be given a *safe* piece (one it
  cannot win with at once); the fewer safe pieces are left, the tighter the opponent's next choice;
* a piece given to the opponent *leaves it no safe placement* when it is safe (no immediate win) and
  wherever the opponent puts it, no safe piece is left for it to give back: the opponent must then hand
  over a winning piece;
* a square *sets a trap* when the piece in hand goes there without winning and some safe piece could then be
  given that leaves the opponent no safe placement (with a piece left to give back): the player's own turn,
  placement and choice, followed by the opponent's reply, as for the pieces above;
* *parity*: after a placement that leaves an odd number of safe pieces to give, if no later placement changed
  which pieces are safe, the players would give them in turn and the opponent would be the first with none
  left; so each player wants its placements to leave an odd number, and to give pieces that deny the opponent
  such placements;
* a *live three* is a line of three pieces sharing a characteristic that some available piece has:
  creating one takes pieces out of the safe set, blocking one (filling its last square without winning)
  puts them back.
"""

from __future__ import annotations

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import GIVEN_NOTHING, Features, reads_given_piece
from gpquarto.games.quarto.lines import SQUARE_COUNT
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE
from gpquarto.games.quarto.search import compiled_tactics, tactics
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Count, Piece, Square

FAMILY = "lookahead"


def _compiled() -> bool:
    """True when the facts below come from :mod:`gpquarto.games.quarto.search.compiled_tactics` (numba installed): the same
    values as the pure-Python code written here, which tests hold them to."""
    return compiled_tactics.enabled()


def _cells(features: Features) -> tuple[int, ...]:
    """The cells as a tuple (a Board's are a list)."""
    cells = features.cells
    return cells if cells.__class__ is tuple else tuple(cells)


def _safe_left_after(features: Features) -> dict[int, int]:
    """For each safe, non-winning square of the piece in hand: how many safe pieces are left to give after it."""

    def compute(features: Features) -> dict[int, int]:
        if features.in_hand == NO_PIECE:
            return {}
        if _compiled():
            counts = compiled_tactics.safe_left_after(
                _cells(features), features.in_hand, features.available, features.rules
            )
            return {square: count for square, count in enumerate(counts) if count >= 0}
        winning, in_hand, available = features.winning_squares, features.in_hand, features.available
        left = {}
        for plan in tactics.placement_plans(features.board):
            safe = tactics.planned_safe_pieces(plan, available, in_hand)
            square = plan[0].bit_length() - 1
            if safe and square not in winning:
                left[square] = safe.bit_count()
        return left

    return features.memo("lookahead.safe_left_after", compute)


def _reply_squares(board: Board) -> dict[int, tuple[int, ...]]:
    """For each safe piece to give on ``board`` (a choice is due): the opponent's safe placements with it (squares
    after which it has a safe piece to give back). ``board`` is left as it was."""
    plans = tactics.placement_plans(board)
    available = board.available_mask
    return {
        piece: MEMBERS[tactics.planned_safe_placements(plans, available, piece)]
        for piece in MEMBERS[tactics.safe_pieces_mask(board)]
    }


def _position_reply_squares(features: Features) -> dict[int, tuple[int, ...]]:
    """:func:`_reply_squares` of the position (empty when a placement is due), once per decision."""

    def compute(features: Features) -> dict[int, tuple[int, ...]]:
        if features.in_hand != NO_PIECE:
            return {}
        if _compiled():
            masks = compiled_tactics.reply_masks(_cells(features), features.available, features.rules)
            return {piece: MEMBERS[mask] for piece, mask in enumerate(masks) if mask >= 0}
        return _reply_squares(features.board.copy())

    return features.memo("lookahead.reply_squares", compute)


def _reply_safe_placements(features: Features) -> dict[int, int]:
    """For each safe piece to give (when a choice is due): how many safe placements the opponent has with it."""
    return {piece: len(squares) for piece, squares in _position_reply_squares(features).items()}


#: The most empty squares on which the parity of the opponent's replies is looked at: beyond it,
#: ``piece_leaving_fewest_safe_placements`` takes the lowest of its tied pieces and
#: ``square_leaving_fewest_reply_placements`` gives the tightest safe square (that of ``tightest_safe_square``).
#: The parity is a fact of the endgame (the grade's bank holds positions with 6 to 10 empty squares), and the look
#: is dear on emptier boards: in the opening every piece ties, and the square's look tries every piece after every
#: square, ten times the cost of a look with 10 empty squares (docs/lab/parity-piece.md).
REPLY_LOOK_HORIZON = 10


def _fewest_reply_placements(board: Board, placements: dict[int, tuple[int, ...]]) -> dict[int, tuple[int, int]]:
    """The safe pieces to give on ``board`` (a choice is due) with which the opponent has the fewest safe placements
    (``placements``: :func:`_reply_squares` of ``board``), each with (that number, how many of those placements leave
    it an odd number of safe pieces to give back); only those pieces, as no ranking here needs the parity of the
    others. Beyond :data:`REPLY_LOOK_HORIZON` the parity is not looked at (0 for each). ``board`` is left as it
    was."""
    fewest = min(map(len, placements.values()), default=0)
    look = SQUARE_COUNT - board.placed_count <= REPLY_LOOK_HORIZON
    plans = {plan[0].bit_length() - 1: plan for plan in tactics.placement_plans(board)} if look else {}
    replies = {}
    for piece, squares in placements.items():
        if len(squares) != fewest:
            continue
        if not look:
            replies[piece] = (fewest, 0)
            continue
        rest = board.available_mask & ~(1 << piece)
        odd = sum(tactics.planned_safe_pieces(plans[square], rest, piece).bit_count() % 2 for square in squares)
        replies[piece] = (fewest, odd)
    return replies


def _position_fewest_reply_placements(features: Features) -> dict[int, tuple[int, int]]:
    """:func:`_fewest_reply_placements` of the position (a choice is due)."""
    if _compiled() and features.in_hand == NO_PIECE:
        values = compiled_tactics.fewest_replies(
            _cells(features), features.available, features.rules, REPLY_LOOK_HORIZON
        )
        return _unpacked(values)
    return _fewest_reply_placements(features.board.copy(), _position_reply_squares(features))


def _unpacked(values: list[int]) -> dict[int, tuple[int, int]]:
    """``{index: (fewest, odd)}`` of the compiled functions' ``fewest * 64 + odd`` values (-1: none)."""
    return {index: (value >> 6, value & 63) for index, value in enumerate(values) if value >= 0}


def _lowest_with(counts: dict[int, int], wanted) -> int:
    return next((key for key in sorted(counts) if wanted(counts[key])), NO_ACTION)


def _best_fitting_with(features: Features, wanted) -> int:
    """Among the safe, non-winning squares whose count of safe pieces left is ``wanted``, the one where the piece in
    hand fits the fullest line (:attr:`~gpquarto.games.quarto.gp.features.Features.hand_fits`), lowest on ties.

    Why not simply the lowest: the parity squares are many in the opening (the count is the same for every square
    while no line holds a threat), and the lowest one fills row 0 with whatever pieces come, which then share
    nothing: a dead line. Against random play such games end in draws; joining the fullest line the piece fits
    keeps lines alive and gave a parity rule list 3 draws instead of 11 in 2,000 games against random, as strong
    against minimax:depth=2 (docs/lab/parity-tie-break.md).
    """
    left = _safe_left_after(features)
    squares = [square for square in sorted(left) if wanted(left[square])]
    if not squares:  # also every choice: no piece in hand
        return NO_ACTION
    fits = dict(zip(features.empty_squares, features.hand_fits, strict=True))
    return min(squares, key=lambda square: (-fits[square], square))


@primitive
def square_leaving_odd_safe_pieces(features: Features) -> Square:
    """A safe square (not winning) after which the number of safe pieces left to give is odd; of several, the one
    where the piece in hand fits the fullest line."""
    return _best_fitting_with(features, lambda left: left % 2 == 1)


@primitive
def square_leaving_even_safe_pieces(features: Features) -> Square:
    """A safe square (not winning) after which the number of safe pieces left to give is even (and not zero); of
    several, the one where the piece in hand fits the fullest line."""
    return _best_fitting_with(features, lambda left: left > 0 and left % 2 == 0)


@primitive
@reads_given_piece(GIVEN_NOTHING)
def safe_pieces_left_is_odd(features: Features) -> bool:
    """The number of safe pieces to give now is odd (parity of the endgame)."""
    return len(features.safe_pieces) % 2 == 1


@primitive
def piece_leaving_no_safe_placement(features: Features) -> Piece:
    """A safe piece such that wherever the opponent puts it, it has no safe piece to give back."""
    return _lowest_with(_reply_safe_placements(features), lambda placements: placements == 0)


@primitive
def piece_leaving_fewest_safe_placements(features: Features) -> Piece:
    """The safe piece with which the opponent has the fewest safe placements; of several, the one with which the
    fewest of them leave the opponent an odd number of safe pieces to give (the parity it wants, see the module
    docstring; on boards with at most 10 empty squares), lowest on ties.

    Why the parity: on the grade's bank it keeps the exact value more often than the lowest of the tied pieces does,
    and more often than ``minimax:depth=2`` (docs/lab/parity-piece.md).
    """
    replies = features.memo("lookahead.fewest_reply_placements", _position_fewest_reply_placements)
    return min(sorted(replies), key=lambda piece: replies[piece], default=NO_ACTION)


def _square_reply_placements(features: Features) -> dict[int, tuple[int, int]]:
    """For each safe, non-winning square of the piece in hand: the best piece to give after it, as
    ``piece_leaving_fewest_safe_placements`` ranks them (its key: the opponent's safe placements, then how many of
    them leave it an odd number of safe pieces). Empty when a choice is due, or beyond :data:`REPLY_LOOK_HORIZON`."""

    def compute(features: Features) -> dict[int, tuple[int, int]]:
        if len(features.empty_squares) > REPLY_LOOK_HORIZON:
            return {}
        if _compiled() and features.in_hand != NO_PIECE:
            values = compiled_tactics.square_replies(
                _cells(features), features.in_hand, features.available, features.rules, REPLY_LOOK_HORIZON
            )
            return _unpacked(values)
        board = features.board.copy()
        best = {}
        for square in _safe_left_after(features):
            board.push_placement(square)
            best[square] = min(_fewest_reply_placements(board, _reply_squares(board)).values())
            board.undo()
        return best

    return features.memo("lookahead.square_reply_placements", compute)


@primitive
def square_leaving_fewest_reply_placements(features: Features) -> Square:
    """A winning square when there is one (a win leaves the opponent no reply); else a safe square (not winning)
    after which the best piece to give leaves the opponent the fewest safe placements, then the fewest of them that
    leave it an odd number of safe pieces (the ranking of ``piece_leaving_fewest_safe_placements``), lowest on ties:
    this player's placement and choice, and the opponent's reply. On boards with more than
    :data:`REPLY_LOOK_HORIZON` empty squares, where the look is dear, the tightest safe square (that of
    ``tightest_safe_square``). So it is a whole placement policy under ``True``; a list that puts ``winning_square``
    before it and ``tightest_safe_square`` after it decides as it did when the square gave ``NO_ACTION`` in both
    cases (docs/lab/rules-reply-counter.md)."""
    if features.winning_squares:
        return features.winning_squares[0]
    if len(features.empty_squares) > REPLY_LOOK_HORIZON:
        return features.tightest_safe_square
    best = _square_reply_placements(features)
    return min(sorted(best), key=lambda square: best[square], default=NO_ACTION)


#: A trap needs every piece left after the opponent's placement to be deadly: two lines of three sharing
#: complementary characteristics (five pieces, this placement and the opponent's included), or one line when
#: at most five pieces are left. So no trap exists with fewer than three pieces on the board; skipping those
#: positions saves the dearest searches of the opening.
_FEWEST_PLACED_FOR_A_TRAP = 3


def _trap_square(features: Features) -> int:
    """The lowest safe, non-winning square of the piece in hand that sets a trap (see the module docstring)."""

    def compute(features: Features) -> int:
        if features.in_hand == NO_PIECE or features.placed_count < _FEWEST_PLACED_FOR_A_TRAP:
            return NO_ACTION
        if _compiled():
            return compiled_tactics.trap_square(_cells(features), features.in_hand, features.available, features.rules)
        board = features.board.copy()
        for square in sorted(_safe_left_after(features)):
            board.push_placement(square)
            available = board.available_mask
            plans = tactics.placement_plans(board)
            for piece in MEMBERS[tactics.safe_pieces_mask(board)]:
                if available == 1 << piece:
                    continue  # the opponent places the last piece and the game ends: no trap
                if not tactics.planned_safe_placements(plans, available, piece):
                    board.undo()
                    return square
            board.undo()
        return NO_ACTION

    return features.memo("lookahead.trap_square", compute)


@primitive
def trap_square(features: Features) -> Square:
    """A square (not winning) after which some safe piece leaves the opponent no safe placement: a win next turn."""
    return _trap_square(features)


@primitive
def reply_safe_placements(features: Features, piece: Piece) -> Count:
    """How many safe placements the opponent would have with the proposed piece (0 if it is not a safe piece)."""
    return _reply_safe_placements(features).get(piece, 0)


def _live_threes(features: Features) -> dict[str, int]:
    """The squares where the piece in hand creates a live three, and the last squares of live threes it can block."""

    def compute(features: Features) -> dict[str, int]:
        if features.in_hand == NO_PIECE:
            return {"create": NO_ACTION, "block": NO_ACTION}
        others = features.available  # pieces that could be given after this placement
        live = 0
        for piece in MEMBERS[others]:
            live |= CHARACTERISTICS[piece]
        needs = tactics.square_threats(features.board)
        own = CHARACTERISTICS[features.in_hand]
        block = next((square for square, need in enumerate(needs) if need & live and not need & own), NO_ACTION)
        board = features.board.copy()
        before = tactics.threat_characteristics(board) & live
        create = NO_ACTION
        for square in features.empty_squares:
            if needs[square] & own:
                continue  # a winning square: the tactical family handles it
            board.push_placement(square)
            after = tactics.threat_characteristics(board) & live
            board.undo()
            if after & ~before:
                create = square
                break
        return {"create": create, "block": block}

    return features.memo("lookahead.live_threes", compute)


@primitive
def square_creating_live_three(features: Features) -> Square:
    """A square (not winning) after which some characteristic is threatened by a three-in-a-line that was not
    before, and an available piece has it: fewer pieces are safe to give."""
    return _live_threes(features)["create"]


@primitive
def square_blocking_live_three(features: Features) -> Square:
    """The last square of a three-in-a-line whose missing characteristic an available piece has, where the piece in
    hand goes without winning: filling it kills the threat."""
    return _live_threes(features)["block"]
