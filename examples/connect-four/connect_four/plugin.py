"""Connect Four's plug-in: the game, its settings schema and the capabilities it offers, found by gpquarto through
the entry point ``connect_four = "connect_four.plugin:PLUGIN"`` of the group ``gpquarto.games``.

Each capability is named by a ``"module:attribute"`` string and imported only when a command asks for it, so
importing the plug-in costs no more than importing the engine.
"""

from __future__ import annotations

from connect_four.bitboard import MAX_SIZE, MIN_SIZE
from connect_four.game import CONNECT_FOUR, DEFAULT_COLUMNS, DEFAULT_ROWS
from gpquarto.games.capabilities import (
    Board,
    BoardDrawing,
    ExactSolver,
    GPBinding,
    GradingBank,
    Pictures,
    SearchHooks,
    ZooPlayers,
)
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.settings import Setting

PLUGIN = GamePlugin(
    game=CONNECT_FOUR,
    title="Connect Four",
    summary="drop discs into the columns of an upright board; four in a line wins",
    settings=(
        Setting("rows", int, DEFAULT_ROWS, minimum=MIN_SIZE, maximum=MAX_SIZE, help="rows of the board"),
        Setting("columns", int, DEFAULT_COLUMNS, minimum=MIN_SIZE, maximum=MAX_SIZE, help="columns of the board"),
    ),
    capabilities={
        Board: "connect_four.board_view:BOARD",
        BoardDrawing: "connect_four.drawing:DRAWING",
        SearchHooks: "connect_four.search_hooks:HOOKS",
        ExactSolver: "connect_four.solver:SOLVER",
        GPBinding: "connect_four.gp:BINDING",
        GradingBank: "connect_four.grading:BANK",
        Pictures: "connect_four.pictures:PICTURES",
        ZooPlayers: "connect_four.players:PLAYERS",
    },
)
