"""Matches and tournaments between players given by spec, on any runner, identical to a serial run.

A match is cut into contiguous slices of games; each task rebuilds both players from their specs (zoo
names; a saved player, and the evaluator file of ``minimax:...,evaluator=FILE``, travel as their plain data, so
workers on other machines need no file) and plays its slice with the same per-game seeds as one serial
:func:`~gpquarto.arena.match.play_match`, so the totals do not depend on the runner or its workers.

Example::

    >>> result = run_match("random", "novice", 20, seed=1)
    >>> result.names, result.games
    (('random', 'novice'), 20)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from gpquarto.arena.game import with_rules
from gpquarto.arena.match import MatchResult, play_match
from gpquarto.arena.openings import MAX_OPENING_PLIES
from gpquarto.arena.ratings import DEFAULT_PRIOR_SD
from gpquarto.arena.tournament import TournamentResult, pairing_seed, tournament_result
from gpquarto.games.interface import Game
from gpquarto.games.registry import DEFAULT_GAME, get_game
from gpquarto.gp.evaluator_files import read_evaluator_file
from gpquarto.gp.evaluator_player import evaluator_file, evaluator_player, is_evaluator_spec
from gpquarto.learned.storage import LEARNED_SUFFIX
from gpquarto.resolve import (
    check_player_specs,
    is_player_file,
    make_unattended_player,
    player_from_saved,
    read_saved_player,
)
from gpquarto.runner import Runner, SerialRunner

#: The most games in one task: small enough for a progress bar to move, large enough to keep overhead low.
MAX_SLICE = 200
#: The most tasks handed to the runner at once: tasks are made as they are needed, so a long match holds
#: a bounded number of them (a smaller match is one map, as before).
CHUNK_TASKS = 5_000
#: The most games per match (per pairing of a tournament): about 11 hours of random games on one core.
MAX_GAMES = 1_000_000_000


@dataclass(frozen=True)
class MatchSlice:
    """Games ``first_game .. first_game + games - 1`` of the match between two specs (plain data, for workers)."""

    pairing: int
    spec_a: str
    spec_b: str
    first_game: int
    games: int
    seed: int
    game: str
    #: The game's settings as sorted (name, value) pairs (``rules`` for Quarto), complete with the defaults.
    settings: tuple[tuple[str, object], ...]
    time_limit: float | None
    keep_records: bool
    plugins: tuple[str, ...] = ()
    #: Saved players' data by spec: workers, maybe on other machines, build them from it, not from a path.
    saved: tuple[tuple[str, dict], ...] = ()
    #: Random plies that start each pair of games (:mod:`gpquarto.arena.openings`).
    openings: int = 0


def _player(spec: str, task: MatchSlice):
    saved = dict(task.saved)
    if spec in saved and is_evaluator_spec(spec):
        return evaluator_player(spec, game=task.game, seed=task.seed, plugins=task.plugins or None, data=saved[spec])
    if spec in saved:
        return player_from_saved(saved[spec], seed=task.seed, plugins=task.plugins or None, source=spec, game=task.game)
    return make_unattended_player(spec, seed=task.seed, plugins=task.plugins or None, game=task.game)


def play_slice(task: MatchSlice) -> MatchResult:
    """Build both players from their specs (or saved data) and play the slice (module-level: it runs in workers)."""
    player_a = _player(task.spec_a, task)
    player_b = _player(task.spec_b, task)
    return play_match(
        player_a,
        player_b,
        task.games,
        names=_side_names(task.spec_a, task.spec_b),
        seed=task.seed,
        game=task.game,
        settings=dict(task.settings),
        time_limit=task.time_limit,
        keep_records=task.keep_records,
        first_game=task.first_game,
        openings=task.openings,
    )


def _side_names(spec_a: str, spec_b: str) -> tuple[str, str]:
    return (spec_a + " (A)", spec_b + " (B)") if spec_a == spec_b else (spec_a, spec_b)


def run_matches(
    pairings: Sequence[tuple[str, str, int]],
    games: int,
    *,
    rules: Enum | str | None = None,
    game: str = DEFAULT_GAME,
    settings: dict[str, object] | None = None,
    time_limit: float | None = None,
    keep_records: bool = False,
    plugins: Sequence[str] = (),
    runner: Runner | None = None,
    progress: Callable[[int], None] | None = None,
    openings: int = 0,
) -> list[MatchResult]:
    """Matches of ``games`` games of ``game`` under ``settings`` (``rules``: a shorthand for
    ``settings["rules"]``), ``pairings[k] = (spec_a, spec_b, seed)``, all on one runner; results in the order
    of ``pairings``. Every spec and setting is checked here, before any game; ``progress(n)`` counts games.
    Tasks are made as they are needed, in chunks of :data:`CHUNK_TASKS`, so memory stays bounded. ``openings``
    random plies start each pair of games (:mod:`gpquarto.arena.openings`)."""
    if not 0 <= games <= MAX_GAMES:
        raise ValueError(f"games must be 0 to {MAX_GAMES:,} per match, got {games:,}")
    if not 0 <= openings <= MAX_OPENING_PLIES:
        raise ValueError(f"an opening has 0 to {MAX_OPENING_PLIES} random plies, got {openings}")
    the_game = get_game(game)
    settings = match_settings(the_game, rules, settings)
    saved: dict[str, dict] = {}
    for spec_a, spec_b, _ in pairings:
        for spec in (spec_a, spec_b):
            make_unattended_player(spec, plugins=plugins or None, game=the_game.name)  # a bad spec fails here
            if is_player_file(spec):
                saved[spec] = read_saved_player(spec)
            elif is_evaluator_spec(spec) and not evaluator_file(spec).lower().endswith(LEARNED_SUFFIX):
                saved[spec] = read_evaluator_file(evaluator_file(spec))  # a learned evaluator is read by path
    runner = runner or SerialRunner()
    size = max(1, min(MAX_SLICE, -(-games // (runner.workers * 4)))) if games else 1
    tasks = (
        MatchSlice(
            number,
            a,
            b,
            start,
            min(size, games - start),
            seed,
            the_game.name,
            tuple(sorted(settings.items())),
            time_limit,
            keep_records,
            tuple(plugins),
            tuple((spec, saved[spec]) for spec in (a, b) if spec in saved),
            openings,
        )
        for number, (a, b, seed) in enumerate(pairings)
        for start in range(0, games, size)
    )
    count_games = None if progress is None else (lambda parts: progress(sum(part.games for part in parts)))
    results = [MatchResult(names=_side_names(a, b)) for a, b, _ in pairings]
    while chunk := list(itertools.islice(tasks, CHUNK_TASKS)):  # made as they are needed: memory stays bounded
        for task, part in zip(chunk, runner.map(play_slice, chunk, progress=count_games, batch_size=1), strict=True):
            results[task.pairing].merge(part)
    return results


def match_settings(game: Game, rules: Enum | str | None, settings: dict[str, object] | None) -> dict[str, object]:
    """The complete, checked settings of ``game`` that ``rules`` (a shorthand) and ``settings`` ask for."""
    return game.check_settings(with_rules(settings, rules))


def run_match(
    spec_a: str,
    spec_b: str,
    games: int,
    *,
    seed: int = 0,
    rules: Enum | str | None = None,
    game: str = DEFAULT_GAME,
    settings: dict[str, object] | None = None,
    time_limit: float | None = None,
    keep_records: bool = False,
    plugins: Sequence[str] = (),
    runner: Runner | None = None,
    progress: Callable[[int], None] | None = None,
    openings: int = 0,
) -> MatchResult:
    """A match between two player specs (see the module docstring), serial unless a runner is given."""
    return run_matches(
        [(spec_a, spec_b, seed)],
        games,
        rules=rules,
        game=game,
        settings=settings,
        time_limit=time_limit,
        keep_records=keep_records,
        plugins=plugins,
        runner=runner,
        progress=progress,
        openings=openings,
    )[0]


def run_tournament(
    specs: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    rules: Enum | str | None = None,
    game: str = DEFAULT_GAME,
    settings: dict[str, object] | None = None,
    time_limit: float | None = None,
    keep_records: bool = False,
    prior_sd: float | None = DEFAULT_PRIOR_SD,
    plugins: Sequence[str] = (),
    runner: Runner | None = None,
    progress: Callable[[int], None] | None = None,
    openings: int = 0,
) -> TournamentResult:
    """A round robin of ``games`` games per pairing between ``specs``, then the ratings.

    Every spec is checked before any game is played; the result does not depend on the runner.
    """
    if games < 1:
        raise ValueError(f"games per pairing must be >= 1, got {games}")
    specs = tuple(specs)
    check_player_specs(specs, plugins=plugins or None, game=get_game(game).name)
    pairs = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    the_game = get_game(game)
    settings = match_settings(the_game, rules, settings)
    results = run_matches(
        [(specs[i], specs[j], pairing_seed(seed, i, j)) for i, j in pairs],
        games,
        game=game,
        settings=settings,
        time_limit=time_limit,
        keep_records=keep_records,
        plugins=plugins,
        runner=runner,
        progress=progress,
        openings=openings,
    )
    return tournament_result(
        specs,
        games,
        dict(zip(pairs, results, strict=True)),
        seed=seed,
        rules=str(settings.get("rules", "")),
        game=the_game.name,
        prior_sd=prior_sd,
    )
