"""What the OpenSpiel tests share: the one-line skip without ``open-spiel``, and the games they run on."""

from __future__ import annotations

import pytest

SKIP_REASON = "open-spiel is not installed: pip install -e '.[openspiel]' runs the OpenSpiel tests"


def need_pyspiel():
    """``pyspiel``, or skip the module in one line saying how to enable it."""
    try:
        import pyspiel
    except ImportError:
        pytest.skip(SKIP_REASON, allow_module_level=True)
    return pyspiel


#: OpenSpiel board games on small boards, as gpquarto names them, and how many random games each test plays.
BOARD_GAMES = {
    "openspiel:tic_tac_toe": 100,
    "openspiel:connect_four": 60,
    "openspiel:breakthrough(rows=5,columns=5)": 30,
    "openspiel:othello": 10,
    "openspiel:hex(board_size=5)": 60,
    "openspiel:pentago": 20,
    "openspiel:clobber(rows=4,columns=5)": 40,
    "openspiel:mnk(m=4,n=4,k=3)": 60,
    "openspiel:dots_and_boxes": 60,
    "openspiel:amazons(board_size=6)": 10,
    "openspiel:checkers": 3,
    "openspiel:ultimate_tic_tac_toe": 10,
    "openspiel:nine_mens_morris": 4,
}
