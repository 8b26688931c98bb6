"""The Quixo solver's kernels as they were before their tables (a base-3 digit loop to decode a position, the
line test on every move, a position's state read from two arrays): the reference the faster kernels of
:mod:`gpquarto.games.quixo.search.solver` must agree with, position for position (tests/test_quixo_solver.py)."""

from __future__ import annotations

import numpy as np

from gpquarto.games.quixo.board import QuixoRules
from gpquarto.games.quixo.search.solution_values import DRAW, LOSS, TERMINAL, WIN
from gpquarto.games.quixo.search.solver import _CODES, _arrays
from gpquarto.games.quixo.tables import mask_has_line


def _make_kernels(jit):
    """The solver's two steps and their helpers, each passed through ``jit`` (the identity, or numba.njit): the
    same code runs pure and compiled."""
    has_line = jit(mask_has_line)

    @jit
    def _index(own, other, codes):
        return codes[own & 255] + codes[own >> 8] * 6561 + 2 * (codes[other & 255] + codes[other >> 8] * 6561)

    @jit
    def _decode(index, cells):
        own = 0
        other = 0
        for cell in range(cells):
            digit = index % 3
            index //= 3
            if digit == 1:
                own |= 1 << cell
            elif digit == 2:
                other |= 1 << cell
        return own, other

    @jit
    def _result(own, other, n, course, lines, masks):
        """1 when the mover (whose cubes are now ``own``) has won, -1 lost, 0 no line."""
        if course:
            for line in lines:
                if (own & line) == line:
                    return 1
                if (other & line) == line:
                    return -1
            return 0
        if has_line(other, n, masks[0], masks[1], masks[2], masks[3]):
            return -1
        if has_line(own, n, masks[0], masks[1], masks[2], masks[3]):
            return 1
        return 0

    @jit
    def _initialise(n, course, actions, push, lines, masks, codes, values, dists, counts):
        """Step 1 (see the module docstring); returns how many positions are nodes (no line)."""
        cells = n * n
        nodes = 0
        for index in range(len(values)):
            own, other = _decode(index, cells)
            if has_line(own, n, masks[0], masks[1], masks[2], masks[3]) or has_line(
                other, n, masks[0], masks[1], masks[2], masks[3]
            ):
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
                result = _result(own2, other2, n, course, lines, masks)
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

    @jit
    def _wave(d, n, actions, push, masks, codes, values, dists, counts):
        """Step 2 for the positions decided at distance ``d``; returns how many positions it decided."""
        cells = n * n
        decided = 0
        for index in range(len(values)):
            if dists[index] != d or values[index] == TERMINAL or values[index] == DRAW:
                continue
            child_value = values[index]
            own_c, other_c = _decode(index, cells)
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
                    if values[parent] != DRAW or dists[parent] != 0:
                        continue  # a line (no node), or decided already
                    if child_value == LOSS:
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

    return _initialise, _wave


def compute(size: int, rules: str) -> tuple[np.ndarray, np.ndarray]:
    """(values, dists) of every position, in pure Python as the solver computed them before its tables."""
    initialise, wave = _make_kernels(lambda f: f)
    actions, push, lines, masks = (array.tolist() for array in _arrays(size))
    count = 3 ** (size * size)
    values, dists, counts = np.zeros(count, np.int8), np.zeros(count, np.uint8), np.zeros(count, np.uint8)
    course = QuixoRules(rules) is QuixoRules.COURSE
    codes = _CODES.tolist()
    initialise(size, course, actions, push, lines, masks, codes, values, dists, counts)
    d = 1
    while wave(d, size, actions, push, masks, codes, values, dists, counts):
        d += 1
    return values, dists
