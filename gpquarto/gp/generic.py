"""The generic GP binding: rule players for a game that ships no primitives, built over the game interface alone.

A game whose plug-in offers no :class:`~gpquarto.games.capabilities.GPBinding` gets :func:`generic_binding`:

* one **rule kind** per decision kind the game declares (``Game.decision_kinds``: ``move`` for most games), and
  one *then* type for all of them, :class:`~gpquarto.gp.types.Action` (a legal action of the game, or
  ``NO_ACTION``); a decided value is its own action;
* the **features** :class:`GenericFeatures` (``GenericFeatures(view)``): the legal actions, and lazily the facts
  the generic primitives read (what each action does, the opponent's replies, and the game's board where its
  plug-in offers :class:`~gpquarto.games.capabilities.Board`);
* **sample positions** from seeded random play of the game under its default settings; a legal action or
  ``NO_ACTION`` as an ``Action`` node's value; the counted random **fallback** with one draw of the rng
  (:func:`~gpquarto.gp.binding.pick`); the rule set :class:`~gpquarto.gp.genome.GameRuleSet` and the player
  :class:`~gpquarto.gp.player.RulePlayer`.

**Whose primitives.** ``GenericFeatures`` and ``Action`` belong to no one game but to the group :data:`GENERIC`:
a primitive that reads them (the family ``primitives/generic.py``, listed in
``gpquarto_primitives.GENERIC_FAMILY_MODULES``) joins the library of *every* game bound generically, and of no
other (Quarto's and Quixo's libraries never hold them). It is checked, when registered, on positions of every
installed game (:data:`GENERIC_GP`), since it must work on any. A game may add its own primitives on top: its
plug-in names, as its ``GPBinding``, a binding made by :func:`generic_binding` with ``family_package`` (a package
with its own ``FAMILY_MODULES``) and, when those primitives need facts of their own, ``features`` (a subclass of
:class:`GenericFeatures`): a primitive reading that subclass belongs to that game alone, and may mention
``Action``.

**Turns.** Turns need not alternate action by action (Quarto's placer also chooses): every fact asks
``state.player`` after an action. The mover's *turn* is the run of its decisions until the other player is due
or the game ends; the opponent's *reply* is its next turn.

* A **winning action** ends the game at once with the mover the winner; a **losing action** ends it with the
  opponent the winner.
* The opponent **can win in its turn** when some sequence of its decisions within that turn ends the game with
  its win. After an action that leaves the mover's turn going on, the mover is taken to continue as well as it
  can (the best continuation counts).
* A **safe action** wins at once, draws at once, or leaves the opponent no way to win in its next turn.
* A **forcing action** is safe, does not end the game, and every turn the opponent may take next leaves the mover
  a way to win in its own next turn (a fork): one more turn of lookahead than safety.
* A **fork-free action** wins or draws at once, or leaves the opponent neither a win nor a forcing action in its
  next turn: the opponent's fork seen before it is played. The check plays at most :data:`FORK_BUDGET` actions
  per action examined (an action it cannot settle within them does not count as fork-free), so its cost stays
  bounded in games with many actions; the answer depends on the position only.

Wherever a fact picks one action among several it takes the lowest action, so primitives stay deterministic.

**Board facts** (only for a game offering ``Board``; elsewhere counts are 0 and choices ``NO_ACTION``): the
cells of the position and of the position each action leaves; where ``Board.seat_marks`` holds, value ``1 +
seat`` is that seat's mark, so the mover's and the opponent's marks are counted, and their *runs*: the most
consecutive cells of one mark along a row, a column or a diagonal of the grid; and the *line potential* of a
position for the mover, the classic heuristic of games of marks in a row: over every window of four cells in a
straight line (the board's longest side, if shorter), ``4**k`` for a window holding ``k`` of the mover's marks and
none of the opponent's, less the same for the opponent's.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from gpquarto.games.capabilities import Board
from gpquarto.games.interface import Game, GameState, GameView, Outcome
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.registry import get_plugin, plugins
from gpquarto.gp.binding import GENERIC, GPGame, pick
from gpquarto.gp.facts import cached_fact
from gpquarto.gp.types import NO_ACTION, Action
from gpquarto.learned.board_tuples import straight_tuples

#: What an action does for the mover: the game goes on, it ends drawn, won or lost.
ON, DRAW, WIN, LOSS = 0, 1, 2, 3
#: More winning replies than any position has: an action after which the mover's own turn cannot go on safely.
_NO_SAFE_CONTINUATION = 1 << 30


def _result(state: GameState, mover: int) -> int:
    """What the position in ``state`` means for ``mover``: ``ON``, ``DRAW``, ``WIN`` or ``LOSS``."""
    outcome = state.outcome()
    if outcome is None:
        return ON
    if outcome.winner is None:
        return DRAW
    return WIN if outcome.winner == mover else LOSS


def can_win_in_turn(state: GameState, player: int) -> bool:
    """``player`` (due in ``state``, not over) has a sequence of decisions within its turn that wins."""
    for action in state.legal_actions():
        state.apply(action)
        try:
            result = _result(state, player)
            if result == WIN or (result == ON and state.player == player and can_win_in_turn(state, player)):
                return True
        finally:
            state.undo()
    return False


def winning_replies(state: GameState, player: int) -> int:
    """How many of the decisions due for ``player`` in ``state`` (not over) win at once or keep its turn going
    with a win still to come within it."""
    count = 0
    for action in state.legal_actions():
        state.apply(action)
        try:
            result = _result(state, player)
            if result == WIN or (result == ON and state.player == player and can_win_in_turn(state, player)):
                count += 1
        finally:
            state.undo()
    return count


def replies_after(state: GameState, mover: int) -> int:
    """After an action of ``mover`` that did not end the game: the opponent's winning replies in its next turn,
    the mover's turn (if it goes on) continued by its best continuation; :data:`_NO_SAFE_CONTINUATION` when every
    continuation loses at once."""
    if state.player != mover:
        return winning_replies(state, state.player)
    best = _NO_SAFE_CONTINUATION
    for action in state.legal_actions():
        state.apply(action)
        try:
            result = _result(state, mover)
            replies = 0 if result in (WIN, DRAW) else best if result == LOSS else replies_after(state, mover)
        finally:
            state.undo()
        best = min(best, replies)
        if not best:
            break
    return best


def every_turn_leaves_a_win(state: GameState, mover: int) -> bool:
    """The opponent of ``mover`` is due in ``state`` (not over): every turn it may take ends the game with the
    mover's win or leaves the mover a way to win in its next turn."""
    for action in state.legal_actions():
        state.apply(action)
        try:
            result = _result(state, mover)
            if result == ON:
                if state.player != mover:
                    ok = every_turn_leaves_a_win(state, mover)
                else:
                    ok = can_win_in_turn(state, mover)
            else:
                ok = result == WIN
        finally:
            state.undo()
        if not ok:
            return False
    return True


