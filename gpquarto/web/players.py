"""Players for the web app: the one module that turns specs into players and reads evolved players' rules.

Every other web module goes through :func:`load_player` and :func:`explain`; specs become players through
the one resolver, :func:`gpquarto.resolve.make_unattended_player`.
"""

from __future__ import annotations

import typing

from gpquarto.games.interface import DecisionKind
from gpquarto.gp.player import EvolvedPlayer
from gpquarto.players.base import Player
from gpquarto.players.registry import available_players
from gpquarto.resolve import make_unattended_player

#: The two Quarto decision kinds, by the short names the web package uses.
CHOOSE, PLACE = DecisionKind.CHOOSE, DecisionKind.PLACE

__all__ = ["CHOOSE", "PLACE", "explain", "load_player", "player_names"]


def load_player(spec: str, *, seed: int | None = None) -> Player:
    """The player for ``spec`` (a name with parameters, or a saved player file); ``ValueError`` when unknown.

    Interactive players (``human``) are refused: in the browser, the person at the page is the human.
    """
    return make_unattended_player(spec, seed=seed, advice="in the browser, you are the human player")


def player_names() -> list[dict]:
    """Every registered player that can play unattended: name, one-line summary and parameter names."""
    return [
        {"name": info.name, "summary": info.summary, "parameters": [parameter.name for parameter in info.parameters]}
        for info in available_players()
        if not _interactive(info.factory)
    ]


def _interactive(factory) -> bool:
    """True when a registered factory makes players that need a person (a class, or a function's return type)."""
    if isinstance(factory, type):
        return bool(getattr(factory, "interactive", False))
    try:
        made = typing.get_type_hints(factory).get("return")
    except Exception:  # unresolvable annotations: assume an ordinary player
        return False
    return bool(getattr(made, "interactive", False))


def explain(player: Player, kind: str) -> dict | None:
    """Why ``player`` took its last decision of ``kind`` (``"choose"`` or ``"place"``), or None if it has no rules.

    For an evolved player: the 1-based number of the rule that fired and its ``if ... then ...`` text, or
    ``rule: None`` when no rule fired with a legal action and the random fallback decided.
    """
    if not isinstance(player, EvolvedPlayer):
        return None
    index = player.rules.last_rule
    if index is None:
        return {"kind": kind, "rule": None, "text": "random fallback: no rule fired with a legal action"}
    return {"kind": kind, "rule": index + 1, "text": str(player.genome.rules(kind)[index])}
