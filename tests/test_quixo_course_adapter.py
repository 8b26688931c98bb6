"""The course Quixo adapter, both ways, on a tiny stand-in of the course library written here (its Game cannot be
built under numpy 2, and the library is not a dependency)."""

from __future__ import annotations

import enum
import random
from copy import deepcopy

import numpy as np
import pytest

from gpquarto.arena.game import play_game
from gpquarto.games import IllegalActionError
from gpquarto.games.quixo import QuixoBoard
from gpquarto.games.quixo.adapters.course import (
    CourseQuixoShim,
    action_from_course,
    as_course_quixo_player,
    board_from_course,
    course_from_action,
    from_course_quixo_player,
)
from gpquarto.games.quixo.players.search_players import QuixoAlphaBetaPlayer
from gpquarto.players.base import BasePlayer
from gpquarto.players.registry import make_named_player
from gpquarto.resolve import make_player
from tests.reference import quixo as ref


class Move(enum.Enum):
    TOP = 0
    BOTTOM = 1
    LEFT = 2
    RIGHT = 3


class StandInGame:
    """The course's Game as ARCHITECTURE.md describes it: board[y, x] of -1/0/1, x the column, first line wins."""

    def __init__(self) -> None:
        self._board = np.full((5, 5), -1, dtype=np.int64)
        self.current_player_idx = 0

    def get_board(self):
        return self._board.copy()

    def get_current_player(self) -> int:
        return self.current_player_idx

    def move(self, from_pos, slide, player_id) -> bool:
        (x, y), end = from_pos, "TBLR"[slide.value]
        grid = self._board.tolist()
        if (y, x, end) not in ref.legal_moves(grid, player_id):
            return False
        self._board = np.array(ref.play(grid, player_id, (y, x, end)))
        return True

    def check_winner(self) -> int:
        owners = ref.line_owners(self._board.tolist())
        return owners[0] if owners else -1

    def play(self, first, second, max_plies: int = 400) -> tuple[int, list[int]]:
        players, tries = (first, second), [0, 0]
        for _ in range(max_plies):
            ok = False
            while not ok:
                from_pos, slide = players[self.current_player_idx].make_move(self)
                tries[self.current_player_idx] += 1
                ok = self.move(from_pos, slide, self.current_player_idx)
            winner = self.check_winner()
            self.current_player_idx = 1 - self.current_player_idx
            if winner >= 0:
                return winner, tries
        return -1, tries


class StandInRandomPlayer:
    """The course's random player: any cube, any slide (the game asks again until it is legal)."""

    def make_move(self, game):
        return (random.randint(0, 4), random.randint(0, 4)), random.choice(list(Move))


class StandInSeedPlayer:
    """The seed notebook's way of reading the game: deepcopy, game.move, game.check_winner, game._board."""

    def make_move(self, game):
        me = game.get_current_player()
        options = [
            ((x, y), m)
            for x in range(5)
            for y in range(5)
            if (x in (0, 4) or y in (0, 4)) and game._board[y, x] in (-1, me)
            for m in Move
            if not ((y == 0 and m is Move.TOP) or (y == 4 and m is Move.BOTTOM))
            and not ((x == 0 and m is Move.LEFT) or (x == 4 and m is Move.RIGHT))
        ]
        best, best_score = options[0], -99
        for pos, m in options:
            trial = deepcopy(game)
            assert trial.move(pos, m, me)
            winner = trial.check_winner()
            score = 100 if winner == me else -100 if winner == 1 - me else np.count_nonzero(trial._board == me)
            if score > best_score:
                best, best_score = (pos, m), score
        return best


def test_course_moves_map_to_our_actions():
    assert action_from_course(1, 0, Move.BOTTOM) == QuixoBoard().parse_action("b1 to bottom")
    assert action_from_course(0, 3, Move.RIGHT) == QuixoBoard().parse_action("a4 to right")
    for action in QuixoBoard().legal_actions():
        (x, y), direction = course_from_action(action)
        assert action_from_course(x, y, Move(direction)) == action
    grid = np.full((5, 5), -1)
    grid[0, 4] = 1  # y = 0, x = 4: the top-right cell e1
    assert board_from_course(grid, 0).text() == "....O/...../...../...../..... X course"
    with pytest.raises(ValueError, match="a course Quixo cell is -1, 0 or 1, got 7 at x=2, y=1"):
        grid[1, 2] = 7
        board_from_course(grid, 0)


def test_our_player_plays_inside_the_course_game():
    random.seed(1)
    wins = 0
    for game_index in range(6):
        ours = as_course_quixo_player(QuixoAlphaBetaPlayer(depth=1))
        game = StandInGame()
        if game_index % 2 == 0:
            winner, tries = game.play(ours, StandInRandomPlayer())
            our_seat = 0
        else:
            winner, tries = game.play(StandInRandomPlayer(), ours)
            our_seat = 1
        assert tries[our_seat] >= 1
        wins += winner == our_seat
    assert wins >= 5
    move = as_course_quixo_player(QuixoAlphaBetaPlayer(depth=1), move_type=Move).make_move(StandInGame())
    assert isinstance(move[1], Move)


def test_our_player_never_needs_a_second_try():
    game, seat = (
        StandInGame(),
        as_course_quixo_player(make_named_player("random", game="quixo", seed=2), move_type=Move),
    )
    for _ in range(30):
        from_pos, slide = seat.make_move(game)
        assert game.move(from_pos, slide, game.current_player_idx)
        if game.check_winner() >= 0:
            break
        game.current_player_idx = 1 - game.current_player_idx


