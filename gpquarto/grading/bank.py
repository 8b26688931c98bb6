"""A bank of endgame decisions that matter, each solved exactly with every optimal action stored.

Positions come from games between zoo players (the game's pairings, taken in turn), seeded from
``(purpose, seed, game number)``. The bank is balanced over *strata*: each position size in
``min_empties..max_empties`` (the exact solver's :meth:`~gpquarto.games.capabilities.ExactSolver.size`: Quarto's
empty squares, Quixo's blank cubes) and each decision kind of the game (Quarto: a piece to choose, a square for
the piece in hand) gets an equal share of the positions. Each game is asked for one position of its stratum,
which is solved exactly and kept only when the decision matters: the position is not lost and some legal action
loses value. Symmetric images of a position already seen are skipped. Each stratum keeps its first decisive
positions in game order, so the bank depends only on its parameters, never on the runner or on how the work was
batched.

What differs between games (the pairings, the settings and sizes a bank may have, how a position is solved, how
the cache key names the settings) is the game's :class:`~gpquarto.games.capabilities.GradingBank`; a game
without one gets :class:`GenericBank`, over its exact solver (or the generic one).

``purpose`` separates banks made by the same code for different uses: the default ``"grade"`` bank that
``gpquarto grade`` scores players on, and ``"training"`` banks for fitness, whose games never coincide with
the grade bank's even for equal seeds.

A game may make other *kinds* of bank (``kind``, :meth:`~gpquarto.games.capabilities.GradingBank.kinds`): a bank
of a kind plays the kind's pairings in turn and takes every position of each game that the game's screen passes
and its solve keeps (and whose decision matters), in game order, skipping symmetric images of positions already
taken, until it has enough; it is not balanced over strata. Its default sizes are every size a position may have.

Example::

    >>> bank = build_bank(seed=1, positions=3, min_empties=6, max_empties=6)
    >>> len(bank), bank.positions[0].empties
    (3, 6)
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field

from gpquarto.arena.game import play_game
from gpquarto.games.capabilities import ExactSolver, GradingBank
from gpquarto.games.interface import DecisionKind, GameState
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.registry import DEFAULT_GAME, get_game, get_plugin
from gpquarto.resolve import make_unattended_player
from gpquarto.runner import SERIAL, Runner
from gpquarto.search.alphabeta import PROVEN, AlphaBeta
from gpquarto.search.exact import GenericSolver, exact_solver
from gpquarto.seeding import derive_seed

#: Bumped whenever the way a bank is built or stored changes: cached banks of other formats are rebuilt.
BANK_FORMAT = 1
GRADE = "grade"
TRAINING = "training"
DEFAULT_SEED = 0
DEFAULT_POSITIONS = 2000
#: The values of a solved position for the side to move.
WIN, DRAW, LOSS = 1, 0, -1
#: Games sampled per stratum and batch at most (a batch is played, then solved, through the runner).
_MAX_BATCH = 64
#: A stratum that needs more games than this per position wanted (plus 100) gives up with an error.
_GAMES_PER_POSITION = 50
#: How a bank's description counts the decisions of each kind, where a game has several.
KIND_WORDS = {DecisionKind.CHOOSE: "choices", DecisionKind.PLACE: "placements"}


class GenericBank(GradingBank):
    """The bank of a game that offers no :class:`~gpquarto.games.capabilities.GradingBank`: the generic zoo's
    pairings, the game's own settings, 4 to 8 empty cells unless told (at most two fewer than the board has), by the
    game's :class:`~gpquarto.games.capabilities.ExactSolver` or the generic one."""

    def __init__(self, plugin: GamePlugin) -> None:
        self.plugin = plugin

    @functools.cached_property
    def solver(self) -> ExactSolver:
        return exact_solver(self.plugin)

    def settings(self, given: Mapping[str, object]) -> dict[str, object]:
        return self.plugin.check_settings(given)  # a bank's positions are endgames: the solver says per position

    def _cells(self, settings: Mapping[str, object]) -> int:
        return self.solver.size(self.plugin.game.new_state(**settings))

    def default_empties(self, settings: Mapping[str, object]) -> tuple[int, int]:
        most = self._cells(settings) - 2  # one move into a game, few decisions matter yet
        return max(1, min(4, most)), max(1, min(8, most))

    def empties_limits(self, settings: Mapping[str, object]) -> tuple[int, int]:
        return 1, self._cells(settings) - 1

    def key(self, settings: Mapping[str, object]) -> dict[str, object]:
        return {"game": self.plugin.name, "settings": {name: settings[name] for name in sorted(settings)}}

    def describe(self, settings: Mapping[str, object]) -> str:
        schema = {setting.name: setting for setting in self.plugin.settings}
        words = [schema[name].shown(value) if name in schema else f"{name} {value}" for name, value in settings.items()]
        return ", ".join([self.plugin.name, *words])

    def tag(self, settings: Mapping[str, object]) -> str:
        return self.plugin.name

    def solve(self, state: GameState) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
        why = self.solver.why_not(state)
        if why is not None:
            raise ValueError(f"a {self.plugin.name} bank position cannot be solved: {why}")
        legal = tuple(state.legal_actions())
        if isinstance(self.solver, GenericSolver):
            found = AlphaBeta().solve(state.copy(), self.solver.max_nodes)
            classes = {action: _value_class(value) for action, value in found.items()}
            best_value = max(found.values())
            best = tuple(action for action in legal if found[action] == best_value)
        else:
            classes = {action: _child_value(self.solver, state, action) for action in legal}
            best = self.solver.solve(state).best_actions
        value = max(classes.values())
        keep = tuple(action for action in legal if classes[action] == value)
        return value, keep, len(legal), tuple(action for action in best if action in keep)


