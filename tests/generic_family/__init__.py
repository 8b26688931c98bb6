"""A game that adds a small primitive family of its own on top of the generic binding, the way an outside plug-in
does (Connect Four): tic-tac-toe whose plug-in offers, as its ``GPBinding``, ``generic_binding`` with its own
features (a subclass of ``GenericFeatures``) and ``family_package`` naming this package."""

from __future__ import annotations

from gpquarto.games.capabilities import Board, GPBinding
from gpquarto.games.plugin import GamePlugin
from gpquarto.gp.facts import cached_fact
from gpquarto.gp.generic import GenericFeatures, generic_binding
from tests import tictactoe

#: The family modules of this package, in library order.
FAMILY_MODULES = ["corners"]
CORNERS = (0, 2, 6, 8)


class CornerFeatures(GenericFeatures):
    """The generic facts, and the free corners of the board."""

    @cached_fact
    def free_corners(self) -> tuple[int, ...]:
        """The empty corners, ascending."""
        return tuple(corner for corner in CORNERS if corner in self.legal_set)


BINDING = generic_binding(tictactoe.GAME, features=CornerFeatures, family_package="tests.generic_family")

PLUGIN = GamePlugin(
    game=tictactoe.GAME,
    title="Tic-tac-toe with corners",
    settings=tictactoe.PLUGIN.settings,
    capabilities={Board: "tests.tictactoe:BOARD", GPBinding: "tests.generic_family:BINDING"},
)
