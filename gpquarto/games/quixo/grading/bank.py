"""Quixo's grade bank (:class:`~gpquarto.games.capabilities.GradingBank`): positions from games between Quixo's
players on the 3x3 or 4x4 board (the solved ones; 4x4 unless told), 4 to 12 blank cubes (2 to 5 on 3x3), solved
by the retrograde solution of the board, which also gives the best moves (the fastest win, the slowest loss)."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from gpquarto.games.capabilities import GradingBank
from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.games.quixo.game import QUIXO
from gpquarto.games.quixo.search.solver import SOLVABLE_SIZES
from gpquarto.games.quixo.search.solver import solve as solve_board

#: The board a bank is made on unless told (the largest that the solver solves).
BANK_SIZE = 4
#: Blank cubes of a bank's positions unless told, on 4x4 and on 3x3.
DEFAULT_EMPTIES = (4, 12)
DEFAULT_3X3_EMPTIES = (2, 5)


@functools.cache
def _solution(size: int, rules: str):
    """The solution of the board, read (or solved) once per process."""
    return solve_board(size, rules)


class QuixoBank(GradingBank):
    """Quixo's bank: see the module docstring."""

    def settings(self, given: Mapping[str, object]) -> dict[str, object]:
        size = BANK_SIZE if given.get("size") is None else given["size"]
        if size not in SOLVABLE_SIZES:
            raise ValueError(f"a Quixo bank is made on the 3x3 or 4x4 board (solved exactly), not {size}x{size}")
        rules = QUIXO.check_settings({"rules": given.get("rules") or QUIXO.rule_sets[0]})["rules"]
        return {"rules": rules, "size": size}

    def default_empties(self, settings: Mapping[str, object]) -> tuple[int, int]:
        return DEFAULT_3X3_EMPTIES if settings["size"] == 3 else DEFAULT_EMPTIES

    def empties_limits(self, settings: Mapping[str, object]) -> tuple[int, int]:
        size = int(settings["size"])  # type: ignore[call-overload]  # the game checked the settings
        return 0, size * size - 1

    def key(self, settings: Mapping[str, object]) -> dict[str, object]:
        return {"game": QUIXO.name, "size": settings["size"]}

    def describe(self, settings: Mapping[str, object]) -> str:
        return f"{QUIXO.name} {settings['size']}x{settings['size']} {settings['rules']} rules"

    def tag(self, settings: Mapping[str, object]) -> str:
        return f"{QUIXO.name}{settings['size']}x{settings['size']}"

    def solve(self, state: QuixoBoard) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
        solution = _solution(state.size, state.rules.value)
        values = solution.action_values(state)
        value = max(value for value, _ in values.values())
        keep = tuple(action for action, (kept, _) in values.items() if kept == value)
        return value, keep, len(values), tuple(solution.best_actions(state))


BANK = QuixoBank()
