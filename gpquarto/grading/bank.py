"""A bank of endgame decisions that matter, each solved exactly with every optimal action stored.

Positions come from games between zoo players (:data:`DEFAULT_PAIRINGS`, taken in turn), seeded from
``(purpose, seed, game number)``. The bank is balanced over *strata*: each number of empty squares in
``min_empties..max_empties`` and each decision kind (a piece to choose, a square for the piece in hand) gets
an equal share of the positions. Each game is asked for one position of its stratum, which is solved with
:func:`gpquarto.search.solver.solve` and kept only when the decision matters: the position is not lost and
some legal action loses value. Symmetric images of a position already seen are skipped. Each stratum keeps
its first decisive positions in game order, so the bank depends only on its parameters, never on the runner
or on how the work was batched.

``purpose`` separates banks made by the same code for different uses: the default ``"grade"`` bank that
``gpquarto grade`` scores players on, and ``"training"`` banks for fitness, whose games never coincide with
the grade bank's even for equal seeds.

Example::

    >>> bank = build_bank(seed=1, positions=3, min_empties=6, max_empties=6)
    >>> len(bank), bank.positions[0].empties
    (3, 6)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from gpquarto.arena.game import play_game
from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import SQUARE_COUNT, Rules
from gpquarto.games.quarto.symmetry import canonical_key
from gpquarto.resolve import make_unattended_player
from gpquarto.runner import SERIAL, Runner
from gpquarto.search.solver import DRAW, WIN, solve
from gpquarto.seeding import derive_seed

#: Bumped whenever the way a bank is built or stored changes: cached banks of other formats are rebuilt.
BANK_FORMAT = 1
GRADE = "grade"
TRAINING = "training"
DEFAULT_SEED = 0
DEFAULT_POSITIONS = 2000
DEFAULT_MIN_EMPTIES = 6
DEFAULT_MAX_EMPTIES = 10
#: Empty squares a bank may ask for: fewer leave no real decision, more take the solver minutes.
EMPTIES_LIMITS = (2, 12)
#: The games positions are taken from: weak and stronger play, so that both sloppy and sharp endgames occur.
DEFAULT_PAIRINGS: tuple[tuple[str, str], ...] = (
    ("random", "novice"),
    ("novice", "minimax:depth=1"),
    ("minimax:depth=1", "frontier"),
    ("random", "random"),
)
#: Games sampled per stratum and batch at most (a batch is played, then solved, through the runner).
_MAX_BATCH = 64
#: A stratum that needs more games than this per position wanted (plus 100) gives up with an error.
_GAMES_PER_POSITION = 50


@dataclass(frozen=True)
class BankParameters:
    """Everything a bank depends on (and its cache key)."""

    seed: int = DEFAULT_SEED
    positions: int = DEFAULT_POSITIONS
    min_empties: int = DEFAULT_MIN_EMPTIES
    max_empties: int = DEFAULT_MAX_EMPTIES
    rules: str = Rules.CLASSIC.value
    purpose: str = GRADE
    pairings: tuple[tuple[str, str], ...] = DEFAULT_PAIRINGS

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", Rules(self.rules).value)
        object.__setattr__(self, "pairings", tuple((str(a), str(b)) for a, b in self.pairings))
        if self.positions < 1:
            raise ValueError(f"a bank needs at least 1 position, got {self.positions}")
        if self.seed < 0:
            raise ValueError(f"the bank seed must be >= 0, got {self.seed}")
        low, high = EMPTIES_LIMITS
        if not low <= self.min_empties <= self.max_empties <= high:
            raise ValueError(
                f"empty squares must satisfy {low} <= min ({self.min_empties}) <= max ({self.max_empties}) <= {high}"
            )
        if not self.pairings:
            raise ValueError("a bank needs at least one pairing of players")
        if not self.purpose or not self.purpose.isidentifier():
            raise ValueError(f"a bank purpose is a word such as 'grade' or 'training', got {self.purpose!r}")

    @property
    def empties_range(self) -> range:
        return range(self.min_empties, self.max_empties + 1)

    def to_json(self) -> dict:
        """The parameters as plain JSON data, with the bank format."""
        return {
            "format": BANK_FORMAT,
            "seed": self.seed,
            "positions": self.positions,
            "min_empties": self.min_empties,
            "max_empties": self.max_empties,
            "rules": self.rules,
            "purpose": self.purpose,
            "pairings": [list(pairing) for pairing in self.pairings],
        }


@dataclass(frozen=True)
class BankPosition:
    """One decision of the bank: the position, its exact value for the player to act (1 win, 0 draw) and
    every action that keeps it (single-int encoding: 0..15 choose that piece, 16..31 place on ``a - 16``)."""

    text: str
    value: int
    best_actions: tuple[int, ...]
    game: int  # the game it was taken from (which also gives the pairing)

    @property
    def kind(self) -> str:
        """``DecisionKind.CHOOSE`` (a piece to give) or ``DecisionKind.PLACE`` (a square for the piece in hand)."""
        return DecisionKind.CHOOSE if self.text.split()[1] == "-" else DecisionKind.PLACE

    @property
    def empties(self) -> int:
        """Empty squares on the board."""
        return self.text.split()[0].count(".")

    def board(self) -> Board:
        """A fresh board in this position."""
        return Board.from_text(self.text)

    def to_json(self) -> dict:
        return {"text": self.text, "value": self.value, "best_actions": list(self.best_actions), "game": self.game}


@dataclass(frozen=True)
class Bank:
    """Solved positions and the parameters that made them. ``build_seconds`` and ``solved`` (positions
    solved to find them, including the rejected ones) describe the build, ``cached`` says whether it was
    read from the cache; they do not count in equality."""

    parameters: BankParameters
    positions: tuple[BankPosition, ...]
    build_seconds: float = field(default=0.0, compare=False)
    solved: int = field(default=0, compare=False)
    cached: bool = field(default=False, compare=False)

    def __len__(self) -> int:
        return len(self.positions)

    def __iter__(self) -> Iterator[BankPosition]:
        return iter(self.positions)

    @property
    def seed(self) -> int:
        return self.parameters.seed

    def pairing_of(self, position: BankPosition) -> tuple[str, str]:
        """The two players of the game ``position`` was taken from."""
        pairings = self.parameters.pairings
        return pairings[(position.game // len(strata(self.parameters))) % len(pairings)]

    def describe(self) -> str:
        """One line: size, kinds, empty squares, rules, seed and purpose."""
        p = self.parameters
        choices = sum(1 for position in self.positions if position.kind == DecisionKind.CHOOSE)
        return (
            f"bank: {len(self)} positions ({choices} choices, {len(self) - choices} placements), "
            f"{p.min_empties}-{p.max_empties} empty squares, {p.rules} rules, seed {p.seed}, {p.purpose}"
        )


def strata(parameters: BankParameters) -> tuple[tuple[int, str], ...]:
    """The (empty squares, kind) cells the bank is balanced over, in order."""
    return tuple(
        (empties, kind) for empties in parameters.empties_range for kind in (DecisionKind.CHOOSE, DecisionKind.PLACE)
    )


def quotas(parameters: BankParameters) -> tuple[int, ...]:
    """Positions wanted in each stratum: equal shares, the first strata taking one more when it does not divide."""
    count = len(strata(parameters))
    share, extra = divmod(parameters.positions, count)
    return tuple(share + (1 if index < extra else 0) for index in range(count))


def game_plan(parameters: BankParameters, game: int) -> tuple:
    """The sampling job of game ``game``: plain data for :func:`sample_position`.

    Game ``g`` serves stratum ``g % len(strata)`` (a number of empty squares and a decision kind) and plays
    the pairings in turn, so that each stratum meets every pairing equally often.
    """
    cells = strata(parameters)
    empties, kind = cells[game % len(cells)]
    pairings = parameters.pairings
    spec_a, spec_b = pairings[(game // len(cells)) % len(pairings)]
    seed = derive_seed("bank", parameters.purpose, parameters.seed, game)
    return (spec_a, spec_b, seed, empties, kind == DecisionKind.CHOOSE, parameters.rules)


def sample_position(plan: tuple) -> str | None:
    """Play the game of ``plan`` (see :func:`game_plan`) and return the text of its position with the
    asked number of empty squares and decision kind, or None when the game ended before it."""
    spec_a, spec_b, seed, empties, choice, rules = plan
    players = (make_unattended_player(spec_a), make_unattended_player(spec_b))
    record = play_game(players, rules=rules, seed=seed)
    board = Board(rules)
    for action in record.actions:
        if SQUARE_COUNT - board.placed_count == empties and board.choice_due == choice:
            return board.text()
        board.apply(action)
    if not board.is_over() and SQUARE_COUNT - board.placed_count == empties and board.choice_due == choice:
        return board.text()  # pragma: no cover - a game of zoo players always ends
    return None


def solve_position(text: str) -> tuple[int, tuple[int, ...], int]:
    """(value, every optimal action, number of legal actions) of the position ``text``."""
    board = Board.from_text(text)
    result = solve(board)
    return result.value, result.best_actions, len(board.legal_actions())


def decision_matters(value: int, best_actions: tuple[int, ...], legal: int) -> bool:
    """True when some legal action loses value (a lost position cannot lose any)."""
    return value in (WIN, DRAW) and len(best_actions) < legal


def build_bank(
    *,
    seed: int = DEFAULT_SEED,
    positions: int = DEFAULT_POSITIONS,
    min_empties: int = DEFAULT_MIN_EMPTIES,
    max_empties: int = DEFAULT_MAX_EMPTIES,
    rules: Rules | str = Rules.CLASSIC,
    purpose: str = GRADE,
    pairings: tuple[tuple[str, str], ...] = DEFAULT_PAIRINGS,
    runner: Runner = SERIAL,
    progress: Callable[[int, int], None] | None = None,
) -> Bank:
    """Build a bank (see the module docstring); ``progress(kept, wanted)`` is called after each batch."""
    parameters = BankParameters(
        seed=seed,
        positions=positions,
        min_empties=min_empties,
        max_empties=max_empties,
        rules=Rules(rules).value,
        purpose=purpose,
        pairings=pairings,
    )
    return build_bank_for(parameters, runner=runner, progress=progress)


def build_bank_for(
    parameters: BankParameters, *, runner: Runner = SERIAL, progress: Callable[[int, int], None] | None = None
) -> Bank:
    """:func:`build_bank` from a :class:`BankParameters`."""
    for pairing in parameters.pairings:
        for spec in pairing:
            make_unattended_player(spec)  # a bad spec fails here, in one line, before any game
    began = time.perf_counter()
    cells = strata(parameters)
    wanted = quotas(parameters)
    kept: list[list[BankPosition]] = [[] for _ in cells]
    played = [0] * len(cells)  # games tried so far in each stratum (stratum s plays games s, s + S, ...)
    seen: set[int] = set()
    solved = 0
    while any(len(found) < quota for found, quota in zip(kept, wanted, strict=True)):
        games = []
        for index, (found, quota) in enumerate(zip(kept, wanted, strict=True)):
            missing = quota - len(found)
            if missing <= 0:
                continue
            if played[index] >= _GAMES_PER_POSITION * quota + 100:
                empties, kind = cells[index]
                raise ValueError(
                    f"found only {len(found)} of {quota} decisive {kind} positions with {empties} empty squares "
                    f"in {played[index]} games"
                )
            rate = len(found) / played[index] if found else 0.3
            count = min(_MAX_BATCH, max(4, math.ceil(1.2 * missing / max(rate, 0.02))))
            games.extend(index + len(cells) * (played[index] + k) for k in range(count))
            played[index] += count
        games.sort()
        texts = runner.map(sample_position, [game_plan(parameters, number) for number in games])
        fresh = []
        for number, text in zip(games, texts, strict=True):
            if text is None:
                continue
            key = canonical_key(Board.from_text(text))
            if key not in seen:
                seen.add(key)
                fresh.append((number, text))
        results = runner.map(solve_position, [text for _, text in fresh])
        solved += len(fresh)
        for (number, text), (value, best_actions, legal) in zip(fresh, results, strict=True):
            found = kept[number % len(cells)]
            if decision_matters(value, best_actions, legal):
                found.append(BankPosition(text, value, tuple(best_actions), number))
        if progress is not None:
            progress(
                sum(min(len(found), quota) for found, quota in zip(kept, wanted, strict=True)), parameters.positions
            )
    chosen = sorted(
        (position for found, quota in zip(kept, wanted, strict=True) for position in found[:quota]),
        key=lambda position: position.game,
    )
    return Bank(parameters, tuple(chosen), time.perf_counter() - began, solved)