def forces_a_win(state: GameState, mover: int) -> bool:
    """After an action of ``mover`` that did not end the game: the mover (continuing its turn as well as it can)
    leaves the opponent only turns after which the mover can win in its own next turn."""
    if state.player != mover:
        return every_turn_leaves_a_win(state, mover)
    for action in state.legal_actions():
        state.apply(action)
        try:
            result = _result(state, mover)
            if result == WIN or (result == ON and forces_a_win(state, mover)):
                return True
        finally:
            state.undo()
    return False


#: The most actions one fork check may play (:meth:`GenericFeatures.fork_free`); past it the check gives up and the
#: action does not count as fork-free. Per action, so a check's answer depends on the position alone.
FORK_BUDGET = 5_000


class _OutOfBudget(Exception):
    """A fork check played :data:`FORK_BUDGET` actions without an answer."""


class _Counted:
    """A state whose :meth:`apply` counts, and refuses (before playing) past a budget: what the fork check plays
    on. Reads pass through."""

    def __init__(self, state: GameState, budget: int) -> None:
        self._state = state
        self.left = budget

    @property
    def player(self) -> int:
        return self._state.player

    def legal_actions(self) -> Sequence[int]:
        return self._state.legal_actions()

    def outcome(self) -> Outcome | None:
        return self._state.outcome()

    def apply(self, action: int) -> None:
        if self.left <= 0:
            raise _OutOfBudget
        self.left -= 1
        self._state.apply(action)

    def undo(self) -> int:
        return self._state.undo()


