"""Quixo facts and primitives against slow definitions written here with the board's API, on seeded random positions.

Every slow definition plays moves on the board with ``apply`` / ``undo`` and reads ``outcome()``; lines, regions
and the line potential are recounted from ``board.cells`` with the reference's lines (``tests/reference/quixo.py``).
Positions are set up from their masks, so no repetition can end the game within the two plies the lookahead sees.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

import pytest

from gpquarto.games.interface import Termination
from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.games.quixo.gp.features import QuixoFeatures
from gpquarto.games.quixo.primitives import counts, lookahead, moves, tactical
from gpquarto.gp.types import NO_ACTION
from tests.reference import quixo as ref

CASES = [(4, "official"), (4, "course"), (5, "official"), (5, "course")]
POSITIONS_PER_CASE = 100
NO_SAFE_PER_CASE = 5


def random_positions(n: int, rules: str, count: int, seed: int) -> list[QuixoBoard]:
    """Positions of seeded random games (0 to 199 plies), set up afresh from their masks; finished games skipped."""
    rng = random.Random(seed)
    found: list[QuixoBoard] = []
    while len(found) < count:
        board = QuixoBoard(size=n, rules=rules)
        for _ in range(rng.randrange(200)):
            if board.is_over():
                break
            board.apply(rng.choice(board.legal_actions()))
        if not board.is_over():
            found.append(QuixoBoard.from_masks(board.x_mask, board.o_mask, board.player, n, rules))
    return found


# ---------------------------------------------------------------------- slow definitions
def result_after(board: QuixoBoard, action: int) -> int:
    """1 when ``action`` wins at once for the mover, -1 when it loses at once, 0 otherwise."""
    mover = board.player
    board.apply(action)
    outcome = board.outcome()
    board.undo()
    if outcome is None:
        return 0
    assert outcome.termination is Termination.WIN
    return 1 if outcome.winner == mover else -1


def slow_winning(board: QuixoBoard) -> list[int]:
    return [action for action in board.legal_actions() if result_after(board, action) == 1]


def grid(board: QuixoBoard) -> list[list[int]]:
    n = board.size
    cells = board.cells
    return [list(cells[n * row : n * row + n]) for row in range(n)]


def line_counts(board: QuixoBoard, player: int) -> list[int]:
    cells = grid(board)
    return [sum(cells[r][c] == player for r, c in line) for line in ref.lines(board.size)]


def on_border(n: int, r: int, c: int) -> bool:
    return r in (0, n - 1) or c in (0, n - 1)


def potential(board: QuixoBoard, player: int) -> int:
    """4**k for each line holding k >= 1 cubes of ``player`` and none of the other's, minus the same for the other,
    plus the cube difference."""
    mine, theirs = line_counts(board, player), line_counts(board, 1 - player)
    score = board.cells.count(player) - board.cells.count(1 - player)
    for k_mine, k_theirs in zip(mine, theirs, strict=True):
        if k_mine and not k_theirs:
            score += 4**k_mine
        elif k_theirs and not k_mine:
            score -= 4**k_theirs
    return score


def cells_held(board: QuixoBoard, player: int, where) -> int:
    n = board.size
    return sum(value == player for cell, value in enumerate(board.cells) if where(n, *divmod(cell, n)))


def inner(n: int, r: int, c: int) -> bool:
    return not on_border(n, r, c)


def diagonal(n: int, r: int, c: int) -> bool:
    return r == c or r + c == n - 1


def best(scores: dict[int, int], candidates) -> int:
    """The candidate with the highest score, the lowest action on ties; NO_ACTION when there is none."""
    candidates = sorted(candidates)
    if not candidates:
        return NO_ACTION
    top = max(scores[action] for action in candidates)
    return next(action for action in candidates if scores[action] == top)


@dataclass
class Slow:
    """Every fact of a position, computed slowly."""

    board: QuixoBoard
    legal: list[int]
    results: dict[int, int]
    threats: list[int]
    replies: dict[int, int]
    safe: list[int]
    longest: dict[int, int]
    potential: dict[int, int]
    inner: dict[int, int]
    diagonal: dict[int, int]
    traps: list[int]


def slow_facts(board: QuixoBoard) -> Slow:
    mover = board.player
    legal = list(board.legal_actions())
    results = {action: result_after(board, action) for action in legal}
    flipped = QuixoBoard.from_masks(board.x_mask, board.o_mask, 1 - mover, board.size, board.rules)
    replies, longest, potentials, inners, diagonals = {}, {}, {}, {}, {}
    for action in legal:
        board.apply(action)
        if results[action] == 0:
            replies[action] = len(slow_winning(board))
        longest[action] = max(line_counts(board, mover))
        potentials[action] = potential(board, mover)
        inners[action] = cells_held(board, mover, inner)
        diagonals[action] = cells_held(board, mover, diagonal)
        board.undo()
    safe = [a for a in legal if results[a] == 1 or (results[a] == 0 and replies[a] == 0)]
    traps = [a for a in safe if results[a] == 0 and sets_a_trap(board, a)]
    return Slow(
        board, legal, results, slow_winning(flipped), replies, safe, longest, potentials, inners, diagonals, traps
    )


def sets_a_trap(board: QuixoBoard, action: int) -> bool:
    """After ``action``, every reply of the opponent loses at once or leaves the mover a winning move."""
    board.apply(action)
    try:
        for reply in board.legal_actions():
            if result_after(board, reply) != -1:
                board.apply(reply)
                wins = slow_winning(board)
                board.undo()
                if not wins:
                    return False
        return True
    finally:
        board.undo()


def positions_with_no_safe_move(n: int, rules: str, count: int, seed: int) -> list[QuixoBoard]:
    """Random positions (as :func:`random_positions`) that the fast facts say have no safe move: rare in random
    play on 5x5 (about 1 in 50), so looked for among many; the slow facts then check them like the others."""
    found: list[QuixoBoard] = []
    for batch in range(1, 21):  # bounded: a broken fact fails the test below rather than hanging
        found += [
            b for b in random_positions(n, rules, 100, 1000 * batch + seed) if not QuixoFeatures(b.view()).safe_moves
        ]
        if len(found) >= count:
            break
    return found[:count]


@cache
def cases() -> tuple[Slow, ...]:
    found = []
    for index, (n, rules) in enumerate(CASES):
        boards = random_positions(n, rules, POSITIONS_PER_CASE, seed=index)
        boards += positions_with_no_safe_move(n, rules, NO_SAFE_PER_CASE, seed=index)
        found += [slow_facts(board) for board in boards]
    return tuple(found)


@pytest.fixture(scope="module")
def slow() -> tuple[Slow, ...]:
    return cases()


def first(actions) -> int:
    actions = sorted(actions)
    return actions[0] if actions else NO_ACTION


# ---------------------------------------------------------------------- the positions are varied enough
def test_the_positions_hold_wins_threats_and_positions_with_no_safe_move(slow):
    for n, rules in CASES:
        mine = [s for s in slow if s.board.size == n and s.board.rules == rules]
        assert sum(any(r == 1 for r in s.results.values()) for s in mine) >= 10
        assert sum(bool(s.threats) for s in mine) >= 10
        assert sum(any(r == -1 for r in s.results.values()) for s in mine) >= 5
        assert sum(bool(s.threats) and bool(s.safe) and not any(r == 1 for r in s.results.values()) for s in mine) >= 3
        assert sum(not s.safe for s in mine) >= NO_SAFE_PER_CASE
        assert sum(bool(s.traps) for s in mine) >= 3


# ---------------------------------------------------------------------- facts
def test_line_counts_and_regions(slow):
    for s in slow:
        board, mover = s.board, s.board.player
        features = QuixoFeatures(board.view())
        n = board.size
        assert list(features.own_line_counts) == line_counts(board, mover)
        assert list(features.other_line_counts) == line_counts(board, 1 - mover)
        assert features.own_near_lines == line_counts(board, mover).count(n - 1)
        assert features.other_near_lines == line_counts(board, 1 - mover).count(n - 1)
        assert features.own_inner_cubes == cells_held(board, mover, inner)
        assert features.other_inner_cubes == cells_held(board, 1 - mover, inner)
        assert features.own_diagonal_cubes == cells_held(board, mover, diagonal)
        assert features.other_diagonal_cubes == cells_held(board, 1 - mover, diagonal)
        takeable = {a >> 2 for a in s.legal}
        assert features.takeable_cubes == sum(1 << cell for cell in takeable)
        assert list(features.blank_takes) == [a for a in s.legal if board.cells[a >> 2] == -1]
        assert list(features.own_takes) == [a for a in s.legal if board.cells[a >> 2] == mover]


def test_moves_that_win_or_lose_now_and_threats(slow):
    for s in slow:
        features = QuixoFeatures(s.board.view())
        assert list(features.winning_moves) == [a for a in s.legal if s.results[a] == 1]
        assert list(features.losing_moves) == [a for a in s.legal if s.results[a] == -1]
        assert list(features.non_losing_moves) == [a for a in s.legal if s.results[a] != -1]
        assert list(features.threats) == s.threats


def test_one_turn_lookahead(slow):
    for s in slow:
        features = QuixoFeatures(s.board.view())
        assert features.replies_winning == s.replies
        assert list(features.safe_moves) == s.safe
        wins = [a for a in s.legal if s.results[a] == 1]
        expected = wins[0] if wins else best({a: -count for a, count in s.replies.items()}, s.replies)
        assert features.fewest_replies_move == expected


def test_traps(slow):
    for s in slow:
        f = QuixoFeatures(s.board.view())
        assert f.trap_move == first(s.traps)
        assert lookahead.trap_move(f) == first(s.traps)
        assert lookahead.trap_exists(f) is bool(s.traps)


def slow_has_trap(board: QuixoBoard) -> bool:
    """The player to move has a trap: a move neither winning nor losing at once, leaving no winning reply, after
    which every reply loses at once or leaves the mover a winning move."""
    for action in board.legal_actions():
        if result_after(board, action) == 0:
            board.apply(action)
            no_reply = not slow_winning(board)
            board.undo()
            if no_reply and sets_a_trap(board, action):
                return True
    return False


def slow_trap_proof(s: Slow) -> list[int]:
    """The safe moves that win, or after which the opponent has no trap."""
    proof = []
    for action in s.safe:
        if s.results[action] == 1:
            proof.append(action)
            continue
        board = s.board
        board.apply(action)
        after = QuixoBoard.from_masks(board.x_mask, board.o_mask, board.player, board.size, board.rules)
        board.undo()
        if not slow_has_trap(after):  # set up afresh: no repetition within the three plies it plays
            proof.append(action)
    return proof


def slow_trap_threat(board: QuixoBoard) -> bool:
    flipped = QuixoBoard.from_masks(board.x_mask, board.o_mask, 1 - board.player, board.size, board.rules)
    return slow_has_trap(flipped)


@cache
def two_turn_cases() -> tuple[tuple[Slow, list[int], bool], ...]:
    """A sample of the positions (every eighth, and every position with no safe move: the slow definition plays
    three plies for each safe move), with their trap-proof moves and whether the opponent threatens a trap."""
    return tuple(
        (s, slow_trap_proof(s), slow_trap_threat(s.board))
        for index, s in enumerate(cases())
        if index % 8 == 0 or not s.safe
    )


def test_trap_proof_moves_and_the_opponents_trap_threat():
    checked = two_turn_cases()
    assert sum(len(proof) < len(s.safe) for s, proof, _ in checked) >= 5, "some safe moves leave a trap"
    assert sum(bool(s.safe) and not proof for s, proof, _ in checked) >= 1, "some positions have none trap-proof"
    assert sum(threat for _, _, threat in checked) >= 5
    for s, proof, threat in checked:
        f = QuixoFeatures(s.board.view())
        assert f.opponent_trap_threat is threat
        assert lookahead.opponent_trap_threat(f) is threat
        assert f.trap_proof_move == first(proof)
        assert lookahead.trap_proof_move(f) == first(proof)
        assert lookahead.trap_proof_exists(f) is bool(proof)
        assert lookahead.trap_proof_potential_move(f) == best(s.potential, proof)
        assert lookahead.trap_proof_longest_line_move(f) == best(s.longest, proof)
        for a in sample_moves(s):
            assert lookahead.is_trap_proof_move(f, a) is (a in proof)
        assert lookahead.is_trap_proof_move(f, NO_ACTION) is False


@cache
def positions_with_history() -> tuple[QuixoBoard, ...]:
    """Positions from the last plies of games of the trap-proof yardstick against ``alphabeta:depth=1`` from seeded
    openings (the two deterministic players repeat positions), each with its game's history."""
    from gpquarto.arena.match import play_match
    from gpquarto.resolve import make_player
    from tests.conftest import REPO

    player = make_player(str(REPO / "examples" / "players" / "quixo_trap_proof.json"), game="quixo")
    opponent = make_player("alphabeta:depth=1", game="quixo")
    result = play_match(player, opponent, 6, game="quixo", seed=5, openings=4, keep_records=True)
    boards = []
    for record in result.records:
        board = QuixoBoard.from_text(record.start)
        for ply, action in enumerate(record.actions):
            if ply >= len(record.actions) - 12 and ply % 3 == 0:
                boards.append(board.copy())
            board.apply(action)
    return tuple(boards)


