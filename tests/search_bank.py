"""A fixed bank of positions from real games, for checking fast search code against the kept reference.

Games are played by seeded novice and random players (real games: wins are taken, winning pieces are rarely
given); positions are drawn at every decision, both kinds, 0 to 12 pieces placed. The same seed gives the
same bank.
"""

from __future__ import annotations

import random
from functools import cache

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.players.form import QUARTO_FORM
from gpquarto.games.quarto.players.novice import NovicePlayer
from gpquarto.players.random_player import RandomPlayer


def game_positions(seed: int, rules: Rules) -> list[Board]:
    """Every position of one seeded game (novice against random, seats drawn) where a decision is due."""
    rng = random.Random(seed)
    players = [NovicePlayer(seed=rng.randrange(2**32)), RandomPlayer(seed=rng.randrange(2**32))]
    if rng.random() < 0.5:
        players.reverse()
    board = Board(rules)
    positions = []
    while not board.is_over():
        positions.append(board.copy())
        player = players[board.player]
        answer = QUARTO_FORM.ask(player, board.view())  # a piece or a square, in Quarto's form
        if board.choice_due:
            board.choose(answer)
        else:
            board.place(answer)
    return positions


@cache
def position_bank(count: int = 260, advanced: int = 40, seed: int = 8) -> tuple[Board, ...]:
    """``count`` classic and ``advanced`` advanced-rules positions, spread over 0..12 pieces placed and both
    decisions as evenly as the games allow, no position twice; deterministic."""
    bank: list[Board] = []
    for rules, wanted in ((Rules.CLASSIC, count), (Rules.ADVANCED, advanced)):
        slots = [(placed, choice) for placed in range(13) for choice in (True, False)]
        per_slot = -(-wanted // len(slots))
        filled: dict[tuple[int, bool], list[Board]] = {slot: [] for slot in slots}
        seen: set[str] = set()
        game = 0
        while sum(len(found) for found in filled.values()) < per_slot * len(slots) and game < 5000:
            for position in game_positions(seed * 100_003 + game, rules):
                slot = (position.placed_count, position.choice_due)
                if slot in filled and len(filled[slot]) < per_slot and position.text() not in seen:
                    seen.add(position.text())
                    filled[slot].append(position)
            game += 1
        chosen = [position for slot in slots for position in filled[slot]]
        bank += random.Random(seed).sample(chosen, min(wanted, len(chosen)))
    return tuple(bank)
