"""Adapters between gpquarto players and other libraries (the Politecnico course libraries: Quarto and Quixo)."""

from gpquarto.adapters.course import CourseGameShim, as_course_player, from_course_player
from gpquarto.adapters.quixo_course import CourseQuixoShim, as_course_quixo_player, from_course_quixo_player

__all__ = [
    "CourseGameShim",
    "CourseQuixoShim",
    "as_course_player",
    "as_course_quixo_player",
    "from_course_player",
    "from_course_quixo_player",
]
