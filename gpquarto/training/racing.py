"""Racing (``EvolutionConfig.racing``): a generation's fitness games spent where they tell genomes apart.

Without racing every genome of a generation plays the same ``games`` games. A score over 80 games has a standard
error of about 0.05, more than the gap between the best genomes, so selection, the elites and the hall of fame
follow luck as much as play. Racing is successive halving, in
rounds, then a check of the leaders:

* round 0: every genome plays ``games // 4`` games (an even number, at least 2) and is graded on the training
  bank (the accuracy term, once per genome);
* each next round: the better half of the genomes still racing (by the score of all the games they have played,
  then the smaller genome, then the earlier) play as many new games as they have played so far, until at most
  :data:`FINALISTS` are left;
* the check: while one of the :data:`FINALISTS` best genomes by score has not played every round (a genome stopped
  early whose few games went well, above finalists whose longer record came back to earth), it plays its next
  round, the same games the others played in it. So the leaders, which give the elites and the hall of fame, are
  always scored on all the rounds' games, and none of them on a lucky handful.

With the defaults (50 genomes, 80 games) the rounds are 50 x 20, 25 x 20, 13 x 40, 7 x 80 and 4 x 160 games:
3,220 games where every genome played 80 before (4,000), the worst half stopped after 20, and the four best
scored on 320 games each, plus the games of the check. A genome's fitness is its score over all the games it
played.

Every genome of a round plays the same games (common random numbers: the same seeds, openings and opponents), drawn
like a generation's (:func:`~gpquarto.training.fitness.game_plan`, the opponent mix's shares in every round) from the
run seed, the generation and the round, so a race is the same on any number of workers and after a resume.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from gpquarto.runner import Runner
from gpquarto.training.fitness import EvaluationResult, EvaluationTask, FitnessGame, game_score

#: A race's rounds stop when at most this many genomes are left, and the check keeps this many leaders on every
#: round's games.
FINALISTS = 4


def first_round_games(games: int) -> int:
    """Games of a race's first round: a quarter of ``games``, even (both seats of each pair), at least 2."""
    return max(2, games // 4 // 2 * 2)


def race_schedule(genomes: int, games: int) -> list[tuple[int, int]]:
    """The rounds of a race among ``genomes`` genomes whose generation plays ``games`` games without racing: for
    each round, how many genomes play it and how many new games each plays."""
    racing, played = genomes, first_round_games(games)
    rounds = [(racing, played)]
    while racing > FINALISTS:
        racing = (racing + 1) // 2
        rounds.append((racing, played))
        played *= 2
    return rounds


def combined(
    results: Sequence[EvaluationResult],
    fallback_weight: float,
    accuracy_weight: float,
    draw_value: float = 0.5,
    parsimony: float = 0.0,
) -> EvaluationResult:
    """The result of all the games of ``results`` (one genome's rounds; the accuracy is the first round's), a draw
    worth ``draw_value``, less ``parsimony`` per node of the genome."""
    wins = sum(result.wins for result in results)
    draws = sum(result.draws for result in results)
    losses = sum(result.losses for result in results)
    fallbacks = sum(result.fallbacks for result in results)
    decisions = sum(result.decisions for result in results)
    accuracy = results[0].accuracy
    rate = fallbacks / decisions if decisions else 0.0
    score = game_score(wins, draws, wins + draws + losses, draw_value) - fallback_weight * rate
    if accuracy is not None:
        score += accuracy_weight * accuracy
    if parsimony:
        score -= parsimony * results[0].size
    return EvaluationResult(score, wins, draws, losses, fallbacks, decisions, results[0].size, accuracy)


def race(
    tasks: Sequence[EvaluationTask],
    plan: Callable[[int, int], tuple[FitnessGame, ...]],
    games: int,
    evaluate: Callable[[EvaluationTask], EvaluationResult],
    runner: Runner,
) -> list[EvaluationResult]:
    """Race ``tasks`` (one per genome, their games to be replaced) on :func:`race_schedule`'s rounds, each round's
    games ``plan(round, count)``, then check the leaders (see the module docstring); the result of every genome's
    games, in the order of ``tasks``."""
    schedule = race_schedule(len(tasks), games)
    plans = [plan(number, new_games) for number, (_, new_games) in enumerate(schedule)]
    played: list[list[EvaluationResult]] = [[] for _ in tasks]

    def play(indices: list[int]) -> None:
        """Each genome of ``indices`` plays its next round."""
        round_tasks = []
        for index in indices:
            number = len(played[index])
            task = replace(tasks[index], games=plans[number])
            round_tasks.append(task if number == 0 else replace(task, accuracy_positions=()))
        for index, result in zip(indices, runner.map(evaluate, round_tasks), strict=True):
            played[index].append(result)

    racing = list(range(len(tasks)))
    for count, _ in schedule:
        racing = _leaders(racing, played, tasks, count)
        play(racing)
    while True:
        behind = [
            index for index in _leaders(range(len(tasks)), played, tasks, FINALISTS) if len(played[index]) < len(plans)
        ]
        if not behind:
            break
        play(behind)
    return [
        combined(results, task.fallback_weight, task.accuracy_weight, task.draw_value, task.parsimony)
        for results, task in zip(played, tasks, strict=True)
    ]


def _leaders(
    racing: Sequence[int], played: list[list[EvaluationResult]], tasks: Sequence[EvaluationTask], count: int
) -> list[int]:
    """The ``count`` best of ``racing`` by the score of their games so far, then the smaller, then the earlier (in
    the order of ``racing``)."""
    if len(racing) <= count:
        return list(racing)

    def rank(index: int) -> tuple:
        task = tasks[index]
        result = combined(played[index], task.fallback_weight, task.accuracy_weight, task.draw_value, task.parsimony)
        return (-result.score, result.size, index)

    return sorted(sorted(racing, key=rank)[:count])
