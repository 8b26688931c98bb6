"""The two steps of Quixo's exact solver (see :mod:`gpquarto.games.quixo.search.solver`) and their helpers.

With numba installed they are compiled, with numba's cache on disk: a process that solves loads their machine code
instead of compiling them again. :func:`pure` gives the same step run by the interpreter (the solver without
numba, and the tests that check the compiled steps against it). This module is imported on the first solve, not
with the solver, so that the processes which only play do not carry numba.

``line_of[mask]`` says whether a mask holds a line, ``decode_own[i]`` and ``decode_other[i]`` are the two masks of
eight cells whose base-3 code is ``i``, and ``counts[index]`` is the number of moves of an open position still
unrefuted: 0 once it is decided or when it has a line, so one read tells whether a predecessor is still open.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from gpquarto.games.quixo.search.solution_values import DRAW, LOSS, TERMINAL, WIN

try:
    import numba
except ImportError:  # pragma: no cover - depends on the installed extras
    COMPILED = False
else:
    COMPILED = True  #: Whether the steps are compiled (numba is installed).


def _jit(function: Callable[..., Any]) -> Any:
    return numba.njit(cache=True)(function) if COMPILED else function


@_jit
def _index(own, other, codes):
    return codes[own & 255] + codes[own >> 8] * 6561 + 2 * (codes[other & 255] + codes[other >> 8] * 6561)


@_jit
def _decode(index, decode_own, decode_other):
    low, high = index % 6561, index // 6561
    return decode_own[low] | (decode_own[high] << 8), decode_other[low] | (decode_other[high] << 8)


@_jit
def _result(own, other, course, lines, line_of):
    """1 when the mover (whose cubes are now ``own``) has won, -1 lost, 0 no line."""
    if course:
        for line in lines:
            if (own & line) == line:
                return 1
            if (other & line) == line:
                return -1
        return 0
    if line_of[other]:
        return -1
    if line_of[own]:
        return 1
    return 0


@_jit
def initialise(course, actions, push, lines, line_of, decode_own, decode_other, values, dists, counts):
    """Step 1 (see the module docstring); returns how many positions are nodes (no line)."""
    nodes = 0
    for index in range(len(values)):
        own, other = _decode(index, decode_own, decode_other)
        if line_of[own] or line_of[other]:
            values[index] = TERMINAL
            continue
        nodes += 1
        count = 0
        won = False
        for k in range(len(actions)):
            action = actions[k]
            if (other >> (action >> 2)) & 1:
                continue
            keep, moved, left, right, dest = (
                push[action][0],
                push[action][1],
                push[action][2],
                push[action][3],
                push[action][4],
            )
            own2 = (own & keep) | (((own & moved) << left) >> right) | dest
            other2 = (other & keep) | (((other & moved) << left) >> right)
            result = _result(own2, other2, course, lines, line_of)
            if result == 1:
                won = True
                break
            if result == 0:
                count += 1
        if won:
            values[index] = WIN
            dists[index] = 1
        elif count == 0:
            values[index] = LOSS
            dists[index] = 1
        else:
            counts[index] = count
    return nodes


@_jit
def wave(d, actions, push, codes, decode_own, decode_other, values, dists, counts):
    """Step 2 for the positions decided at distance ``d``; returns how many positions it decided."""
    decided = 0
    for index in range(len(values)):
        if dists[index] != d or values[index] == TERMINAL or values[index] == DRAW:
            continue
        child_value = values[index]
        own_c, other_c = _decode(index, decode_own, decode_other)
        mover_c, opp_c = other_c, own_c  # the player who just moved, and the other one
        for k in range(len(actions)):
            action = actions[k]
            dest = push[action][4]
            if not (mover_c & dest):
                continue
            keep, left, right, taken, unmoved = (
                push[action][0],
                push[action][2],
                push[action][3],
                push[action][5],
                push[action][6],
            )
            opp_p = (opp_c & keep) | (((opp_c & unmoved) << right) >> left)
            base = (mover_c & keep) | (((mover_c & unmoved) << right) >> left)
            for variant in range(2):
                mover_p = base | taken if variant == 1 else base
                parent = _index(mover_p, opp_p, codes)
                if counts[parent] == 0:
                    continue  # a line (no node), or decided already
                if child_value == LOSS:
                    counts[parent] = 0
                    values[parent] = WIN
                    dists[parent] = d + 1
                    decided += 1
                else:
                    counts[parent] -= 1
                    if counts[parent] == 0:
                        values[parent] = LOSS
                        dists[parent] = d + 1
                        decided += 1
    return decided


def _interpreted(function: Any) -> Callable[..., Any]:
    return function.py_func if COMPILED else function


#: The module's names as the interpreted steps see them: each helper is its Python function.
_PURE_NAMES = {
    name: _interpreted(value) if name in ("_index", "_decode", "_result") else value
    for name, value in globals().items()
}


def pure(step: Any) -> Callable[..., Any]:
    """``step`` (:func:`initialise` or :func:`wave`) run by the interpreter, with its helpers too."""
    function = _interpreted(step)
    return types.FunctionType(function.__code__, _PURE_NAMES, function.__name__, function.__defaults__)
