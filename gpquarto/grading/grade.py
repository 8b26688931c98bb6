"""Score players on a bank: the share of decisions that keep the exact value, and the blunders.

For each bank position the player gets a fresh game (``seed`` hook with a seed derived from the bank seed
and the position's index, then ``new_game`` with its seat), is asked its decision on a read-only view, and
the action is compared with the stored optimal actions. As in matches, an exception or an illegal action is
a forfeit: it counts as a wrong decision and its reason is recorded. Every bank position is a win or a draw
for the player to act, so every wrong decision is a blunder: a won position thrown away (to a draw or a
loss) or a drawn position lost.

Example::

    >>> from gpquarto.grading.bank import build_bank
    >>> bank = build_bank(seed=1, positions=4, min_empties=6, max_empties=6)
    >>> [report.accuracy for report in grade_players(["solver"], bank)]
    [1.0]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from time import perf_counter

from gpquarto.arena.game import player_form, player_name
from gpquarto.arena.stats import wilson_interval
from gpquarto.games.interface import IllegalActionError
from gpquarto.games.registry import get_game
from gpquarto.grading.bank import WIN, Bank, BankPosition
from gpquarto.players.base import Player, PlayerQuit, raised_reason
from gpquarto.resolve import make_unattended_player
from gpquarto.runner import SERIAL, Runner
from gpquarto.seeding import derive_seed


@dataclass(frozen=True)
class Decision:
    """A player's answer to one bank position: the action (single-int encoding, None after an exception),
    whether it keeps the value, why it was a forfeit (empty otherwise), and the seconds it took."""

    index: int
    position: BankPosition
    action: int | None
    correct: bool
    forfeit: str
    seconds: float

    @property
    def best_move(self) -> bool:
        """True when the action is among the position's best (:attr:`BankPosition.best_moves`)."""
        return self.action is not None and self.action in self.position.best_moves

    @property
    def blunder(self) -> str:
        """``""`` for a right decision, else ``"won thrown away"`` or ``"drawn lost"``."""
        if self.correct:
            return ""
        return "won thrown away" if self.position.value == WIN else "drawn lost"


@dataclass(frozen=True)
class Tally:
    """Totals over a group of decisions."""

    decisions: int
    correct: int
    won_thrown_away: int
    drawn_lost: int
    forfeits: int
    seconds: float
    best_moves: int = 0

    @property
    def accuracy(self) -> float:
        """Share of decisions that keep the value (0 when there are none)."""
        return self.correct / self.decisions if self.decisions else 0.0

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the accuracy."""
        return wilson_interval(self.correct, self.decisions)

    @property
    def best_move_rate(self) -> float:
        """Share of decisions that play a best move (the fastest win or the slowest loss, where the solver knows
        distances; else the same as :attr:`accuracy`)."""
        return self.best_moves / self.decisions if self.decisions else 0.0

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0

    @classmethod
    def of(cls, decisions: Iterable[Decision]) -> Tally:
        decisions = list(decisions)
        return cls(
            len(decisions),
            sum(d.correct for d in decisions),
            sum(d.blunder == "won thrown away" for d in decisions),
            sum(d.blunder == "drawn lost" for d in decisions),
            sum(bool(d.forfeit) for d in decisions),
            sum(d.seconds for d in decisions),
            sum(d.best_move for d in decisions),
        )


@dataclass(frozen=True)
class GradeReport:
    """One player's decisions on a bank, with totals overall, by decision kind and by empty squares."""

    player: str
    decisions: tuple[Decision, ...]

    @property
    def total(self) -> Tally:
        return Tally.of(self.decisions)

    @property
    def accuracy(self) -> float:
        return self.total.accuracy

    def interval(self) -> tuple[float, float]:
        return self.total.interval()

    def by_kind(self) -> dict[str, Tally]:
        """``{DecisionKind.CHOOSE: ..., DecisionKind.PLACE: ...}`` (kinds absent from the bank are left out)."""
        return self._split(lambda decision: decision.position.kind)

    def by_empties(self) -> dict[int, Tally]:
        """Totals per number of empty squares, ascending."""
        return self._split(lambda decision: decision.position.empties)

    def _split(self, key: Callable[[Decision], object]) -> dict:
        groups: dict = {}
        for decision in self.decisions:
            groups.setdefault(key(decision), []).append(decision)
        return {name: Tally.of(groups[name]) for name in sorted(groups)}

    def blunders(self, kind: str | None = None) -> list[Decision]:
        """The wrong decisions (of one ``blunder`` kind when given), in bank order."""
        return [d for d in self.decisions if not d.correct and (kind is None or d.blunder == kind)]


