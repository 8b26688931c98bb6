"""Adapters between gpquarto players and other libraries: the Politecnico course library of Quarto here; a game's
own adapters live in its package (Quixo's: :mod:`gpquarto.games.quixo.adapters.course`)."""

from gpquarto.adapters.course import CourseGameShim, as_course_player, from_course_player

__all__ = ["CourseGameShim", "as_course_player", "from_course_player"]
