"""Validation of the small integers the engine is given: piece and square indices."""

from __future__ import annotations

import operator


def check_index(value: object, what: str, count: int = 16) -> int:
    """``value`` as an int if it is an integer in ``0..count-1``, else ``ValueError`` naming ``what``.

    Integer-like objects (NumPy integers, anything with ``__index__``) are accepted and converted;
    ``bool`` is refused, since ``True`` as "piece 1" is always a bug.
    """
    if value.__class__ is not int:
        if isinstance(value, bool):
            raise ValueError(f"{what} must be an int 0..{count - 1}, got {value!r}")
        try:
            value = operator.index(value)  # type: ignore[arg-type]  # any object: TypeError says it is no index
        except TypeError:
            raise ValueError(f"{what} must be an int 0..{count - 1}, got {value!r}") from None
    if not 0 <= value < count:
        raise ValueError(f"{what} must be an int 0..{count - 1}, got {value}")
    return value
