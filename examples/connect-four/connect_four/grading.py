"""Connect Four's grade banks (the capability :class:`~gpquarto.games.capabilities.GradingBank`): positions of
any board size, solved by the bitboard solver (:mod:`connect_four.solver`).

gpquarto's generic bank asks the solver about the board's start position, which on 7x6 it cannot solve; a bank's
positions are near the end of a game, which it solves in milliseconds, so this bank takes every board size and
bounds the positions' empty cells by what the solver handles.
"""

from __future__ import annotations

from collections.abc import Mapping

from connect_four.game import NAME, ConnectFourState
from connect_four.solver import SOLVER
from gpquarto.games.capabilities import GradingBank


def _cells(settings: Mapping[str, object]) -> int:
    return int(settings["rows"]) * int(settings["columns"])  # type: ignore[call-overload]


class ConnectFourBank(GradingBank):
    """Banks of decisions from games of gpquarto's generic pairings, with a few empty cells (see
    :meth:`default_empties`), on any board size."""

    knows_best = True
    names_game = True

    def settings(self, given: Mapping[str, object]) -> dict[str, object]:
        from connect_four.plugin import PLUGIN

        return PLUGIN.check_settings(given)

    def default_empties(self, settings: Mapping[str, object]) -> tuple[int, int]:
        """4 to 8 empty cells on the 4x4 board, up to 16 to 20 on 7x6 and larger: games between the generic
        pairings seldom last to a nearly full large board."""
        high = min(20, max(8, _cells(settings) // 2 - 1))
        return high - 4, high

    def empties_limits(self, settings: Mapping[str, object]) -> tuple[int, int]:
        return 1, min(SOLVER.max_empty, _cells(settings) - 1)

    def key(self, settings: Mapping[str, object]) -> dict[str, object]:
        return {"game": NAME, "settings": {name: settings[name] for name in sorted(settings)}}

    def describe(self, settings: Mapping[str, object]) -> str:
        return f"{NAME}, {settings['rows']} rows, {settings['columns']} columns"

    def tag(self, settings: Mapping[str, object]) -> str:
        return f"{NAME}{settings['rows']}x{settings['columns']}"

    def solve(self, state: ConnectFourState) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
        legal = tuple(state.legal_actions())
        classes = {}
        for action in legal:
            child = state.copy()
            child.apply(action)
            outcome = child.outcome()
            if outcome is not None:
                classes[action] = 0 if outcome.winner is None else 1  # the mover's disc ended the game
            else:
                classes[action] = -SOLVER.solve(child).value
        value = max(classes.values())
        keep = tuple(action for action in legal if classes[action] == value)
        best = SOLVER.solve(state).best_actions
        return value, keep, len(legal), tuple(action for action in best if action in keep)


BANK = ConnectFourBank()
