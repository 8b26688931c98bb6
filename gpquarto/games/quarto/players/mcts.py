"""Monte Carlo tree search (UCT) over the single-int action space, with fast playouts.

Each decision grows a tree from the current position: *select* children by UCB1 (mean reward for the
player who acted + ``exploration * sqrt(ln N / n)``) while every action of a node has been tried, *expand*
one untried action, *play out* to the end of the game, and *back up* the result (1 win, 0.5 draw, 0 loss
for the player who made each move). The most visited action is played.

Playouts run on the engine's internals in tight loops: ``random`` is the engine's
:func:`~gpquarto.games.quarto.playout.random_playout`; ``novice`` (here) takes an immediate win and never gives a
piece that wins at once while a safe one exists; it keeps threat counters up to date per placement instead of
rescanning the lines (the same draws and results as a rescan: tests check it against the kept reference).

``heuristic``: score the new leaf of each iteration with a heuristic instead of playing it out
(:mod:`gpquarto.games.quarto.players.mcts_leaves`; ``scale`` turns scores into rewards); an evolved evaluator gets there as
``mcts:iterations=N,evaluator=FILE`` (:mod:`gpquarto.gp.evaluator_player`). Empty (the default): playouts.

``solver_below``: once at most that many squares are empty, the exact solver decides (as the ``solver``
player does: :class:`~gpquarto.games.quarto.players.solver_player.SolverPlayer`); 0 (the default) never.

Time: ``seconds`` is the budget per decision every searching player takes (0, the default: none;
:mod:`gpquarto.search.budget`): at most ``iterations`` iterations, fewer when the budget runs out first, so a large
budget decides as none does. ``time`` (kept for the specs that use it) is another thing: a search of that many
seconds whatever ``iterations`` says (the iterations are then as many as fit); given both, the sooner ends it.

``nodes`` counts the tree nodes built and the solver's positions since the player was made (for benchmarks).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, SQUARE_COUNT
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.games.quarto.players.mcts_leaves import leaf_reward
from gpquarto.games.quarto.players.solver_player import SolverPlayer
from gpquarto.games.quarto.playout import NO_WINNER, random_playout
from gpquarto.games.quarto.search.heuristics import get_heuristic
from gpquarto.games.quarto.search.tactics import threat_counters
from gpquarto.games.quarto.tables import (
    CELL_CHARACTERISTICS,
    COUNTER_CARRY,
    COUNTER_HIGH,
    COUNTER_OF,
    OTHERS_THROUGH,
    UNSAFE_OF_COUNTERS,
)
from gpquarto.players.registry import register_player
from gpquarto.search.budget import MAX_SECONDS, check_seconds, decision_deadline

#: The most iterations a spec may ask for per decision (far beyond any useful search).
MAX_ITERATIONS = 10_000_000


def novice_playout(board: Board, rng: random.Random) -> int:
    """Like :func:`random_playout`, but each side wins at once when it can and gives a safe piece if any."""
    random_float = rng.random
    if board.winner_index != NO_PIECE:
        return board.winner_index
    # Empty squares have every characteristic (0xFF, neutral for AND). The threat counters (see
    # gpquarto.games.quarto.tables) are updated per placement, from the lines through the square only.
    chars = [CELL_CHARACTERISTICS[piece] for piece in board.raw_cells]
    others = OTHERS_THROUGH[board.rules]
    occupied = board.occupied_mask
    counters = threat_counters(chars, occupied, board.rules)
    pieces = list(MEMBERS[board.available_mask])
    squares = list(MEMBERS[occupied ^ ALL_SQUARES_MASK])
    piece = board.in_hand
    player = board.player
    while squares:
        unsafe = UNSAFE_OF_COUNTERS[(counters + COUNTER_CARRY) & COUNTER_HIGH]  # the pieces that win somewhere
        if piece == NO_PIECE:
            safe = [index for index, candidate in enumerate(pieces) if not unsafe >> candidate & 1]
            index = safe[int(random_float() * len(safe))] if safe else int(random_float() * len(pieces))
            piece = pieces[index]
            pieces[index] = pieces[-1]
            pieces.pop()
            player ^= 1
        if unsafe >> piece & 1:
            return player
        index = int(random_float() * len(squares))
        square = squares[index]
        squares[index] = squares[-1]
        squares.pop()
        own = CHARACTERISTICS[piece]
        for mask, a, b, c in others[square]:
            seen = occupied & mask
            if seen == mask:
                counters -= COUNTER_OF[chars[a] & chars[b] & chars[c]]
            elif seen & (seen - 1):
                counters += COUNTER_OF[chars[a] & chars[b] & chars[c] & own]
        chars[square] = own
        occupied |= 1 << square
        piece = NO_PIECE
    return NO_WINNER


PLAYOUTS: dict[str, Callable[[Board, random.Random], int]] = {
    "random": random_playout,
    "novice": novice_playout,
}


def play(board: Board, action: int) -> None:
    """Apply a legal action (single-int encoding) without the checks of ``Board.apply``."""
    if action < PLACE_OFFSET:
        board.push_choice(action)
    else:
        board.push_placement(action - PLACE_OFFSET)


class _Node:
    """A position in the tree: the action that led to it, who made it, and the statistics of that move."""

    __slots__ = ("action", "mover", "visits", "reward", "mean", "root", "children", "untried")

    def __init__(self, action: int, mover: int, board: Board) -> None:
        self.action = action
        self.mover = mover
        self.visits = 0
        self.reward = 0.0
        self.mean = 0.0  # reward / visits and sqrt(visits), kept by the backup for the selection loop
        self.root = 0.0
        self.children: list[_Node] = []
        self.untried = list(board.legal_actions())


@register_player(
    "mcts",
    limits={
        "iterations": (1, MAX_ITERATIONS),
        "time": (0, MAX_SECONDS),
        "seconds": (0, MAX_SECONDS),
        "exploration": (0, 100),
        "scale": (0.01, 1000),
    },
)
class MCTSPlayer(QuartoPlayer):
    """UCT search with random or novice playouts, ``iterations`` within ``seconds``; optional exact solver near the end."""

    name = "mcts"

    def __init__(
        self,
        iterations: int = 2000,
        time: float = 0.0,
        exploration: float = 1.4,
        playout: str = "random",
        solver_below: int = 0,
        heuristic: str = "",
        scale: float = 10.0,
        seconds: float = 0.0,
        seed: int | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        if time < 0:
            raise ValueError(f"time must be >= 0 seconds, got {time}")
        check_seconds(seconds)
        if exploration < 0:
            raise ValueError(f"exploration must be >= 0, got {exploration}")
        if playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, got {playout!r}")
        if not 0 <= solver_below <= SQUARE_COUNT:
            raise ValueError(f"solver_below must be 0..16 (empty squares), got {solver_below}")
        if not scale > 0:
            raise ValueError(f"scale must be > 0, got {scale}")
        self.iterations = iterations
        self.time = time
        self.seconds = seconds
        self.exploration = exploration
        self.playout = playout
        self._playout = PLAYOUTS[playout]
        #: The leaf evaluation in place of playouts (None: playouts).
        self.heuristic = get_heuristic(heuristic) if heuristic else None
        self.scale = scale
        self._rng = random.Random(seed)
        self._solver = SolverPlayer(empties=solver_below, seconds=seconds, seed=seed) if solver_below > 0 else None
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
        solver = self._solver
        return solver is not None and SQUARE_COUNT - board.placed_count <= solver.empties

    def search(self, root_board: Board) -> int:
        """Run UCT from ``root_board`` (not modified) and return the most visited action (single-int)."""
        if root_board.is_over():
            raise ValueError("the game is over: no action to search")
        rng = self._rng
        random_float = rng.random
        playout = self._playout
        heuristic = self.heuristic
        searcher = root_board.player
        exploration = self.exploration
        log = math.log
        sqrt = math.sqrt
        root = _Node(-1, 1 - root_board.player, root_board)
        nodes = 1
        timed = self.time > 0  # the time parameter replaces the iterations
        own = min(limit for limit in (self.time, self.seconds, MAX_SECONDS) if limit)
        budget = decision_deadline(own if timed or self.seconds else None)
        iteration = 0
        while True:
            if timed:
                if iteration and budget.expired():  # type: ignore[union-attr]  # a timed search always has one
                    break
            elif iteration >= self.iterations:
                break
            elif budget is not None and iteration and not iteration & 7 and budget.expired():
                break  # the decision's time budget ran out first: the most visited action so far
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
                    score = child.mean + scale / child.root
                    if score > best_score:
                        best, best_score = child, score
                assert best is not None  # a child scores above -1
                node = best
                play(board, node.action)
                path.append(node)
            # Expansion: one untried action, drawn at random.
            if node.untried:
                untried = node.untried
                index = int(random_float() * len(untried))
                action = untried[index]
                untried[index] = untried[-1]
                untried.pop()
                mover = board.player  # who makes this action (choose flips the player afterwards)
                play(board, action)
                child = _Node(action, mover, board)
                node.children.append(child)
                nodes += 1
                path.append(child)
            if heuristic is None or board.is_over():
                winner = playout(board, rng)
                player, reward = (0, 0.5) if winner == NO_WINNER else (winner, 1.0)
            else:
                player, reward = leaf_reward(board, heuristic, searcher=searcher, scale=self.scale)
            for visited in path:
                visits = visited.visits + 1
                visited.visits = visits
                visited.reward += reward if visited.mover == player else 1.0 - reward
                visited.mean = visited.reward / visits
                visited.root = sqrt(visits)
        self.last_iterations = iteration
        self.tree_nodes += nodes
        self.total_iterations += iteration
        return max(root.children, key=lambda child: (child.visits, child.reward)).action
