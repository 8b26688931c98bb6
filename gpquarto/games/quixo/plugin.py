"""Quixo's plug-in: the game, its settings and the capabilities it offers (see ``docs/design/game-plugins.md``)."""

from __future__ import annotations

from gpquarto.games.capabilities import (
    Benchmarks,
    BoardDrawing,
    ExactSolver,
    GPBinding,
    GradingBank,
    LearningEncoders,
    TrainingDefaults,
    WebSupport,
    ZooPlayers,
)
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.quixo.board import (
    DEFAULT_PLY_LIMIT,
    DEFAULT_REPETITIONS,
    DEFAULT_SIZE,
    MAX_PLY_LIMIT,
    MAX_REPETITIONS,
    QuixoRules,
)
from gpquarto.games.quixo.game import QUIXO
from gpquarto.games.quixo.tables import SIZES
from gpquarto.games.settings import Setting

PLUGIN = GamePlugin(
    game=QUIXO,
    title="Quixo",
    summary="push a border cube back in at an end of its line; five in a line wins",
    settings=(
        Setting(
            "rules",
            str,
            QuixoRules.OFFICIAL.value,
            choices=tuple(rules.value for rules in QuixoRules),
            help="official, or course: the course library's first line found wins",
            label="{} rules",
        ),
        Setting("size", int, DEFAULT_SIZE, choices=tuple(SIZES), help="board size (3 and 4 for exact solving)"),
        Setting(
            "ply_limit",
            int,
            DEFAULT_PLY_LIMIT,
            minimum=1,
            maximum=MAX_PLY_LIMIT,
            served_maximum=DEFAULT_PLY_LIMIT,
            help="a game this long is a draw",
        ),
        Setting(
            "repetitions",
            int,
            DEFAULT_REPETITIONS,
            minimum=2,
            maximum=MAX_REPETITIONS,
            served_maximum=DEFAULT_REPETITIONS,
            help="the n-th repetition of a position draws",
        ),
    ),
    capabilities={
        BoardDrawing: "gpquarto.games.quixo.drawing:DRAWING",
        ZooPlayers: "gpquarto.games.quixo.players:PLAYERS",
        GPBinding: "gpquarto.games.quixo.gp.binding:QUIXO_GP",
        LearningEncoders: "gpquarto.games.quixo.learning:ENCODERS",
        ExactSolver: "gpquarto.games.quixo.search.solver:QUIXO_SOLVER",
        GradingBank: "gpquarto.games.quixo.grading.bank:BANK",
        TrainingDefaults: "gpquarto.games.quixo.defaults:DEFAULTS",
        Benchmarks: "gpquarto.games.quixo.bench.targets:BENCHMARKS",
        WebSupport: "gpquarto.games.quixo.web.support:SUPPORT",
    },
)
