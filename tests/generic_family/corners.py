"""The corner family of the test game: its own features, the generic action type."""

from __future__ import annotations

from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Action, Count
from tests.generic_family import CornerFeatures

FAMILY = "corners"


@primitive
def corner_action(features: CornerFeatures) -> Action:
    """The lowest free corner."""
    return features.free_corners[0] if features.free_corners else NO_ACTION


@primitive
def free_corner_count(features: CornerFeatures) -> Count:
    """The free corners."""
    return len(features.free_corners)
