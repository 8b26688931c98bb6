"""Which rules carry an evolved player: how often each rule decided in real games, and how often well.

:func:`rule_usage` plays ``games`` games of the player against the given opponents (seats alternating,
opponents in turn, every game seeded from ``seed``) and records every decision the player took: the rule that
fired (or the random fallback) and the position before it. Decisions taken with at most ``grade_max_empties``
empty squares (the size measure of the game's exact solver) are then solved exactly, where the solver can solve
the game at all (not 5x5 Quixo: its decisions are tallied, not graded); where the decision mattered (some legal
action loses value, as in a ``grade`` bank), the action is *optimal* when it keeps the solver's value.

Example::

    >>> report = rule_usage(player, ["random"], games=10, seed=1)  # doctest: +SKIP
    >>> print(format_usage(report))  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gpquarto.arena.game import play_game
from gpquarto.games.interface import GameView
from gpquarto.games.registry import get_plugin
from gpquarto.gp.player import RuleListPlayer
from gpquarto.grading.bank import decision_matters, solve_game_position
from gpquarto.players.base import BasePlayer
from gpquarto.resolve import make_unattended_player
from gpquarto.runner import SERIAL, Runner
from gpquarto.search.exact import exact_solver
from gpquarto.seeding import derive_seed

#: Decisions with at most this many empty squares are graded by default (the solver takes a few ms there).
DEFAULT_GRADE_MAX_EMPTIES = 8


@dataclass
class RuleTally:
    """One rule's (or the fallback's) decisions: how many it took, how many were graded (the decision
    mattered and the solver could tell), and how many of those kept the exact value."""

    kind: str
    index: int | None  # 0-based rule index in its kind's list; None for the random fallback
    text: str
    fired: int = 0
    graded: int = 0
    optimal: int = 0

    @property
    def optimal_rate(self) -> float | None:
        """Share of graded decisions that kept the value (None when none was graded)."""
        return self.optimal / self.graded if self.graded else None


@dataclass(frozen=True)
class UsageReport:
    """Per-rule tallies of both kinds (rules in order, then the fallback) over ``games`` games."""

    games: int
    opponents: tuple[str, ...]
    grade_max_empties: int
    tallies: tuple[RuleTally, ...]

    def of_kind(self, kind: str) -> list[RuleTally]:
        """The tallies of one kind of decision, rules in order and the fallback last."""
        return [tally for tally in self.tallies if tally.kind == kind]

    def decisions(self, kind: str) -> int:
        """The player's decisions of ``kind`` in all games."""
        return sum(tally.fired for tally in self.of_kind(kind))


class _RecordingPlayer(BasePlayer):
    """Plays as the evolved player, through ``decide``, and remembers for each decision (kind, rule index,
    position, action)."""

    def __init__(self, player: RuleListPlayer) -> None:
        self.player = player
        self.name = player.name
        self.game = player.genome.game
        self.log: list[tuple[str, int | None, str, int]] = []
        self._kind_at = player.genome.binding.kind_at

    def seed(self, seed: int | None) -> None:
        self.player.seed(seed)

    def decide(self, view: GameView) -> int:
        text, kind = view.text(), self._kind_at(view)
        action = self.player.decide(view)
        self.log.append((kind, self.player.rules.last_rule, text, int(action)))
        return action


def rule_usage(
    player: RuleListPlayer,
    opponents: Sequence[str],
    *,
    games: int = 100,
    seed: int = 0,
    grade_max_empties: int = DEFAULT_GRADE_MAX_EMPTIES,
    runner: Runner = SERIAL,
    settings: dict[str, object] | None = None,
) -> UsageReport:
    """Play ``games`` games of the player's game (under ``settings``, default the game's) against ``opponents``
    (player specs or files, in turn) and tally each rule's decisions and, where the game's exact solver can solve
    a position of at most ``grade_max_empties`` (in its size measure: empty squares), their optimality (positions
    solved on ``runner``)."""
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if games and not opponents:
        raise ValueError("rule usage needs at least one opponent")
    game_name = player.genome.game
    recorder = _RecordingPlayer(player)
    made = [make_unattended_player(spec, game=game_name) for spec in opponents]
    for game in range(games):
        opponent = made[game % len(made)]
        seats = (recorder, opponent) if game // len(made) % 2 == 0 else (opponent, recorder)
        play_game(seats, seed=derive_seed(seed, "rule usage", game), game=game_name, settings=settings)
    kinds = player.genome.kinds
    tallies: dict[tuple[str, int | None], RuleTally] = {
        (kind, index): RuleTally(kind, index, str(rule))
        for kind in kinds
        for index, rule in enumerate(player.genome.rules(kind))
    }
    for kind in kinds:
        tallies[kind, None] = RuleTally(kind, None, "random fallback")
    plugin = get_plugin(game_name)
    the_settings = plugin.check_settings(settings or {})
    solver = exact_solver(plugin)
    solves_the_game = solver.why_not(plugin.game.new_state(**the_settings)) is None  # not 5x5 Quixo, say

    def solvable(text: str) -> bool:
        state = plugin.game.from_text(text, **the_settings)
        return solver.why_not(state) is None and solver.size(state) <= grade_max_empties

    graded_texts = sorted({text for _, _, text, _ in recorder.log if solves_the_game and solvable(text)})
    jobs = [(game_name, the_settings, text) for text in graded_texts]
    solved = dict(zip(graded_texts, runner.map(solve_game_position, jobs), strict=True))
    for kind, index, text, action in recorder.log:
        tally = tallies[kind, index]
        tally.fired += 1
        if text in solved:
            value, best_actions, legal, _best = solved[text]
            if decision_matters(value, best_actions, legal):
                tally.graded += 1
                tally.optimal += action in best_actions
    graded = grade_max_empties if solves_the_game else 0
    return UsageReport(games, tuple(opponents), graded, tuple(tallies.values()))


def format_usage(report: UsageReport) -> str:
    """Per kind, one line per rule: its share of decisions and the share of its graded decisions that were optimal."""
    graded = (
        f"optimal: decisions that kept the exact value, graded from {report.grade_max_empties} empty squares"
        if report.grade_max_empties
        else "not graded"
    )
    lines = [f"rule usage over {report.games} games against {', '.join(report.opponents)} ({graded})"]
    for kind in dict.fromkeys(tally.kind for tally in report.tallies):
        total = report.decisions(kind)
        lines.append(f"  {kind} rules ({total} decisions):")
        for tally in report.of_kind(kind):
            label = "fallback" if tally.index is None else f"{tally.index + 1}."
            share = f"{tally.fired / total:6.1%}" if total else "     -"
            rate = tally.optimal_rate
            optimal = f"{rate:6.1%} of {tally.graded}" if rate is not None else "     - of 0"
            lines.append(f"    {label:>8} fired {tally.fired:5d} ({share})  optimal {optimal}")
    return "\n".join(lines)
