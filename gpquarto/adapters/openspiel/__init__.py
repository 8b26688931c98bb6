"""gpquarto's games as OpenSpiel games: ``import gpquarto.adapters.openspiel`` registers every installed game
``NAME`` (Quarto, Quixo, and any game plug-in) with ``pyspiel`` as ``python_gpquarto_NAME``, its settings as the
game's parameters, so that OpenSpiel's Python algorithms (MCTS, minimax, ``evaluate_bots``, its learners) play it::

    >>> import pyspiel, gpquarto.adapters.openspiel                      # doctest: +SKIP
    >>> game = pyspiel.load_game("python_gpquarto_quixo(size=4)")        # doctest: +SKIP

OpenSpiel's C++ bots (``pyspiel.MCTSBot``...) crash on Python-registered games: give these to its Python
algorithms only. :mod:`.game` makes the ``pyspiel`` game of any plug-in; this module registers the installed ones
(the games a provider makes, OpenSpiel's own among them, are not registered again).
"""

from __future__ import annotations

from gpquarto.adapters.openspiel.game import PREFIX, register_game, registered_name, spiel_game
from gpquarto.games.registry import plugins

for _plugin in plugins():
    register_game(_plugin)

__all__ = ["PREFIX", "register_game", "registered_name", "spiel_game"]