def leaves_no_fork(state: GameState, mover: int) -> bool:
    """After an action of ``mover`` that did not end the game: the mover (continuing its turn as well as it can)
    leaves the opponent no winning action and no forcing action (:func:`forces_a_win`) in its next turn."""
    if state.player == mover:
        for action in state.legal_actions():
            state.apply(action)
            try:
                result = _result(state, mover)
                if result in (WIN, DRAW) or (result == ON and leaves_no_fork(state, mover)):
                    return True
            finally:
                state.undo()
        return False
    opponent = state.player
    for action in state.legal_actions():
        state.apply(action)
        try:
            result = _result(state, opponent)
            if result == WIN or (result == ON and state.player == opponent and can_win_in_turn(state, opponent)):
                return False
            if result == ON and forces_a_win(state, opponent):
                return False
        finally:
            state.undo()
    return True


# ---------------------------------------------------------------------- the board (where the game declares one)
@functools.cache
def grid_lines(rows: int, columns: int) -> tuple[tuple[int, ...], ...]:
    """Every maximal straight line of the ``rows x columns`` grid of at least two cells: rows, columns, and the
    diagonals in both directions, as row-major cell indices."""
    lines = [tuple(row * columns + column for column in range(columns)) for row in range(rows)]
    lines += [tuple(row * columns + column for row in range(rows)) for column in range(columns)]
    for step in (1, -1):  # down-right, down-left
        starts = [(0, column) for column in range(columns)] + [
            (row, 0 if step == 1 else columns - 1) for row in range(1, rows)
        ]
        for row, column in starts:
            line = []
            while 0 <= row < rows and 0 <= column < columns:
                line.append(row * columns + column)
                row, column = row + 1, column + step
            lines.append(tuple(line))
    return tuple(line for line in lines if len(line) >= 2)


def longest_run(cells: tuple[int, ...], mark: int, lines: Iterable[tuple[int, ...]]) -> int:
    """The most consecutive cells holding ``mark`` along one of ``lines``."""
    best = 0
    for line in lines:
        run = 0
        for cell in line:
            if cells[cell] == mark:
                run += 1
                best = max(best, run)
            else:
                run = 0
    return best


def adjacent_pairs(cells: tuple[int, ...], mark: int, lines: Iterable[tuple[int, ...]]) -> int:
    """Pairs of neighbouring cells (along a row, a column or a diagonal) that both hold ``mark``."""
    return sum(cells[a] == mark and cells[b] == mark for line in lines for a, b in zip(line, line[1:], strict=False))


def window_potential(cells: tuple[int, ...], own: int, other: int, windows: Iterable[tuple[int, ...]]) -> int:
    """The line potential of ``cells`` for the holder of ``own`` marks: ``4**k`` for every window holding ``k >= 1``
    of its marks and none of the other's, less the same for the other's marks (the classic heuristic of the games
    of marks in a row)."""
    total = 0
    for window in windows:
        mine = theirs = 0
        for cell in window:
            value = cells[cell]
            mine += value == own
            theirs += value == other
        if mine and not theirs:
            total += 4**mine
        elif theirs and not mine:
            total -= 4**theirs
    return total


@functools.cache
def centre_distances(rows: int, columns: int) -> tuple[int, ...]:
    """Each cell's squared distance to the centre of the grid, doubled coordinates (whole numbers)."""
    return tuple(
        (2 * row - rows + 1) ** 2 + (2 * column - columns + 1) ** 2 for row in range(rows) for column in range(columns)
    )


@dataclass(frozen=True)
class BoardShape:
    """A game's board under one set of settings: the capability, the grid and its lines."""

    board: Board
    rows: int
    columns: int

    @property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The grid's maximal straight lines (:func:`grid_lines`)."""
        return grid_lines(self.rows, self.columns)

    @property
    def windows(self) -> tuple[tuple[int, ...], ...]:
        """Every straight run of :data:`WINDOW` cells (fewer on a smaller grid) along a row, column or diagonal."""
        return _windows(self.rows, self.columns)


#: The length of the windows of the line potential (Connect Four's four; the board's longest side if shorter).
WINDOW = 4


