"""The descriptor every game's features use for their facts: computed on first read, once per decision.

It lives apart from any game's features so that features of any game (:mod:`gpquarto.gp.generic`, a plug-in's own)
can use it without importing another game. ``gpquarto.games.quarto.gp.features.cached_fact`` is the same object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class cached_fact(Generic[T]):  # noqa: N801 - named like the decorator it replaces
    """``functools.cached_property`` without the lock it takes on every first read before Python 3.12 (a third of
    an evolved evaluation's time, measured): computed on first read, then stored in the instance's ``__dict__``,
    which shadows this non-data descriptor. A Features object lives in one thread."""

    def __init__(self, function: Callable[[object], T]) -> None:
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type | None = None) -> T:
        if instance is None:
            return self  # type: ignore[return-value]
        value = instance.__dict__[self.name] = self.function(instance)
        return value