def test_course_players_play_in_our_arena():
    for factory in (StandInRandomPlayer, StandInSeedPlayer):
        course_player = from_course_quixo_player(factory)
        ours = make_named_player("random", game="quixo", seed=3)
        record = play_game((course_player, ours), game="quixo", settings={"rules": "course"}, seed=3)
        assert record.outcome.termination.value in ("win", "repetition", "ply_limit")
        assert record.outcome.forfeited_by is None


def test_the_shim_moves_like_the_course_game():
    shim = CourseQuixoShim(QuixoBoard.from_text("O..../...../...../...../..... X course"))
    assert shim.get_board()[0, 0] == 1 and shim.get_current_player() == 0
    assert not shim.move((0, 0), Move.BOTTOM, 0)  # the opponent's cube
    assert not shim.move((2, 2), Move.TOP, 0)  # not on the border
    assert not shim.move((1, 0), Move.RIGHT, 1)  # not O's turn
    assert shim.move((4, 0), Move.LEFT, 0) and shim.get_board()[0].tolist() == [0, 1, -1, -1, -1]
    assert shim.check_winner() == -1 and shim.current_player_idx == 1


def test_a_course_player_with_no_legal_move_is_refused_in_one_line():
    class Stubborn:
        def make_move(self, game):
            return (2, 2), Move.TOP

    player = from_course_quixo_player(Stubborn, retries=3)
    with pytest.raises(IllegalActionError, match="no legal move in 3 tries .* not on the border") as caught:
        player.decide(QuixoBoard().view())
    assert "\n" not in str(caught.value)


class Recorder(BasePlayer):
    """A gpquarto Quixo player that notes what it is shown (the game's position keys: its history) and what it
    answers; it asks ``inner`` (a player) or plays ``script`` (actions, in order)."""

    game = "quixo"

    def __init__(self, inner=None, script=()) -> None:
        self.inner, self.script = inner, list(script)
        self.shown: list[tuple[tuple[int, ...], int]] = []
        self.seeds: list[int | None] = []
        self.new_games = 0

    def seed(self, seed):
        self.seeds.append(seed)
        if self.inner is not None:
            self.inner.seed(seed)

    def new_game(self, seat):
        self.new_games += 1
        if self.inner is not None:
            self.inner.new_game(seat)

    def decide(self, view):
        action = self.inner.decide(view) if self.inner is not None else self.script[len(self.shown)]
        self.shown.append((view.position_keys(), action))
        return action


class Replayer:
    """A course player that plays the given actions in order."""

    def __init__(self, actions) -> None:
        self.actions = iter(actions)

    def make_move(self, game):
        (x, y), direction = course_from_action(next(self.actions))
        return (x, y), Move(direction)


@pytest.mark.parametrize("spec", ["examples/players/quixo_trap_proof_new.json", "alphabeta:depth=2"])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_seated_player_sees_the_history_it_sees_in_our_arena(spec, seat):
    # The arena's game, the player against the random player, then the same game in the course game: the
    # player is shown the same history at every decision and answers the same (history-dependent players).
    arena_player = Recorder(make_player(spec, game="quixo", seed=7))
    players = [make_named_player("random", game="quixo", seed=8)]
    players.insert(seat, arena_player)
    record = play_game(tuple(players), game="quixo", settings={"rules": "course"}, seed=9)
    course_player = Recorder(make_player(spec, game="quixo"))
    course_player.seed(arena_player.seeds[-1])
    others = Replayer(action for ply, action in enumerate(record.actions) if ply % 2 != seat)
    seated = as_course_quixo_player(course_player, move_type=Move)
    game = StandInGame()
    game.play(*((seated, others) if seat == 0 else (others, seated)), max_plies=len(record.actions))
    assert course_player.shown == arena_player.shown
    assert [len(keys) for keys, _ in course_player.shown] == list(range(seat + 1, len(record.actions) + 1, 2))
    assert course_player.new_games == 1


def test_the_seat_follows_past_a_draw_the_course_game_does_not_have():
    # X and O each move a cube to the far end of their row and back: the position comes back a third time after
    # O's tenth ply (a draw in gpquarto, not in the course game, which goes on)
    cycle = [QuixoBoard().parse_action(name) for name in ("a1 to right", "a5 to right", "e1 to left", "e5 to left")]
    moves = cycle * 3 + cycle[:2]
    first, second = Recorder(script=moves[0::2]), Recorder(script=moves[1::2])
    game = StandInGame()
    game.play(as_course_quixo_player(first, move_type=Move), as_course_quixo_player(second), max_plies=len(moves))
    lengths = [len(keys) for keys, _ in first.shown]
    assert lengths == [1, 3, 5, 7, 9, 1, 3]  # X's sixth decision: the history starts again after the draw
    assert [len(keys) for keys, _ in second.shown] == [2, 4, 6, 8, 10, 2, 4]
    assert first.new_games == second.new_games == 1


def test_one_seat_can_play_both_sides_and_a_new_game_starts_afresh():
    player = Recorder(make_named_player("random", game="quixo", seed=4))
    seat = as_course_quixo_player(player, move_type=Move)
    for _ in range(2):
        StandInGame().play(seat, seat, max_plies=6)
    assert [len(keys) for keys, _ in player.shown] == [1, 2, 3, 4, 5, 6] * 2
    assert player.new_games == 2
    game = StandInGame()
    game._board[2, 0] = 1  # a position set up by hand: its history starts there
    seat.make_move(game)
    assert len(player.shown[-1][0]) == 1 and player.new_games == 3
