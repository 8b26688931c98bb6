"""The generic GP binding and primitive family (:mod:`gpquarto.gp.generic`, ``primitives/generic.py``) on
tic-tac-toe, a game that ships only its rules and a ``Board``: every generic primitive against a slow reference
written here from the rules (cells and lines, not the engine), the turns of Quarto (the placer also chooses)
against a reference over copies of the state, the libraries (generic primitives in generic games' libraries only,
a game's own family on top), and a short evolution that beats ``random`` and saves and reloads its player."""

from __future__ import annotations

import functools
import json
import random

import pytest

from gpquarto.arena.match import play_match
from gpquarto.games import get_game
from gpquarto.games.registry import get_plugin, register_plugin, unregister_plugin
from gpquarto.gp.binding import GENERIC
from gpquarto.gp.bindings import gp_game, gp_games
from gpquarto.gp.generic import GenericFeatures, generic_binding
from gpquarto.gp.library import load_library
from gpquarto.gp.storage import load_player, save_player
from gpquarto.gp.types import NO_ACTION, Action
from gpquarto.players.registry import make_named_player
from gpquarto.training import EvolutionConfig, train
from tests import generic_family, tictactoe
from tests.tictactoe import LINES

GENERIC_NAMES = {
    "first_action",
    "last_action",
    "action_or",
    "legal_action_count",
    "winning_action",
    "win_available",
    "winning_action_count",
    "safe_action",
    "blocking_action",
    "win_threatened",
    "is_safe_action",
    "safe_action_or",
    "safe_action_count",
    "fewest_replies_action",
    "forcing_action",
    "fork_free_action",
    "fork_free_potential_action",
    "is_fork_free",
    "own_mark_count",
    "opponent_mark_count",
    "empty_cell_count",
    "own_longest_run",
    "opponent_longest_run",
    "longest_run_action",
    "safe_longest_run_action",
    "clustering_action",
    "potential_action",
    "safe_potential_action",
    "central_action",
    "safe_central_action",
}


@pytest.fixture(autouse=True)
def tictactoe_installed():
    register_plugin(tictactoe.PLUGIN)
    yield
    unregister_plugin(tictactoe.GAME.name)


@pytest.fixture(scope="module")
def library():
    register_plugin(tictactoe.PLUGIN)
    try:
        yield load_library(game="tictactoe")
    finally:
        unregister_plugin(tictactoe.GAME.name)


