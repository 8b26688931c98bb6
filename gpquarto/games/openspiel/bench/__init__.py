"""OpenSpiel games' own ``bench engine``: random games through gpquarto's interface beside OpenSpiel's own Python
loop over ``pyspiel`` (:mod:`.engine`)."""
