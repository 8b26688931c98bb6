"""The descriptor every game's features use for their facts: computed on first read, once per decision.

It lives apart from any game's features so that features of any game (:mod:`gpquarto.gp.generic`, a plug-in's own)
can use it without importing another game. ``gpquarto.games.quarto.gp.features.cached_fact`` is the same object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar, overload

F = TypeVar("F")  # the features class that holds the fact
T = TypeVar("T")


class cached_fact(Generic[F, T]):  # noqa: N801 - named like the decorator it replaces
    """``functools.cached_property`` without the lock it takes on every first read before Python 3.12 (a third of
    an evolved evaluation's time, measured): computed on first read, then stored in the instance's ``__dict__``,
    which shadows this non-data descriptor. A Features object lives in one thread."""

    def __init__(self, function: Callable[[F], T]) -> None:
        self.function = function
        self.name = function.__name__
        self.__doc__ = function.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached_fact[F, T]: ...
    @overload
    def __get__(self, instance: F, owner: type | None = None) -> T: ...
    def __get__(self, instance: F | None, owner: type | None = None) -> T | cached_fact[F, T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.function(instance)
        return value
