"""What every course adapter does to a course player before a game: seed the random sources it draws from.

Course players (the Politecnico di Torino course libraries, :mod:`gpquarto.games.quarto.adapters.course` and
:mod:`gpquarto.games.quixo.adapters.course`) draw from the global ``random`` module and numpy's global generator;
seeding them makes a match with one replayable.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np


def seed_course_player(course_player: Any, seed: int | None) -> None:
    """Seed what course players draw from: the global ``random`` module, numpy's global generator, and the
    player's own ``seed`` method if it has one."""
    random.seed(seed)
    np.random.seed(None if seed is None else seed % 2**32)
    hook = getattr(course_player, "seed", None)
    if callable(hook):
        hook(seed)
