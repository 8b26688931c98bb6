"""Pooled fitness (``EvolutionConfig.pooled_fitness``): a genome that lives on keeps its evaluations.

A genome bred unchanged, an elite or a copy of a parent, plays the next generation's games too. Pooled, its
record is that of every game it has played so far: the game counts summed, the score (and the other per-game
rates) the mean over its evaluations, ``generations_played`` how many. Each generation plays the same number of
games, so the mean of the evaluations' scores is the score of all the games. The longer a genome lives the less noise
its fitness carries, where a plain fitness is the luck of one generation's games. (Across a ``schedule``'s
change of opponents the mean joins games of both mixes, as a genome's life spans both.)
"""

from __future__ import annotations

from gpquarto.training.config import EVALUATOR, RULES

#: Counts summed over a genome's evaluations.
SUMMED = ("wins", "draws", "losses", "fallbacks", "decisions")
#: The counts each genome kind's evaluations have.
KIND_COUNTS = {RULES: SUMMED, EVALUATOR: SUMMED[:3]}
#: Rates averaged over its evaluations (absent or None in a record: left so).
AVERAGED = ("score", "accuracy", "evaluations_per_square")
#: What a pooled record carries to the next generation: the pooled fields and the count.
CARRIED = (*SUMMED, *AVERAGED, "generations_played")


def pooled_record(earlier: dict | None, latest: dict) -> dict:
    """The record of all the games a genome has played: ``latest`` (one evaluation's fields, ``as_dict`` of an
    evaluation result) joined to ``earlier`` (a record this function returned for the same genome, or None for
    its first evaluation). Other fields (the size) are the latest's."""
    if earlier is None:
        return {**latest, "generations_played": 1}
    count = earlier["generations_played"] + 1
    record = {**latest, "generations_played": count}
    for name in SUMMED:
        if name in latest:
            record[name] = earlier[name] + latest[name]
    for name in AVERAGED:
        if latest.get(name) is not None and earlier.get(name) is not None:
            record[name] = earlier[name] + (latest[name] - earlier[name]) / count
    return record


def carried_record(record: dict) -> dict:
    """The part of a pooled ``record`` that a genome bred unchanged carries into the next generation."""
    return {name: record[name] for name in CARRIED if name in record}


def check_carried_record(record: object, where: str, genome: str) -> None:
    """Refuse, in a one-line ``ValueError`` naming ``where``, a carried record that :func:`pooled_record` could
    not join to an evaluation of a ``genome`` kind's genome: it must count its generations played (a whole number
    >= 1) and hold its score and the kind's game counts (:data:`KIND_COUNTS`)."""
    if not isinstance(record, dict):
        raise ValueError(f"{where} must be a record or null")
    played = record.get("generations_played")
    if type(played) is not int or played < 1 or type(record.get("score")) not in (int, float):
        raise ValueError(f"{where} must count its generations played (a whole number >= 1) and hold a score")
    missing = [name for name in KIND_COUNTS[genome] if type(record.get(name)) is not int]
    if missing:
        raise ValueError(f"{where} must hold whole-number counts of {', '.join(missing)}")
