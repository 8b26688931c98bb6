"""Quarto's web support (:class:`~gpquarto.games.capabilities.WebSupport`): the search budgets a request may ask
of its zoo players, MCTS's time budget, and its hints."""

from __future__ import annotations

from gpquarto.games.capabilities import WebSupport
from gpquarto.games.quarto.board import PLACE_OFFSET
from gpquarto.games.quarto.lines import SQUARE_COUNT
from gpquarto.games.quarto.pieces import PIECE_COUNT

SUPPORT = WebSupport(
    budget_caps={
        "minimax": {"depth": 6, "node_bound": 1_000_000, "solver_below": 10},
        "frontier": {"depth": 6},
        "mcts": {"iterations": 200_000, "solver_below": 10},
        "solver": {"empties": 10},
    },
    time_parameters={"mcts": "time"},
    hints="gpquarto.games.quarto.web.hints:QuartoHints",
    move_fields={"piece": (PIECE_COUNT, 0), "square": (SQUARE_COUNT, PLACE_OFFSET)},
    page_script="gpquarto.games.quarto.web:page.js",
)
