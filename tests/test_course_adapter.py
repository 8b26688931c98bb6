"""The course adapter, against a small stand-in of the Politecnico course ``quarto`` library.

The stand-in follows the course library's documented behaviour (and its ``reset()``) (ARCHITECTURE.md, "Course adapter
facts") and its game loop: ``Quarto`` keeps a 4x4 numpy board with -1 for empty cells;
``select(piece)`` accepts a piece not on the board; ``place(x, y)`` writes ``board[y, x]`` (x = column,
y = row) when that cell is free; ``check_winner()`` returns the index of the player who has just placed
(the current player) when a row, column or one of the two diagonals holds four pieces sharing a
characteristic, else -1; ``run()`` lets player 0 choose first, then the other player places and chooses,
until a win or a full board. Unlike the course loop, which asks again after an invalid answer, the
stand-in fails the test on one. Its win check is written here, independently of the gpquarto engine.
"""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from gpquarto.arena import play_match
from gpquarto.games.quarto.adapters.course import CourseGameShim, as_course_player, from_course_player
from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.players.novice import NovicePlayer
from gpquarto.resolve import make_player


class Quarto:
    """Stand-in of the course game (see the module docstring)."""

    def __init__(self) -> None:
        self._players: tuple = ()
        self.reset()

    def reset(self) -> None:
        self._board = np.ones((4, 4), dtype=int) * -1
        self._selected = -1
        self._current_player = 0
        self.moves: list[tuple] = []

    def set_players(self, players) -> None:
        self._players = tuple(players)

    def get_board_status(self) -> np.ndarray:
        return self._board.copy()

    def get_selected_piece(self) -> int:
        return self._selected

    def get_current_player(self) -> int:
        return self._current_player

    def select(self, piece: int) -> bool:
        if piece in self._board or not 0 <= piece < 16:
            return False
        self._selected = piece
        return True

    def place(self, x: int, y: int) -> bool:
        if not (0 <= x < 4 and 0 <= y < 4) or self._board[y, x] >= 0:
            return False
        self._board[y, x] = self._selected
        return True

    def check_winner(self) -> int:
        board = self._board
        lines = [board[row, :] for row in range(4)] + [board[:, col] for col in range(4)]
        lines += [np.diag(board), np.diag(np.fliplr(board))]
        for line in lines:
            if min(line) < 0:
                continue
            for bit in (1, 2, 4, 8):
                if all(piece & bit for piece in line) or not any(piece & bit for piece in line):
                    return self._current_player
        return -1

    def check_finished(self) -> bool:
        return bool(np.all(self._board >= 0))

    def run(self) -> int:
        winner = -1
        while winner < 0 and not self.check_finished():
            piece = self._players[self._current_player].choose_piece()
            assert self.select(piece), f"invalid selection {piece}"
            self.moves.append(("select", piece))
            self._current_player = (self._current_player + 1) % 2
            x, y = self._players[self._current_player].place_piece()
            assert self.place(x, y), f"invalid placement {(x, y)}"
            self.moves.append(("place", x, y))
            winner = self.check_winner()
        return winner


def replay_in_gpquarto(moves: list[tuple]) -> Board:
    board = Board()
    for move in moves:
        if move[0] == "select":
            board.choose(move[1])
        else:
            board.place(4 * move[2] + move[1])
    return board


@pytest.mark.parametrize("seed", range(12))
def test_gpquarto_players_play_whole_games_in_the_course_game(seed: int) -> None:
    game = Quarto()
    game.set_players((as_course_player("random", game, seed=seed), as_course_player("novice", game, seed=seed + 100)))
    winner = game.run()
    board = replay_in_gpquarto(game.moves)
    assert board.winner == (None if winner < 0 else winner)
    assert board.is_over()
    assert [int(value) for value in game.get_board_status().reshape(-1)] == list(board.cells)


def test_many_games_agree_with_the_engine_and_see_both_results() -> None:
    winners = set()
    for seed in range(40):
        game = Quarto()
        game.set_players((as_course_player("random", game, seed=seed), as_course_player("random", game, seed=~seed)))
        winner = game.run()
        assert replay_in_gpquarto(game.moves).winner == (None if winner < 0 else winner)
        winners.add(winner)
    assert {0, 1} <= winners


def corner_position_game() -> Quarto:
    """Pieces 0, 1, 2 (all short and plain) on row 0, columns 0-2; piece 4 (short) to place: the only
    winning square is row 0, column 3, i.e. (x, y) = (3, 0); its transpose (0, 3) does not win."""
    game = Quarto()
    game._board[0, 0:3] = [0, 1, 2]
    game._selected = 4
    game._current_player = 0  # three pieces placed: the fourth is placed by player 0
    return game


