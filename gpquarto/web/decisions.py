"""Searching players' decisions in worker processes that are killed at the time limit (see
:mod:`gpquarto.runner.killable`), so that no request can leave a search running after its forfeit.

A :class:`RemotePlayer` stands in the server for a zoo player: it keeps the player's recipe (registered
factory and parameters), seed and seat, and each decision is taken in a worker process by a player built
from the recipe there (:func:`remote_decision`; built players are kept in the worker for the next
decisions). Before each decision the worker's player is seeded from the game's seed and the position,
and told the seat (its ``new_game`` hook), so a seeded game is the same whichever worker takes which
decision. A decision over the limit raises :class:`~gpquarto.players.base.TimeLimitExceeded` (the player
forfeits as too slow) and its process is killed and replaced.

Lease a worker with :func:`worker_for` before the clock of a decision or a game starts: the wait for a free
worker does not count against the time limit.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext

from gpquarto.games.quarto.board import Board, BoardView
from gpquarto.players.base import (
    ForfeitReason,
    Player,
    PlayerQuit,
    QuartoPlayer,
    TimeLimitExceeded,
    ask_decision,
    raised_reason,
)
from gpquarto.runner.killable import CallTimeout, KillablePool, PoolClosed, Worker, WorkerDied
from gpquarto.seeding import derive_seed

#: Players built in a worker process and kept for the next decisions, at most this many (least recent out).
KEPT_PLAYERS = 8
_kept: OrderedDict[tuple, Player] = OrderedDict()


class DecisionsStopped(PlayerQuit):
    """The server is stopping: the worker processes are closed, no decision can be taken."""


def remote_decision(
    factory: Callable[..., Player], kwargs: dict, seed: int | None, seat: int, position: str
) -> tuple[bool, object]:
    """In a worker: the decision due in ``position`` by the player ``factory(**kwargs)``, seeded with ``seed``
    and told its ``seat``: ``(True, answer)``, or ``(False, why it forfeits)`` when it raised."""
    key = (factory, tuple(sorted(kwargs.items())))
    player = _kept.pop(key, None)
    try:
        if player is None:
            player = factory(**kwargs)
        _kept[key] = player
        while len(_kept) > KEPT_PLAYERS:
            _kept.popitem(last=False)
        player.seed(seed)
        player.new_game(seat)
        return True, ask_decision(player, Board.from_text(position).view())
    except (Exception, SystemExit) as error:  # the player's failure is its forfeit, reported in the server
        return False, raised_reason(error)


class RemotePlayer(QuartoPlayer):
    """A zoo player whose decisions run in ``pool``'s worker processes, within ``time_limit`` seconds each."""

    def __init__(
        self, name: str, factory: Callable[..., Player], kwargs: dict, pool: KillablePool, time_limit: float
    ) -> None:
        self.name = name
        self.pool = pool
        self.time_limit = time_limit
        self._factory = factory
        self._kwargs = {key: value for key, value in kwargs.items() if key != "seed"}
        self._seed = kwargs.get("seed")
        self._seat = 0
        #: The worker leased for this player's decisions (:func:`worker_for`), or None to lease one per decision.
        self.worker: Worker | None = None

    def seed(self, seed: int | None) -> None:
        self._seed = seed

    def new_game(self, seat: int) -> None:
        self._seat = seat

    def choose_piece(self, board: BoardView) -> int:
        return self._decide(board)  # type: ignore[return-value]  # validated by the engine

    def place_piece(self, board: BoardView, piece: int) -> int:
        return self._decide(board)  # type: ignore[return-value]

    def _decide(self, board: BoardView) -> object:
        position = board.copy().text()
        seed = None if self._seed is None else derive_seed(self._seed, position)
        arguments = (self._factory, self._kwargs, seed, self._seat, position)
        try:
            with nullcontext(self.worker) if self.worker is not None else self.pool.lease() as worker:
                ok, answer = worker.call(remote_decision, arguments, self.time_limit)
        except PoolClosed:
            raise DecisionsStopped("the server is stopping") from None
        except CallTimeout as error:
            raise TimeLimitExceeded(error.elapsed, error.limit) from None
        except WorkerDied:
            raise ForfeitReason("its process ended while it thought (out of memory?)") from None
        except RuntimeError as error:  # the answer could not be sent back
            raise ForfeitReason(f"answered something unusable ({error})") from None
        if not ok:
            raise ForfeitReason(str(answer))
        return answer


@contextmanager
def worker_for(players: Sequence[object]) -> Iterator[None]:
    """Lease one worker for the remote players among ``players`` (if any) for the block: start the clock of
    their decisions inside it. ``DecisionsStopped`` when the server stops while waiting."""
    remote = [player for player in players if isinstance(player, RemotePlayer)]
    if not remote:
        yield
        return
    try:
        with remote[0].pool.lease() as worker:
            for player in remote:
                player.worker = worker
            try:
                yield
            finally:
                for player in remote:
                    player.worker = None
    except PoolClosed:
        raise DecisionsStopped("the server is stopping") from None
