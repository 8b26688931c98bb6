"""The provider of OpenSpiel's games (entry point ``openspiel`` of the group ``gpquarto.games``): a plug-in for
``openspiel:NAME[(params)]``, made when a command asks for it."""

from __future__ import annotations

from gpquarto.games.capabilities import Benchmarks, Board, ZooPlayers
from gpquarto.games.openspiel.board import ObservationBoard, grid_shape
from gpquarto.games.openspiel.game import OpenSpielGame
from gpquarto.games.openspiel.names import PREFIX, load
from gpquarto.games.plugin import Capability, GamePlugin
from gpquarto.games.provider import GameProvider


class OpenSpielProvider(GameProvider):
    """Makes the plug-in of any OpenSpiel game gpquarto plays (see :func:`~gpquarto.games.openspiel.names.load`)."""

    prefix = PREFIX
    players = ZooPlayers(("gpquarto.games.openspiel.players.bots",))

    def plugin(self, name: str) -> GamePlugin:
        """The plug-in of ``openspiel:NAME[(params)]``: the game, no settings, a ``Board`` where its observation is
        a grid; a one-line ``ValueError`` for an unknown game, bad parameters or a missing trait."""
        spiel_game = load(name)
        game = OpenSpielGame(spiel_game)
        shape = grid_shape(spiel_game)
        made: dict[type[Capability], object] = {Board: ObservationBoard(spiel_game, shape)} if shape else {}
        kind = spiel_game.get_type()
        return GamePlugin(
            game=game,
            title=f"OpenSpiel's {kind.long_name}"
            + (f" ({game.name.partition('(')[2][:-1]})" if "(" in game.name else ""),
            summary=f"OpenSpiel's {kind.short_name}: {game.action_count} actions",
            capabilities={Benchmarks: "gpquarto.games.openspiel.bench.engine:BENCHMARKS"},
            made=made,
        )

    def examples(self) -> tuple[str, ...]:
        return ("openspiel:connect_four", "openspiel:tic_tac_toe", "openspiel:breakthrough(rows=5,columns=5)")


PROVIDER = OpenSpielProvider()
