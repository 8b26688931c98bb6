"""OpenSpiel's games as gpquarto games: ``--game openspiel:NAME[(params)]`` (the ``[openspiel]`` extra).

The provider (:mod:`.provider`, on the entry point ``openspiel``) makes a plug-in for every OpenSpiel game that is
two-player, sequential, deterministic, perfect-information and zero-sum, and refuses any other in one line naming
the trait it lacks. The engine modules (:mod:`.names`, :mod:`.state`, :mod:`.game`, :mod:`.board`) import only the
game layer and ``pyspiel``, lazily: importing this package never imports ``pyspiel``. The subpackage
:mod:`.players` holds OpenSpiel's bots as players of every game (``openspiel-mcts``, ``openspiel-alphabeta``).
``docs/openspiel.md`` is the user's page, ``docs/design/openspiel.md`` the design.
"""
