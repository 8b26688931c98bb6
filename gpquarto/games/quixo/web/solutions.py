"""Exact solutions of Quixo's small boards for the web app: hints, and the ``solver`` player, on 3x3 and 4x4.

The retrograde solver (:mod:`gpquarto.games.quixo.search.solver`) knows every 3x3 and 4x4 position; its 4x4 solution
takes minutes to compute the first time, then it is read from the gpquarto cache folder in a second or two. No
request waits for that: a cached solution is loaded in the caller's thread (never the event loop) and kept in
memory (the last :data:`KEPT` used); one that is not cached yet is computed in a worker process of its own (one
per board size, killed when the server stops, so the decision workers stay free), and the request is answered
at once with a one-line message saying so: :meth:`SolutionStore.hint` says ``pending``, and a game against the
``solver`` is refused with 503 until the solution is there.

Hints ignore the repetition and ply-limit rules, as the solver does: a "draw" means that neither side can force
a win. The solver module is imported when first needed: it imports numba, which would slow down the start of
every process that imports the web app's players (the decision workers among them).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Executor
from typing import TYPE_CHECKING

from gpquarto.games.capabilities import HintService
from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.runner.killable import CallTimeout, PoolClosed, Worker, WorkerDied
from gpquarto.web.sessions import RequestError

if TYPE_CHECKING:
    from gpquarto.games.quixo.search.solver import QuixoSolution

#: Solutions kept in memory (a 4x4 one takes 86 MB).
KEPT = 2
#: Seconds a background solve may take before its process is killed.
SOLVE_SECONDS = 3600.0
#: How long a first solve takes, for the messages, by board size.
SOLVE_TIME = {3: "a few seconds", 4: "a few minutes"}

_Key = tuple[int, str]


def solve_into_cache(size: int, rules: str) -> str:
    """In a worker process: solve ``size`` under ``rules`` and write the solution to the cache; its path.
    The 3x3 board is solved in pure Python (under a second, sooner than numba compiles the solver)."""
    from gpquarto.games.quixo.search.solver import compute, save

    return str(save(compute(size, rules, compiled=None if size > 3 else False)))


class SolutionStore(HintService):
    """The Quixo solutions the server has, loads, or is computing; ``executor`` runs the threads that wait on
    the solving processes."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor
        self._lock = threading.Lock()
        self._load_lock = threading.Lock()
        self._kept: OrderedDict[_Key, QuixoSolution] = OrderedDict()
        self._solving: dict[_Key, str] = {}  # key -> "size rules" being solved
        self._failed: dict[_Key, str] = {}
        self._closed = threading.Event()
        self._workers: dict[int, Worker] = {}  # one per board size

    def get(self, size: int, rules: str) -> QuixoSolution | str:
        """The solution of ``size`` under ``rules``, loaded from the cache if needed (call this from a thread);
        or, when there is none yet, a one-line message saying that it is being computed (started now if it is
        not already) or why it could not be. ``RequestError`` for a board the solver does not handle."""
        from gpquarto.games.quixo.search.solver import SOLVABLE_SIZES, cached

        if size not in SOLVABLE_SIZES:
            raise RequestError(f"the Quixo solver knows the 3x3 and 4x4 boards, not {size}x{size}", status=409)
        key = (size, rules)
        with self._load_lock:
            with self._lock:
                if key in self._kept:
                    self._kept.move_to_end(key)
                    return self._kept[key]
                if key in self._solving:
                    return self._waiting(size, rules)
            solution = cached(size, rules)
            with self._lock:
                if solution is not None:
                    self._kept[key] = solution
                    while len(self._kept) > KEPT:
                        self._kept.popitem(last=False)
                    return solution
                failure = self._failed.pop(key, None)
                if failure is not None:
                    return f"the {size}x{size} {rules} solution could not be computed ({failure}); ask again to retry"
                if self._closed.is_set():
                    raise RequestError("the server is stopping", status=503)
                if any(other[0] == size for other in self._solving):
                    return f"another {size}x{size} solution is being computed: ask again in {SOLVE_TIME[size]}"
                self._solving[key] = f"{size} {rules}"
                worker = self._workers.setdefault(size, Worker(self._closed))
            self._executor.submit(self._solve, worker, size, rules)
            return self._waiting(size, rules)

    def prepare(self, player: str, state: QuixoBoard) -> None:
        """A game against the ``solver`` needs the solution of its board (:meth:`require`)."""
        if player == "solver":
            self.require(state.size, state.rules.value)

    def require(self, size: int, rules: str) -> None:
        """Nothing when the solution of ``size`` under ``rules`` is cached or in memory (a ``solver`` player can
        read it at once); otherwise start computing it and raise :class:`RequestError` 503 saying so."""
        found = self.get(size, rules)
        if isinstance(found, str):
            raise RequestError(f"the solver needs the {size}x{size} {rules} solution: {found}", status=503)

    def hint(self, board: QuixoBoard) -> dict:
        """The solver's verdict for the side to move in ``board``: ``solved`` with the value, the distance in
        plies, the best actions and their cells; or ``solved: False`` with ``pending`` and a one-line text while
        the solution is being computed. ``RequestError`` 409 on a 5x5 board or a finished game."""
        if board.is_over():
            raise RequestError("the game is over: no hint", status=409)
        if board.size not in self.sizes:
            return {
                "solved": False,
                "pending": False,
                "text": f"no exact hint on the {board.size}x{board.size} board (the solver knows 3x3 and 4x4)",
            }
        found = self.get(board.size, board.rules.value)
        if isinstance(found, str):
            return {"solved": False, "pending": True, "text": found}
        values = found.action_values(board)
        best = found.best_actions(board)
        value, distance = values[best[0]]
        words = {1: "win", 0: "draw", -1: "loss"}[value]
        if value:
            words += f" in {distance} pl{'y' if distance == 1 else 'ies'}"
        return {
            "solved": True,
            "pending": False,
            "value": value,
            "distance": distance,
            "best_actions": best,
            "cells": sorted({action >> 2 for action in best}),
            "text": f"{words} with best play: " + ", ".join(board.action_name(action) for action in best),
        }

    @property
    def sizes(self) -> tuple[int, ...]:
        """The board sizes the solver knows."""
        from gpquarto.games.quixo.search.solver import SOLVABLE_SIZES

        return SOLVABLE_SIZES

    def close(self) -> None:
        """Kill the solving processes at once (the server is stopping)."""
        self._closed.set()
        with self._lock:
            workers = list(self._workers.values())
        for worker in workers:
            worker.stop()

    def _waiting(self, size: int, rules: str) -> str:
        return (
            f"computing the {size}x{size} {rules} solution for the first time ({SOLVE_TIME[size]}, then it is "
            "cached): ask again then"
        )

    def _solve(self, worker: Worker, size: int, rules: str) -> None:
        """In a thread: solve in the size's worker process, note a failure, and forget the job."""
        failure = None
        try:
            worker.call(solve_into_cache, (size, rules), SOLVE_SECONDS)
        except PoolClosed:
            failure = "the server is stopping"
        except CallTimeout as error:
            failure = str(error)
        except (WorkerDied, RuntimeError) as error:
            failure = str(error)[:200]
        worker.kill()  # its memory goes with it
        with self._lock:
            self._solving.pop((size, rules), None)
            if failure is not None:
                self._failed[(size, rules)] = failure