def test_moves_to_positions_not_seen_in_the_game():
    boards = positions_with_history()
    assert sum(len(QuixoFeatures(b.view()).new_position_moves) < len(b.legal_actions()) for b in boards) >= 5
    features = [QuixoFeatures(b.view()) for b in boards]
    assert sum(f.new_trap_proof_move != f.trap_proof_potential_move for f in features) >= 3, "the history matters"
    for board in boards:
        fresh = []
        for action in board.legal_actions():
            board.apply(action)
            keys = board.position_keys()
            if keys[-1] not in keys[:-1]:
                fresh.append(action)
            board.undo()
        f = QuixoFeatures(board.view())
        assert sorted(f.new_position_moves) == fresh
        copy = QuixoBoard.from_masks(board.x_mask, board.o_mask, board.player, board.size, board.rules)
        s = slow_facts(copy)
        proof = slow_trap_proof(s)
        assert lookahead.new_trap_proof_move(f) == best(s.potential, [a for a in proof if a in fresh])
        for a in [NO_ACTION, *board.legal_actions()[:3], *fresh[:1]]:
            assert lookahead.is_new_position_move(f, a) is (a in fresh)


def test_best_moves_by_a_measure(slow):
    for s in slow:
        features = QuixoFeatures(s.board.view())
        assert features.lines_after == s.longest
        assert features.potential_after == s.potential
        assert features.longest_line_move == best(s.longest, s.legal)
        assert features.potential_move == best(s.potential, s.legal)
        assert features.safe_longest_line_move == best(s.longest, s.safe)
        assert features.safe_potential_move == best(s.potential, s.safe)
        assert features.centre_move == best(s.inner, s.legal)
        assert features.diagonal_move == best(s.diagonal, s.legal)


