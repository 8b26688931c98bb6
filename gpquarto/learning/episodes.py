"""Episodes: games the learner plays from a frozen model, each seeded by (run seed, episode index) alone.

A batch of episodes is cut into chunks of :data:`CHUNK` episodes (whatever the number of workers), each
chunk carries the frozen model as plain data, and a worker returns one :class:`Trajectory` per learning
seat. The learners merge them in episode order, so one worker or many give the same model.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from gpquarto.games.interface import GameState
from gpquarto.games.registry import get_game
from gpquarto.learned.models import NTupleModel, TableModel, ValueModel, default_encoder, table_key
from gpquarto.learned.turns import Turn
from gpquarto.learning.config import SELF, LearnConfig
from gpquarto.players.base import Player
from gpquarto.seeding import derive_seed
from gpquarto.training.fitness import allocate, parse_opponents

#: Episodes per task sent to a worker (fixed, so the cut does not depend on the number of workers).
CHUNK = 25


@dataclass
class Trajectory:
    """What one learning seat saw in one episode.

    ``afterstates`` are the seat's non-final afterstates in order (n-tuple: weight indices; tables: canonical
    keys); ``best[i]`` is the best value the seat saw among its turns at decision ``i`` (from the frozen
    model; ``best[i + 1]`` is the Q-learning target of afterstate ``i``), ``reward`` the game's result for
    the seat (+1, 0, -1).
    """

    episode: int
    seat: int
    afterstates: list
    best: list[float]
    reward: float


@dataclass(frozen=True)
class EpisodeChunk:
    """Episodes ``first .. first + count - 1`` of a run, with the frozen model (plain data, for workers)."""

    config: dict
    model: object  # n-tuple weights (an array), or the table (a dict)
    first: int
    count: int


def opponent_of(config: LearnConfig, episode: int) -> str:
    """The opponent of ``episode``: the mix's entries in proportion to their weights, in a fixed cycle of
    100 episodes (``self`` for self-play)."""
    mix = parse_opponents(config.opponents)
    counts = allocate([weight for _, weight in mix], 100)
    cycle = [spec for (spec, _), count in zip(mix, counts, strict=True) for _ in range(count)]
    return cycle[episode % len(cycle)] if cycle else mix[0][0]


def make_model(config: LearnConfig, payload: object) -> ValueModel:
    """The model of ``config.method`` from its plain payload."""
    if config.method == "td-ntuple":
        return NTupleModel(default_encoder(config.game, config.settings), payload)  # type: ignore[arg-type]  # the method's payload
    return TableModel(payload)  # type: ignore[arg-type]  # the method's payload


def describe_afterstate(model: ValueModel, state: GameState) -> np.ndarray | Hashable:
    """What a trajectory keeps of an afterstate: its weight indices, or its table key (its canonical key)."""
    if isinstance(model, NTupleModel):
        return model.encoder.indices(state).astype(np.int32)
    return table_key(state)


_OPPONENTS: dict[tuple[str, str], Player] = {}


def _opponent(spec: str, game: str) -> Player:
    """A zoo or saved player (made once per process; seeded before every episode)."""
    from gpquarto.resolve import make_unattended_player

    key = (game, spec)
    if key not in _OPPONENTS:
        _OPPONENTS[key] = make_unattended_player(spec, game=game)
    return _OPPONENTS[key]


def play_episode(config: LearnConfig, model: ValueModel, episode: int) -> list[Trajectory]:
    """Play ``episode`` of the run and return the trajectories of its learning seats."""
    rng = random.Random(derive_seed(config.seed, "episode", episode))
    spec = opponent_of(config, episode)
    epsilon = config.epsilon(episode)
    state = get_game(config.game).new_state(**config.settings)
    learners = (0, 1) if spec == SELF else (episode % 2,)
    opponent = None
    if spec != SELF:
        opponent = _opponent(spec, config.game)
        opponent.seed(derive_seed(config.seed, "opponent", episode))
        opponent.new_game(1 - learners[0])
    trajectories = {seat: Trajectory(episode, seat, [], [], 0.0) for seat in learners}
    while not state.is_over():
        seat = state.player
        if seat not in trajectories:
            state.apply(opponent.decide(state.view()))  # type: ignore[union-attr]  # set for other seats
            continue
        turns, values = model.turn_values(state)
        index = rng.randrange(len(turns)) if rng.random() < epsilon else int(np.argmax(values))
        turn: Turn = turns[index]
        record = trajectories[seat]
        record.best.append(float(values.max()))
        for action in turn:
            state.apply(action)
        if not state.is_over():
            record.afterstates.append(describe_afterstate(model, state))
    outcome = state.outcome()
    assert outcome is not None
    for seat, record in trajectories.items():
        record.reward = 2.0 * outcome.score(seat) - 1.0
    return list(trajectories.values())


def play_chunk(chunk: EpisodeChunk) -> list[Trajectory]:
    """Play a chunk's episodes (module-level: it runs in workers)."""
    config = LearnConfig.from_dict(chunk.config)
    model = make_model(config, chunk.model)
    trajectories: list[Trajectory] = []
    for episode in range(chunk.first, chunk.first + chunk.count):
        trajectories.extend(play_episode(config, model, episode))
    return trajectories
