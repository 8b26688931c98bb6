"""Quixo's web support (:class:`~gpquarto.games.capabilities.WebSupport`): the search budgets a request may ask
of its players, alpha-beta's time budget, and its hints from the exact solutions of the 3x3 and 4x4 boards
(:mod:`gpquarto.games.quixo.web.solutions`), which the ``solver`` player needs too."""

from __future__ import annotations

from gpquarto.games.capabilities import WebSupport

SUPPORT = WebSupport(
    budget_caps={"minimax": {"depth": 3}, "alphabeta": {"depth": 8}, "mcts": {"iterations": 20_000}},
    time_parameters={"alphabeta": "seconds"},
    hints="gpquarto.games.quixo.web.solutions:SolutionStore",
    action_example="b1 to bottom",
    page_script="gpquarto.games.quixo.web:page.js",
)
