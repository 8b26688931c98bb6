"""Round-robin tournaments: every pair of players plays a match, then Bradley-Terry ratings rank them.

Player ``i`` meets player ``j`` (``i < j``) in a match of ``games`` games with alternating starts, from
``i``'s point of view, seeded with :func:`pairing_seed`: each pairing's games depend only on the seed,
the two positions in the list and the two players, never on the number of workers. The matches are
played by :func:`gpquarto.jobs.matches.run_tournament`; this module holds the result, the tables and the
CSV files. The ratings are fitted by :mod:`gpquarto.arena.ratings`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from gpquarto.arena.match import MatchResult
from gpquarto.arena.ratings import DEFAULT_PRIOR_SD, Ratings, fit_ratings
from gpquarto.games.registry import DEFAULT_GAME, get_game
from gpquarto.seeding import derive_seed


@dataclass(frozen=True)
class Totals:
    """One player's totals over the whole tournament."""

    games: int
    wins: int
    draws: int
    losses: int
    forfeits: int
    decisions: int
    thinking_time: float

    @property
    def score_rate(self) -> float:
        """Points per game (wins + draws / 2), 0..1."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def mean_decision_ms(self) -> float:
        """Mean milliseconds per decision."""
        return 1000 * self.thinking_time / self.decisions if self.decisions else 0.0


@dataclass
class TournamentResult:
    """The matches of a round robin (``matches[i, j]`` for ``i < j``, from ``i``'s side) and the ratings."""

    players: tuple[str, ...]
    games: int
    seed: int
    rules: str
    matches: dict[tuple[int, int], MatchResult]
    ratings: Ratings
    game: str = DEFAULT_GAME

    def distinct_games(self, i: int, j: int) -> int:
        """How many different games (start position and actions) players ``i`` and ``j`` played (see
        :attr:`~gpquarto.arena.match.MatchResult.distinct_games`). Two deterministic players repeat the same two
        games (one per seat) however many games are asked for, and the intervals then overstate what was
        measured, unless the games start from random openings."""
        return self.matches[min(i, j), max(i, j)].distinct_games

    def repetition_warnings(self) -> list[str]:
        """One line per pairing whose games are mostly repeats (fewer distinct games than half the games)."""
        warnings = []
        for i, j in sorted(self.matches):
            distinct = self.distinct_games(i, j)
            if distinct < self.matches[i, j].games / 2:
                warnings.append(
                    f"warning: {self.players[i]} vs {self.players[j]}: only {distinct} distinct games of "
                    f"{self.matches[i, j].games}; deterministic play repeats games, so the intervals overstate the "
                    "evidence (--openings K starts each pair of games from K random plies)"
                )
        return warnings

    def match(self, i: int, j: int) -> tuple[int, int, int]:
        """(wins, draws, losses) of player ``i`` against player ``j``."""
        if i == j:
            raise ValueError("a player does not play itself")
        result = self.matches[min(i, j), max(i, j)]
        return (result.wins, result.draws, result.losses) if i < j else (result.losses, result.draws, result.wins)

    def points_matrix(self) -> np.ndarray:
        """``points[i, j]``: what ``i`` scored against ``j`` (wins + draws / 2)."""
        return pairwise_matrices(len(self.players), self.matches)[0]

    def games_matrix(self) -> np.ndarray:
        """``games[i, j]``: games played between ``i`` and ``j``."""
        return pairwise_matrices(len(self.players), self.matches)[1]

    def score_matrix(self) -> np.ndarray:
        """``score[i, j]``: ``i``'s score rate against ``j`` (NaN on the diagonal)."""
        games = self.games_matrix()
        with np.errstate(invalid="ignore", divide="ignore"):
            score = self.points_matrix() / games
        np.fill_diagonal(score, np.nan)
        return score

    def totals(self, i: int) -> Totals:
        """Player ``i``'s totals over all its matches."""
        wins = draws = losses = forfeits = decisions = 0
        thinking = 0.0
        for (a, b), result in self.matches.items():
            if i not in (a, b):
                continue
            side = 0 if i == a else 1
            won, drawn, lost = self.match(i, b if i == a else a)
            wins, draws, losses = wins + won, draws + drawn, losses + lost
            forfeits += result.forfeits[side]
            decisions += result.decisions[side]
            thinking += result.thinking_time[side]
        return Totals(wins + draws + losses, wins, draws, losses, forfeits, decisions, thinking)


def pairwise_matrices(count: int, matches: dict[tuple[int, int], MatchResult]) -> tuple[np.ndarray, np.ndarray]:
    """``(points, games)``: ``points[i, j]`` is what ``i`` scored against ``j``, ``games[i, j]`` the games
    between them, from matches keyed ``(i, j)`` with ``i < j`` and counted from ``i``'s side."""
    points = np.zeros((count, count))
    games = np.zeros((count, count))
    for (i, j), match in matches.items():
        points[i, j] = match.score
        points[j, i] = match.games - match.score
        games[i, j] = games[j, i] = match.games
    return points, games


def pairing_seed(seed: int, i: int, j: int) -> int:
    """The seed of the match between players ``i`` and ``j`` (``i < j``)."""
    return derive_seed(seed, i, j)


def tournament_result(
    players: Sequence[str],
    games: int,
    matches: dict[tuple[int, int], MatchResult],
    *,
    seed: int = 0,
    rules: object = "",
    game: str = DEFAULT_GAME,
    prior_sd: float | None = DEFAULT_PRIOR_SD,
) -> TournamentResult:
    """The result of a round robin whose ``matches`` (keyed ``(i, j)``, ``i < j``) were played: the ratings
    are fitted here."""
    points, played = pairwise_matrices(len(players), matches)
    ratings = fit_ratings(tuple(players), points, played, prior_sd=prior_sd)
    rule_set = str(getattr(rules, "value", rules))  # a rule set's enum member or its name; "" for none
    return TournamentResult(tuple(players), games, seed, rule_set, matches, ratings, get_game(game).name)


def format_table(
    result: TournamentResult, extra_columns: Mapping[str, Sequence[str]] | None = None, settings: str = ""
) -> str:
    """The ranked table: rank, player, rating ± 95% interval, score, W/D/L, time per decision, forfeits, then
    ``extra_columns`` (title -> one cell per player, in the order of ``result.players``), e.g. accuracy. The first
    line names the game and its rules, or ``settings`` when given (``"quixo, official rules, size 4, ..."``)."""
    ratings = result.ratings
    extra_columns = extra_columns or {}
    widths = {title: max(len(title), *(len(cell) for cell in cells)) for title, cells in extra_columns.items()}
    width = max(6, *(len(name) for name in result.players))
    header = f"{'rank':>4}  {'player':<{width}}  {'rating':>6} {'± 95%':>6}  {'score':>6}  {'W/D/L':>15}  {'ms/decision':>11}  {'forfeits':>8}"
    header += "".join(f"  {title:>{widths[title]}}" for title in extra_columns)
    lines = [
        f"round robin: {len(result.players)} players, {result.games} games per pairing, "
        + (f"{settings}, " if settings else f"{result.game}, " + (f"{result.rules} rules, " if result.rules else ""))
        + f"seed {result.seed}",
        header,
    ]
    for rank, index in enumerate(ratings.ranking(), start=1):
        totals = result.totals(index)
        record = f"{totals.wins}/{totals.draws}/{totals.losses}"
        lines.append(
            f"{rank:>4}  {result.players[index]:<{width}}  {ratings.ratings[index]:>6.0f} {ratings.half_width(index):>6.0f}  "
            f"{totals.score_rate:>6.1%}  {record:>15}  {totals.mean_decision_ms:>11.3f}  {totals.forfeits:>8}"
            + "".join(f"  {cells[index]:>{widths[title]}}" for title, cells in extra_columns.items())
        )
    prior = "no prior" if ratings.prior_sd is None else f"weak Gaussian prior, sd {ratings.prior_sd:g}"
    lines.append(f"Bradley-Terry ratings on the Elo scale, mean 1500, draws count half ({prior})")
    lines.extend(result.repetition_warnings())
    return "\n".join(lines)


def pairings_csv(result: TournamentResult) -> str:
    """One row per pairing, from A's point of view, with the 95% Wilson interval of A's score rate."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "player_a",
            "player_b",
            "games",
            "wins",
            "draws",
            "losses",
            "score",
            "score_ci_low",
            "score_ci_high",
            "forfeits_a",
            "forfeits_b",
        ]
    )
    for (i, j), match in sorted(result.matches.items()):
        low, high = match.score_interval()
        writer.writerow(
            [result.players[i], result.players[j], match.games, match.wins, match.draws, match.losses]
            + [f"{match.score_rate:.4f}", f"{low:.4f}", f"{high:.4f}", match.forfeits[0], match.forfeits[1]]
        )
    return out.getvalue()


def ratings_csv(result: TournamentResult) -> str:
    """One row per player, best first: rating, its 95% interval and standard error, and totals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["rank", "player", "rating", "ci_low", "ci_high", "standard_error", "games", "wins", "draws", "losses", "score"]
    )
    ratings = result.ratings
    for rank, index in enumerate(ratings.ranking(), start=1):
        low, high = ratings.interval(index)
        totals = result.totals(index)
        writer.writerow(
            [rank, result.players[index], f"{ratings.ratings[index]:.1f}", f"{low:.1f}", f"{high:.1f}"]
            + [
                f"{ratings.standard_errors[index]:.1f}",
                totals.games,
                totals.wins,
                totals.draws,
                totals.losses,
                f"{totals.score_rate:.4f}",
            ]
        )
    return out.getvalue()


def games_csv(result: TournamentResult) -> str:
    """One row per game (needs ``keep_records=True``): A's seat (0 moves first), A's result, how it ended, the
    number of actions played (plies), the game seed, the actions in the game's encoding (Quarto's: 0-15 choose
    that piece, 16-31 place on square ``action - 16``) and the start position (a random opening's, or the game's
    own)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["player_a", "player_b", "game", "a_seat", "a_result", "end", "plies", "seed", "actions", "start"])
    for (i, j), match in sorted(result.matches.items()):
        for game, record in enumerate(match.records):
            a_seat = game % 2
            outcome = "draw" if record.winner is None else ("win" if record.winner == a_seat else "loss")
            actions = " ".join(str(action) for action in record.actions)
            writer.writerow(
                [
                    result.players[i],
                    result.players[j],
                    game,
                    a_seat,
                    outcome,
                    record.end,
                    len(record.actions),
                    record.seed,
                    actions,
                    record.start,
                ]
            )
    return out.getvalue()
