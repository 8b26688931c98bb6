"""Quarto's plug-in: the game, its settings and the capabilities it offers (see ``docs/design/game-plugins.md``)."""

from __future__ import annotations

from gpquarto.games.capabilities import (
    Benchmarks,
    BoardDrawing,
    EvolvedEvaluators,
    ExactSolver,
    GPBinding,
    GradingBank,
    LearningEncoders,
    Pictures,
    PlayerForm,
    TrainingDefaults,
    WebSupport,
    ZooPlayers,
)
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.quarto.game import QUARTO
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.settings import Setting

PLUGIN = GamePlugin(
    game=QUARTO,
    title="Quarto",
    summary="give your opponent the piece it must place; four in a line sharing a trait wins",
    settings=(
        Setting(
            "rules",
            str,
            Rules.CLASSIC.value,
            choices=tuple(rules.value for rules in Rules),
            help="classic, or advanced: the nine 2x2 blocks win too",
            shortcuts={"advanced": Rules.ADVANCED.value},
            label="{} rules",
        ),
    ),
    capabilities={
        BoardDrawing: "gpquarto.games.quarto.drawing:DRAWING",
        ZooPlayers: "gpquarto.games.quarto.players:PLAYERS",
        GPBinding: "gpquarto.games.quarto.gp.binding:QUARTO_GP",
        LearningEncoders: "gpquarto.games.quarto.learned.tuples:ENCODERS",
        ExactSolver: "gpquarto.games.quarto.search.solver:QUARTO_SOLVER",
        Pictures: "gpquarto.games.quarto.views.pictures:PICTURES",
        GradingBank: "gpquarto.games.quarto.grading.bank:BANK",
        PlayerForm: "gpquarto.games.quarto.players.form:QUARTO_FORM",
        EvolvedEvaluators: "gpquarto.games.quarto.gp.evaluator:EVALUATORS",
        TrainingDefaults: "gpquarto.games.quarto.defaults:DEFAULTS",
        Benchmarks: "gpquarto.games.quarto.bench.targets:BENCHMARKS",
        WebSupport: "gpquarto.games.quarto.web.support:SUPPORT",
    },
)
