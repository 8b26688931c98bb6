"""Quixo players that search: ``minimax`` (the seed's: full width, evaluation = own cubes minus the opponent's)
and ``alphabeta`` (iterative deepening, transposition table, move ordering, line potential; depth or time limit).
See :mod:`gpquarto.games.quixo.search.alphabeta` for the search and how it treats repetitions and the official rule.
Both take ``seconds``, a time budget per decision (0: none), and keep within a timed game's budget too
(:mod:`gpquarto.search.budget`): they deepen depth by depth and the deepest depth completed in time answers (a
search completed within the budget decides as without one). ``solver`` reads its answers from a table (built on
first use): it has no search per decision to budget."""

from __future__ import annotations

import random

from gpquarto.games.interface import GameView
from gpquarto.games.quixo.board import QuixoView
from gpquarto.games.quixo.search.alphabeta import HEURISTICS, MAX_DEPTH, QuixoSearch
from gpquarto.games.quixo.search.solver import QuixoSolution, solve
from gpquarto.players.base import BasePlayer
from gpquarto.players.registry import register_player
from gpquarto.search.budget import MAX_SECONDS, check_seconds, decision_deadline

#: The deepest full-width ``minimax`` (44 moves a ply on the 5x5 board: depth 4 is already minutes a decision).
MAX_MINIMAX_DEPTH = 8
#: The largest contempt for a draw (a line of four cubes scores 256).
MAX_CONTEMPT = 100_000.0


def _quixo_view(view: GameView) -> QuixoView:
    if view.game_name != "quixo":
        raise ValueError(f"a Quixo player cannot play {view.game_name}")
    return view  # type: ignore[return-value]  # checked above


class _Searcher(BasePlayer):
    """Keeps one :class:`QuixoSearch` per (size, rules) met."""

    game = "quixo"

    def __init__(self, heuristic: str, contempt: float = 100) -> None:
        if heuristic not in HEURISTICS:
            raise ValueError(f"unknown Quixo heuristic {heuristic!r} (known: {', '.join(HEURISTICS)})")
        self.heuristic = heuristic
        self.contempt = contempt
        self._searches: dict[tuple[int, str], QuixoSearch] = {}

    def searcher(self, view: QuixoView) -> QuixoSearch:
        """The search for the view's board size and rules."""
        key = (view.size, view.rules.value)
        if key not in self._searches:
            self._searches[key] = QuixoSearch(view.size, view.rules, self.heuristic, self.contempt)
        return self._searches[key]


@register_player("minimax", game="quixo", limits={"depth": (1, MAX_MINIMAX_DEPTH), "seconds": (0, MAX_SECONDS)})
class QuixoMinimaxPlayer(_Searcher):
    """The seed's minimax to ``depth`` plies within ``seconds``: a win +1, a loss -1, else (own - opponent's cubes) / 100.

    With a budget (``seconds``, or a timed game's) it deepens depth by depth; the deepest depth completed answers."""

    def __init__(self, depth: int = 2, heuristic: str = "cubes", seconds: float = 0.0) -> None:
        if depth < 1:
            raise ValueError(f"depth must be >= 1, got {depth}")
        check_seconds(seconds)
        super().__init__(heuristic)
        self.depth = depth
        self.seconds = seconds
        self.name = f"minimax:depth={depth}"

    def decide(self, view: GameView) -> int:
        board = _quixo_view(view)
        own, other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)
        return self.searcher(board).deepest_minimax(own, other, self.depth, decision_deadline(self.seconds))[1]


@register_player(
    "alphabeta",
    game="quixo",
    limits={"depth": (0, MAX_DEPTH), "seconds": (0, MAX_SECONDS), "contempt": (-MAX_CONTEMPT, MAX_CONTEMPT)},
)
class QuixoAlphaBetaPlayer(_Searcher):
    """Alpha-beta, iterative deepening to ``depth`` plies (0: no limit) within ``seconds`` a decision (0: none).

    ``heuristic`` ``lines`` (line potential) or ``cubes`` (the seed's); ``contempt``: how much worse than an even
    position a draw by repetition or the ply limit scores."""

    def __init__(self, depth: int = 4, seconds: float = 0.0, heuristic: str = "lines", contempt: float = 100) -> None:
        if depth < 0 or seconds < 0 or (depth == 0 and seconds == 0):
            raise ValueError(f"give depth >= 1 or seconds > 0 (got depth={depth}, seconds={seconds})")
        super().__init__(heuristic, contempt)
        self.depth = depth or None
        self.seconds = seconds or None
        self.name = f"alphabeta:depth={depth}" + (f",seconds={seconds:g}" if seconds else "")

    def new_game(self, seat: int) -> None:
        for search in self._searches.values():
            search.clear()

    def decide(self, view: GameView) -> int:
        board = _quixo_view(view)
        return self.searcher(board).search(board, self.depth, self.seconds, decision_deadline()).action


@register_player("solver", game="quixo")
class QuixoSolverPlayer(BasePlayer):
    """Perfect play on the 3x3 and 4x4 boards, read from a retrograde solution (no search a decision: no ``seconds``).

    The solution (:mod:`gpquarto.games.quixo.search.solver`) is solved on first use and cached: the fastest win,
    else a draw, else the slowest loss; among equal actions a uniform draw from the player's seeded generator."""

    game = "quixo"

    def __init__(self, seed: int | None = None) -> None:
        self.name = "solver"
        self._rng = random.Random(seed)
        self._solutions: dict[tuple[int, str], QuixoSolution] = {}

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    def decide(self, view: GameView) -> int:
        board = _quixo_view(view)
        key = (board.size, board.rules.value)
        if key not in self._solutions:
            self._solutions[key] = solve(board.size, board.rules)
        best = self._solutions[key].best_actions(board)
        return best[int(self._rng.random() * len(best))]
