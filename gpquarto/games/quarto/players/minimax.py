"""The minimax family: negamax with alpha-beta, a heuristic, and a rule for how deep to search.

``minimax:depth=2,heuristic=lines`` searches two whole turns (place, then choose) ahead at every decision.
Options from the seeds:

* ``heuristic``: ``wins``, ``guaranteed_loss``, ``lines`` (seed 002) or ``quarticity`` (seed 004); see
  :mod:`gpquarto.games.quarto.search.heuristics`.
* ``strategy`` (seed 004): ``fixed`` searches ``depth`` plies; ``full_below`` searches the whole remaining
  game when its estimated size (:func:`~gpquarto.games.quarto.search.negamax.estimated_tree_size`) is at most
  ``node_bound``, else one ply; ``deepest`` searches the deepest depth whose estimated size stays within
  ``node_bound`` (default (5!)^2 = 14400, the full tree with five squares left).
* ``novice_moves`` (seed 002's switch): play as the novice while fewer than that many pieces are on the board.
* ``random_opening`` (seed 004): a random opening piece, and a random first placement on a diagonal.
* ``solver_below``: once at most that many squares are empty, the exact solver decides (as the ``solver``
  player does: :class:`~gpquarto.games.quarto.players.solver_player.SolverPlayer`); 0 (the default) never.
* ``seconds``: a time budget per decision (0, the default: none), read inside the search
  (:mod:`gpquarto.search.budget`): the search deepens depth by depth to the depth of the strategy and the deepest
  depth completed in time answers (``minimax:depth=16,seconds=1`` deepens for a second, to the end of the game
  if it can); the solver of ``solver_below`` keeps to it too. A budget large enough to complete the depth
  decides as no budget does.

Among root moves of equal value the player draws one uniformly at random from its own seeded generator,
so that two deterministic players do not replay one game over and over; the search itself is deterministic.
With the ``fixed`` strategy the set of best root moves depends on the position and the depth only, not on
what the search saw before (tests/test_search_equivalence.py checks a table kept through a game against
fresh references), so the player remembers it by position, in a canonical (sorted) order, across games: a
fitness opponent meets the same positions again and again, and answers them without searching. The draw
among the moves is the same whether the answer was remembered or searched.
A placement search also finds the piece to give next; the player remembers it and gives it when asked to
choose on the board it expects, without searching again.
"""

from __future__ import annotations

import random

from gpquarto.games.quarto.board import Board, BoardView
from gpquarto.games.quarto.lines import ANTI_DIAGONAL, DIAGONAL, SQUARE_COUNT
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.games.quarto.players.novice import NovicePlayer
from gpquarto.games.quarto.players.solver_player import SolverPlayer
from gpquarto.games.quarto.search.heuristics import get_heuristic
from gpquarto.games.quarto.search.negamax import Negamax, estimated_tree_size
from gpquarto.players.registry import register_player
from gpquarto.search.budget import (
    MAX_SECONDS,
    Deadline,
    OutOfTime,
    check_seconds,
    decision_budget,
    decision_deadline,
)
from gpquarto.seeding import derive_seed

#: The depth strategies, by name.
STRATEGIES = ("fixed", "full_below", "deepest")
#: Seed 004's default node bound: the full tree with five squares left, (5!)^2.
DEFAULT_NODE_BOUND = 120**2
_DIAGONAL_SQUARES = DIAGONAL + ANTI_DIAGONAL


def search_depth(strategy: str, depth: int, node_bound: int, empty_squares: int) -> int:
    """How many plies to search with ``empty_squares`` left, under a depth strategy (see the module doc)."""
    if strategy == "fixed":
        return depth
    if strategy == "full_below":
        return empty_squares if estimated_tree_size(empty_squares, empty_squares) <= node_bound else 1
    if strategy == "deepest":
        deepest = 1
        while deepest < empty_squares and estimated_tree_size(empty_squares, deepest + 1) <= node_bound:
            deepest += 1
        return deepest
    raise ValueError(f"unknown strategy {strategy!r} (choose from: {', '.join(STRATEGIES)})")


class PlannedChoice:
    """The piece a placement search chose to give next, kept for the ``choose_piece`` call that follows."""

    __slots__ = ("_cells", "_piece")

    def __init__(self) -> None:
        self._cells: tuple[int, ...] | None = None
        self._piece = NO_PIECE

    def remember(self, board: Board, square: int, piece: int) -> None:
        """Plan to give ``piece`` once the piece in hand of ``board`` is on ``square``."""
        after = board.copy()
        after.place(square)
        self._cells, self._piece = tuple(after.raw_cells), piece

    def recall(self, board: BoardView) -> int:
        """The planned piece if ``board`` is the position it was planned for, else ``NO_PIECE``; forgets it."""
        cells, piece = self._cells, self._piece
        self.forget()
        return piece if cells is not None and cells == board.cells else NO_PIECE

    def forget(self) -> None:
        """Drop the plan."""
        self._cells, self._piece = None, NO_PIECE


