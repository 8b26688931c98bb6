"""Fitness: games against a weighted mix of opponents, both seats, the same games for a whole generation.

An :class:`EvaluationTask` is plain data (the genome's rule texts, the games to play, the fallback weight
and which primitive library to load), so it can be sent to any worker; :func:`evaluate` rebuilds the
genome there from the library and plays. score = (wins + draws / 2) / games - fallback_weight x fallback
rate, where the fallback rate is the share of the player's decisions that fell back to a random action.

Seeds: the games of generation ``g`` are seeded from ``(run seed, g, game pair)`` and are the same for every
genome of the generation; ``play_game`` reseeds both players (the evolved player's fallback generator and
the opponent) from the game seed. So a result depends only on the genome and those seeds, never on which
worker plays it or how many workers there are.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from gpquarto.arena.game import play_game
from gpquarto.gp.genome import Genome
from gpquarto.gp.player import EvolvedPlayer
from gpquarto.gp.primitives import PrimitiveLibrary, shared_library
from gpquarto.resolve import make_unattended_player
from gpquarto.seeding import derive_seed


@dataclass(frozen=True)
class LibraryConfig:
    """Which primitive library a worker loads: plugin files (absolute paths), the tactical and lookahead families."""

    plugins: tuple[str, ...] = ()
    tactical: bool = True
    lookahead: bool = True


@dataclass(frozen=True)
class FitnessGame:
    """One fitness game: the opponent's spec, the evolved player's seat (0 opens) and the game seed."""

    opponent: str
    seat: int
    seed: int


@dataclass(frozen=True)
class EvaluationTask:
    """Everything needed to evaluate one genome, as plain data."""

    genome: dict
    games: tuple[FitnessGame, ...]
    fallback_weight: float
    library: LibraryConfig


@dataclass(frozen=True)
class EvaluationResult:
    """What the games gave: score, game results, decisions and fallbacks, genome size."""

    score: float
    wins: int
    draws: int
    losses: int
    fallbacks: int
    decisions: int
    size: int

    @property
    def fallback_rate(self) -> float:
        """Share of decisions that fell back to a random action."""
        return self.fallbacks / self.decisions if self.decisions else 0.0

    def as_dict(self) -> dict:
        """Plain dict of the fields."""
        return asdict(self)


def parse_opponents(text: str) -> list[tuple[str, float]]:
    """``"random:1,novice:2"`` -> ``[("random", 1.0), ("novice", 2.0)]``; specs may carry parameters
    (``"minimax:depth=2:3"`` is minimax with depth 2, weight 3); a missing weight is 1."""
    entries: list[list] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise ValueError(f"bad opponent mix {text!r}: empty entry")
        head, colon, tail = item.rpartition(":")
        weight = None
        if colon:
            try:
                weight = float(tail)
            except ValueError:
                weight = None
        spec = head if weight is not None else item
        if entries and "=" in spec.split(":")[0] and entries[-1][1] is None:
            entries[-1][0] += "," + spec  # continuation of the previous spec's parameters
            entries[-1][1] = weight
        else:
            entries.append([spec, weight])
    result = []
    for spec, weight in entries:
        weight = 1.0 if weight is None else weight
        if not spec or not math.isfinite(weight) or weight <= 0:
            raise ValueError(f"bad opponent mix {text!r}: each entry is SPEC or SPEC:WEIGHT with a weight > 0")
        result.append((spec, weight))
    return result


def allocate(weights: list[float], count: int) -> list[int]:
    """Split ``count`` among entries in proportion to ``weights`` (largest remainder, ties to the first)."""
    total = sum(weights)
    shares = [count * weight / total for weight in weights]
    counts = [math.floor(share) for share in shares]
    order = sorted(range(len(weights)), key=lambda index: (-(shares[index] - counts[index]), index))
    for index in order[: count - sum(counts)]:
        counts[index] += 1
    return counts


def game_plan(
    opponents: list[tuple[str, float]], games: int, run_seed: int, generation: int | str
) -> tuple[FitnessGame, ...]:
    """The games every genome of ``generation`` plays: pairs with the same seed and swapped seats.

    ``generation`` may also be a label (``"final"``) for games outside the generations.
    """
    if games < 2 or games % 2:
        raise ValueError(f"the number of fitness games must be a positive even number (both seats), got {games}")
    pairs = allocate([weight for _, weight in opponents], games // 2)
    plan = []
    pair = 0
    for (spec, _), count in zip(opponents, pairs, strict=True):
        for _ in range(count):
            seed = derive_seed(run_seed, "fitness", generation, pair)
            plan += [FitnessGame(spec, 0, seed), FitnessGame(spec, 1, seed)]
            pair += 1
    return tuple(plan)


_OPPONENTS: dict[str, object] = {}


def get_library(config: LibraryConfig) -> PrimitiveLibrary:
    """The primitive library for ``config``, loaded once per process (plugins are re-loaded in each worker)."""
    return shared_library(config.plugins, tactical=config.tactical, lookahead=config.lookahead)


def _opponent(spec: str):
    player = _OPPONENTS.get(spec)
    if player is None:
        player = _OPPONENTS[spec] = make_unattended_player(spec)
    return player


def play(players: tuple, seed: int) -> int | None:
    """Play one game from the empty board; the winning seat, or None for a draw."""
    return play_game(players, seed=seed).winner


def play_games(player: EvolvedPlayer, games: tuple[FitnessGame, ...]) -> tuple[int, int, int]:
    """Play ``games`` with ``player``; (wins, draws, losses)."""
    wins = draws = losses = 0
    for game in games:
        opponent = _opponent(game.opponent)
        players = (player, opponent) if game.seat == 0 else (opponent, player)
        winner = play(players, game.seed)
        if winner is None:
            draws += 1
        elif winner == game.seat:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def evaluate(task: EvaluationTask) -> EvaluationResult:
    """Rebuild the genome from its texts and play the task's games (a module-level function: picklable)."""
    library = get_library(task.library)
    genome = Genome.from_data(task.genome, library.primitive_set())
    player = EvolvedPlayer(genome, library, seed=0)  # play_game reseeds it for every game
    wins, draws, losses = play_games(player, task.games)
    games = len(task.games)
    decisions, fallbacks = player.decisions, player.fallbacks
    rate = fallbacks / decisions if decisions else 0.0
    score = (wins + draws / 2) / games - task.fallback_weight * rate
    return EvaluationResult(score, wins, draws, losses, fallbacks, decisions, genome.size)