@functools.cache
def _windows(rows: int, columns: int) -> tuple[tuple[int, ...], ...]:
    return tuple(straight_tuples(rows, columns, min(WINDOW, max(rows, columns))))


_SHAPES: dict[tuple[GamePlugin, str], BoardShape | None] = {}


def board_shape(state: GameState) -> BoardShape | None:
    """The board of ``state``'s game under its settings, or None when the game declares no ``Board`` (kept per
    plug-in and settings)."""
    settings = state.settings()
    plugin = get_plugin(state.game_name)
    key = (plugin, repr(sorted(settings.items())))
    if key not in _SHAPES:
        if plugin.offers(Board):
            board = plugin.capability(Board)
            rows, columns = board.shape(plugin.check_settings(settings))
            _SHAPES[key] = BoardShape(board, rows, columns)
        else:
            _SHAPES[key] = None
    return _SHAPES[key]


def best_action(scores: Mapping[int, int], actions: Iterable[int], *, highest: bool = True) -> int:
    """The action of ``actions`` with the highest (or lowest) score in ``scores`` (actions missing from it are
    not candidates), the lowest action on ties; ``NO_ACTION`` when there is none."""
    best, best_score = NO_ACTION, 0
    for action in actions:
        score = scores.get(action)
        if score is None:
            continue
        if not highest:
            score = -score
        if best == NO_ACTION or score > best_score or (score == best_score and action < best):
            best, best_score = action, score
    return best


