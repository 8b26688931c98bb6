"""Connect Four's own players (the capability :class:`~gpquarto.games.capabilities.ZooPlayers`): ``human``, you at
the terminal (``gpquarto play --game connect_four``), and ``solver``, perfect play with the bitboard solver (an
accelerator of gpquarto's generic ``solver``, under the same name and parameter). Every other player (``random``,
``alphabeta``, ``mcts``) is gpquarto's generic one, made strong by the game's search hooks.

Example::

    >>> import io
    >>> from connect_four.game import CONNECT_FOUR
    >>> player = ConnectFourHumanPlayer(input_stream=io.StringIO("z\\nd\\n"), output_stream=io.StringIO())
    >>> player.decide(CONNECT_FOUR.new_state().view())
    3
"""

from __future__ import annotations

from connect_four.game import LETTERS, MARKS, NAME
from connect_four.search_hooks import HOOKS
from connect_four.solver import MAX_NODES, SOLVER, ConnectFourSolver
from gpquarto.games.capabilities import VALUE_WORDS, ZooPlayers
from gpquarto.games.interface import GameView
from gpquarto.players.base import BasePlayer
from gpquarto.players.human import TerminalPlayer
from gpquarto.players.registry import register_player
from gpquarto.search.alphabeta import AlphaBeta

#: A hint solves positions with at most this many empty cells (an answer within a second or so), else searches.
HINT_EMPTY = 20
HINT_DEPTH = 6


class ConnectFourHumanPlayer(TerminalPlayer):
    """You, at the terminal: the board is drawn, you type the column of your disc (``d``, ``drop d`` or ``3``)."""

    game = NAME

    def _opening(self, seat: int) -> str:
        return f"you play {MARKS[seat]}, " + ("you move first" if seat == 0 else "your opponent moves first")

    def decide(self, view: GameView) -> int:
        self._start_decision(view)
        history = view.history  # type: ignore[attr-defined]
        if history:
            self._say(f"Your opponent dropped a disc in column {LETTERS[history[-1]]}.")
        last = LETTERS[view.columns - 1]  # type: ignore[attr-defined]
        while True:
            answer = self._ask(f"Your move ({MARKS[view.player]}), a column a..{last}: ")
            try:
                action = view.parse_action(answer)
            except ValueError as error:
                self._say(str(error))
                continue
            if action not in view.legal_actions():
                self._say(f"column {LETTERS[action]} is full: choose another")
                continue
            return action

    def _hint(self) -> None:
        view = self._board
        assert view is not None
        state = view.copy()
        if SOLVER.why_not(state) is None and SOLVER.size(state) <= HINT_EMPTY:
            solution = SOLVER.solve(state)
            best = ", ".join(state.action_name(action) for action in solution.best_actions)
            self._say(f"hint: {VALUE_WORDS[solution.value]} with best play: {best}")
            return
        action = AlphaBeta(HOOKS.evaluate, HOOKS.order).search(state, HINT_DEPTH).action
        self._say(
            f"hint: alphabeta:depth={HINT_DEPTH} would play {state.action_name(action)} (too many empty cells to solve)"
        )


@register_player("human", game=NAME)
def connect_four_human_player() -> ConnectFourHumanPlayer:
    """You, at the terminal: type the column of your disc (a letter, e.g. d)."""
    return ConnectFourHumanPlayer()


@register_player("solver", game=NAME, limits={"max_nodes": (1, 100_000_000)})
class ConnectFourSolverPlayer(BasePlayer):
    """Perfect play with the bitboard solver, for positions with few enough empty cells (a one-line error past
    ``max_nodes`` positions): the quickest win, else a draw, else the slowest loss; among equal columns the lowest."""

    game = NAME

    def __init__(self, max_nodes: int = MAX_NODES) -> None:
        self.name = "solver"
        self.max_nodes = max_nodes
        self._solver = ConnectFourSolver(max_nodes=max_nodes)

    def decide(self, view: GameView) -> int:
        return self._solver.solve(view.copy()).best_actions[0]  # type: ignore[arg-type]


PLAYERS = ZooPlayers(modules=("connect_four.players",))