def test_as_course_player_returns_column_then_row() -> None:
    game = corner_position_game()
    seat = as_course_player(NovicePlayer(seed=3), game)
    assert seat.place_piece() == (3, 0)
    assert game.place(3, 0)
    assert game.check_winner() == 0


def test_from_course_player_reads_column_then_row() -> None:
    class GreedyCoursePlayer:
        """A course-style player: tries every cell on a deep copy of the game, keeps a winning one."""

        def __init__(self, quarto) -> None:
            self._quarto = quarto

        def choose_piece(self) -> int:
            return next(
                p
                for p in range(16)
                if p not in self._quarto.get_board_status() and p != self._quarto.get_selected_piece()
            )

        def place_piece(self) -> tuple[int, int]:
            status = self._quarto.get_board_status()
            free = [(x, y) for y in range(4) for x in range(4) if status[y, x] < 0]
            for x, y in free:
                trial = copy.deepcopy(self._quarto)
                assert trial.place(x, y)
                if trial.check_winner() >= 0:
                    return x, y
            return free[0]

    board = Board.from_cells([0, 1, 2] + [-1] * 13, in_hand=4)
    player = from_course_player(GreedyCoursePlayer)
    square = player.place_piece(board.view(), 4)
    assert square == 3
    board.place(square)
    assert board.winner == 0


class RandomCoursePlayer:
    """A course-style random player: global ``random``, reads the game through ``get_game()``-like access."""

    def __init__(self, quarto) -> None:
        self._quarto = quarto

    def choose_piece(self) -> int:
        status = self._quarto.get_board_status()
        return random.choice([p for p in range(16) if p not in status])

    def place_piece(self) -> tuple[int, int]:
        status = self._quarto.get_board_status()
        return random.choice([(x, y) for y in range(4) for x in range(4) if status[y, x] < 0])


def test_course_player_plays_gpquarto_matches_reproducibly() -> None:
    first = play_match(from_course_player(RandomCoursePlayer), make_player("novice"), 30, seed=5, keep_records=True)
    again = play_match(from_course_player(RandomCoursePlayer), make_player("novice"), 30, seed=5, keep_records=True)
    assert first.forfeits == [0, 0]
    assert first.games == 30
    assert [record.actions for record in first.records] == [record.actions for record in again.records]
    for record in first.records:
        record.replay()


def test_shim_follows_the_course_semantics() -> None:
    shim = CourseGameShim()
    assert shim.get_selected_piece() == -1 and shim.get_current_player() == 0
    assert not shim.place(0, 0)  # nothing selected yet
    assert shim.select(9) and shim.get_current_player() == 1
    assert not shim.select(3)  # a placement is due
    assert not shim.place(4, 0)
    trial = copy.deepcopy(shim)
    assert trial.place(2, 1)
    assert shim.get_board_status()[1, 2] == -1  # the copy is independent
    assert trial.get_board_status()[1, 2] == 9 and trial.get_board_status().reshape(-1)[6] == 9
    assert trial.get_selected_piece() == 9  # as in the course library: the piece just placed
    assert trial.check_winner() == -1 and not trial.check_finished()
    piece = trial.get_piece_charachteristics(9)
    assert (piece.HIGH, piece.COLOURED, piece.SOLID, piece.SQUARE) == (True, False, False, True)
    assert not trial.select(9)  # already on the board


def test_bad_course_answers_are_errors() -> None:
    class OffBoard:
        def __init__(self, quarto) -> None:
            pass

        def place_piece(self):
            return (4, 0)

    board = Board()
    board.choose(0)
    with pytest.raises(ValueError, match="outside"):
        from_course_player(OffBoard).place_piece(board.view(), 0)


def test_new_game_hook_sees_each_new_game_with_the_right_seat() -> None:
    class Recorder(NovicePlayer):
        def __init__(self) -> None:
            super().__init__(seed=1)
            self.seats: list[int] = []

        def new_game(self, seat: int) -> None:
            self.seats.append(seat)

    first, second = Recorder(), Recorder()
    game = Quarto()
    game.set_players((as_course_player(first, game), as_course_player(second, game)))
    for _ in range(3):  # the same seats in three games: the course's reset() between them
        game.reset()
        game.run()
    assert first.seats == [0, 0, 0] and second.seats == [1, 1, 1]