def positions(count: int, seed: int, misere: bool = False) -> list:
    """Seeded random tic-tac-toe positions, the game still on."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = tictactoe.GAME.new_state(misere=misere)
        for _ in range(rng.randrange(8)):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over():
            found.append(state)
    return found


# ---------------------------------------------------------------------- the slow reference, from the rules
@functools.cache  # a board has at most 3**9 fillings: each one's lines are read once
def line_owner(cells: tuple) -> int | None:
    """The seat that fills a line of ``cells``, or None."""
    for line in LINES:
        owner = cells[line[0]]
        if owner >= 0 and all(cells[cell] == owner for cell in line):
            return owner
    return None


class Reference:
    """What each generic primitive should give in a tic-tac-toe position, from the cells and lines alone."""

    def __init__(self, state) -> None:
        self.cells = tuple(state.cells)  # -1 empty, else the seat
        self.mover = state.player
        self.misere = state.misere

    def winner(self, cells) -> int | None:
        owner = line_owner(cells)
        return None if owner is None else 1 - owner if self.misere else owner

    def over(self, cells) -> bool:
        return self.winner(cells) is not None or -1 not in cells

    @staticmethod
    def play(cells, cell: int, seat: int) -> tuple:
        return tuple(seat if index == cell else value for index, value in enumerate(cells))

    def legal(self, cells=None) -> list[int]:
        cells = self.cells if cells is None else cells
        return [] if self.over(cells) else [cell for cell in range(9) if cells[cell] < 0]

    def wins(self, cells, seat: int) -> list[int]:
        return [cell for cell in self.legal(cells) if self.winner(self.play(cells, cell, seat)) == seat]

    def replies(self, action: int) -> int:
        after = self.play(self.cells, action, self.mover)
        return len(self.wins(after, 1 - self.mover))

    def result(self, action: int) -> str:
        after = self.play(self.cells, action, self.mover)
        winner = self.winner(after)
        return "on" if not self.over(after) else "draw" if winner is None else "win" if winner == self.mover else "loss"

    def safe(self) -> list[int]:
        return [
            action
            for action in self.legal()
            if self.result(action) in ("win", "draw") or (self.result(action) == "on" and not self.replies(action))
        ]

    def forcing(self) -> int:
        for action in self.safe():
            if self.result(action) != "on":
                continue
            after = self.play(self.cells, action, self.mover)
            if all(
                self.winner(reply) == self.mover or (not self.over(reply) and self.wins(reply, self.mover))
                for reply in (self.play(after, cell, 1 - self.mover) for cell in self.legal(after))
            ):
                return action
        return NO_ACTION

    def fork_free(self, action: int) -> bool:
        """Wins or draws, or leaves the opponent no win and no reply after which every answer of the mover leaves
        it a win (or loses at once)."""
        if self.result(action) != "on":
            return self.result(action) != "loss"
        mover, other = self.mover, 1 - self.mover
        after = self.after(action)
        for reply in self.legal(after):
            position = self.play(after, reply, other)
            if self.winner(position) == other:
                return False
            answers = [self.play(position, cell, mover) for cell in self.legal(position)]
            if answers and all(
                self.winner(answer) == other or (not self.over(answer) and self.wins(answer, other))
                for answer in answers
            ):
                return False
        return True

    def fewest_replies(self) -> int:
        wins = self.wins(self.cells, self.mover)
        if wins:
            return wins[0]
        going_on = [action for action in self.legal() if self.result(action) == "on"]
        if going_on:
            return min(going_on, key=lambda action: (self.replies(action), action))
        draws = [action for action in self.legal() if self.result(action) == "draw"]
        return draws[0] if draws else NO_ACTION

    @staticmethod
    def run(cells, seat: int) -> int:
        """The longest run of ``seat``'s marks, walking from every cell in four directions."""
        best = 0
        for start in range(9):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                row, col, length = divmod(start, 3) + (0,)
                while 0 <= row < 3 and 0 <= col < 3 and cells[3 * row + col] == seat:
                    length, row, col = length + 1, row + d_row, col + d_col
                best = max(best, length)
        return best

    @staticmethod
    def pairs(cells, seat: int) -> int:
        return sum(
            cells[a] == seat == cells[b]
            for a in range(9)
            for b in range(a + 1, 9)
            if max(abs(a // 3 - b // 3), abs(a % 3 - b % 3)) == 1
        )

    @staticmethod
    def potential(cells, seat: int) -> int:
        """The line potential for ``seat``: on tic-tac-toe the windows are the eight lines."""
        total = 0
        for line in LINES:
            mine, theirs = (sum(cells[cell] == who for cell in line) for who in (seat, 1 - seat))
            total += 4**mine if mine and not theirs else -(4**theirs) if theirs and not mine else 0
        return total

    def best(self, actions, score, *, highest=True) -> int:
        if not actions:
            return NO_ACTION
        sign = 1 if highest else -1
        return min(actions, key=lambda action: (-sign * score(action), action))

    def after(self, action: int) -> tuple:
        return self.play(self.cells, action, self.mover)

    def expected(self, name: str, children: tuple) -> object:
        legal, safe, mover, other = self.legal(), self.safe(), self.mover, 1 - self.mover
        first = lambda actions: actions[0] if actions else NO_ACTION  # noqa: E731
        distance = lambda action: (2 * (action // 3) - 2) ** 2 + (2 * (action % 3) - 2) ** 2  # noqa: E731
        run_after = lambda action: self.run(self.after(action), mover)  # noqa: E731
        table = {
            "first_action": lambda: first(legal),
            "last_action": lambda: legal[-1] if legal else NO_ACTION,
            "action_or": lambda a, b: a if a in legal else b,
            "legal_action_count": lambda: len(legal),
            "winning_action": lambda: first(self.wins(self.cells, mover)),
            "win_available": lambda: bool(self.wins(self.cells, mover)),
            "winning_action_count": lambda: len(self.wins(self.cells, mover)),
            "safe_action": lambda: first(safe),
            "blocking_action": lambda: first(safe) if len(safe) < len(legal) else NO_ACTION,
            "win_threatened": lambda: len(safe) < len(legal),
            "is_safe_action": lambda a: a in safe,
            "safe_action_or": lambda a, b: a if a in safe else b,
            "safe_action_count": lambda: len(safe),
            "fewest_replies_action": self.fewest_replies,
            "forcing_action": self.forcing,
            "fork_free_action": lambda: first([action for action in safe if self.fork_free(action)]),
            "fork_free_potential_action": lambda: first(
                [
                    action
                    for action in sorted(safe, key=lambda action: (-self.potential(self.after(action), mover), action))
                    if self.fork_free(action)
                ]
            ),
            "is_fork_free": lambda a: a in safe and self.fork_free(a),
            "own_mark_count": lambda: self.cells.count(mover),
            "opponent_mark_count": lambda: self.cells.count(other),
            "empty_cell_count": lambda: self.cells.count(-1),
            "own_longest_run": lambda: self.run(self.cells, mover),
            "opponent_longest_run": lambda: self.run(self.cells, other),
            "longest_run_action": lambda: self.best(legal, run_after),
            "safe_longest_run_action": lambda: self.best(safe, run_after),
            "clustering_action": lambda: self.best(legal, lambda action: self.pairs(self.after(action), mover)),
            "potential_action": lambda: self.best(legal, lambda action: self.potential(self.after(action), mover)),
            "safe_potential_action": lambda: self.best(safe, lambda action: self.potential(self.after(action), mover)),
            "central_action": lambda: self.best(legal, distance, highest=False),
            "safe_central_action": lambda: self.best(safe, distance, highest=False),
        }
        return table[name](*children)


def children_of(spec, legal: list[int]) -> list[tuple]:
    choices = [NO_ACTION, *legal, 99]
    if len(spec.arg_types) == 1:
        return [(action,) for action in choices]
    if len(spec.arg_types) == 2:
        return [(a, b) for a in choices[:4] for b in choices[-4:]]
    return [()]


@pytest.mark.parametrize("misere", [False, True])
def test_every_generic_primitive_matches_the_slow_reference(library, misere):
    generic = [spec for spec in library if spec.game == GENERIC]
    assert {spec.name for spec in generic} == GENERIC_NAMES
    checked = 0
    for state in positions(150, seed=7 + misere, misere=misere):
        reference = Reference(state)
        for spec in generic:
            for children in children_of(spec, reference.legal()):
                features = GenericFeatures(state.view())
                got = spec.function(features, *children)
                assert got == reference.expected(spec.name, children), (spec.name, state.text(), children)
                checked += 1
    assert checked > 8_000


def test_the_references_positions_have_every_case():
    """The positions above hold wins, threats, forks and every count: the comparison is not vacuous."""
    seen = {"win": 0, "threat": 0, "fork": 0, "fork to stop": 0}
    for state in positions(150, seed=7):
        reference = Reference(state)
        seen["win"] += bool(reference.wins(reference.cells, reference.mover))
        seen["threat"] += len(reference.safe()) < len(reference.legal())
        seen["fork"] += reference.forcing() != NO_ACTION
        seen["fork to stop"] += any(not reference.fork_free(action) for action in reference.safe())
    assert min(seen.values()) >= 5, seen


def test_a_fork_check_past_its_budget_gives_up_and_leaves_the_position_as_it_was(monkeypatch):
    from gpquarto.gp import generic

    state = tictactoe.GAME.from_text("X../.../... O")
    features = GenericFeatures(state.view())
    assert features.fork_free(4)  # the centre: no fork for X after it
    monkeypatch.setattr(generic, "FORK_BUDGET", 5)
    tight = GenericFeatures(state.view())
    assert not tight.fork_free(4) and tight.fork_free_action == NO_ACTION
    assert (tight.state.text(), tight.state.history) == (state.text(), state.history)
    assert tight.safe_actions == features.safe_actions  # the other facts do not count plays


# ---------------------------------------------------------------------- turns that do not alternate (Quarto)
def slow_safe(state) -> list[int]:
    """Safe actions over copies: the mover's turn continued by its best continuation, the opponent's whole turn."""
    mover = state.player

    def opponent_wins_in_turn(position) -> bool:
        player = position.player
        for action in position.legal_actions():
            twin = position.copy()
            twin.apply(action)
            outcome = twin.outcome()
            if outcome is not None and outcome.winner == player:
                return True
            if outcome is None and twin.player == player and opponent_wins_in_turn(twin):
                return True
        return False

    def safe_after(position) -> bool:
        outcome = position.outcome()
        if outcome is not None:
            return outcome.winner in (None, mover)
        if position.player == mover:
            return any(safe_after(_played(position, action)) for action in position.legal_actions())
        return not opponent_wins_in_turn(position)

    return [action for action in state.legal_actions() if safe_after(_played(state, action))]


def _played(state, action: int):
    twin = state.copy()
    twin.apply(action)
    return twin


def test_safe_actions_follow_the_turns_where_the_placer_also_chooses():
    quarto, rng, checked = get_game("quarto"), random.Random(5), 0
    while checked < 8:
        state = quarto.new_state()
        for _ in range(rng.randrange(13, 22)):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over():
            continue
        features = GenericFeatures(state.view())
        assert list(features.safe_actions) == slow_safe(state), state.text()
        assert features.cells == () and features.own_marks == 0  # Quarto declares no Board
        checked += 1


# ---------------------------------------------------------------------- bindings and libraries
def test_a_game_without_a_binding_gets_the_generic_one():
    binding = gp_game("tictactoe")
    assert binding.generic and binding.kinds == ("move",) and binding.then_types == {"move": Action}
    assert binding.features is GenericFeatures and binding.settings == {}
    assert "tictactoe" in [each.name for each in gp_games()] and GENERIC not in [each.name for each in gp_games()]
    assert all(not gp_game(name).generic for name in ("quarto", "quixo"))
    unregister_plugin("tictactoe")
    with pytest.raises(ValueError, match="unknown game 'tictactoe'"):
        gp_game("tictactoe")


def test_the_generic_binding_of_a_game_with_two_decisions():
    """Quarto's plug-in brings its own binding; the generic one made for it still follows its two decision kinds."""
    binding = generic_binding(get_plugin("quarto"))
    assert binding.kinds == ("choose", "place") and binding.then_types == {"choose": Action, "place": Action}
    samples = binding.sample_positions()
    assert {binding.kind_at(sample) for sample in samples} == {"choose", "place"} and len(samples) >= 6
    rng = random.Random(0)
    for sample in samples:
        view, kind = sample.view(), binding.kind_at(sample)
        features = binding.features(view)
        value = binding.fallback(view, kind, rng)
        assert binding.is_legal(features, kind, value) and binding.to_action(view, kind, value) == value
        assert binding.wrong_value(Action, NO_ACTION, features) is None
        assert "neither a legal action" in binding.wrong_value(Action, 999, features)


def test_generic_primitives_join_only_generic_games(library):
    for game in ("quarto", "quixo"):
        other = load_library(game=game)
        assert not GENERIC_NAMES & {spec.name for spec in other}
        assert all(spec.game != GENERIC and Action not in (spec.return_type, *spec.arg_types) for spec in other)
    assert {spec.game for spec in library} == {None, GENERIC}
    assert set(library.families()) >= {"generic_actions", "generic_tactical", "generic_lookahead", "generic_board"}
    library.check_reachable(gp_game("tictactoe").root_types)
    basic = load_library(game="tictactoe", tactical=False)
    assert not {"generic_tactical", "generic_lookahead"} & set(basic.families())
    basic.check_reachable(gp_game("tictactoe").root_types)


@pytest.fixture
def with_own_family():
    """Tic-tac-toe whose plug-in brings a generic binding with a family of its own (``tests/generic_family``)."""
    unregister_plugin("tictactoe")
    register_plugin(generic_family.PLUGIN)
    yield generic_family.PLUGIN
    unregister_plugin("tictactoe")
    register_plugin(tictactoe.PLUGIN)


def test_a_game_adds_its_own_family_on_top_of_the_generic_one(with_own_family):
    binding = gp_game("tictactoe")
    assert binding is generic_family.BINDING and binding.features is generic_family.CornerFeatures
    library = load_library(game="tictactoe")
    own = {spec.name: spec for spec in library if spec.game == "tictactoe"}
    assert set(own) == {"corner_action", "free_corner_count"}
    assert own["corner_action"].return_type is Action  # its own features, the generic action type: the game's
    assert GENERIC_NAMES <= {spec.name for spec in library}
    state = tictactoe.GAME.from_text("X../.O./... X")
    features = generic_family.CornerFeatures(state.view())
    assert own["corner_action"].function(features) == 2 and own["free_corner_count"].function(features) == 3
    assert library.get("safe_action").function(features) in state.legal_actions()  # generic ones read it too


def test_the_plain_game_keeps_only_the_generic_family(with_own_family):
    load_library(game="tictactoe")  # the family is loaded once, for the game that declares it
    unregister_plugin("tictactoe")
    register_plugin(tictactoe.PLUGIN)
    names = {spec.name for spec in load_library(game="tictactoe")}
    assert GENERIC_NAMES <= names and not {"corner_action", "free_corner_count"} & names


# ---------------------------------------------------------------------- a short evolution
TINY = {
    "generations": 6,
    "population": 12,
    "games": 20,
    "final_games": 40,
    "hall_of_fame": 4,
    "accuracy_weight": 0.0,
    "opponents": "random:1",
    "seed": 1,
}


@pytest.fixture(scope="module")
def evolved(tmp_path_factory):
    register_plugin(tictactoe.PLUGIN)
    try:
        folder = tmp_path_factory.mktemp("runs") / "tictactoe"
        train(EvolutionConfig.for_game("tictactoe", **TINY), folder, best_player_copy=None)
        yield folder
    finally:
        unregister_plugin(tictactoe.GAME.name)


def test_a_short_evolution_beats_random_and_its_player_saves_and_reloads(evolved, tmp_path):
    data = json.loads((evolved / "best_player.json").read_text())
    assert data["game"] == "tictactoe" and set(data["rules"]) == {"move"}
    save_player(tmp_path / "again.p", data)
    players = [load_player(evolved / name, seed=1) for name in ("best_player.json", "best_player.p")]
    players.append(load_player(tmp_path / "again.p", seed=1))
    for state in positions(40, seed=3):
        decisions = {player.decide(state.view()) for player in players}
        assert len(decisions) == 1 and decisions <= set(state.legal_actions())
    rival = make_named_player("random", seed=2, game="tictactoe")
    result = play_match(players[0], rival, 300, seed=4, game="tictactoe")
    assert result.losses <= 0.03 * result.games and result.score_rate >= 0.9, result  # seed 1: 280 / 16 / 4
