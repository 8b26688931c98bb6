"""Counts read from the Quixo board: cubes in lines, lines one cube short, regions, cubes the mover may take.

"Own" is the player to move, "opponent" the other; lines are the rows, columns and both diagonals.
"""

from __future__ import annotations

from gpquarto.games.quixo.gp.features import QuixoFeatures
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Count

FAMILY = "quixo_counts"


@primitive
def own_in_line_max(features: QuixoFeatures) -> Count:
    """The most of the mover's cubes in one line."""
    return max(features.own_line_counts)


@primitive
def opponent_in_line_max(features: QuixoFeatures) -> Count:
    """The most of the opponent's cubes in one line."""
    return max(features.other_line_counts)


@primitive
def own_lines_with(features: QuixoFeatures, cubes: Count) -> Count:
    """Lines holding exactly the given number of the mover's cubes."""
    return features.own_line_counts.count(cubes)


@primitive
def opponent_lines_with(features: QuixoFeatures, cubes: Count) -> Count:
    """Lines holding exactly the given number of the opponent's cubes."""
    return features.other_line_counts.count(cubes)


@primitive
def own_near_lines(features: QuixoFeatures) -> Count:
    """Lines one cube short of complete for the mover."""
    return features.own_near_lines


@primitive
def opponent_near_lines(features: QuixoFeatures) -> Count:
    """Lines one cube short of complete for the opponent."""
    return features.other_near_lines


@primitive
def own_cubes(features: QuixoFeatures) -> Count:
    """The mover's cubes on the board."""
    return features.own.bit_count()


@primitive
def opponent_cubes(features: QuixoFeatures) -> Count:
    """The opponent's cubes on the board."""
    return features.other.bit_count()


@primitive
def blank_cubes(features: QuixoFeatures) -> Count:
    """Blank cubes on the board."""
    return features.size * features.size - (features.own | features.other).bit_count()


@primitive
def border_cubes_available(features: QuixoFeatures) -> Count:
    """Border cubes the mover may take (blank or its own)."""
    return features.takeable_cubes.bit_count()


@primitive
def own_inner_cubes(features: QuixoFeatures) -> Count:
    """The mover's cubes off the border (no one can take them)."""
    return features.own_inner_cubes


@primitive
def opponent_inner_cubes(features: QuixoFeatures) -> Count:
    """The opponent's cubes off the border."""
    return features.other_inner_cubes


@primitive
def own_diagonal_cubes(features: QuixoFeatures) -> Count:
    """The mover's cubes on the two diagonals."""
    return features.own_diagonal_cubes


@primitive
def opponent_diagonal_cubes(features: QuixoFeatures) -> Count:
    """The opponent's cubes on the two diagonals."""
    return features.other_diagonal_cubes
