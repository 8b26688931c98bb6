"""The search code as it was before issue 8 ("Fast search"), kept as the slow reference.

Tests check the fast implementations against it on fixed seeded banks of positions, and
``gpquarto bench players --compare tests.reference`` times both side by side (run from a source
checkout: this package is not shipped). :func:`make_player` builds the reference version of a player spec;
``solve`` is the reference solver (``gpquarto bench solver --compare tests.reference``).
"""

from __future__ import annotations

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.players.novice import NovicePlayer
from gpquarto.games.quarto.players.solver_player import SolverPlayer
from gpquarto.players.registry import parse_spec
from gpquarto.resolve import make_player as make_current_player
from tests.reference import solver as reference_solver
from tests.reference import tactics as reference_tactics
from tests.reference.frontier import FrontierPlayer
from tests.reference.heuristics import get_heuristic
from tests.reference.mcts import MCTSPlayer
from tests.reference.negamax import Negamax
from tests.reference.solver import solve

__all__ = ["make_player", "solve"]


class ReferenceNovice(NovicePlayer):
    """The novice over the reference tactics."""

    def choose_piece(self, board):
        safe = reference_tactics.safe_pieces(board)
        return self._rng.choice(safe or board.legal_pieces())

    def place_piece(self, board, piece):
        return self._rng.choice(reference_tactics.winning_squares(board, piece) or board.legal_squares())


class ReferenceSolverPlayer(SolverPlayer):
    """The solver player over the reference solver (its own table: the reference's keys)."""

    def _solve(self, position: Board) -> tuple[int, ...]:
        result = reference_solver.solve(position, table=self._table)
        self.nodes += result.nodes
        return result.best_actions


def _reference_solver(current: SolverPlayer | None, seed: int | None) -> SolverPlayer | None:
    if current is None:
        return None
    solver = ReferenceSolverPlayer(empties=current.empties, seed=seed)
    solver._table = reference_solver.SolverTable()
    return solver


def make_player(spec: str, *, seed: int | None = None):
    """The reference version of ``spec`` (minimax, frontier, mcts, novice, solver); other players as they are."""
    name, _ = parse_spec(spec)
    player = make_current_player(spec, seed=seed)
    if name == "minimax":
        player.search = Negamax(get_heuristic(player.search.heuristic.name))
        player._solver = _reference_solver(player._solver, seed)
        player.seed(seed)
    elif name == "frontier":
        player = FrontierPlayer(depth=player.depth, seed=seed)
    elif name == "mcts":
        reference = MCTSPlayer(
            iterations=player.iterations,
            time=player.time,
            exploration=player.exploration,
            playout=player.playout,
            seed=seed,
        )
        reference._solver = _reference_solver(player._solver, seed)
        player = reference
    elif name == "novice":
        player = ReferenceNovice(seed=seed)
    elif name == "solver":
        player = ReferenceSolverPlayer(empties=player.empties, seed=seed)
    return player
