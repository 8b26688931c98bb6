"""Monte Carlo tree search (UCT) over the single-int action space, with fast playouts.

Each decision grows a tree from the current position: *select* children by UCB1 (mean reward for the
player who acted + ``exploration * sqrt(ln N / n)``) while every action of a node has been tried, *expand*
one untried action, *play out* to the end of the game, and *back up* the result (1 win, 0.5 draw, 0 loss
for the player who made each move). The most visited action is played.

Playouts run on the engine's internals in tight loops: ``random`` is the engine's
:func:`~gpquarto.games.quarto.playout.random_playout`; ``novice`` (here) takes an immediate win and never gives a
piece that wins at once while a safe one exists.

``solver_below``: once at most that many squares are empty, the exact solver decides (as the ``solver``
player does: :class:`~gpquarto.games.quarto.players.solver_player.SolverPlayer`); 0 (the default) never.

``nodes`` counts the tree nodes built and the solver's positions since the player was made (for benchmarks).
"""

from __future__ import annotations

import math
import random
import time as clock
from collections.abc import Callable

from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, SQUARE_COUNT
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.games.quarto.players.solver_player import SolverPlayer
from gpquarto.games.quarto.playout import NO_WINNER, random_playout
from tests.reference.tactics import CELL_CHARACTERISTICS, LINE_TABLE


def novice_playout(board: Board, rng: random.Random) -> int:
    """Like :func:`random_playout`, but each side wins at once when it can and gives a safe piece if any."""
    random_float = rng.random
    if board.winner_index != NO_PIECE:
        return board.winner_index
    # Here empty squares have every characteristic (0xFF, neutral for AND): the AND over a line holding
    # three pieces is what a fourth piece needs to complete it.
    chars = [CELL_CHARACTERISTICS[piece] for piece in board.raw_cells]
    lines = LINE_TABLE[board.rules]
    occupied = board.occupied_mask
    pieces = list(MEMBERS[board.available_mask])
    squares = list(MEMBERS[occupied ^ ALL_SQUARES_MASK])
    piece = board.in_hand
    player = board.player
    while squares:
        # Characteristics that complete a line somewhere: a piece having one of them wins at once.
        threats = 0
        for mask, a, b, c, d in lines:
            if (occupied & mask).bit_count() == 3:
                threats |= chars[a] & chars[b] & chars[c] & chars[d]
        if piece == NO_PIECE:
            safe = [index for index, candidate in enumerate(pieces) if not CHARACTERISTICS[candidate] & threats]
            index = safe[int(random_float() * len(safe))] if safe else int(random_float() * len(pieces))
            piece = pieces[index]
            pieces[index] = pieces[-1]
            pieces.pop()
            player ^= 1
        own = CHARACTERISTICS[piece]
        if own & threats:
            return player
        index = int(random_float() * len(squares))
        square = squares[index]
        squares[index] = squares[-1]
        squares.pop()
        chars[square] = own
        occupied |= 1 << square
        piece = NO_PIECE
    return NO_WINNER


PLAYOUTS: dict[str, Callable[[Board, random.Random], int]] = {
    "random": random_playout,
    "novice": novice_playout,
}


class _Node:
    """A position in the tree: the action that led to it, who made it, and the statistics of that move."""

    __slots__ = ("action", "mover", "visits", "reward", "children", "untried")

    def __init__(self, action: int, mover: int, board: Board) -> None:
        self.action = action
        self.mover = mover
        self.visits = 0
        self.reward = 0.0
        self.children: list[_Node] = []
        self.untried = list(board.legal_actions())


class MCTSPlayer(QuartoPlayer):
    """UCT search with random or novice playouts; optional exact solver near the end."""

    name = "mcts"

    def __init__(
        self,
        iterations: int = 2000,
        time: float = 0.0,
        exploration: float = 1.4,
        playout: str = "random",
        solver_below: int = 0,
        seed: int | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if time < 0:
            raise ValueError(f"time must be >= 0 seconds, got {time}")
        if exploration < 0:
            raise ValueError(f"exploration must be >= 0, got {exploration}")
        if playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, got {playout!r}")
        if not 0 <= solver_below <= SQUARE_COUNT:
            raise ValueError(f"solver_below must be 0..16 (empty squares), got {solver_below}")
        self.iterations = iterations
        self.time = time
        self.exploration = exploration
        self.playout = playout
        self._playout = PLAYOUTS[playout]
        self._rng = random.Random(seed)
        self._solver = SolverPlayer(empties=solver_below, seed=seed) if solver_below > 0 else None
        #: Iterations run by the last search and overall, and tree nodes built overall (for benchmarks).
        self.last_iterations = 0
        self.total_iterations = 0
        self.tree_nodes = 0

    @property
    def nodes(self) -> int:
        """Positions searched since the player was made: tree nodes built plus the solver's positions."""
        return self.tree_nodes + (self._solver.nodes if self._solver is not None else 0)

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)
        if self._solver is not None:
            self._solver.seed(seed)

    def choose_piece(self, board: BoardView) -> int:
        if self._solver is not None and self._solver_decides(board):
            return self._solver.choose_piece(board)
        return self.search(board.copy())

    def place_piece(self, board: BoardView, piece: int) -> int:
        if self._solver is not None and self._solver_decides(board):
            return self._solver.place_piece(board, piece)
        return self.search(board.copy()) - PLACE_OFFSET

    def _solver_decides(self, board: BoardView) -> bool:
        return SQUARE_COUNT - board.placed_count <= self._solver.empties

    def search(self, root_board: Board) -> int:
        """Run UCT from ``root_board`` (not modified) and return the most visited action (single-int)."""
        if root_board.is_over():
            raise ValueError("the game is over: no action to search")
        rng = self._rng
        random_float = rng.random
        playout = self._playout
        exploration = self.exploration
        log = math.log
        sqrt = math.sqrt
        root = _Node(-1, 1 - root_board.player, root_board)
        nodes = 1
        deadline = clock.perf_counter() + self.time if self.time > 0 else None
        iteration = 0
        while True:
            if deadline is not None:
                if iteration and clock.perf_counter() >= deadline:
                    break
            elif iteration >= self.iterations:
                break
            iteration += 1
            board = root_board.copy()
            node = root
            path = [root]
            # Selection: UCB1 among the children of fully expanded nodes.
            while not node.untried and node.children:
                scale = exploration * sqrt(log(node.visits))
                best = None
                best_score = -1.0
                for child in node.children:
                    score = child.reward / child.visits + scale / sqrt(child.visits)
                    if score > best_score:
                        best, best_score = child, score
                node = best
                board.apply(node.action)
                path.append(node)
            # Expansion: one untried action, drawn at random.
            if node.untried:
                untried = node.untried
                index = int(random_float() * len(untried))
                action = untried[index]
                untried[index] = untried[-1]
                untried.pop()
                mover = board.player  # who makes this action (choose flips the player afterwards)
                board.apply(action)
                child = _Node(action, mover, board)
                node.children.append(child)
                nodes += 1
                path.append(child)
            winner = playout(board, rng)
            for visited in path:
                visited.visits += 1
                if winner == visited.mover:
                    visited.reward += 1.0
                elif winner == NO_WINNER:
                    visited.reward += 0.5
        self.last_iterations = iteration
        self.tree_nodes += nodes
        self.total_iterations += iteration
        return max(root.children, key=lambda child: (child.visits, child.reward)).action
