"""A slow, obviously correct Quixo written straight from the rules on a list of lists, to test the fast engine.

The board is ``board[row][col]`` with -1 blank, 0 X, 1 O. A move is ``(row, col, end)`` with ``end`` one of
``"T"``, ``"B"``, ``"L"``, ``"R"``: the end of the cube's column (T, B) or row (L, R) where it goes back in.
Its int is ``4 * (n * row + col) + "TBLR".index(end)``.
"""

from __future__ import annotations

import random
from functools import cache

ENDS = "TBLR"


def new_board(n: int) -> list[list[int]]:
    return [[-1] * n for _ in range(n)]


def legal_moves(board: list[list[int]], player: int) -> list[tuple[int, int, str]]:
    n = len(board)
    moves = []
    for row in range(n):
        for col in range(n):
            if row not in (0, n - 1) and col not in (0, n - 1):
                continue  # not on the border
            if board[row][col] not in (-1, player):
                continue  # the opponent's cube
            for end in ENDS:
                if end == "T" and row == 0 or end == "B" and row == n - 1:
                    continue  # back where it was taken
                if end == "L" and col == 0 or end == "R" and col == n - 1:
                    continue
                moves.append((row, col, end))
    return moves


def move_int(n: int, move: tuple[int, int, str]) -> int:
    row, col, end = move
    return 4 * (n * row + col) + ENDS.index(end)


def play(board: list[list[int]], player: int, move: tuple[int, int, str]) -> list[list[int]]:
    """The board after ``player`` plays ``move`` (a new board)."""
    n = len(board)
    b = [list(r) for r in board]
    row, col, end = move
    if end == "T":
        for r in range(row, 0, -1):
            b[r][col] = b[r - 1][col]
        b[0][col] = player
    elif end == "B":
        for r in range(row, n - 1):
            b[r][col] = b[r + 1][col]
        b[n - 1][col] = player
    elif end == "L":
        for c in range(col, 0, -1):
            b[row][c] = b[row][c - 1]
        b[row][0] = player
    else:
        for c in range(col, n - 1):
            b[row][c] = b[row][c + 1]
        b[row][n - 1] = player
    return b


@cache
def lines(n: int) -> list[list[tuple[int, int]]]:
    """Rows, columns, main diagonal, anti-diagonal: the course library's scan order."""
    rows = [[(r, c) for c in range(n)] for r in range(n)]
    cols = [[(r, c) for r in range(n)] for c in range(n)]
    return rows + cols + [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]


def line_owners(board: list[list[int]]) -> list[int]:
    """The owner of each complete line, in scan order."""
    owners = []
    for line in lines(len(board)):
        first = board[line[0][0]][line[0][1]]
        if first != -1 and all(board[r][c] == first for r, c in line):
            owners.append(first)
    return owners


def winner(board: list[list[int]], mover: int, rules: str) -> int:
    """The winner after ``mover`` made ``board``, or -1."""
    owners = line_owners(board)
    if not owners:
        return -1
    if rules == "course":
        return owners[0]
    return 1 - mover if 1 - mover in owners else mover


def text(board: list[list[int]], player: int, rules: str = "official") -> str:
    rows = "/".join("".join(".XO"[v + 1] for v in row) for row in board)
    return rows + " " + "XO"[player] + (" course" if rules == "course" else "")


def random_game(
    n: int, rules: str, rng: random.Random, ply_limit: int = 300, repetitions: int = 3, record: bool = True
) -> tuple[list[int], int, str, list[str]]:
    """A game between uniformly random players: (move ints, winner or -1, how it ended, texts of every
    position when ``record``)."""
    board, player = new_board(n), 0
    seen = {(tuple(map(tuple, board)), player): 1}
    texts = [text(board, player, rules)] if record else []
    moves: list[int] = []
    while True:
        move = rng.choice(legal_moves(board, player))
        moves.append(move_int(n, move))
        board = play(board, player, move)
        win = winner(board, player, rules)
        player = 1 - player
        key = (tuple(map(tuple, board)), player)
        seen[key] = seen.get(key, 0) + 1
        if record:
            texts.append(text(board, player, rules))
        if win != -1:
            return moves, win, "win", texts
        if seen[key] >= repetitions:
            return moves, -1, "repetition", texts
        if len(moves) >= ply_limit:
            return moves, -1, "ply_limit", texts


def random_playout_winner(n: int, rng: random.Random) -> int:
    """One random game under the official rules from the empty board: the winner or -1 (for benchmarks)."""
    return random_game(n, "official", rng, record=False)[1]
