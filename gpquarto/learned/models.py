"""Value models: what a learned player knows, as plain data (an array of weights, or a table of values).

A model values every turn of the player due (see :mod:`gpquarto.learned.turns`) from that player's point of
view, on the scale +1 (won) .. -1 (lost). Won and drawn afterstates get their true value; the others the
model's estimate.

- :class:`NTupleModel`: an n-tuple network, ``tanh`` of a sum of weights looked up from small tuples of the
  afterstate (the features are the game's: its plug-in's :class:`~gpquarto.games.capabilities.LearningEncoders`,
  else the generic ones over its ``Board``, :mod:`gpquarto.learned.board_tuples`).
- :class:`TableModel`: a table keyed by the afterstate's canonical key (:func:`table_key`), so one entry serves
  every symmetric image (the tabular Q-learning and Monte-Carlo methods); positions never seen are worth 0.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Protocol

import numpy as np

from gpquarto.games.capabilities import Board, LearningEncoders
from gpquarto.games.interface import GameState
from gpquarto.games.registry import get_plugin
from gpquarto.learned.turns import LIMIT, Turn, iter_turns, terminal_value


class Encoder(Protocol):
    """The n-tuple features of one game: weight indices of an afterstate, and every turn's value at once."""

    name: str
    game: str
    size: int

    def settings(self) -> dict[str, object]:
        """The game settings the features are for."""
        ...

    def indices(self, state: GameState) -> np.ndarray:
        """The weight indices of an afterstate that is not over."""
        ...

    def turn_values(self, state: GameState, weights: np.ndarray) -> tuple[list[Turn], np.ndarray]:
        """Every turn of the player due, and its afterstate's value (see :func:`generic_turn_values`)."""
        ...


def game_encoders(game: str) -> LearningEncoders:
    """The n-tuple features ``game`` offers: its plug-in's :class:`~gpquarto.games.capabilities.LearningEncoders`,
    else the generic features over its :class:`~gpquarto.games.capabilities.Board`
    (:mod:`gpquarto.learned.board_tuples`); a one-line ``ValueError`` for a game with neither."""
    plugin = get_plugin(game)
    if plugin.offers(LearningEncoders):
        return plugin.capability(LearningEncoders)
    if plugin.offers(Board):
        from gpquarto.learned.board_tuples import board_encoders

        return board_encoders(plugin.name)
    raise ValueError(
        f"game {plugin.name!r} has no n-tuple features for learning: its plug-in offers neither n-tuple features "
        "(LearningEncoders) nor a board of cells (Board) for the generic ones"
    )


def make_encoder(name: str, game: str, settings: dict[str, object]) -> Encoder:
    """The features called ``name`` for ``game`` under ``settings``; ``ValueError`` in one line otherwise."""
    encoders = game_encoders(game)
    if name not in encoders.factories:
        known = ", ".join(sorted(encoders.factories))
        raise ValueError(f"unknown n-tuple features {name!r} for {game} (known: {known})")
    try:
        return encoders.factories[name](**settings)
    except TypeError:  # a setting the features do not take
        raise ValueError(f"the n-tuple features {name!r} cannot take the settings {str(settings)[:100]}") from None


def default_encoder(game: str, settings: dict[str, object]) -> Encoder:
    """The default n-tuple features of ``game``; a one-line ``ValueError`` when the game has none."""
    return make_encoder(game_encoders(game).default, game, settings)


def squash(total: float) -> float:
    """A sum of weights as a value: ``tanh``, kept inside (-1, 1) so a won game always ranks first."""
    return float(min(LIMIT, max(-LIMIT, np.tanh(total))))


def generic_turn_values(state: GameState, value: Callable[[GameState], float]) -> tuple[list[Turn], np.ndarray]:
    """Every turn of the player due with its afterstate's value for that player: the true value when the
    game is over, else ``value(afterstate)``. Works for any game; slow, the reference of the fast paths."""
    mover = state.player
    turns: list[Turn] = []
    values: list[float] = []
    for turn in iter_turns(state):
        final = terminal_value(state, mover)
        turns.append(turn)
        values.append(value(state) if final is None else final)
    return turns, np.array(values)


class ValueModel(Protocol):
    """What a learned player plays from."""

    kind: str

    def value(self, afterstate: GameState) -> float:
        """The value of an afterstate that is not over, for the player who made it."""
        ...

    def turn_values(self, state: GameState) -> tuple[list[Turn], np.ndarray]:
        """Every turn of the player due in ``state`` and its value for that player."""
        ...


class NTupleModel:
    """An n-tuple network: the value of an afterstate is ``tanh`` of the sum of its features' weights."""

    kind = "ntuple"

    def __init__(self, encoder: Encoder, weights: np.ndarray | None = None) -> None:
        self.encoder = encoder
        self.weights = np.zeros(encoder.size) if weights is None else np.asarray(weights, dtype=np.float64)
        if self.weights.shape != (encoder.size,):
            raise ValueError(f"{encoder.name} needs {encoder.size} weights, got an array of shape {self.weights.shape}")

    def value(self, afterstate: GameState) -> float:
        """The value of an afterstate that is not over, for the player who made it."""
        return squash(self.weights[self.encoder.indices(afterstate)].sum())

    def turn_values(self, state: GameState) -> tuple[list[Turn], np.ndarray]:
        return self.encoder.turn_values(state, self.weights)


#: Table keys are ints below this (what a learned player's file holds: two uint64 words).
TABLE_KEY_LIMIT = 2**128


def table_key(state: GameState) -> int:
    """The table key of ``state``: its canonical key when that is an int in ``[0, 2**128)`` (Quarto's, Quixo's),
    else a 128-bit digest of the key's ``repr`` (a game whose key is a tuple, such as tic-tac-toe's; two
    positions share a digest with a chance of about 2**-128)."""
    key = state.canonical_key()
    if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < TABLE_KEY_LIMIT:
        return key
    return int.from_bytes(hashlib.blake2b(repr(key).encode("utf-8"), digest_size=16).digest(), "big")


class TableModel:
    """A table of afterstate values keyed by canonical key (one entry for all symmetric images;
    :func:`table_key`)."""

    kind = "table"

    def __init__(self, table: dict[int, float] | None = None) -> None:
        self.table: dict[int, float] = {} if table is None else table

    def value(self, afterstate: GameState) -> float:
        """The table's value of an afterstate that is not over (0 when never seen)."""
        return self.table.get(table_key(afterstate), 0.0)

    def turn_values(self, state: GameState) -> tuple[list[Turn], np.ndarray]:
        return generic_turn_values(state, self.value)