def test_a_finished_game_has_no_moves():
    board = QuixoBoard.from_text("XXXXX/OOOO./...../...../..... O")
    features = QuixoFeatures(board.view())
    assert board.is_over()
    assert features.legal_moves == features.winning_moves == features.threats == features.safe_moves == ()
    assert features.takeable_cubes == 0
    assert features.longest_line_move == features.safe_potential_move == features.fewest_replies_move == NO_ACTION
    assert features.trap_move == NO_ACTION


@pytest.mark.parametrize("rules", ["official", "course"])
def test_facts_on_the_3x3_board(rules):
    for board in random_positions(3, rules, 150, seed=7):
        s = slow_facts(board)
        features = QuixoFeatures(board.view())
        assert list(features.winning_moves) == [a for a in s.legal if s.results[a] == 1]
        assert list(features.threats) == s.threats
        assert list(features.safe_moves) == s.safe
        assert features.longest_line_move == best(s.longest, s.legal)


# ---------------------------------------------------------------------- primitives
def test_count_primitives(slow):
    for s in slow:
        board, mover = s.board, s.board.player
        f = QuixoFeatures(board.view())
        mine, theirs = line_counts(board, mover), line_counts(board, 1 - mover)
        assert counts.own_in_line_max(f) == max(mine)
        assert counts.opponent_in_line_max(f) == max(theirs)
        for k in (-1, 0, 2, board.size - 1, board.size, 9):
            assert counts.own_lines_with(f, k) == mine.count(k)
            assert counts.opponent_lines_with(f, k) == theirs.count(k)
        assert counts.own_near_lines(f) == mine.count(board.size - 1)
        assert counts.opponent_near_lines(f) == theirs.count(board.size - 1)
        assert counts.own_cubes(f) == board.cells.count(mover)
        assert counts.opponent_cubes(f) == board.cells.count(1 - mover)
        assert counts.blank_cubes(f) == board.cells.count(-1)
        assert counts.border_cubes_available(f) == len({a >> 2 for a in s.legal})
        assert counts.own_inner_cubes(f) == cells_held(board, mover, inner)
        assert counts.opponent_inner_cubes(f) == cells_held(board, 1 - mover, inner)
        assert counts.own_diagonal_cubes(f) == cells_held(board, mover, diagonal)
        assert counts.opponent_diagonal_cubes(f) == cells_held(board, 1 - mover, diagonal)


