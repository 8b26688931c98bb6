"""Node types of the GP trees: marker classes that DEAP's ``issubclass``-based typing can tell apart.

The markers only type the trees. At run time primitives pass plain ``int`` values around (building a
``Square`` instance per call would cost time for nothing); predicates return plain ``bool``. Markers are
deliberately unrelated subclasses of ``int``: ``bool`` is a subclass of ``int``, so an ``int`` slot would
accept predicates, and ``typing.NewType`` is not a class at all.

A then-tree may propose nothing: a ``Square``, ``Piece`` or ``Move`` node returns :data:`NO_ACTION` (-1) when
it has no proposal in the position. ``bool``, ``Count`` and ``Score`` are neutral; the other types belong to one
game (see :mod:`gpquarto.gp.binding`): ``Square``, ``Piece`` and ``Characteristic`` to Quarto, ``Move`` to Quixo;
``Action`` to every game bound generically (:mod:`gpquarto.gp.generic`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # To a type checker the node types are ``int``: the values primitives pass around are plain ints (see above),
    # so a primitive annotated ``-> Square`` returns an ``int``. DEAP reads the classes below at run time.
    Square = int
    Piece = int
    Count = int
    Characteristic = int
    Move = int
    Action = int
    Score = int
else:

    class Square(int):
        """A square 0..15 (row-major, ``4*row + col``), or ``NO_ACTION``."""

    class Piece(int):
        """A piece 0..15 (bits: tall, coloured, solid, square), or ``NO_ACTION``."""

    class Count(int):
        """A small integer: a number of pieces, lines, squares... (may be negative after ``sub``)."""

    class Characteristic(int):
        """One of the eight characteristics 0..7, indexed like ``gpquarto.games.quarto.pieces.CHARACTERISTIC_NAMES``."""

    class Move(int):
        """A Quixo action (``4*cell + direction``, as :meth:`~gpquarto.games.quixo.board.QuixoBoard.legal_actions`
        lists them), or ``NO_ACTION``. Only Quixo trees hold ``Move`` nodes."""

    class Action(int):
        """An action of a game bound by the generic binding (:mod:`gpquarto.gp.generic`): the game's own action int,
        or ``NO_ACTION``. ``Action`` nodes belong to every generically bound game, and to no other."""

    class Score(int):
        """A number an evaluator tree computes for a position (integer, saturated at +-``SCORE_LIMIT``).

        Only evaluator trees hold ``Score`` nodes: rule trees are built from the primitives that never mention it
        (see :meth:`~gpquarto.gp.primitives.PrimitiveLibrary.primitive_set`).
        """


#: What a ``Square``, ``Piece``, ``Move`` or ``Action`` node returns when it has nothing to propose.
NO_ACTION = -1

#: Largest absolute value of a ``Score`` node: evaluator arithmetic saturates there.
SCORE_LIMIT = 10_000

#: Every type a tree node may have, in a stable order (used in messages and listings).
NODE_TYPES: tuple[type, ...] = (bool, Square, Piece, Count, Characteristic, Score, Move, Action)
#: The types an evaluator tree may hold: no squares or pieces (an evaluator scores a position, it proposes no move).
EVALUATOR_NODE_TYPES: tuple[type, ...] = (bool, Count, Characteristic, Score)


def type_name(type_: type) -> str:
    """The name of a node type as written in signatures (``bool``, ``Square``...)."""
    return type_.__name__


def better(a: int, b: int, score: Callable[[int], int], *, higher: bool) -> int:
    """``a`` or ``b``, whichever scores higher (or lower); ``a`` on ties; the other when one is NO_ACTION."""
    if a == NO_ACTION:
        return b
    if b == NO_ACTION:
        return a
    score_a, score_b = score(a), score(b)
    return a if (score_a >= score_b if higher else score_a <= score_b) else b
