"""OpenSpiel's bots as players of every game (the provider's ``players``): ``openspiel-mcts`` and
``openspiel-alphabeta`` (:mod:`.bots`)."""