class GenericFeatures:
    """Lazily computed facts about the position a decision is taken in, for any game (see the module docstring).

    Every lookahead plays actions on one private copy of the position (:attr:`state`) and takes them back, so the
    view is never touched. ``mover`` is the player due."""

    def __init__(self, view: GameView) -> None:
        self.view = view
        self.mover: int = view.player
        self._fork_free: dict[int, bool] = {}

    @cached_fact
    def state(self) -> GameState:
        """A private copy of the position, to play actions on (every fact gives it back as it found it)."""
        return self.view.copy()

    @cached_fact
    def legal_actions(self) -> tuple[int, ...]:
        """The legal actions, ascending."""
        return tuple(self.view.legal_actions())

    @cached_fact
    def legal_set(self) -> frozenset[int]:
        """The legal actions as a set."""
        return frozenset(self.legal_actions)

    def is_legal(self, action: int) -> bool:
        """``action`` is legal now."""
        return action in self.legal_set

    # ------------------------------------------------------------------ the mover's actions
    @cached_fact
    def results(self) -> dict[int, int]:
        """For each legal action: ``ON``, ``DRAW``, ``WIN`` or ``LOSS`` (what it does at once, for the mover)."""
        state, mover, found = self.state, self.mover, {}
        for action in self.legal_actions:
            state.apply(action)
            try:
                found[action] = _result(state, mover)
            finally:
                state.undo()
        return found

    @cached_fact
    def winning_actions(self) -> tuple[int, ...]:
        """The actions that win at once, ascending."""
        return tuple(action for action, result in self.results.items() if result == WIN)

    @cached_fact
    def replies(self) -> dict[int, int]:
        """For each legal action that does not end the game: how many winning replies the opponent has in its
        next turn (see :func:`replies_after`)."""
        state, mover, found = self.state, self.mover, {}
        for action, result in self.results.items():
            if result != ON:
                continue
            state.apply(action)
            try:
                found[action] = replies_after(state, mover)
            finally:
                state.undo()
        return found

    @cached_fact
    def safe_actions(self) -> tuple[int, ...]:
        """The actions that win or draw at once, or leave the opponent no way to win in its next turn, ascending."""
        replies = self.replies
        return tuple(
            action
            for action, result in self.results.items()
            if result in (WIN, DRAW) or (result == ON and not replies[action])
        )

    @cached_fact
    def safe_set(self) -> frozenset[int]:
        """The safe actions as a set."""
        return frozenset(self.safe_actions)

    @cached_fact
    def win_threatened(self) -> bool:
        """Some legal action would let the opponent win in its next turn (lose at once, or leave a winning reply):
        the mover has something to stop."""
        return len(self.safe_actions) < len(self.legal_actions)

    @cached_fact
    def blocking_action(self) -> int:
        """The lowest safe action when the mover has something to stop (:attr:`win_threatened`); else
        ``NO_ACTION``."""
        return self.safe_actions[0] if self.win_threatened and self.safe_actions else NO_ACTION

    @cached_fact
    def fewest_replies_action(self) -> int:
        """The lowest winning action; else the action that does not end the game and leaves the opponent the
        fewest winning replies (lowest on ties), else a drawing action; ``NO_ACTION`` when every action loses."""
        if self.winning_actions:
            return self.winning_actions[0]
        choice = best_action(self.replies, self.legal_actions, highest=False)
        if choice != NO_ACTION and self.replies[choice] < _NO_SAFE_CONTINUATION:
            return choice
        draws = [action for action, result in self.results.items() if result == DRAW]
        return draws[0] if draws else choice

    @cached_fact
    def forcing_action(self) -> int:
        """The lowest safe action that does not end the game and after which every turn of the opponent leaves
        the mover a win in its next turn (:func:`forces_a_win`); ``NO_ACTION`` when there is none."""
        state, mover, replies = self.state, self.mover, self.replies
        for action in self.safe_actions:
            if self.results[action] != ON or replies[action]:
                continue
            state.apply(action)
            try:
                forced = forces_a_win(state, mover)
            finally:
                state.undo()
            if forced:
                return action
        return NO_ACTION

    def fork_free(self, action: int) -> bool:
        """``action`` (legal) wins or draws at once, or leaves the opponent neither a win nor a fork in its next
        turn (:func:`leaves_no_fork`), as far as :data:`FORK_BUDGET` plays can tell; computed on first asking and
        kept for the decision."""
        known = self._fork_free.get(action)
        if known is None:
            result = self.results[action]
            if result != ON:
                known = result != LOSS
            else:
                counted = _Counted(self.state, FORK_BUDGET)
                counted.apply(action)
                try:
                    known = leaves_no_fork(counted, self.mover)  # type: ignore[arg-type]  # a counting state
                except _OutOfBudget:
                    known = False
                finally:
                    counted.undo()
            self._fork_free[action] = known
        return known

    def first_fork_free(self, actions: Iterable[int]) -> int:
        """The first of ``actions`` that is safe and fork-free, or ``NO_ACTION`` (only the actions up to it are
        checked)."""
        safe = self.safe_set
        for action in actions:
            if action in safe and self.fork_free(action):
                return action
        return NO_ACTION

    @cached_fact
    def fork_free_action(self) -> int:
        """The lowest safe action that leaves the opponent no fork (:meth:`fork_free`), or ``NO_ACTION``."""
        return self.first_fork_free(self.safe_actions)

    @cached_fact
    def fork_free_potential_action(self) -> int:
        """The safe, fork-free action leaving the best line potential (lowest on ties; without seat marks: the
        lowest safe, fork-free action), or ``NO_ACTION``."""
        potential = self.potential_after
        ordered = sorted(self.safe_actions, key=lambda action: (-potential.get(action, 0), action))
        return self.first_fork_free(ordered)

    # ------------------------------------------------------------------ the board
    @cached_fact
    def shape(self) -> BoardShape | None:
        """The game's board under the position's settings, or None (no ``Board``)."""
        return board_shape(self.state)

    @cached_fact
    def marks(self) -> tuple[int, int] | None:
        """The cell values of the mover's and the opponent's marks, or None (no board, or no seat marks)."""
        shape = self.shape
        if shape is None or not shape.board.seat_marks:
            return None
        return 1 + self.mover, 2 - self.mover

    @cached_fact
    def cells(self) -> tuple[int, ...]:
        """The cells of the position, row by row (empty without a board)."""
        return () if self.shape is None else tuple(self.shape.board.cells(self.state))

    @cached_fact
    def cells_after(self) -> dict[int, tuple[int, ...]]:
        """For each legal action, the cells of the position it leaves (empty without a board)."""
        shape, state = self.shape, self.state
        found: dict[int, tuple[int, ...]] = {}
        if shape is None:
            return found
        for action in self.legal_actions:
            state.apply(action)
            try:
                found[action] = tuple(shape.board.cells(state))
            finally:
                state.undo()
        return found

    @cached_fact
    def own_marks(self) -> int:
        """The mover's marks on the board (0 without seat marks)."""
        return 0 if self.marks is None else self.cells.count(self.marks[0])

    @cached_fact
    def opponent_marks(self) -> int:
        """The opponent's marks on the board (0 without seat marks)."""
        return 0 if self.marks is None else self.cells.count(self.marks[1])

    @cached_fact
    def empty_cells(self) -> int:
        """Empty cells (value 0) on the board (0 without a board)."""
        return self.cells.count(0)

    @cached_fact
    def own_longest_run(self) -> int:
        """The mover's longest run of marks along a row, column or diagonal (0 without seat marks)."""
        if self.marks is None or self.shape is None:
            return 0
        return longest_run(self.cells, self.marks[0], self.shape.lines)

    @cached_fact
    def opponent_longest_run(self) -> int:
        """The opponent's longest run of marks (0 without seat marks)."""
        if self.marks is None or self.shape is None:
            return 0
        return longest_run(self.cells, self.marks[1], self.shape.lines)

    @cached_fact
    def run_after(self) -> dict[int, int]:
        """For each legal action: the mover's longest run after it (empty without seat marks)."""
        if self.marks is None or self.shape is None:
            return {}
        mark, lines = self.marks[0], self.shape.lines
        return {action: longest_run(cells, mark, lines) for action, cells in self.cells_after.items()}

    @cached_fact
    def pairs_after(self) -> dict[int, int]:
        """For each legal action: pairs of neighbouring cells both holding the mover's mark after it (empty
        without seat marks)."""
        if self.marks is None or self.shape is None:
            return {}
        mark, lines = self.marks[0], self.shape.lines
        return {action: adjacent_pairs(cells, mark, lines) for action, cells in self.cells_after.items()}

    @cached_fact
    def potential_after(self) -> dict[int, int]:
        """For each legal action: the line potential (:func:`window_potential`) of the position it leaves, for the
        mover (empty without seat marks)."""
        if self.marks is None or self.shape is None:
            return {}
        (own, other), windows = self.marks, self.shape.windows
        return {action: window_potential(cells, own, other, windows) for action, cells in self.cells_after.items()}

    @cached_fact
    def centre_after(self) -> dict[int, int]:
        """For each legal action that changes a cell: the least (doubled, squared) distance from a changed cell to
        the centre of the board."""
        if self.shape is None:
            return {}
        before, distances = self.cells, centre_distances(self.shape.rows, self.shape.columns)
        found = {}
        for action, cells in self.cells_after.items():
            changed = [distances[cell] for cell in range(len(cells)) if cells[cell] != before[cell]]
            if changed:
                found[action] = min(changed)
        return found


