"""The exact solver of every game that has none of its own: alpha-beta to the end of the game
(:meth:`gpquarto.search.alphabeta.AlphaBeta.solve`) with a budget of positions, for games small enough.

:func:`exact_solver` is what commands ask for: the game's own solver where its plug-in offers one, else this one.
"""

from __future__ import annotations

from gpquarto.games.capabilities import ExactSolver, Progress, Solution
from gpquarto.games.interface import GameState, GameView
from gpquarto.games.plugin import GamePlugin
from gpquarto.search.alphabeta import PROVEN, WIN, AlphaBeta

#: The most positions one solve visits before it gives up in one line.
MAX_NODES = 2_000_000


class GenericSolver(ExactSolver):
    """Perfect play by exhaustive alpha-beta over the game interface; a one-line ``ValueError`` past
    ``max_nodes`` positions. Its size is the number of legal actions."""

    size_word = "legal actions"

    def __init__(self, max_nodes: int = MAX_NODES) -> None:
        self.max_nodes = max_nodes

    def size(self, state: GameView) -> int:
        return len(state.legal_actions())

    def solve(self, state: GameView | GameState, progress: Progress | None = None) -> Solution:
        search = AlphaBeta()
        values = search.solve(state.copy(), self.max_nodes)
        best = max(values.values())
        value = 0 if abs(best) < PROVEN else (1 if best > 0 else -1)
        return Solution(
            value,
            tuple(sorted(action for action, found in values.items() if found == best)),
            distance=None if value == 0 else int(WIN - abs(best)),
            cost=f"nodes: {search.nodes}",
        )


def exact_solver(plugin: GamePlugin) -> ExactSolver:
    """The game's own exact solver, else the generic one."""
    return plugin.capability_or(ExactSolver, None) or GenericSolver()


#: The most positions the generic solver visits for one hint (a fraction of a second), where a person waits.
HINT_NODES = 200_000


class NoHint(ValueError):
    """Why a position gets no exact hint, in one line: ``beyond`` when the solver cannot solve it at all (a board
    too large), else it is over the hint's budget of positions now (earlier in a game)."""

    def __init__(self, reason: str, *, beyond: bool) -> None:
        super().__init__(reason)
        self.beyond = beyond


def hint_solver(plugin: GamePlugin) -> ExactSolver:
    """The solver hints ask: the game's own, else the generic one within :data:`HINT_NODES` positions."""
    return plugin.capability_or(ExactSolver, None) or GenericSolver(HINT_NODES)


def exact_hint(state: GameView | GameState, solver: ExactSolver) -> Solution:
    """``solver``'s verdict on ``state`` (not over) for a hint; :class:`NoHint` when it gives none."""
    why = solver.why_not(state)
    if why is not None:
        raise NoHint(why, beyond=True)
    try:
        return solver.solve(state.copy())
    except ValueError as error:  # over the budget of positions
        raise NoHint(str(error), beyond=False) from None