@register_player(
    "minimax",
    limits={
        "depth": (1, SQUARE_COUNT),
        "node_bound": (1, 10**9),
        "novice_moves": (0, SQUARE_COUNT),
        "seconds": (0, MAX_SECONDS),
    },
)
class MinimaxPlayer(QuartoPlayer):
    """Negamax with alpha-beta and a transposition table over whole turns (place, then choose), within ``seconds``."""

    name = "minimax"
    #: Root answers remembered (``fixed`` strategy), at most this many; the memory is emptied when full.
    MEMO_LIMIT = 50_000

    def __init__(
        self,
        depth: int = 2,
        heuristic: str = "lines",
        strategy: str = "fixed",
        node_bound: int = DEFAULT_NODE_BOUND,
        novice_moves: int = 0,
        random_opening: bool = False,
        solver_below: int = 0,
        seconds: float = 0.0,
        seed: int | None = None,
    ) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r} (choose from: {', '.join(STRATEGIES)})")
        for label, value, least in (
            ("depth", depth, 1),
            ("node_bound", node_bound, 1),
            ("novice_moves", novice_moves, 0),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise ValueError(f"{label} must be an int >= {least}, got {value!r}")
        if not isinstance(solver_below, int) or isinstance(solver_below, bool) or not 0 <= solver_below <= SQUARE_COUNT:
            raise ValueError(f"solver_below must be 0..16 (empty squares), got {solver_below!r}")
        check_seconds(seconds)
        self.depth = depth
        self.seconds = seconds
        self.strategy = strategy
        self.node_bound = node_bound
        self.novice_moves = novice_moves
        self.random_opening = random_opening
        self.solver_below = solver_below
        self.search = Negamax(get_heuristic(heuristic))
        self._rng = random.Random()
        self._novice = NovicePlayer()
        self._plan = PlannedChoice()
        self._solver = SolverPlayer(empties=solver_below, seconds=seconds) if solver_below > 0 else None
        self._memo: dict[tuple, tuple[tuple[int, int], ...]] = {}
        self.seed(seed)

    @property
    def nodes(self) -> int:
        """Positions searched since the player was made, by negamax and the solver (for benchmarks)."""
        return self.search.nodes + (self._solver.nodes if self._solver is not None else 0)

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)
        self._novice.seed(None if seed is None else derive_seed(seed, "novice"))
        if self._solver is not None:
            self._solver.seed(None if seed is None else derive_seed(seed, "solver"))

    def new_game(self, seat: int) -> None:
        self.search.clear()
        if self._calls_compiled_search():
            self.search.warm_up()  # outside the timed decisions
        self._plan.forget()

    def _calls_compiled_search(self) -> bool:
        """Whether a timed decision may run the compiled two-ply search: at a fixed depth of 2, or when the search
        deepens through depth 2 within a time budget (the player's ``seconds``, or a match's time limit around
        :meth:`new_game`)."""
        if self.strategy == "fixed" and self.depth == 2:
            return True
        deepens = self.seconds > 0 or decision_budget() is not None
        return deepens and (self.depth >= 2 or self.strategy != "fixed")

    def depth_for(self, board: Board | BoardView) -> int:
        """Plies to search in this position, under the player's strategy."""
        return search_depth(self.strategy, self.depth, self.node_bound, 16 - board.placed_count)

    def place_piece(self, board: BoardView, piece: int) -> int:
        self._plan.forget()
        if board.placed_count < self.novice_moves:
            return self._novice.place_piece(board, piece)
        if self.random_opening and board.placed_count == 0:
            return self._rng.choice(_DIAGONAL_SQUARES)
        if self._solver is not None and self._solver_decides(board):
            return self._solver.place_piece(board, piece)
        position = board.copy()
        square, next_piece = self._rng.choice(self._best_moves(position, self.search.best_placement))
        if next_piece != NO_PIECE:
            self._plan.remember(position, square, next_piece)
        return square

    def choose_piece(self, board: BoardView) -> int:
        planned = self._plan.recall(board)
        if planned != NO_PIECE:
            return planned
        if board.placed_count < self.novice_moves:
            return self._novice.choose_piece(board)
        if self.random_opening and board.placed_count == 0:
            return self._rng.choice(board.legal_pieces())
        if self._solver is not None and self._solver_decides(board):
            return self._solver.choose_piece(board)
        position = board.copy()
        return self._rng.choice(self._best_moves(position, self.search.best_choice))[1]

    def _best_moves(self, position: Board, search) -> tuple[tuple[int, int], ...]:
        """The best root moves of ``position`` from ``search`` (a placement or a choice search), remembered by
        position with the ``fixed`` strategy (see the module docstring). Within a decision's time budget
        (:func:`~gpquarto.search.budget.decision_deadline`) the search deepens step by step and the deepest depth
        completed answers (not remembered, unless it is the whole depth); so within the player's own ``seconds``."""
        depth = self.depth_for(position)
        deadline = decision_deadline(self.seconds)
        if self.strategy != "fixed":
            if deadline is None:
                return search(position, depth).best_moves
            return self.search.deepening(position, depth, deadline).best_moves
        key = (position.cells, position.in_hand, position.rules, depth)
        moves = self._memo.get(key)
        if moves is None:
            if deadline is None:
                moves = tuple(sorted(search(position, depth).best_moves))
            else:
                moves, complete = self._deepest_moves(position, search, depth, deadline)
                if not complete:
                    return moves
            if len(self._memo) >= self.MEMO_LIMIT:
                self._memo.clear()
            self._memo[key] = moves
        return moves

    def _deepest_moves(
        self, position: Board, root, depth: int, deadline: Deadline
    ) -> tuple[tuple[tuple[int, int], ...], bool]:
        """Iterative deepening of the ``root`` search within ``deadline``: the deepest completed depth's best moves
        (sorted), and whether it was ``depth`` (or the whole game)."""
        reached = min(depth, 16 - position.placed_count)
        moves = tuple(sorted(root(position, 1).best_moves))
        for deeper in range(2, reached + 1):
            try:
                moves = tuple(sorted(root(position, deeper, deadline).best_moves))
            except OutOfTime:
                return moves, False
        return moves, True

    def _solver_decides(self, board: BoardView) -> bool:
        """True once the exact solver is enabled for this few empty squares (at most ``solver_below``)."""
        return self._solver is not None and SQUARE_COUNT - board.placed_count <= self.solver_below
