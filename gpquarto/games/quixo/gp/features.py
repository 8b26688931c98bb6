"""The board facts that Quixo primitives read, computed once per decision and only when a rule asks for them.

A Quixo GP player builds one :class:`QuixoFeatures` per decision (``QuixoFeatures(view)``) and every rule it
evaluates at that decision reads the same object; each fact is a
:class:`~gpquarto.games.quarto.gp.features.cached_fact`, so a decision pays only for the facts its rules use, once.

Facts are from the point of view of the player to move: ``own`` is the mover's cube mask, ``other`` the
opponent's. Moves are Quixo actions (``4*cell + direction``); wherever a fact picks one move among several it
takes the lowest action number, so primitives stay deterministic. Lines are the engine's
(:attr:`Tables.lines <gpquarto.games.quixo.tables.Tables.lines>`: rows top to bottom, columns left to right,
the main diagonal, the anti-diagonal).

**What a move does** is decided by the board's rules (:meth:`Tables.mover_result
<gpquarto.games.quixo.tables.Tables.mover_result>`): under the official rules a move that completes an opponent
line loses, even if it completes one of the mover's too; under the course rules the first complete line in scan
order decides, whoever moved. A *winning move* wins at once, a *losing move* loses at once. The facts read the
board only: a move that would make a third repetition, or reach the ply limit, is judged by the board it leaves;
the one exception is :attr:`QuixoFeatures.new_position_moves`, which reads the game's position keys.

**One-turn lookahead** (like Quarto's ``lookahead`` family: the opponent's replies are checked, nothing deeper):
a *safe move* wins at once, or does not lose and leaves the opponent no winning reply. *Threats* are the moves
that would win for the opponent if it were its turn now. A *trap-proof* move looks a turn further: safe, and winning at once
or leaving the opponent no trap (see :func:`first_trap`).

**Why it is fast**: a move adds at most one cube of the mover's to any line (a push changes one row or column,
which meets every other line in one cell, and a push along a line takes one cube out of it and puts one in). So
a move can complete a line only where the line already holds ``n - 1`` of the mover's cubes, and only if the
push's segment covers the line's missing cell: :func:`winning_actions` tries only those moves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from gpquarto.games.quixo.board import QuixoView
from gpquarto.games.quixo.search.alphabeta import QuixoSearch
from gpquarto.games.quixo.tables import Tables, tables
from gpquarto.gp.facts import cached_fact
from gpquarto.gp.types import NO_ACTION

#: ``mover_result`` values: the mover has won, no line is complete, the mover has lost.
WIN, NONE, LOSS = 1, 0, -1


@cache
def segments(n: int) -> tuple[int, ...]:
    """For each action of the ``n x n`` board, the cells its push changes (0 for an action never legal)."""
    table = tables(n)
    return tuple(0 if push is None else table.full & ~push.keep for push in table.push)


@cache
def inner_mask(n: int) -> int:
    """The cells off the border (the cubes no one can take; the centre cell on 3x3)."""
    table = tables(n)
    return table.full & ~table.border


@cache
def diagonals_mask(n: int) -> int:
    """The cells on the main diagonal or the anti-diagonal."""
    table = tables(n)
    return table.main | table.anti


def missing_cells(table: Tables, mask: int) -> int:
    """The empty cell of every line where ``mask`` holds all but one cell (0 when there is no such line)."""
    wanted = table.n - 1
    missing = 0
    for line in table.lines:
        held = mask & line
        if held.bit_count() == wanted:
            missing |= line ^ held
    return missing


def winning_actions(table: Tables, own: int, other: int, course: bool) -> tuple[int, ...]:
    """The actions that win at once for the player whose cubes are ``own`` when it is its turn, ascending.

    Only moves whose push covers the missing cell of a line holding ``n - 1`` of ``own`` are tried (the module
    docstring says why no other move can complete a line); each one is played and judged by the rules."""
    missing = missing_cells(table, own)
    if not missing:
        return ()
    changed = segments(table.n)
    play, result = table.play, table.mover_result
    wins = []
    for action in table.legal(other):
        if changed[action] & missing:
            own2, other2 = play(own, other, action)
            if result(own2, other2, course) == WIN:
                wins.append(action)
    return tuple(wins)


def first_trap(table: Tables, own: int, other: int, course: bool) -> int:
    """The lowest trap of the player whose cubes are ``own`` when it is its turn (a move that neither wins nor loses
    at once, leaves the other player no winning reply, and after which every reply of the other player loses at
    once or leaves ``own`` a winning move), or ``NO_ACTION`` when there is none.

    Each candidate's replies are tried until one leaves ``own`` no win, which is usually the first."""
    play, judge = table.play, table.mover_result
    for action in table.legal(other):
        own2, other2 = play(own, other, action)
        if judge(own2, other2, course) != NONE or winning_actions(table, other2, own2, course):
            continue
        if every_reply_leaves_a_win(table, own2, other2, course):
            return action
    return NO_ACTION