# ---------------------------------------------------------------------- the binding
#: How many seeded random games of each game the samples come from.
SAMPLE_GAMES = 3
#: A random game used for samples stops here if the game has not ended (a game without a ply limit may not).
SAMPLE_PLIES = 1_000


def random_game_positions(game: Game, games: int, seed: int) -> tuple[GameState, ...]:
    """Positions of seeded random play of ``game`` under its default settings, the game still on: the start,
    one action in, and from each of ``games`` random games (cut at :data:`SAMPLE_PLIES`) its middle and the
    position before its last action (where, in a game won at the end, the mover has a winning action)."""
    rng = random.Random(seed)
    start = game.new_state()
    positions: list[GameState] = [] if start.is_over() else [start]
    if start.legal_actions():
        first = start.copy()
        first.apply(start.legal_actions()[0])
        if not first.is_over():
            positions.append(first)
    for _ in range(games):
        state = game.new_state()
        played: list[int] = []
        while not state.is_over() and len(played) < SAMPLE_PLIES:
            actions = state.legal_actions()
            action = actions[int(rng.random() * len(actions))]
            played.append(action)
            state.apply(action)
        for plies in dict.fromkeys((len(played) // 2, max(0, len(played) - 1))):
            position = game.new_state()
            for action in played[:plies]:
                position.apply(action)
            if not position.is_over():
                positions.append(position)
    return tuple(positions)


def child_samples(type_: type, features: GenericFeatures) -> tuple[int, ...]:
    """``NO_ACTION`` and the first, middle and last legal action."""
    legal = features.legal_actions
    picked = [NO_ACTION] + ([legal[0], legal[len(legal) // 2], legal[-1]] if legal else [])
    return tuple(dict.fromkeys(picked))


def wrong_value(type_: type, value: int, features: GenericFeatures) -> str | None:
    """Why an ``Action`` value is not acceptable in the position (neither legal nor ``NO_ACTION``), or None."""
    if type_ is Action and value != NO_ACTION and not features.is_legal(value):
        return f"returned action {value}, which is neither a legal action nor NO_ACTION (-1)"
    return None


def is_legal(features: GenericFeatures, kind: str, value: int) -> bool:
    """A legal action now."""
    return value in features.legal_set


def fallback(view: GameView, kind: str, rng: random.Random) -> int:
    """A random legal action (one draw of ``rng``)."""
    return pick(view.legal_actions(), rng)


def to_action(view: GameView, kind: str, value: int) -> int:
    """An action is its own action."""
    return value


def generic_binding(
    game: str | Game | GamePlugin,
    *,
    features: type[GenericFeatures] = GenericFeatures,
    family_package: str = "",
    sample_positions: Callable[[], tuple[GameState, ...]] | None = None,
) -> GPGame:
    """The generic binding of ``game`` (see the module docstring): what a game without a binding of its own gets,
    and what a plug-in that adds its own primitives offers as its ``GPBinding``::

        BINDING = generic_binding("connect_four", family_package="connect_four.primitives")

    ``features``: a subclass of :class:`GenericFeatures` whose primitives belong to this game alone;
    ``family_package``: a package listing the game's own family modules in ``FAMILY_MODULES``;
    ``sample_positions``: the positions its primitives are checked on (default: :func:`random_game_positions` of
    the game, seed 0)."""
    plugin = get_plugin(game) if isinstance(game, str) else game if isinstance(game, GamePlugin) else None
    the_game: Game = plugin.game if plugin is not None else game  # type: ignore[assignment]  # else a Game
    if the_game.name == GENERIC:
        raise ValueError(f"a game may not be called {GENERIC!r}: the name stands for every generically bound game")
    if not (isinstance(features, type) and issubclass(features, GenericFeatures)):
        raise ValueError(f"the features of a generic binding must subclass GenericFeatures, not {features!r}")
    kinds = tuple(kind.value for kind in the_game.decision_kinds)
    samples = sample_positions or functools.cache(lambda: random_game_positions(the_game, SAMPLE_GAMES, 0))
    return GPGame(
        name=the_game.name,
        kinds=kinds,
        then_types=dict.fromkeys(kinds, Action),
        features=features,
        node_types=(Action,),
        family_package=family_package,
        sample_positions=samples,
        child_samples=child_samples,
        wrong_value=wrong_value,
        is_legal=is_legal,
        fallback=fallback,
        to_action=to_action,
        rule_set_class="gpquarto.gp.genome:GameRuleSet",
        player_class="gpquarto.gp.player:RulePlayer",
        generic=True,
    )


_GENERIC_SAMPLES: dict[tuple[str, ...], tuple[GameState, ...]] = {}


def every_game_samples() -> tuple[GameState, ...]:
    """The positions a generic primitive is checked on: :func:`random_game_positions` (one random game, seed 0)
    of every installed game, whatever its binding (the primitive must work on any)."""
    installed = plugins()
    key = tuple(plugin.name for plugin in installed)
    if key not in _GENERIC_SAMPLES:
        _GENERIC_SAMPLES[key] = tuple(
            position for plugin in installed for position in random_game_positions(plugin.game, 1, 0)
        )
    return _GENERIC_SAMPLES[key]


#: The binding of the group :data:`GENERIC`, for checking the generic primitives (not a game: never played).
GENERIC_GP = GPGame(
    name=GENERIC,
    kinds=(),
    then_types={},
    features=GenericFeatures,
    node_types=(Action,),
    family_package="",
    sample_positions=every_game_samples,
    child_samples=child_samples,
    wrong_value=wrong_value,
    is_legal=is_legal,
    fallback=fallback,
    to_action=to_action,
    rule_set_class="gpquarto.gp.genome:GameRuleSet",
    player_class="gpquarto.gp.player:RulePlayer",
    generic=True,
)
