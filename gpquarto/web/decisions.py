"""Searching players' decisions in worker processes that are killed at the time limit (see
:mod:`gpquarto.runner.killable`), so that no request can leave a search running after its forfeit.

A :class:`RemotePlayer` stands in the server for a zoo player: it keeps the player's recipe (registered
factory and parameters), seed and seat, and each decision is taken in a worker process by a player built
from the recipe there (:func:`remote_decision`; built players are kept in the worker for the next
decisions). The worker rebuilds the game's state (any game of the interface) from its start position and the
actions since, so a player that looks at the history (Quixo's repetitions) sees it. Before each decision the
worker's player is seeded from the game's seed and the position, and told the seat (its ``new_game`` hook), so
a seeded game is the same whichever worker takes which decision. A decision over the limit raises :class:`~gpquarto.players.base.TimeLimitExceeded` (the player
forfeits as too slow) and its process is killed and replaced.

Lease a worker with :func:`worker_for` before the clock of a decision or a game starts: the wait for a free
worker does not count against the time limit.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext

from gpquarto.games.interface import GameView
from gpquarto.games.registry import get_game
from gpquarto.players.base import (
    BasePlayer,
    ForfeitReason,
    Player,
    PlayerQuit,
    TimeLimitExceeded,
    raised_reason,
)
from gpquarto.runner.killable import CallTimeout, KillablePool, PoolClosed, Worker, WorkerDied
from gpquarto.search.budget import search_share, time_budget
from gpquarto.seeding import derive_seed

#: Players built in a worker process and kept for the next decisions, at most this many (least recent out).
KEPT_PLAYERS = 8
_kept: OrderedDict[tuple, Player] = OrderedDict()


class DecisionsStopped(PlayerQuit):
    """The server is stopping: the worker processes are closed, no decision can be taken."""


def remote_decision(
    factory: Callable[..., Player],
    kwargs: dict,
    seed: int | None,
    seat: int,
    game: str,
    settings: dict,
    start: str,
    actions: tuple[int, ...],
    time_limit: float | None = None,
) -> tuple[bool, object]:
    """In a worker: the action due after ``actions`` from the ``start`` position of ``game`` under ``settings``,
    decided by the player ``factory(**kwargs)`` seeded with ``seed`` and told its ``seat``, its searches within
    their share of ``time_limit`` (:mod:`gpquarto.search.budget`): ``(True, action)``, or
    ``(False, why it forfeits)`` when it raised."""
    key = (factory, tuple(sorted(kwargs.items())))
    player = _kept.pop(key, None)
    try:
        if player is None:
            player = factory(**kwargs)
        _kept[key] = player
        while len(_kept) > KEPT_PLAYERS:
            _kept.popitem(last=False)
        state = get_game(game).from_text(start, **settings)
        for action in actions:
            state.apply(action)
        player.seed(seed)
        with time_budget(None if time_limit is None else search_share(time_limit)):
            player.new_game(seat)  # in the budget, as in a match: a player that will search within it prepares
            return True, player.decide(state.view())
    except (Exception, SystemExit) as error:  # the player's failure is its forfeit, reported in the server
        return False, raised_reason(error)


class RemotePlayer(BasePlayer):
    """A zoo player whose decisions run in ``pool``'s worker processes, within ``time_limit`` seconds each;
    ``game`` is the game it plays (None: any)."""

    def __init__(
        self,
        name: str,
        factory: Callable[..., Player],
        kwargs: dict,
        pool: KillablePool,
        time_limit: float,
        game: str | None = None,
    ) -> None:
        self.name = name
        self.game = game
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

    def decide(self, view: GameView) -> int:
        """The action the player answers in a worker process (validated by the game, not here)."""
        state = view.copy()
        position, actions, settings = state.text(), state.history, state.settings()
        for _ in actions:
            state.undo()
        seed = None if self._seed is None else derive_seed(self._seed, position)
        arguments = (
            self._factory,
            self._kwargs,
            seed,
            self._seat,
            view.game_name,
            settings,
            state.text(),
            actions,
            self.time_limit,
        )
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