def every_reply_leaves_a_win(table: Tables, own: int, other: int, course: bool) -> bool:
    """After a move of the player whose cubes are ``own``, every reply of the other player (whose turn it is) loses
    at once or leaves ``own`` a winning move. The replies are tried until one leaves ``own`` no win, which is
    usually the first."""
    play, judge = table.play, table.mover_result
    for reply in table.legal(own):
        other2, own2 = play(other, own, reply)
        if judge(other2, own2, course) != LOSS and not winning_actions(table, own2, other2, course):
            return False
    return True


def lowest(moves: tuple[int, ...]) -> int:
    """The first (lowest) of ``moves``, or ``NO_ACTION`` when there is none."""
    return moves[0] if moves else NO_ACTION


def highest(scores: dict[int, int], moves: Iterable[int]) -> int:
    """The move of ``moves`` with the highest score (the lowest action on ties), or ``NO_ACTION`` when there is none."""
    best, best_score = NO_ACTION, 0
    for action in moves:
        score = scores[action]
        if best == NO_ACTION or score > best_score or (score == best_score and action < best):
            best, best_score = action, score
    return best


@cache
def line_potential(n: int) -> Callable[[int, int], float]:
    """The ``lines`` heuristic of the alpha-beta search (:meth:`QuixoSearch.evaluate
    <gpquarto.games.quixo.search.alphabeta.QuixoSearch.evaluate>`) on the ``n x n`` board: ``(own, other) -> value``
    for ``own``. The rules do not enter it."""
    return QuixoSearch(n, heuristic="lines").evaluate


def longest_line(table: Tables, mask: int) -> int:
    """The most cubes of ``mask`` in one line."""
    return max((mask & line).bit_count() for line in table.lines)


