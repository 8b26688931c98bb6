"""The capability types a game plug-in may offer (see ``docs/design/game-plugins.md``).

Each is a class that the object providing it derives from (or is an instance of); shared code asks
``plugin.capability(ExactSolver)`` and never a game's name. The classes here hold no game knowledge: the
objects that implement them live in the game's package and are named in its plug-in by ``"module:attribute"``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gpquarto.games.plugin import Capability


@dataclass(frozen=True)
class ZooPlayers(Capability):
    """The game's own named players: the modules whose import registers them with
    ``gpquarto.players.registry.register_player`` (Quarto's ``novice``, ``frontier``, ``minimax``...; a faster
    player under a name every game has, such as ``mcts``, is an accelerator of that generic player)."""

    description = "players of its own"
    modules: tuple[str, ...]

    def load(self) -> None:
        """Import the modules (each registers its players once)."""
        for module in self.modules:
            importlib.import_module(module)


class GPBinding(Capability):
    """What the GP core needs to know about the game: ``gpquarto.gp.binding.GPGame`` derives from this."""

    description = "GP binding (rule players cannot be evolved for it)"


@dataclass(frozen=True)
class LearningEncoders(Capability):
    """The n-tuple features ``learn`` can use for the game: factories by name (each takes the game's settings and
    gives an encoder, ``gpquarto.learned.models.Encoder``), and the one used unless told."""

    description = "n-tuple features for learning"
    factories: Mapping[str, Callable[..., Any]]
    default: str

    def __post_init__(self) -> None:
        if self.default not in self.factories:
            raise ValueError(f"the default n-tuple features {self.default!r} are not among {', '.join(self.factories)}")