def sample_moves(s: Slow) -> list[int]:
    """NO_ACTION and a few legal moves: the first, a middle one, the last, and a safe one when there is one."""
    picked = [NO_ACTION, *s.legal[:1], s.legal[len(s.legal) // 2], s.legal[-1], *s.safe[:1]]
    return list(dict.fromkeys(picked))


def test_move_primitives(slow):
    for s in slow:
        board = s.board
        f = QuixoFeatures(board.view())
        assert moves.first_legal_move(f) == first(s.legal)
        assert moves.longest_line_move(f) == best(s.longest, s.legal)
        assert moves.potential_move(f) == best(s.potential, s.legal)
        assert moves.centre_move(f) == best(s.inner, s.legal)
        assert moves.diagonal_move(f) == best(s.diagonal, s.legal)
        assert moves.blank_take_move(f) == first(a for a in s.legal if board.cells[a >> 2] == -1)
        assert moves.own_take_move(f) == first(a for a in s.legal if board.cells[a >> 2] == board.player)
        for a in sample_moves(s):
            assert moves.takes_blank(f, a) is (a in s.legal and board.cells[a >> 2] == -1)
            for b in sample_moves(s):
                assert moves.move_or(f, a, b) == (a if a in s.legal else b)
                for scores, primitive in (
                    (s.longest, moves.longer_line_move),
                    (s.potential, moves.higher_potential_move),
                ):
                    expected = b if a == NO_ACTION else a if b == NO_ACTION else a if scores[a] >= scores[b] else b
                    assert primitive(f, a, b) == expected


def test_tactical_primitives(slow):
    for s in slow:
        f = QuixoFeatures(s.board.view())
        wins = [a for a in s.legal if s.results[a] == 1]
        assert tactical.winning_move(f) == first(wins)
        assert tactical.can_win_now(f) is bool(wins)
        assert tactical.non_losing_move(f) == first(a for a in s.legal if s.results[a] != -1)
        assert tactical.opponent_threat(f) is bool(s.threats)
        assert tactical.threat_count(f) == len(s.threats)
        for a in sample_moves(s):
            assert tactical.is_winning_move(f, a) is (a in wins)
            assert tactical.is_losing_move(f, a) is (s.results.get(a) == -1)


def test_lookahead_primitives(slow):
    for s in slow:
        f = QuixoFeatures(s.board.view())
        assert lookahead.safe_move(f) == first(s.safe)
        assert lookahead.blocking_move(f) == (first(s.safe) if s.threats else NO_ACTION)
        assert lookahead.safe_longest_line_move(f) == best(s.longest, s.safe)
        assert lookahead.safe_potential_move(f) == best(s.potential, s.safe)
        assert lookahead.safe_move_exists(f) is bool(s.safe)
        assert lookahead.safe_moves_count(f) == len(s.safe)
        wins = [a for a in s.legal if s.results[a] == 1]
        expected = wins[0] if wins else best({a: -count for a, count in s.replies.items()}, s.replies)
        assert lookahead.fewest_replies_move(f) == expected
        for a in sample_moves(s):
            assert lookahead.is_safe_move(f, a) is (a in s.safe)
            for b in sample_moves(s):
                assert lookahead.first_safe_move(f, a, b) == (a if a in s.safe else b)


def test_a_block_after_a_threat():
    """O threatens to complete its second row by taking the blank e2 (official rules); X must stop it."""
    board = QuixoBoard.from_text("X..X./OOOO./...X./X..../..... X")
    f = QuixoFeatures(board.view())
    assert f.threats, "O threatens"
    block = lookahead.blocking_move(f)
    assert block != NO_ACTION
    board.apply(block)
    assert not slow_winning(board)


# ---------------------------------------------------------------------- the library
QUIXO_FAMILIES = ("quixo_counts", "quixo_moves", "quixo_tactical", "quixo_lookahead")


def test_the_quixo_library_lists_the_families_in_order_and_every_primitive_passes_its_checks():
    import gpquarto.games.quixo.primitives as package
    from gpquarto.gp.library import load_library
    from gpquarto.gp.types import Move

    library = load_library(game="quixo", entry_points=False)  # registration checked each one on Quixo's samples
    assert package.FAMILY_MODULES == ["counts", "moves", "tactical", "lookahead"]
    assert library.families()[-len(QUIXO_FAMILIES) :] == QUIXO_FAMILIES
    own = [spec for spec in library if spec.family in QUIXO_FAMILIES]
    assert all(spec.game == "quixo" and spec.uses_features for spec in own)
    modules = {"quixo_counts": counts, "quixo_moves": moves, "quixo_tactical": tactical, "quixo_lookahead": lookahead}
    for spec in own:
        assert getattr(modules[spec.family], spec.name) is spec.function
    assert library.get("can_win").name == "can_win_now"  # the GP core's first Quixo name still reads
    assert {"first_legal_move", "move_or", "winning_move"} <= {spec.name for spec in own}
    assert any(spec.is_terminal for spec in library.returning(Move))
    assert "quixo_lookahead" not in load_library(game="quixo", entry_points=False, lookahead=False).families()
    no_tactics = load_library(game="quixo", entry_points=False, tactical=False).families()
    assert "quixo_tactical" not in no_tactics and "quixo_lookahead" not in no_tactics


def test_the_primitives_command_lists_the_quixo_families(capsys):
    from gpquarto.cli import main

    assert main(["primitives", "--game", "quixo"]) == 0
    shown = capsys.readouterr().out
    headings = [line.split(" (")[0] for line in shown.splitlines() if line.startswith("quixo_")]
    assert headings == list(QUIXO_FAMILIES)
    assert "safe_move -> Move" in shown and "own_lines_with(Count) -> Count" in shown
    assert "can_win_now -> bool" in shown and "(formerly can_win)" in shown
    assert main(["primitives", "--game", "quixo", "--no-lookahead"]) == 0
    shown = capsys.readouterr().out
    assert "quixo_tactical (" in shown and "quixo_lookahead" not in shown and "safe_move" not in shown


# ---------------------------------------------------------------------- the yardsticks
@pytest.mark.parametrize(
    "name",
    ["quixo_safe_lines", "quixo_safe_potential", "quixo_trap_setter", "quixo_trap_proof", "quixo_trap_proof_new"],
)
def test_the_hand_written_quixo_players_load_and_beat_random(name):
    from gpquarto.arena.match import play_match
    from gpquarto.resolve import make_player
    from tests.conftest import REPO

    player = make_player(str(REPO / "examples" / "players" / f"{name}.json"), game="quixo")
    result = play_match(player, make_player("random", game="quixo"), 20, game="quixo", seed=3)
    assert result.wins >= 19 and result.losses == 0
