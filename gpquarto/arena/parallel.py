"""Run a match's games (or several matches', for a tournament) on local processes, identical to a serial run.

Games are cut into contiguous slices; each worker rebuilds both players from their specs and plays its
slice with the same per-game seeds as :func:`~gpquarto.arena.match.play_match` would, so the totals do
not depend on the number of workers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from gpquarto.arena.match import MatchResult, play_match
from gpquarto.engine.lines import Rules


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _slice(args: tuple) -> MatchResult:
    spec_a, spec_b, games, seed, rules, time_limit, keep_records, first_game = args
    return play_match(
        spec_a,
        spec_b,
        games,
        seed=seed,
        rules=rules,
        time_limit=time_limit,
        keep_records=keep_records,
        first_game=first_game,
    )


def play_match_parallel(
    spec_a: str,
    spec_b: str,
    games: int,
    *,
    seed: int = 0,
    rules: Rules | str = Rules.CLASSIC,
    time_limit: float | None = None,
    keep_records: bool = False,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """Like :func:`play_match` for two player specs, spread over ``workers`` processes."""
    return play_matches_parallel(
        [(spec_a, spec_b, seed)],
        games,
        rules=rules,
        time_limit=time_limit,
        keep_records=keep_records,
        workers=workers,
        progress=progress,
    )[0]


def play_matches_parallel(
    pairings: Sequence[tuple[str, str, int]],
    games: int,
    *,
    rules: Rules | str = Rules.CLASSIC,
    time_limit: float | None = None,
    keep_records: bool = False,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[MatchResult]:
    """Several matches of ``games`` games each, ``pairings[k] = (spec_a, spec_b, seed)``, sharing one pool
    of ``workers`` processes; returns the results in the order of ``pairings`` (a tournament's round robin)."""
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    rules = Rules(rules)
    if workers == 1 or len(pairings) * games < 2:
        return [
            play_match(
                a, b, games, seed=seed, rules=rules, time_limit=time_limit, keep_records=keep_records, progress=progress
            )
            for a, b, seed in pairings
        ]
    chunk = max(1, min(200, -(-games // (workers * 4))))  # per pairing, as for a single match
    slices = [
        (number, (a, b, min(chunk, games - start), seed, rules, time_limit, keep_records, start))
        for number, (a, b, seed) in enumerate(pairings)
        for start in range(0, games, chunk)
    ]
    parts: dict[tuple[int, int], MatchResult] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_slice, item): (number, item[-1]) for number, item in slices}
        for future in as_completed(futures):
            part = parts[futures[future]] = future.result()
            if progress is not None:
                progress(part.games)
    results: list[MatchResult | None] = [None] * len(pairings)
    for number, start in sorted(parts):
        if results[number] is None:
            results[number] = parts[number, start]
        else:
            results[number].merge(parts[number, start])
    return [
        result if result is not None else MatchResult(names=(a, b))
        for result, (a, b, _) in zip(results, pairings, strict=True)
    ]
