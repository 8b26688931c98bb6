"""The board facts that Quixo primitives read, computed once per decision and only when a rule asks for them.

A Quixo GP player builds one :class:`QuixoFeatures` per decision (``QuixoFeatures(view)``) and every rule it
evaluates at that decision reads the same object; each fact is a
:class:`~gpquarto.gp.features.cached_fact`, so a decision pays only for the facts its rules use, once.

Facts are from the point of view of the player to move: ``own`` is the mover's cube mask, ``other`` the
opponent's. Moves are Quixo actions (``4*cell + direction``); wherever a fact picks one move among several it
takes the lowest action number, so primitives stay deterministic.
"""

from __future__ import annotations

from gpquarto.games.quixo.board import QuixoView
from gpquarto.games.quixo.tables import Tables, tables
from gpquarto.gp.features import cached_fact


class QuixoFeatures:
    """Lazily computed facts about the Quixo position a decision is taken in (read-only)."""

    def __init__(self, view: QuixoView) -> None:
        self.view = view
        self.size: int = view.size
        self.mover: int = view.player
        self.own: int = view.x_mask if view.player == 0 else view.o_mask
        self.other: int = view.o_mask if view.player == 0 else view.x_mask
        self.course: bool = view.rules == "course"

    @cached_fact
    def tables(self) -> Tables:
        """The move tables of this board size."""
        return tables(self.size)

    @cached_fact
    def legal_moves(self) -> tuple[int, ...]:
        """The mover's legal actions, ascending."""
        return self.view.legal_actions()

    @cached_fact
    def legal_move_set(self) -> frozenset[int]:
        """The legal actions as a set (for membership tests)."""
        return frozenset(self.legal_moves)

    def is_legal_move(self, action: int) -> bool:
        """True when ``action`` is one of the mover's legal actions."""
        return action in self.legal_move_set
