"""A game plug-in: the game, its settings schema, and the capabilities it offers.

Shared code asks a plug-in for a capability by its type, never for a game by its name::

    >>> plugin = get_plugin("quarto")                                     # doctest: +SKIP
    >>> plugin.offers(ExactSolver)                                        # doctest: +SKIP
    True
    >>> solver = plugin.capability(ExactSolver)                           # doctest: +SKIP

A capability is named in the plug-in by a ``"module:attribute"`` string and imported the first time it is
asked for: the game layer imports no capability module (they plug into the layers above it), importing
gpquarto stays cheap, and a game's engine can be used without its players or GP binding. A capability the game
does not offer is a one-line :class:`MissingCapability` (``game 'x' has no exact solver``).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gpquarto.games.interface import Game
from gpquarto.games.settings import Setting, check_settings

C = TypeVar("C", bound="Capability")
D = TypeVar("D")


class Capability:
    """Base of the capability types (:mod:`gpquarto.games.capabilities`); ``description`` names the
    capability in messages ("exact solver")."""

    description = "capability"


class MissingCapability(ValueError):
    """The game does not offer the capability asked for (one line)."""


class PluginError(ValueError):
    """A plug-in that cannot be used as declared (a capability that cannot be imported, or of the wrong
    type); the message names the game and the capability."""


@dataclass(frozen=True, eq=False)
class GamePlugin:
    """One game as gpquarto sees it: the :class:`~gpquarto.games.interface.Game`, a title for people, the
    settings schema, and ``capabilities``: capability type -> ``"module:attribute"`` of the object that
    provides it."""

    game: Game
    title: str
    settings: tuple[Setting, ...] = ()
    capabilities: Mapping[type[Capability], str] = field(default_factory=dict)
    #: One line saying what the game is, for ``players`` and the web's game list.
    summary: str = ""
    #: Capabilities already made, by type (a provider's plug-ins, made on demand for one game each, hold theirs
    #: here rather than naming a module).
    made: Mapping[type[Capability], object] = field(default_factory=dict)
    _loaded: dict[type, object] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "settings", tuple(self.settings))
        for kind, found in self.made.items():
            if not (isinstance(kind, type) and issubclass(kind, Capability) and isinstance(found, kind)):
                raise PluginError(f"game {self.name!r}: {found!r} is not a {getattr(kind, '__name__', kind)}")
            self._loaded[kind] = found
        names = [setting.name for setting in self.settings]
        if len(set(names)) != len(names):
            raise PluginError(f"game {self.name!r}: a setting is declared twice ({', '.join(names)})")
        for kind, where in self.capabilities.items():
            if not (isinstance(kind, type) and issubclass(kind, Capability)):
                raise PluginError(f"game {self.name!r}: {kind!r} is not a capability type")
            if not isinstance(where, str) or where.count(":") != 1:
                raise PluginError(f"game {self.name!r}: the {kind.description} must be named 'module:attribute'")

    @property
    def name(self) -> str:
        """The game's name (``--game NAME``)."""
        return self.game.name

    def offers(self, kind: type[Capability]) -> bool:
        """True when the game declares the capability ``kind``."""
        return kind in self.capabilities or kind in self.made

    def capability(self, kind: type[C]) -> C:
        """The object that provides ``kind`` (imported on first use, then kept);
        :class:`MissingCapability` when the game does not offer it."""
        if kind in self._loaded:
            return self._loaded[kind]  # type: ignore[return-value]  # loaded as a kind
        where = self.capabilities.get(kind)
        if where is None:
            raise MissingCapability(f"game {self.name!r} has no {getattr(kind, 'description', kind.__name__)}")
        found = import_named(where, f"game {self.name!r}: the {kind.description} {where}")
        if not isinstance(found, kind):
            raise PluginError(
                f"game {self.name!r}: the {kind.description} {where} is a {type(found).__name__}, not a {kind.__name__}"
            )
        self._loaded[kind] = found
        return found

    def capability_or(self, kind: type[C], default: D) -> C | D:
        """The object that provides ``kind`` where the game offers it, else ``default`` (what shared code falls
        back on: the generic version of the capability, or None)."""
        return self.capability(kind) if self.offers(kind) else default

    def check_settings(self, settings: Mapping[str, object]) -> dict[str, object]:
        """``settings`` checked by the schema and then by the game, completed with the defaults; a one-line
        ``ValueError``."""
        return self.game.check_settings(check_settings(self.name, self.settings, settings))


def import_named(where: str, label: str) -> Any:
    """The object that ``"module:attribute"`` names (a ``PluginError`` in one line, naming ``label``, otherwise)."""
    module_name, _, attribute = where.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise PluginError(f"{label} cannot be imported ({error})") from error
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise PluginError(f"{label}: the module has no {attribute!r}") from None
