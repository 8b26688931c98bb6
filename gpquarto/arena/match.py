"""Matches: N games between two players, alternating who starts, reproducible by seed.

Results are from the perspective of the first player named (A). Game ``i`` puts A in seat ``i % 2``
(seat 0 opens by choosing a piece) and seeds both players from ``derive_seed(seed, i)``, so a match is
the same whatever else runs, and any single game can be replayed from its record. With ``openings=K`` each
pair of games starts from a seeded random position (:mod:`gpquarto.arena.openings`), so that deterministic
players do not repeat the same two games. A match counts its distinct games (start position and actions),
up to :data:`DISTINCT_LIMIT`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from gpquarto.arena.game import play_game, player_name, with_rules
from gpquarto.arena.openings import opening_seed, random_opening
from gpquarto.arena.record import GameRecord
from gpquarto.arena.stats import wilson_interval
from gpquarto.games.interface import Termination
from gpquarto.games.registry import DEFAULT_GAME, get_game
from gpquarto.players.base import Player
from gpquarto.seeding import derive_seed

#: The most distinct games a match tells apart; beyond it, it says "at least" that many.
DISTINCT_LIMIT = 100_000


def game_key(record: GameRecord) -> int:
    """A key of a game's start position and actions, the same in every process (for counting distinct games)."""
    text = record.start + ":" + ",".join(map(str, record.actions))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


@dataclass
class MatchResult:
    """Totals of a match, from A's point of view."""

    names: tuple[str, str]
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: list[int] = field(default_factory=lambda: [0, 0])  # games lost by forfeit, by A and by B
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    thinking_time: list[float] = field(default_factory=lambda: [0.0, 0.0])
    forfeit_reasons: list[str] = field(default_factory=list)
    records: list[GameRecord] = field(default_factory=list)
    #: Keys (:func:`game_key`) of the distinct games played, at most :data:`DISTINCT_LIMIT` of them.
    distinct: set[int] = field(default_factory=set, repr=False)

    @property
    def distinct_games(self) -> int:
        """How many different games were played (at least this many when it is :data:`DISTINCT_LIMIT`)."""
        return len(self.distinct)

    @property
    def score(self) -> float:
        """A's points: wins + draws / 2."""
        return self.wins + self.draws / 2

    @property
    def score_rate(self) -> float:
        """A's points per game (0..1)."""
        return self.score / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        """A's wins per game."""
        return self.wins / self.games if self.games else 0.0

    def win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of A's win rate."""
        return wilson_interval(self.wins, self.games)

    def score_interval(self) -> tuple[float, float]:
        """95% Wilson interval of A's score rate (draws count one half)."""
        return wilson_interval(self.score, self.games)

    def mean_decision_time(self, side: int) -> float:
        """Mean seconds per decision of side 0 (A) or 1 (B)."""
        return self.thinking_time[side] / self.decisions[side] if self.decisions[side] else 0.0

    def add(self, record: GameRecord, a_seat: int, keep: bool = False) -> None:
        """Count one game in which A sat in ``a_seat``."""
        self.games += 1
        if record.winner is None:
            self.draws += 1
        elif record.winner == a_seat:
            self.wins += 1
        else:
            self.losses += 1
        if record.end == Termination.FORFEIT:
            side = 0 if record.forfeited_by == a_seat else 1
            self.forfeits[side] += 1
            if len(self.forfeit_reasons) < 20:
                self.forfeit_reasons.append(f"{self.names[side]}: {record.reason}")
        for seat, elapsed in zip(record.decision_seats(), record.times, strict=True):
            side = 0 if seat == a_seat else 1
            self.decisions[side] += 1
            self.thinking_time[side] += elapsed
        if len(self.distinct) < DISTINCT_LIMIT:
            self.distinct.add(game_key(record))
        if keep:
            self.records.append(record)

    def merge(self, other: MatchResult) -> None:
        """Add another partial result of the same pairing (e.g. from a worker process)."""
        self.games += other.games
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        for side in (0, 1):
            self.forfeits[side] += other.forfeits[side]
            self.decisions[side] += other.decisions[side]
            self.thinking_time[side] += other.thinking_time[side]
        self.forfeit_reasons.extend(other.forfeit_reasons[: max(0, 20 - len(self.forfeit_reasons))])
        self.records.extend(other.records)
        room = DISTINCT_LIMIT - len(self.distinct)
        if room > 0:
            new = other.distinct - self.distinct
            self.distinct.update(new if len(new) <= room else sorted(new)[:room])


def play_match(
    player_a: Player,
    player_b: Player,
    games: int,
    *,
    names: tuple[str, str] | None = None,
    seed: int = 0,
    rules: Enum | str | None = None,
    game: str = DEFAULT_GAME,
    settings: dict[str, object] | None = None,
    time_limit: float | None = None,
    keep_records: bool = False,
    first_game: int = 0,
    openings: int = 0,
    progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """Play ``games`` games between A and B, alternating starts; see the module docstring.

    The games are of ``game`` under ``settings`` (``rules`` is a shorthand for ``settings["rules"]``; Quarto's
    default is classic). ``names`` label the two sides (default: the players' names). ``first_game`` lets workers play a slice
    ``first_game .. first_game + games - 1`` of a larger match with the same per-game seeds. ``openings``
    random plies start each pair of games (see the module docstring).
    ``progress(n)`` is called after each game with 1. To play players given by spec (names or saved
    files), on several workers, use :func:`gpquarto.jobs.matches.run_match`.
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    for player in (player_a, player_b):
        if isinstance(player, str):
            raise TypeError(
                f"play_match takes players, got the spec {player!r}: make it with gpquarto.resolve.make_player, "
                "or use gpquarto.jobs.matches.run_match"
            )
    a, b = player_a, player_b
    names = names or (player_name(a), player_name(b))
    if names[0] == names[1]:
        names = (names[0] + " (A)", names[1] + " (B)")
    result = MatchResult(names=names)
    if openings:
        the_game = get_game(game)
        settings = the_game.check_settings(with_rules(settings, rules))
    for index in range(first_game, first_game + games):
        a_seat = index % 2
        seats = (a, b) if a_seat == 0 else (b, a)
        seat_names = names if a_seat == 0 else (names[1], names[0])
        start = random_opening(the_game, settings or {}, openings, opening_seed(seed, index)) if openings else None
        record = play_game(
            seats,
            game=game,
            start=start,
            settings=None if openings else settings,
            rules=None if openings else rules,
            seed=derive_seed(seed, index),
            time_limit=time_limit,
            names=seat_names,
        )
        result.add(record, a_seat, keep=keep_records)
        if progress is not None:
            progress(1)
    return result