def decide(player: Player, position: BankPosition, seed: int) -> tuple[int | None, str, float]:
    """Ask ``player`` for its decision in ``position`` as a match would: (validated action or None, forfeit
    reason or "", seconds). A player that speaks the game's own form (its
    :class:`~gpquarto.games.capabilities.PlayerForm`: Quarto's piece or square) is asked in it, any other through
    the game interface (``decide(view)``, validated by ``apply``)."""
    state = position.board()
    player.seed(seed)
    player.new_game(state.player)
    view = state.view()
    form = player_form(get_game(state.game_name))
    if form is not None and not form.speaks(player):
        form = None
    started = perf_counter()
    try:
        answer = form.ask(player, view) if form is not None else player.decide(view)
    except PlayerQuit:
        raise
    except (Exception, SystemExit) as error:  # a player's bug is a wrong decision, as it is a forfeit in a match
        return None, raised_reason(error), perf_counter() - started
    seconds = perf_counter() - started
    if form is not None:
        illegal = form.apply(state, answer)
    else:
        try:
            state.apply(answer)  # type: ignore[arg-type]  # the game refuses a bad one
            illegal = ""
        except IllegalActionError as error:
            illegal = f"illegal action {answer!r}: {error}"
    if illegal:
        return None, illegal, seconds
    return state.history[-1], "", seconds


def grade_player(player: Player | str, bank: Bank, *, name: str | None = None) -> GradeReport:
    """Grade one player (an object or a spec, e.g. ``"minimax:depth=2"`` or ``"best_player.p"``) of the bank's
    game."""
    if isinstance(player, str):
        name = name or player
        player = make_unattended_player(player, game=bank.parameters.game)
    decisions = []
    for index, position in enumerate(bank.positions):
        seed = derive_seed("grade", bank.parameters.purpose, bank.seed, index)
        action, forfeit, seconds = decide(player, position, seed)
        correct = action is not None and action in position.best_actions
        decisions.append(Decision(index, position, action, correct, forfeit, seconds))
    return GradeReport(name or player_name(player), tuple(decisions))


def grade_players(players: Sequence[Player | str], bank: Bank, *, runner: Runner = SERIAL) -> list[GradeReport]:
    """Grade each player on ``bank``; the reports come in the order of ``players``. Every spec is checked
    before any grading. Specs are graded through ``runner`` (one job per player: e.g. on processes, where
    the times per decision are as noisy as the machine is busy); player objects are graded here."""
    for player in players:
        if isinstance(player, str):
            make_unattended_player(player, game=bank.parameters.game)
    specs = [player for player in players if isinstance(player, str)]
    by_spec = dict(zip(specs, runner.map(_grade_spec, [(spec, bank) for spec in specs]), strict=True))
    return [by_spec[player] if isinstance(player, str) else grade_player(player, bank) for player in players]


def _grade_spec(job: tuple[str, Bank]) -> GradeReport:
    spec, bank = job
    return grade_player(spec, bank)


def describe_action(action: int | None, position: BankPosition) -> str:
    """The action's name in the game of ``position`` (``choose 7 (SDOR)``, ``place b3``, ``b1 to bottom``), or
    ``no action`` (the player raised or answered illegally)."""
    if action is None:
        return "no action"
    return position.board().action_name(action)