class QuixoFeatures:
    """Lazily computed facts about the Quixo position a decision is taken in (read-only)."""

    def __init__(self, view: QuixoView) -> None:
        self.view = view
        self.size: int = view.size
        self.mover: int = view.player
        self.own: int = view.x_mask if view.player == 0 else view.o_mask
        self.other: int = view.o_mask if view.player == 0 else view.x_mask
        self.course: bool = view.rules == "course"
        self._leaves_trap: dict[int, bool] = {}

    @cached_fact
    def tables(self) -> Tables:
        """The move tables of this board size."""
        return tables(self.size)

    @cached_fact
    def legal_moves(self) -> tuple[int, ...]:
        """The mover's legal actions, ascending."""
        return self.view.legal_actions()

    @cached_fact
    def legal_move_set(self) -> frozenset[int]:
        """The legal actions as a set (for membership tests)."""
        return frozenset(self.legal_moves)

    def is_legal_move(self, action: int) -> bool:
        """True when ``action`` is one of the mover's legal actions."""
        return action in self.legal_move_set

    # ------------------------------------------------------------------ lines
    @cached_fact
    def own_line_counts(self) -> tuple[int, ...]:
        """The mover's cubes in each line (``tables.lines`` order)."""
        own = self.own
        return tuple((own & line).bit_count() for line in self.tables.lines)

    @cached_fact
    def other_line_counts(self) -> tuple[int, ...]:
        """The opponent's cubes in each line (``tables.lines`` order)."""
        other = self.other
        return tuple((other & line).bit_count() for line in self.tables.lines)

    @cached_fact
    def own_near_lines(self) -> int:
        """Lines holding ``n - 1`` of the mover's cubes."""
        return self.own_line_counts.count(self.size - 1)

    @cached_fact
    def other_near_lines(self) -> int:
        """Lines holding ``n - 1`` of the opponent's cubes."""
        return self.other_line_counts.count(self.size - 1)

    # ------------------------------------------------------------------ cubes and regions
    @cached_fact
    def takeable_cubes(self) -> int:
        """The border cubes the mover may take (blank or its own), as a mask."""
        if self.view.termination is not None:
            return 0
        return self.tables.border & ~self.other

    @cached_fact
    def own_inner_cubes(self) -> int:
        """The mover's cubes off the border (no one can take them)."""
        return (self.own & inner_mask(self.size)).bit_count()

    @cached_fact
    def other_inner_cubes(self) -> int:
        """The opponent's cubes off the border."""
        return (self.other & inner_mask(self.size)).bit_count()

    @cached_fact
    def own_diagonal_cubes(self) -> int:
        """The mover's cubes on the two diagonals."""
        return (self.own & diagonals_mask(self.size)).bit_count()

    @cached_fact
    def other_diagonal_cubes(self) -> int:
        """The opponent's cubes on the two diagonals."""
        return (self.other & diagonals_mask(self.size)).bit_count()

    # ------------------------------------------------------------------ the mover's moves
    @cached_fact
    def move_results(self) -> tuple[tuple[int, int, int, int], ...]:
        """``(action, own, other, result)`` for each legal move: the masks after it, and ``WIN``, ``NONE`` or
        ``LOSS`` for the mover (by the board's rules)."""
        table, own, other, course = self.tables, self.own, self.other, self.course
        play, judge = table.play, table.mover_result
        results = []
        for action in self.legal_moves:
            own2, other2 = play(own, other, action)
            results.append((action, own2, other2, judge(own2, other2, course)))
        return tuple(results)

    @cached_fact
    def winning_moves(self) -> tuple[int, ...]:
        """The moves that win at once, ascending."""
        if self.view.termination is not None:
            return ()
        return winning_actions(self.tables, self.own, self.other, self.course)

    @cached_fact
    def losing_moves(self) -> tuple[int, ...]:
        """The moves that lose at once (official rules: they complete an opponent line), ascending."""
        return tuple(action for action, _, _, result in self.move_results if result == LOSS)

    @cached_fact
    def non_losing_moves(self) -> tuple[int, ...]:
        """The moves that do not lose at once, ascending."""
        return tuple(action for action, _, _, result in self.move_results if result != LOSS)

    @cached_fact
    def blank_takes(self) -> tuple[int, ...]:
        """The moves that take a blank cube (the mover gains a cube), ascending."""
        blank = ~(self.own | self.other)
        return tuple(action for action in self.legal_moves if blank >> (action >> 2) & 1)

    @cached_fact
    def blank_take_set(self) -> frozenset[int]:
        """The moves that take a blank cube, as a set."""
        return frozenset(self.blank_takes)

    @cached_fact
    def own_takes(self) -> tuple[int, ...]:
        """The moves that take one of the mover's own cubes, ascending."""
        own = self.own
        return tuple(action for action in self.legal_moves if own >> (action >> 2) & 1)

    # ------------------------------------------------------------------ the opponent's replies (one turn)
    @cached_fact
    def threats(self) -> tuple[int, ...]:
        """The opponent's winning moves if it were its turn now, ascending."""
        if self.view.termination is not None:
            return ()
        return winning_actions(self.tables, self.other, self.own, self.course)

    @cached_fact
    def replies_winning(self) -> dict[int, int]:
        """For each legal move that does not end the game: how many winning replies the opponent has after it."""
        table, course = self.tables, self.course
        return {
            action: len(winning_actions(table, other2, own2, course))
            for action, own2, other2, result in self.move_results
            if result == NONE
        }

    @cached_fact
    def safe_moves(self) -> tuple[int, ...]:
        """The moves that win at once, or do not lose and leave the opponent no winning reply, ascending."""
        replies = self.replies_winning
        return tuple(
            action
            for action, _, _, result in self.move_results
            if result == WIN or (result == NONE and not replies[action])
        )

    @cached_fact
    def safe_move_set(self) -> frozenset[int]:
        """The safe moves as a set."""
        return frozenset(self.safe_moves)

    @cached_fact
    def fewest_replies_move(self) -> int:
        """The lowest winning move; else the move that does not lose at once and leaves the opponent the fewest
        winning replies (lowest action on ties); ``NO_ACTION`` when every move loses at once."""
        if self.winning_moves:
            return self.winning_moves[0]
        replies = self.replies_winning
        return max(replies, key=lambda action: (-replies[action], -action), default=NO_ACTION)

    # ------------------------------------------------------------------ traps (the mover's next move too)
    @cached_fact
    def trap_move(self) -> int:
        """The lowest safe move that does not win at once and after which every reply of the opponent loses at
        once or leaves the mover a winning move (a win next turn whatever the opponent does); ``NO_ACTION`` when none.

        The opponent's replies to each candidate are tried until one leaves the mover no win, which is usually the
        first: most candidates cost a reply or two."""
        table, course, replies = self.tables, self.course, self.replies_winning
        for action, own2, other2, result in self.move_results:
            if result == NONE and not replies[action] and every_reply_leaves_a_win(table, own2, other2, course):
                return action
        return NO_ACTION

    # ------------------------------------------------------------------ the opponent's traps (two turns)
    @cached_fact
    def opponent_trap_threat(self) -> bool:
        """The opponent would have a trap if it were its turn now."""
        if self.view.termination is not None:
            return False
        return first_trap(self.tables, self.other, self.own, self.course) != NO_ACTION

    def leaves_trap(self, action: int) -> bool:
        """After ``action`` (a legal move that does not end the game) the opponent has a trap; computed on first
        asking and kept for the decision."""
        known = self._leaves_trap.get(action)
        if known is None:
            table = self.tables
            own2, other2 = table.play(self.own, self.other, action)
            known = self._leaves_trap[action] = first_trap(table, other2, own2, self.course) != NO_ACTION
        return known

    def is_trap_proof(self, action: int) -> bool:
        """``action`` is safe and wins at once or leaves the opponent no trap."""
        return action in self.safe_move_set and (action in self.winning_move_set or not self.leaves_trap(action))

    @cached_fact
    def winning_move_set(self) -> frozenset[int]:
        """The winning moves as a set."""
        return frozenset(self.winning_moves)

    def first_trap_proof(self, moves: Iterable[int]) -> int:
        """The first of ``moves`` that is trap-proof, or ``NO_ACTION``: only the moves up to it are examined."""
        for action in moves:
            if self.is_trap_proof(action):
                return action
        return NO_ACTION

    def by_score(self, scores: dict[int, int]) -> list[int]:
        """The safe moves by ``scores``, highest first, the lowest action first on ties."""
        return sorted(self.safe_moves, key=lambda action: (-scores[action], action))

    @cached_fact
    def trap_proof_move(self) -> int:
        """The lowest trap-proof move (safe, and winning or leaving the opponent no trap), or ``NO_ACTION``."""
        return self.first_trap_proof(self.safe_moves)

    @cached_fact
    def trap_proof_potential_move(self) -> int:
        """The trap-proof move that leaves the best line potential (lowest action on ties), or ``NO_ACTION``."""
        return self.first_trap_proof(self.by_score(self.potential_after))

    @cached_fact
    def trap_proof_longest_line_move(self) -> int:
        """The trap-proof move after which the mover's longest line is longest (lowest action on ties), or
        ``NO_ACTION``."""
        return self.first_trap_proof(self.by_score(self.lines_after))

    # ------------------------------------------------------------------ the game's history
    @cached_fact
    def new_position_moves(self) -> frozenset[int]:
        """The legal moves whose resulting position (board and side to move) has not occurred yet in the game (the
        one fact that reads the history rather than the board: a player that keeps to them cannot be drawn by
        repetition through its own moves)."""
        n, mover = self.size, self.mover
        seen = frozenset(self.view.position_keys())
        cells, side = n * n, (mover ^ 1) << (2 * n * n)
        fresh = []
        for action, own2, other2, _ in self.move_results:
            x, o = (own2, other2) if mover == 0 else (other2, own2)
            if x | o << cells | side not in seen:
                fresh.append(action)
        return frozenset(fresh)

    @cached_fact
    def new_trap_proof_move(self) -> int:
        """The trap-proof move leaving the best line potential among those that lead to a position not seen yet in
        the game (lowest action on ties), or ``NO_ACTION``."""
        fresh = self.new_position_moves
        return self.first_trap_proof(action for action in self.by_score(self.potential_after) if action in fresh)

    # ------------------------------------------------------------------ best moves by a measure
    def best_move(self, measure: Callable[[int, int], int]) -> int:
        """The legal move whose resulting masks ``(own, other)`` score the highest ``measure``; the lowest action
        on ties; ``NO_ACTION`` when there is none."""
        best, best_score = NO_ACTION, 0
        for action, own2, other2, _ in self.move_results:
            score = measure(own2, other2)
            if best == NO_ACTION or score > best_score:
                best, best_score = action, score
        return best

    @cached_fact
    def lines_after(self) -> dict[int, int]:
        """For each legal move: the mover's longest line after it."""
        table = self.tables
        return {action: longest_line(table, own2) for action, own2, _, _ in self.move_results}

    @cached_fact
    def potential_after(self) -> dict[int, int]:
        """For each legal move: the line potential of the board it leaves, for the mover (the ``lines``
        heuristic of :mod:`gpquarto.games.quixo.search.alphabeta`: ``4**k`` for each line holding ``k`` of the
        mover's cubes and none of the opponent's, minus the same for the opponent, plus the cube difference)."""
        evaluate = line_potential(self.size)
        return {action: int(evaluate(own2, other2)) for action, own2, other2, _ in self.move_results}

    @cached_fact
    def longest_line_move(self) -> int:
        """The move after which the mover's longest line is longest (lowest action on ties), or ``NO_ACTION``."""
        return highest(self.lines_after, self.legal_moves)

    @cached_fact
    def potential_move(self) -> int:
        """The move that leaves the best line potential for the mover (lowest action on ties), or ``NO_ACTION``."""
        return highest(self.potential_after, self.legal_moves)

    @cached_fact
    def safe_longest_line_move(self) -> int:
        """The safe move after which the mover's longest line is longest (lowest action on ties), or ``NO_ACTION``."""
        return highest(self.lines_after, self.safe_moves)

    @cached_fact
    def safe_potential_move(self) -> int:
        """The safe move that leaves the best line potential for the mover (lowest action on ties), or ``NO_ACTION``."""
        return highest(self.potential_after, self.safe_moves)

    @cached_fact
    def centre_move(self) -> int:
        """The move after which the mover holds the most cubes off the border (lowest action on ties), or ``NO_ACTION``."""
        inner = inner_mask(self.size)
        return self.best_move(lambda own, other: (own & inner).bit_count())

    @cached_fact
    def diagonal_move(self) -> int:
        """The move after which the mover holds the most cubes on the diagonals (lowest action on ties), or ``NO_ACTION``."""
        diagonals = diagonals_mask(self.size)
        return self.best_move(lambda own, other: (own & diagonals).bit_count())