def _value_class(value: float) -> int:
    """1, 0 or -1 from an alpha-beta value."""
    return 0 if abs(value) < PROVEN else (WIN if value > 0 else LOSS)


def _child_value(solver: ExactSolver, state: GameState, action: int) -> int:
    """The exact value of ``action`` for the side to move in ``state``, from the solve of the position after it."""
    child = state.copy()
    child.apply(action)
    if child.is_over():
        outcome = child.outcome()
        assert outcome is not None
        return DRAW if outcome.winner is None else (WIN if outcome.winner == state.player else LOSS)
    value = solver.solve(child).value
    return value if child.player == state.player else -value


def grading_bank(game: str) -> GradingBank:
    """The game's own bank capability, else the generic one."""
    plugin = get_plugin(game)
    return plugin.capability_or(GradingBank, None) or _generic_bank(plugin.name)


@functools.cache
def _generic_bank(game: str) -> GenericBank:
    return GenericBank(get_plugin(game))


def _settings_items(settings: Mapping[str, object] | tuple | None) -> tuple[tuple[str, object], ...]:
    items = settings.items() if isinstance(settings, Mapping) else (settings or ())
    return tuple(sorted((str(name), value) for name, value in items))


@dataclass(frozen=True)
class BankParameters:
    """Everything a bank depends on (and its cache key). The game's settings are ``rules``, ``size`` (where the
    game has them) and ``game_settings`` (any other), checked and completed by the game's bank: see
    :attr:`settings`."""

    seed: int = DEFAULT_SEED
    positions: int = DEFAULT_POSITIONS
    min_empties: int | None = None  # None: the game's default
    max_empties: int | None = None
    rules: str | None = None  # the game's first rule set
    purpose: str = GRADE
    pairings: tuple[tuple[str, str], ...] | None = None  # None: the game's
    game: str = DEFAULT_GAME
    size: int | None = None  # Quixo: 3 or 4 (4 unless told); a game without a size: None
    game_settings: tuple[tuple[str, object], ...] | Mapping[str, object] = ()
    #: The kind of bank (``""``: the game's default bank; others: see the module docstring).
    kind: str = ""
    _settings: tuple[tuple[str, object], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        game = get_game(self.game)
        object.__setattr__(self, "game", game.name)
        bank = grading_bank(game.name)
        given = dict(_settings_items(self.game_settings))
        for name in ("rules", "size"):
            if getattr(self, name) is not None:
                given[name] = getattr(self, name)
        settings = bank.settings(given)
        object.__setattr__(
            self, "game_settings", tuple(item for item in _settings_items(settings) if item[0] not in ("rules", "size"))
        )
        object.__setattr__(self, "_settings", tuple(settings.items()))
        object.__setattr__(self, "rules", settings.get("rules"))
        object.__setattr__(self, "size", settings.get("size"))
        if not isinstance(self.kind, str):
            raise ValueError(f"a bank kind is a word, got {self.kind!r:.40}")
        if self.kind and self.kind not in bank.kinds(settings):
            known = ", ".join(bank.kinds(settings)) or "none"
            raise ValueError(
                f"no bank of kind {self.kind!r:.40} for {bank.describe(settings)} (kinds besides the default: {known})"
            )
        pairings = self.pairings if self.pairings is not None else self.default_pairings(bank)
        object.__setattr__(self, "pairings", tuple((str(a), str(b)) for a, b in pairings))
        low, high = bank.empties_limits(settings) if self.kind else bank.default_empties(settings)
        min_empties = low if self.min_empties is None else self.min_empties
        max_empties = high if self.max_empties is None else self.max_empties
        object.__setattr__(self, "min_empties", min_empties)
        object.__setattr__(self, "max_empties", max_empties)
        if self.positions < 1:
            raise ValueError(f"a bank needs at least 1 position, got {self.positions}")
        if self.seed < 0:
            raise ValueError(f"the bank seed must be >= 0, got {self.seed}")
        low, high = bank.empties_limits(settings)
        if not low <= min_empties <= max_empties <= high:
            raise ValueError(
                f"empty squares must satisfy {low} <= min ({self.min_empties}) <= max ({self.max_empties}) <= {high}"
            )
        if not self.pairings:
            raise ValueError("a bank needs at least one pairing of players")
        if not self.purpose or not self.purpose.isidentifier():
            raise ValueError(f"a bank purpose is a word such as 'grade' or 'training', got {self.purpose!r}")

    def default_pairings(self, bank: GradingBank) -> tuple[tuple[str, str], ...]:
        """The pairings of the bank unless told: its kind's, or the game's."""
        return bank.kind_pairings(self.kind) if self.kind else bank.pairings

    @property
    def empties_range(self) -> range:
        assert self.min_empties is not None and self.max_empties is not None  # set by __post_init__
        return range(self.min_empties, self.max_empties + 1)

    @property
    def player_pairings(self) -> tuple[tuple[str, str], ...]:
        """``pairings``, which ``__post_init__`` sets (to the game's when not given)."""
        assert self.pairings is not None
        return self.pairings

    @property
    def settings(self) -> dict[str, object]:
        """The game's settings of the bank's positions (Quarto: ``rules``; Quixo: ``rules`` and ``size``)."""
        return dict(self._settings)

    @property
    def bank(self) -> GradingBank:
        """The game's bank capability."""
        return grading_bank(self.game)

    def to_json(self) -> dict:
        """The parameters as plain JSON data, with the bank format and what the game's bank keys its settings by
        (nothing for Quarto, so that Quarto banks keep their cache keys)."""
        return {
            **self.bank.key(self.settings),
            **({"kind": self.kind} if self.kind else {}),  # the default bank keeps its key
            "format": BANK_FORMAT,
            "seed": self.seed,
            "positions": self.positions,
            "min_empties": self.min_empties,
            "max_empties": self.max_empties,
            "rules": self.rules,
            "purpose": self.purpose,
            "pairings": [list(pairing) for pairing in self.player_pairings],
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
    #: The game's settings of the position, where its text does not carry them all (the bank's; not written
    #: with the position).
    settings: tuple[tuple[str, object], ...] = field(default=(), compare=False)

    @functools.cached_property
    def kind(self) -> DecisionKind:
        """The decision kind of the position (Quarto: ``DecisionKind.CHOOSE``, a piece to give, or
        ``DecisionKind.PLACE``, a square for the piece in hand)."""
        return self.board().decision_kind()

    @functools.cached_property
    def empties(self) -> int:
        """The position's size for the exact solver (Quarto: empty squares; Quixo: blank cubes)."""
        return exact_solver(get_plugin(self.game_name)).size(self.board())

    @property
    def best_moves(self) -> tuple[int, ...]:
        """The best actions: ``exact_actions`` when the solver knows them, else those that keep the value."""
        return self.exact_actions or self.best_actions

    def board(self) -> GameState:
        """A fresh state of the game in this position."""
        return get_game(self.game_name).from_text(self.text, **dict(self.settings))

    def to_json(self) -> dict:
        data = {"text": self.text, "value": self.value, "best_actions": list(self.best_actions), "game": self.game}
        if grading_bank(self.game_name).names_game:
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
        pairings = self.parameters.player_pairings
        if self.parameters.kind:
            return pairings[position.game % len(pairings)]
        return pairings[(position.game // len(strata(self.parameters))) % len(pairings)]

    def describe(self) -> str:
        """One line: size, kinds, position sizes, settings, seed and purpose."""
        p = self.parameters
        kinds = get_game(p.game).decision_kinds
        split = ""
        if len(kinds) > 1:
            counts = [sum(1 for position in self.positions if position.kind == kind) for kind in kinds]
            split = (
                " ("
                + ", ".join(
                    f"{count} {KIND_WORDS.get(kind, kind.value)}" for count, kind in zip(counts, kinds, strict=True)
                )
                + ")"
            )
        size_word = exact_solver(get_plugin(p.game)).size_word
        settings = p.bank.describe_kind(p.kind, p.settings) if p.kind else p.bank.describe(p.settings)
        return (
            f"bank: {len(self)} positions{split}, {p.min_empties}-{p.max_empties} {size_word}, "
            f"{settings}, seed {p.seed}, {p.purpose}"
        )


def strata(parameters: BankParameters) -> tuple[tuple[int, str], ...]:
    """The (position size, kind) cells the bank is balanced over, in order."""
    kinds = get_game(parameters.game).decision_kinds
    return tuple((empties, kind) for empties in parameters.empties_range for kind in kinds)


def quotas(parameters: BankParameters) -> tuple[int, ...]:
    """Positions wanted in each stratum: equal shares, the first strata taking one more when it does not divide."""
    count = len(strata(parameters))
    share, extra = divmod(parameters.positions, count)
    return tuple(share + (1 if index < extra else 0) for index in range(count))


def game_plan(parameters: BankParameters, game: int) -> tuple:
    """The sampling job of game ``game``: plain data for :func:`sample_position`.

    Game ``g`` serves stratum ``g % len(strata)`` (a position size and a decision kind) and plays the pairings
    in turn, so that each stratum meets every pairing equally often.
    """
    cells = strata(parameters)
    empties, kind = cells[game % len(cells)]
    pairings = parameters.player_pairings
    spec_a, spec_b = pairings[(game // len(cells)) % len(pairings)]
    seed = derive_seed("bank", parameters.purpose, parameters.seed, game)
    return (spec_a, spec_b, seed, empties, str(kind), parameters.game, parameters.settings)


def sample_position(plan: tuple) -> str | None:
    """Play the game of ``plan`` (see :func:`game_plan`) and return the text of its position with the
    asked size and decision kind, or None when the game ended before it."""
    spec_a, spec_b, seed, empties, kind, game, settings = plan
    players = (make_unattended_player(spec_a, game=game), make_unattended_player(spec_b, game=game))
    record = play_game(players, game=game, settings=settings, seed=seed)
    size = exact_solver(get_plugin(game)).size
    for state, _ in record.states():
        if state.is_over():
            return None
        if state.decision_kind() == kind and size(state) == empties:
            return state.text()
    return None  # pragma: no cover - the loop meets the end of the game


def kind_game_plan(parameters: BankParameters, game: int) -> tuple:
    """The sampling job of game ``game`` of a bank of a kind: plain data for :func:`screen_game`. Game ``g`` plays
    the pairings in turn."""
    pairings = parameters.player_pairings
    spec_a, spec_b = pairings[game % len(pairings)]
    seed = derive_seed("bank", parameters.kind, parameters.purpose, parameters.seed, game)
    return (
        spec_a,
        spec_b,
        seed,
        parameters.kind,
        tuple(parameters.empties_range),
        parameters.game,
        parameters.settings,
    )


def screen_game(plan: tuple) -> list[str]:
    """Play the game of ``plan`` (see :func:`kind_game_plan`) and return the texts of its positions, in order, of the
    asked sizes that the game's screen for the bank's kind passes. Each is screened as the bank stores it: set up
    from its text."""
    spec_a, spec_b, seed, kind, sizes, game, settings = plan
    players = (make_unattended_player(spec_a, game=game), make_unattended_player(spec_b, game=game))
    record = play_game(players, game=game, settings=settings, seed=seed)
    size = exact_solver(get_plugin(game)).size
    rules = get_game(game)
    states = []
    for state, _ in record.states():
        if state.is_over():
            break
        if size(state) in sizes:
            states.append(rules.from_text(state.text(), **settings))
    passed = grading_bank(game).screen(kind, states)
    return [state.text() for state, ok in zip(states, passed, strict=True) if ok]


def solve_kind_position(job: tuple[str, dict, str, str]) -> tuple[int, tuple[int, ...], int, tuple[int, ...]] | None:
    """What the game's bank of kind ``kind`` makes of position text ``text`` (None: not kept), for ``job = (game,
    settings, kind, text)``."""
    game, settings, kind, text = job
    return grading_bank(game).solve_kind(kind, get_game(game).from_text(text, **settings))


def solve_game_position(job: tuple[str, dict, str]) -> tuple[int, tuple[int, ...], int, tuple[int, ...]]:
    """(value, every action that keeps it, number of legal actions, the best of them where the solver knows
    them) of position text ``text`` of ``game`` under ``settings``, for ``job = (game, settings, text)``."""
    game, settings, text = job
    return grading_bank(game).solve(get_game(game).from_text(text, **settings))


def decision_matters(value: int, best_actions: tuple[int, ...], legal: int) -> bool:
    """True when some legal action loses value (a lost position cannot lose any)."""
    return value in (WIN, DRAW) and len(best_actions) < legal


def build_bank(
    *,
    seed: int = DEFAULT_SEED,
    positions: int = DEFAULT_POSITIONS,
    min_empties: int | None = None,
    max_empties: int | None = None,
    rules: str | None = None,
    purpose: str = GRADE,
    pairings: tuple[tuple[str, str], ...] | None = None,
    game: str = DEFAULT_GAME,
    size: int | None = None,
    game_settings: Mapping[str, object] | None = None,
    kind: str = "",
    runner: Runner = SERIAL,
    progress: Callable[[int, int], None] | None = None,
) -> Bank:
    """Build a bank (see the module docstring); ``progress(kept, wanted)`` is called after each batch."""
    parameters = BankParameters(
        seed=seed,
        positions=positions,
        min_empties=min_empties,
        max_empties=max_empties,
        rules=getattr(rules, "value", rules),
        purpose=purpose,
        pairings=pairings,
        game=game,
        size=size,
        game_settings=game_settings or {},
        kind=kind,
    )
    return build_bank_for(parameters, runner=runner, progress=progress)


def build_bank_for(
    parameters: BankParameters, *, runner: Runner = SERIAL, progress: Callable[[int, int], None] | None = None
) -> Bank:
    """:func:`build_bank` from a :class:`BankParameters`."""
    for pairing in parameters.player_pairings:
        for spec in pairing:
            make_unattended_player(spec, game=parameters.game)  # a bad spec fails here, in one line, before any game
    if parameters.kind:
        return _build_kind_bank(parameters, runner=runner, progress=progress)
    began = time.perf_counter()
    cells = strata(parameters)
    wanted = quotas(parameters)
    kept: list[list[BankPosition]] = [[] for _ in cells]
    played = [0] * len(cells)  # games tried so far in each stratum (stratum s plays games s, s + S, ...)
    seen: set[Hashable] = set()
    solved = 0
    while any(len(found) < quota for found, quota in zip(kept, wanted, strict=True)):
        games: list[int] = []
        for index, (found, quota) in enumerate(zip(kept, wanted, strict=True)):
            missing = quota - len(found)
            if missing <= 0:
                continue
            if played[index] >= _GAMES_PER_POSITION * quota + 100:
                empties, kind = cells[index]
                what = exact_solver(get_plugin(parameters.game)).size_word
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
            key = get_game(parameters.game).from_text(text, **parameters.settings).canonical_key()
            if key not in seen:
                seen.add(key)
                fresh.append((number, text))
        jobs = [(parameters.game, parameters.settings, text) for _, text in fresh]
        settings = tuple(parameters.settings.items())
        results = runner.map(solve_game_position, jobs)
        solved += len(fresh)
        for (number, text), (value, best_actions, legal, exact) in zip(fresh, results, strict=True):
            found = kept[number % len(cells)]
            if decision_matters(value, best_actions, legal):
                position = BankPosition(
                    text, value, tuple(best_actions), number, parameters.game, tuple(exact), settings
                )
                found.append(position)
        if progress is not None:
            progress(
                sum(min(len(found), quota) for found, quota in zip(kept, wanted, strict=True)), parameters.positions
            )
    chosen = sorted(
        (position for found, quota in zip(kept, wanted, strict=True) for position in found[:quota]),
        key=lambda position: position.game,
    )
    return Bank(parameters, tuple(chosen), time.perf_counter() - began, solved)


def _build_kind_bank(
    parameters: BankParameters, *, runner: Runner, progress: Callable[[int, int], None] | None
) -> Bank:
    """A bank of a kind (see the module docstring): games in order, in batches, until it holds enough positions."""
    began = time.perf_counter()
    wanted = parameters.positions
    settings = tuple(parameters.settings.items())
    kept: list[BankPosition] = []
    seen: set[Hashable] = set()
    played = solved = 0
    batch = 8
    while len(kept) < wanted:
        if played >= _GAMES_PER_POSITION * wanted + 100:
            raise ValueError(
                f"found only {len(kept)} of {wanted} positions of kind {parameters.kind!r} in {played} games "
                "(ask for fewer positions or other sizes)"
            )
        games = list(range(played, played + batch))
        played += batch
        found = runner.map(screen_game, [kind_game_plan(parameters, number) for number in games])
        fresh = []
        for number, texts in zip(games, found, strict=True):
            for text in texts:
                key = get_game(parameters.game).from_text(text, **parameters.settings).canonical_key()
                if key not in seen:
                    seen.add(key)
                    fresh.append((number, text))
        jobs = [(parameters.game, parameters.settings, parameters.kind, text) for _, text in fresh]
        results = runner.map(solve_kind_position, jobs)
        solved += len(fresh)
        for (number, text), result in zip(fresh, results, strict=True):
            if result is None or len(kept) >= wanted:
                continue
            value, best_actions, legal, exact = result
            if decision_matters(value, best_actions, legal):
                kept.append(
                    BankPosition(text, value, tuple(best_actions), number, parameters.game, tuple(exact), settings)
                )
        if progress is not None:
            progress(len(kept), wanted)
        rate = len(kept) / played
        batch = min(_MAX_BATCH, max(4, math.ceil(1.2 * (wanted - len(kept)) / max(rate, 0.05))))
    return Bank(parameters, tuple(kept), time.perf_counter() - began, solved)
