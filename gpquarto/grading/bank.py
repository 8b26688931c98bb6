"""A bank of endgame decisions that matter, each solved exactly with every optimal action stored.

Positions come from games between zoo players (:data:`DEFAULT_PAIRINGS`, taken in turn), seeded from
``(purpose, seed, game number)``. The bank is balanced over *strata*: each number of empty squares in
``min_empties..max_empties`` and each decision kind (a piece to choose, a square for the piece in hand) gets
an equal share of the positions. Each game is asked for one position of its stratum, which is solved with
:func:`gpquarto.search.solver.solve` and kept only when the decision matters: the position is not lost and
some legal action loses value. Symmetric images of a position already seen are skipped. Each stratum keeps
its first decisive positions in game order, so the bank depends only on its parameters, never on the runner
or on how the work was batched.

Other games go through the same code and the game interface: a Quixo bank (``game="quixo"``, ``size`` 3 or 4)
takes its positions from games between Quixo zoo players (:data:`QUIXO_PAIRINGS`), counts *blank cubes* where
Quarto counts empty squares (the ``.`` of the position text in both games), has one decision kind (a move), and
is solved by the retrograde solution of the board (:mod:`gpquarto.games.quixo.search.solver`), which also gives the
*best* moves (the fastest win, or the slowest loss) beside those that keep the value.

``purpose`` separates banks made by the same code for different uses: the default ``"grade"`` bank that
``gpquarto grade`` scores players on, and ``"training"`` banks for fitness, whose games never coincide with
the grade bank's even for equal seeds.

Example::

    >>> bank = build_bank(seed=1, positions=3, min_empties=6, max_empties=6)
    >>> len(bank), bank.positions[0].empties
    (3, 6)
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from gpquarto.arena.game import play_game
from gpquarto.games.interface import DecisionKind, GameState
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.registry import DEFAULT_GAME, get_game
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
#: The Quixo board a bank is made on unless told (the largest that the solver solves).
QUIXO_BANK_SIZE = 4
#: Blank cubes of a Quixo bank's positions, by default (on 3x3: 2 to 5).
QUIXO_MIN_EMPTIES = 4
QUIXO_MAX_EMPTIES = 12
QUIXO_3X3_EMPTIES = (2, 5)
#: The games positions are taken from: weak and stronger play, so that both sloppy and sharp endgames occur.
DEFAULT_PAIRINGS: tuple[tuple[str, str], ...] = (
    ("random", "novice"),
    ("novice", "minimax:depth=1"),
    ("minimax:depth=1", "frontier"),
    ("random", "random"),
)
#: The Quixo games positions are taken from.
QUIXO_PAIRINGS: tuple[tuple[str, str], ...] = (
    ("random", "alphabeta:depth=1"),
    ("alphabeta:depth=1", "alphabeta:depth=2"),
    ("random", "random"),
    ("mcts:iterations=100", "alphabeta:depth=2"),
)
#: Games sampled per stratum and batch at most (a batch is played, then solved, through the runner).
_MAX_BATCH = 64
#: A stratum that needs more games than this per position wanted (plus 100) gives up with an error.
_GAMES_PER_POSITION = 50


def default_empties(game: str, size: int | None = None) -> tuple[int, int]:
    """The fewest and most empty squares (Quixo: blank cubes) of a bank's positions unless told: Quarto 6-10,
    Quixo 4-12 on 4x4 and 2-5 on 3x3."""
    if game == DEFAULT_GAME:
        return DEFAULT_MIN_EMPTIES, DEFAULT_MAX_EMPTIES
    return QUIXO_3X3_EMPTIES if size == 3 else (QUIXO_MIN_EMPTIES, QUIXO_MAX_EMPTIES)


@dataclass(frozen=True)
class BankParameters:
    """Everything a bank depends on (and its cache key)."""

    seed: int = DEFAULT_SEED
    positions: int = DEFAULT_POSITIONS
    min_empties: int | None = None  # None: the game's default (see default_empties)
    max_empties: int | None = None
    rules: str | None = None  # the game's first rule set
    purpose: str = GRADE
    pairings: tuple[tuple[str, str], ...] | None = None  # the game's: DEFAULT_PAIRINGS, QUIXO_PAIRINGS
    game: str = DEFAULT_GAME
    size: int | None = None  # Quixo: 3 or 4 (default QUIXO_BANK_SIZE); Quarto has no size

    def __post_init__(self) -> None:
        game = get_game(self.game)
        object.__setattr__(self, "game", game.name)
        quarto = game.name == DEFAULT_GAME
        if quarto and self.size is not None:
            raise ValueError("a Quarto bank has no size")
        size = None if quarto else QUIXO_BANK_SIZE if self.size is None else self.size
        if size is not None and size not in (3, 4):
            raise ValueError(f"a Quixo bank is made on the 3x3 or 4x4 board (solved exactly), not {size}x{size}")
        object.__setattr__(self, "size", size)
        rules = (
            Rules(self.rules or Rules.CLASSIC).value
            if quarto
            else game.check_settings({"rules": self.rules or game.rule_sets[0]})["rules"]
        )
        object.__setattr__(self, "rules", rules)
        pairings = self.pairings if self.pairings is not None else DEFAULT_PAIRINGS if quarto else QUIXO_PAIRINGS
        object.__setattr__(self, "pairings", tuple((str(a), str(b)) for a, b in pairings))
        low, high = default_empties(game.name, size)
        object.__setattr__(self, "min_empties", low if self.min_empties is None else self.min_empties)
        object.__setattr__(self, "max_empties", high if self.max_empties is None else self.max_empties)
        if self.positions < 1:
            raise ValueError(f"a bank needs at least 1 position, got {self.positions}")
        if self.seed < 0:
            raise ValueError(f"the bank seed must be >= 0, got {self.seed}")
        low, high = EMPTIES_LIMITS if quarto else (0, size * size - 1)  # type: ignore[operator]
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

    @property
    def settings(self) -> dict[str, object]:
        """The game's settings of the bank's positions (``rules``, and the Quixo board's ``size``)."""
        return {"rules": self.rules} if self.size is None else {"rules": self.rules, "size": self.size}

    def to_json(self) -> dict:
        """The parameters as plain JSON data, with the bank format (the game and size only for another game than
        Quarto, so that Quarto banks keep their cache keys)."""
        extra = {} if self.game == DEFAULT_GAME else {"game": self.game, "size": self.size}
        return {
            **extra,
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
    every action that keeps it (the game's ints; Quarto: 0..15 choose that piece, 16..31 place on ``a - 16``).
    ``exact_actions``, when the solver knows distances (Quixo), are the best of those: the fastest win, or the
    slowest loss."""

    text: str
    value: int
    best_actions: tuple[int, ...]
    game: int  # the game it was taken from (which also gives the pairing)
    game_name: str = DEFAULT_GAME
    exact_actions: tuple[int, ...] = ()

    @property
    def kind(self) -> str:
        """``DecisionKind.CHOOSE`` (a piece to give) or ``DecisionKind.PLACE`` (a square for the piece in hand) in
        Quarto; the state's decision kind in another game."""
        if self.game_name == DEFAULT_GAME:
            return DecisionKind.CHOOSE if self.text.split()[1] == "-" else DecisionKind.PLACE
        return self.board().decision_kind()

    @property
    def empties(self) -> int:
        """Empty squares (Quixo: blank cubes) on the board."""
        return self.text.split()[0].count(".")

    @property
    def best_moves(self) -> tuple[int, ...]:
        """The best actions: ``exact_actions`` when the solver knows them, else those that keep the value."""
        return self.exact_actions or self.best_actions

    def board(self) -> GameState:
        """A fresh state of the game in this position."""
        if self.game_name == DEFAULT_GAME:
            return Board.from_text(self.text)
        return get_game(self.game_name).from_text(self.text)

    def to_json(self) -> dict:
        data = {"text": self.text, "value": self.value, "best_actions": list(self.best_actions), "game": self.game}
        if self.game_name != DEFAULT_GAME:
            data.update(game_name=self.game_name, exact_actions=list(self.exact_actions))
        return data


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
        if p.game != DEFAULT_GAME:
            return (
                f"bank: {len(self)} positions, {p.min_empties}-{p.max_empties} blank cubes, {p.game} {p.size}x{p.size} "
                f"{p.rules} rules, seed {p.seed}, {p.purpose}"
            )
        choices = sum(1 for position in self.positions if position.kind == DecisionKind.CHOOSE)
        return (
            f"bank: {len(self)} positions ({choices} choices, {len(self) - choices} placements), "
            f"{p.min_empties}-{p.max_empties} empty squares, {p.rules} rules, seed {p.seed}, {p.purpose}"
        )


def strata(parameters: BankParameters) -> tuple[tuple[int, str], ...]:
    """The (empty squares, kind) cells the bank is balanced over, in order."""
    kinds = get_game(parameters.game).decision_kinds
    return tuple((empties, kind) for empties in parameters.empties_range for kind in kinds)


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
    return (spec_a, spec_b, seed, empties, str(kind), parameters.game, parameters.settings)


def sample_position(plan: tuple) -> str | None:
    """Play the game of ``plan`` (see :func:`game_plan`) and return the text of its position with the
    asked number of empty squares (blank cubes) and decision kind, or None when the game ended before it."""
    spec_a, spec_b, seed, empties, kind, game, settings = plan
    players = (make_unattended_player(spec_a, game=game), make_unattended_player(spec_b, game=game))
    record = play_game(players, game=game, settings=settings, seed=seed)
    for state, _ in record.states():
        if state.is_over():
            return None
        text = state.text()
        if text.split()[0].count(".") == empties and state.decision_kind() == kind:
            return text
    return None  # pragma: no cover - the loop meets the end of the game


def solve_position(text: str) -> tuple[int, tuple[int, ...], int]:
    """(value, every optimal action, number of legal actions) of the Quarto position ``text``."""
    board = Board.from_text(text)
    result = solve(board)
    return result.value, result.best_actions, len(board.legal_actions())


def solve_game_position(job: tuple[str, dict, str]) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
    """(value, every action that keeps it, number of legal actions, the best of them) of position text ``text``
    of ``game`` under ``settings``, for ``job = (game, settings, text)``: Quarto's by its solver (the best are
    all that keep the value), Quixo's from the solution of its board."""
    game, settings, text = job
    if game == DEFAULT_GAME:
        value, best, legal = solve_position(text)
        return value, best, legal, ()
    state = get_game(game).from_text(text, **settings)
    solution = _quixo_solution(state.size, state.rules.value)  # type: ignore[attr-defined]
    values = solution.action_values(state)  # type: ignore[arg-type]
    value = max(value for value, _ in values.values())
    keep = tuple(action for action, (kept, _) in values.items() if kept == value)
    return value, keep, len(values), tuple(solution.best_actions(state))  # type: ignore[arg-type]


def decision_matters(value: int, best_actions: tuple[int, ...], legal: int) -> bool:
    """True when some legal action loses value (a lost position cannot lose any)."""
    return value in (WIN, DRAW) and len(best_actions) < legal


@functools.cache
def _quixo_solution(size: int, rules: str):
    """The Quixo solution of the board, read (or solved) once per process."""
    from gpquarto.games.quixo.search.solver import solve as solve_quixo

    return solve_quixo(size, rules)


def build_bank(
    *,
    seed: int = DEFAULT_SEED,
    positions: int = DEFAULT_POSITIONS,
    min_empties: int | None = None,
    max_empties: int | None = None,
    rules: Rules | str | None = None,
    purpose: str = GRADE,
    pairings: tuple[tuple[str, str], ...] | None = None,
    game: str = DEFAULT_GAME,
    size: int | None = None,
    runner: Runner = SERIAL,
    progress: Callable[[int, int], None] | None = None,
) -> Bank:
    """Build a bank (see the module docstring); ``progress(kept, wanted)`` is called after each batch."""
    parameters = BankParameters(
        seed=seed,
        positions=positions,
        min_empties=min_empties,
        max_empties=max_empties,
        rules=rules.value if isinstance(rules, Rules) else rules,
        purpose=purpose,
        pairings=pairings,
        game=game,
        size=size,
    )
    return build_bank_for(parameters, runner=runner, progress=progress)


def build_bank_for(
    parameters: BankParameters, *, runner: Runner = SERIAL, progress: Callable[[int, int], None] | None = None
) -> Bank:
    """:func:`build_bank` from a :class:`BankParameters`."""
    for pairing in parameters.pairings:
        for spec in pairing:
            make_unattended_player(spec, game=parameters.game)  # a bad spec fails here, in one line, before any game
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
                what = "empty squares" if parameters.game == DEFAULT_GAME else "blank cubes"
                raise ValueError(
                    f"found only {len(found)} of {quota} decisive {kind} positions with {empties} {what} "
                    f"in {played[index]} games (ask for other numbers of {what})"
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
            key = get_game(parameters.game).from_text(text).canonical_key()
            if key not in seen:
                seen.add(key)
                fresh.append((number, text))
        jobs = [(parameters.game, parameters.settings, text) for _, text in fresh]
        results = runner.map(solve_game_position, jobs)
        solved += len(fresh)
        for (number, text), (value, best_actions, legal, exact) in zip(fresh, results, strict=True):
            found = kept[number % len(cells)]
            if decision_matters(value, best_actions, legal):
                found.append(BankPosition(text, value, tuple(best_actions), number, parameters.game, tuple(exact)))
        if progress is not None:
            progress(
                sum(min(len(found), quota) for found, quota in zip(kept, wanted, strict=True)), parameters.positions
            )
    chosen = sorted(
        (position for found, quota in zip(kept, wanted, strict=True) for position in found[:quota]),
        key=lambda position: position.game,
    )
    return Bank(parameters, tuple(chosen), time.perf_counter() - began, solved)
