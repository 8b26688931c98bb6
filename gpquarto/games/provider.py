"""Game *providers*: one entry point that makes a game plug-in on demand for every name with its prefix.

A library of many games with parameters (OpenSpiel: ``openspiel:breakthrough(rows=6,columns=6)``) cannot list a
plug-in per game. A provider owns a name prefix and is found through the same entry-point group as the games
(``openspiel = "gpquarto.games.openspiel.provider:PROVIDER"``, the entry point's name being the prefix);
:func:`gpquarto.games.registry.get_plugin` asks it for any name ``PREFIX:...`` and keeps the plug-in it makes.

Example::

    >>> from gpquarto.games.registry import get_plugin
    >>> get_plugin("openspiel:tic_tac_toe").game.action_count        # doctest: +SKIP
    9
"""

from __future__ import annotations

from gpquarto.games.capabilities import ZooPlayers
from gpquarto.games.plugin import GamePlugin


class GameProvider:
    """Makes the plug-ins of the games whose names start with ``prefix + ":"``.

    Subclasses write :meth:`plugin` (a one-line ``ValueError`` for a name it cannot make a game of) and may list
    :meth:`examples` (shown in help texts) and offer :attr:`players`: zoo players that play *every* game (loaded
    with the zoo, like a game's :class:`~gpquarto.games.capabilities.ZooPlayers`).
    """

    #: The name prefix, before the colon (``"openspiel"``).
    prefix: str = ""
    #: Players of every game that the provider brings (None: none).
    players: ZooPlayers | None = None

    def plugin(self, name: str) -> GamePlugin:
        """The plug-in of the game ``name`` (``"PREFIX:..."``); a one-line ``ValueError`` when there is none."""
        raise NotImplementedError

    def examples(self) -> tuple[str, ...]:
        """Names of some of the provider's games (``"openspiel:connect_four"``), for help texts."""
        return ()
