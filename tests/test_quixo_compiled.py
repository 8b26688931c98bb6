"""The compiled Quixo playouts (numba, optional) against the pure-Python playout: the same game in distribution."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from gpquarto.games.quixo import QuixoBoard
from gpquarto.games.quixo import compiled as quixo_compiled
from gpquarto.games.quixo.playout import random_playout

POSITIONS = [
    ".../.../... X",
    "..../..../..../.... X",
    ".X../O.../..O./X... O course",
    "XX./O../.X. X",  # X and O can slide rows back and forth: repetitions happen
    "...../...../...../...../..... X",
]


def frequencies(results) -> np.ndarray:
    results = np.asarray(results)
    return np.array([(results == value).mean() for value in (0, 1, -1)])


@pytest.mark.skipif(not quixo_compiled.AVAILABLE, reason="numba is not installed (pip install 'gpquarto[fast]')")
@pytest.mark.parametrize("text", POSITIONS)
def test_compiled_playouts_have_the_pure_playouts_distribution(text):
    board = QuixoBoard.from_text(text, ply_limit=60)
    fast = frequencies(quixo_compiled.random_playouts(board, 40_000, seed=1))
    rng = random.Random(2)
    pure = frequencies([random_playout(board, rng) for _ in range(3000)])
    for p_fast, p_pure in zip(fast, pure, strict=True):
        sigma = math.sqrt(max(p_fast * (1 - p_fast), 1e-4) / 3000)
        assert abs(p_fast - p_pure) < 4.5 * sigma + 1e-3, (fast, pure)


def test_without_numba_the_batch_plays_the_pure_playout(monkeypatch):
    monkeypatch.setattr(quixo_compiled, "AVAILABLE", False)
    board = QuixoBoard.from_text("..../.X../..O./.... X")
    rng = random.Random(7)
    assert list(quixo_compiled.random_playouts(board, 50, seed=7)) == [random_playout(board, rng) for _ in range(50)]
    with pytest.raises(ValueError, match="games must be >= 0"):
        quixo_compiled.random_playouts(board, -1)
    over = QuixoBoard.from_text("XXX/O../O.. O")
    assert list(quixo_compiled.random_playouts(over, 3)) == [0, 0, 0]
