"""Adapters between gpquarto players and other Quarto libraries (the Politecnico course library)."""

from gpquarto.adapters.course import CourseGameShim, as_course_player, from_course_player

__all__ = ["CourseGameShim", "as_course_player", "from_course_player"]
