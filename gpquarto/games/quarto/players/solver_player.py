"""The solver player: perfect play in the endgame, a safe random move before it.

Once at most ``empties`` squares are empty it asks the exact solver (:mod:`gpquarto.games.quarto.search.solver`) for
every optimal action and picks one at random. Earlier, the game tree is too big to solve, so it plays
like the novice: a winning square when there is one, a piece the opponent cannot win with at once; so it does
when the solver runs out of the decision's time budget (its own ``seconds``, 0 for none, or a timed game's:
:mod:`gpquarto.search.budget`): an exact search cannot answer with a shallower depth.

When the position is lost whatever it does, every action is "optimal"; it then still prefers the actions
that do not lose at once, so that an imperfect opponent has to find the win.
"""

from __future__ import annotations

import random

from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView
from gpquarto.games.quarto.lines import SQUARE_COUNT
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.games.quarto.search import tactics
from gpquarto.games.quarto.search.solver import SolverTable, solve
from gpquarto.players.registry import register_player
from gpquarto.search.budget import MAX_SECONDS, OutOfTime, check_seconds, decision_deadline


@register_player("solver", limits={"empties": (0, SQUARE_COUNT), "seconds": (0, MAX_SECONDS)})
class SolverPlayer(QuartoPlayer):
    """Exact play once at most `empties` squares are empty (default 9), within ``seconds``; else a random safe move."""

    name = "solver"

    def __init__(self, empties: int = 9, seconds: float = 0.0, seed: int | None = None) -> None:
        if not 0 <= empties <= SQUARE_COUNT:
            raise ValueError(f"empties must be 0..16, got {empties}")
        check_seconds(seconds)
        self.empties = empties
        self.seconds = seconds
        self._rng = random.Random(seed)
        self._table = SolverTable()
        #: Positions searched by the solver since the player was made (for benchmarks).
        self.nodes = 0

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    def choose_piece(self, board: BoardView) -> int:
        position = board.copy()
        safe = tactics.safe_pieces(position)
        if self._solves(position):
            best = self._solve(position)
            if best:
                return self._pick(best, safe)
        return self._rng.choice(safe or position.legal_pieces())

    def place_piece(self, board: BoardView, piece: int) -> int:
        position = board.copy()
        if self._solves(position):
            best = self._solve(position)
            if best:
                preferred = tactics.winning_squares(position, piece) or tactics.safe_placements(position, piece)
                return self._pick(best, preferred) - PLACE_OFFSET
        return self._rng.choice(tactics.winning_squares(position, piece) or position.legal_squares())

    def _solve(self, position: Board) -> tuple[int, ...]:
        """Every optimal action; none when the decision's time budget ran out first (then the player moves as it
        does before the endgame: a win now, else a safe random move)."""
        try:
            result = solve(position, table=self._table, deadline=decision_deadline(self.seconds))
        except OutOfTime:
            return ()
        self.nodes += result.nodes
        return result.best_actions

    def _solves(self, position: Board) -> bool:
        return SQUARE_COUNT - position.placed_count <= self.empties

    def _pick(self, best_actions: tuple[int, ...], preferred: tuple[int, ...]) -> int:
        """A random optimal action, among those in ``preferred`` (pieces or squares) when there are any."""
        offset = PLACE_OFFSET if best_actions[0] >= PLACE_OFFSET else 0
        liked = [action for action in best_actions if action - offset in preferred]
        return self._rng.choice(liked or list(best_actions))
