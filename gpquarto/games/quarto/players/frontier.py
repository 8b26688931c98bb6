"""Seed 000's "frontier" agent: a score board while the game is quiet, negamax once a piece can win.

Definitions (after seed 000, in our words):

* The *source* of a line is the set of pieces on it, when it holds one, two or three pieces.
* The *frontier rank* of a piece with respect to a source is the number of attributes on which the piece
  agrees with every piece of the source (0..3; seen on the 4-cube of pieces, how close the piece stands to
  the source). With characteristic sets it is the number of bits of ``CHARACTERISTICS[piece]`` that are
  also in the AND of the source's sets.
* A source of one, two or three pieces has weight 1, 10 or 100, so one three-piece source outweighs any
  number of smaller ones (a rank >= 1 against a three-piece source means the piece completes the line).
* The *score board* of a piece gives each empty square the sum, over the lines through it that have a
  source, of rank x weight; occupied squares score 0. A high score marks a square where the piece brings a
  line closer to a win.
* A *threat piece* is a piece not on the board (the one in hand included) that would complete a line
  holding three pieces; the agent is in *threat mode* when one exists, in *safe mode* otherwise.

Decisions:

* Safe mode, placing: the lowest-scoring empty square (delaying threats and so the expensive search)
  after which at least one safe piece remains for the opponent; the lowest-scoring square if no square
  keeps one.
* Safe mode, choosing: the piece whose score board has the smallest total (the seed means to take that
  minimum; its code forgets to update the running best).
* Threat mode, placing: a winning square when the piece in hand wins (the highest-scoring one); otherwise
  negamax (wins, draws and losses only) ``depth`` plies deep, which also picks the piece to give next.
* Threat mode, choosing: negamax over the pieces to give.

Ties (equal scores, equal search values) are broken uniformly at random by the player's own seeded
generator, so that games against a deterministic opponent vary; the same seed gives the same play.

``seconds`` (0, the default: none) is a time budget per decision for the threat-mode search
(:mod:`gpquarto.search.budget`): it deepens to ``depth`` and the deepest depth completed in time answers.

Seed 000 cut its minimax after three levels of (place, choose); ``depth=3`` is the default here. The
seed's "horizontal pruning" (searching only squares with a positive score) is left out: our search
prunes with alpha-beta and exact tactics instead.
"""

from __future__ import annotations

import random

from gpquarto.games.quarto.board import Board, BoardView
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, SQUARE_COUNT
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.games.quarto.players.minimax import PlannedChoice
from gpquarto.games.quarto.search.negamax import Negamax
from gpquarto.games.quarto.search.tactics import safe_placements_mask, threat_characteristics, winning_squares
from gpquarto.games.quarto.tables import CELL_CHARACTERISTICS, LINE_TABLE, PIECES_MEETING
from gpquarto.players.registry import register_player
from gpquarto.search.budget import MAX_SECONDS, check_seconds, decision_deadline

#: Weight of a source by its number of pieces (index 1..3).
SOURCE_WEIGHTS = (0, 1, 10, 100)


def frontier_rank(piece: int, source: tuple[int, ...] | list[int]) -> int:
    """Number of attributes on which ``piece`` agrees with every piece of ``source``."""
    shared = 0xFF
    for other in source:
        shared &= CHARACTERISTICS[other]
    return (CHARACTERISTICS[piece] & shared).bit_count()


def score_board(board: Board, piece: int) -> list[int]:
    """The 16 scores of ``piece``: for each empty square, the sum of rank x weight over its lines' sources."""
    cells = board.raw_cells
    occupied = board.occupied_mask
    chars = CELL_CHARACTERISTICS
    own = CHARACTERISTICS[piece]
    scores = [0] * 16
    for mask, a, b, c, d in LINE_TABLE[board.rules]:
        count = (occupied & mask).bit_count()
        if 0 < count < 4:
            score = (own & chars[cells[a]] & chars[cells[b]] & chars[cells[c]] & chars[cells[d]]).bit_count()
            if score:
                score *= SOURCE_WEIGHTS[count]
                for square in MEMBERS[mask & ~occupied]:
                    scores[square] += score
    return scores


@register_player("frontier", limits={"depth": (1, SQUARE_COUNT), "seconds": (0, MAX_SECONDS)})
class FrontierPlayer(QuartoPlayer):
    """Seed 000's agent: frontier score board in safe mode, negamax in threat mode (``depth``, within ``seconds``)."""

    name = "frontier"

    def __init__(self, depth: int = 3, seconds: float = 0.0, seed: int | None = None) -> None:
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
            raise ValueError(f"depth must be an int >= 1, got {depth!r}")
        check_seconds(seconds)
        self.depth = depth
        self.seconds = seconds
        self.search = Negamax("wins")
        self._plan = PlannedChoice()
        self._rng = random.Random(seed)

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    @property
    def nodes(self) -> int:
        """Positions searched in threat mode since the player was made."""
        return self.search.nodes

    def new_game(self, seat: int) -> None:
        self.search.clear()
        self._plan.forget()

    def place_piece(self, board: BoardView, piece: int) -> int:
        self._plan.forget()
        position = board.copy()
        scores = score_board(position, piece)
        if PIECES_MEETING[threat_characteristics(position)] & (position.available_mask | 1 << piece):
            winning = winning_squares(position, piece)
            if winning:
                return self._pick_lowest(winning, lambda square: -scores[square])
            result = self.search.deepening(position, self.depth, decision_deadline(self.seconds))
            square, next_piece = self._rng.choice(result.best_moves)
            if next_piece != NO_PIECE:
                self._plan.remember(position, square, next_piece)
            return square
        squares = MEMBERS[position.occupied_mask ^ ALL_SQUARES_MASK]
        keeps_safe = safe_placements_mask(position, piece)
        candidates = [square for square in squares if keeps_safe >> square & 1] or squares
        return self._pick_lowest(candidates, scores.__getitem__)

    def choose_piece(self, board: BoardView) -> int:
        planned = self._plan.recall(board)
        if planned != NO_PIECE:
            return planned
        position = board.copy()
        if PIECES_MEETING[threat_characteristics(position)] & position.available_mask:
            deadline = decision_deadline(self.seconds)
            return self._rng.choice(self.search.deepening(position, self.depth, deadline).best_moves)[1]
        return self._pick_lowest(MEMBERS[position.available_mask], lambda piece: sum(score_board(position, piece)))

    def _pick_lowest(self, options, key) -> int:
        """One of the options with the lowest key, drawn at random."""
        keys = [key(option) for option in options]
        lowest = min(keys)
        return self._rng.choice([option for option, value in zip(options, keys, strict=True) if value == lowest])
