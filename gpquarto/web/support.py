"""What the web server knows of a game beyond the interface: its plug-in's
:class:`~gpquarto.games.capabilities.WebSupport`, else the generic support."""

from __future__ import annotations

from gpquarto.games.capabilities import WebSupport
from gpquarto.games.registry import get_plugin


def web_support(game: str) -> WebSupport:
    """The game's web support, else the generic one (no caps beyond the server's time limit, generic hints)."""
    plugin = get_plugin(game)
    return plugin.capability_or(WebSupport, GENERIC_SUPPORT)


#: What a game without :class:`~gpquarto.games.capabilities.WebSupport` gets: the generic searches' budgets
#: capped so that one decision stays within a worker's share, their ``seconds`` bounded by the time limit.
GENERIC_SUPPORT = WebSupport(
    budget_caps={"alphabeta": {"depth": 12}, "mcts": {"iterations": 200_000}, "solver": {"max_nodes": 2_000_000}},
    time_parameters={"alphabeta": "seconds", "mcts": "seconds"},
)
