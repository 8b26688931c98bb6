"""The lookahead family, cross-checked on random positions against slow definitions written with the Board API."""

from __future__ import annotations

import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.pieces import CHARACTERISTICS, NO_PIECE
from gpquarto.games.quarto.primitives import lookahead, tactical
from gpquarto.gp.library import load_library
from gpquarto.gp.storage import load_player
from gpquarto.gp.types import NO_ACTION
from tests.helpers import REPO, random_positions


def safe_pieces(board: Board) -> list[int]:
    """Available pieces with no winning square on this board (slowly: try every square)."""
    return [
        piece
        for piece in board.available_pieces()
        if not any(board.is_winning_placement(square, piece) for square in board.empty_squares())
    ]


def after(board: Board, action) -> Board:
    copy = board.copy()
    action(copy)
    return copy


def safe_left_after(board: Board) -> dict[int, int]:
    """Safe, non-winning squares of the piece in hand -> safe pieces left after placing it there."""
    result = {}
    for square in board.empty_squares():
        if board.is_winning_placement(square, board.in_hand):
            continue
        left = len(safe_pieces(after(board, lambda b, s=square: b.place(s))))
        if left:
            result[square] = left
    return result


def reply_safe_placements(board: Board) -> dict[int, int]:
    """Safe pieces to give -> the opponent's safe placements (non-winning squares leaving it a safe piece)."""
    result = {}
    for piece in safe_pieces(board):
        given = after(board, lambda b, p=piece: b.choose(p))
        result[piece] = len([s for s in given.empty_squares() if safe_pieces(after(given, lambda b, s=s: b.place(s)))])
    return result


def reply_placement_parities(board: Board) -> dict[int, tuple[int, int]]:
    """Safe pieces to give -> (the opponent's safe placements, how many of them leave it an odd number of safe
    pieces to give back)."""
    result = {}
    for piece in safe_pieces(board):
        given = after(board, lambda b, p=piece: b.choose(p))
        left = [len(safe_pieces(after(given, lambda b, s=s: b.place(s)))) for s in given.empty_squares()]
        left = [count for count in left if count]
        result[piece] = (len(left), sum(count % 2 for count in left))
    return result


def square_reply_keys(board: Board) -> dict[int, tuple[int, int]]:
    """Safe, non-winning squares of the piece in hand -> the best piece to give after it, as ranked by
    :func:`reply_placement_parities`: the least (opponent's safe placements, how many of them leave an odd number)."""
    return {
        square: min(reply_placement_parities(after(board, lambda b, s=square: b.place(s))).values())
        for square in safe_left_after(board)
    }


def live_characteristics(board: Board, pieces) -> int:
    """Characteristics needed to complete a three-in-a-line that one of ``pieces`` has."""
    have = 0
    for piece in pieces:
        have |= CHARACTERISTICS[piece]
    threatened = 0
    for line in board.rules.lines:
        filled = [board.piece_at(s) for s in line if board.piece_at(s) != NO_PIECE]
        if len(filled) == 3:
            shared = 0xFF
            for piece in filled:
                shared &= CHARACTERISTICS[piece]
            threatened |= shared
    return threatened & have


def trap_squares(board: Board) -> list[int]:
    """Non-winning squares for the piece in hand after which some safe piece, with a piece left to give back,
    leaves the opponent no safe placement (slowly, with the definitions above)."""
    traps = []
    for square in safe_left_after(board):
        placed = after(board, lambda b, s=square: b.place(s))
        if len(placed.available_pieces()) > 1 and 0 in reply_safe_placements(placed).values():
            traps.append(square)
    return traps


def wins_whatever_the_reply(given: Board) -> bool:
    """The opponent, to place the piece it was given, cannot win with it, and wherever it puts it, every piece it
    can give back wins at once for the first player."""
    for answer in given.empty_squares():
        if given.is_winning_placement(answer, given.in_hand):
            return False
        answered = after(given, lambda b, a=answer: b.place(a))
        if answered.is_over() or not all(
            any(answered.is_winning_placement(s, reply) for s in answered.empty_squares())
            for reply in answered.legal_pieces()
        ):
            return False
    return True


def lowest(counts: dict[int, int], wanted) -> int:
    return min((key for key, value in counts.items() if wanted(value)), default=NO_ACTION)


def hand_fit(board: Board, square: int) -> int:
    """Pieces on the fullest line through ``square`` (neither empty nor full) whose pieces all have a characteristic
    that the piece in hand has too; 0 when there is none."""
    best = 0
    for line in board.rules.lines:
        pieces = [board.piece_at(s) for s in line if board.piece_at(s) != NO_PIECE]
        if square in line and 0 < len(pieces) < 4:
            shared = CHARACTERISTICS[board.in_hand]
            for piece in pieces:
                shared &= CHARACTERISTICS[piece]
            if shared:
                best = max(best, len(pieces))
    return best


def best_fitting(board: Board, counts: dict[int, int], wanted) -> int:
    """Of the squares whose count is ``wanted``, the one where the piece in hand fits the fullest line, lowest on
    ties (a plain loop over the squares in order, keeping a strictly better fit)."""
    best, best_fit = NO_ACTION, -1
    for square in range(16):
        if square in counts and wanted(counts[square]) and hand_fit(board, square) > best_fit:
            best, best_fit = square, hand_fit(board, square)
    return best


@pytest.fixture(scope="module")
def positions():
    return random_positions(31, 150, min_actions=6, max_actions=26)


def test_the_family_is_in_the_library_and_leaves_with_tactics():
    assert "piece_leaving_no_safe_placement" in load_library().specs
    assert "piece_leaving_no_safe_placement" not in load_library(lookahead=False).specs
    without_tactics = load_library(tactical=False).specs
    assert "safe_piece" not in without_tactics and "square_leaving_odd_safe_pieces" not in without_tactics


def test_placement_facts_match_the_slow_definitions(positions):
    checked = ties_broken = looked = won = tightest = 0
    for board in positions:
        if board.in_hand == NO_PIECE:
            continue
        features = Features(board.view())
        left = safe_left_after(board)
        odd = best_fitting(board, left, lambda n: n % 2 == 1)
        assert lookahead.square_leaving_odd_safe_pieces(features) == odd
        assert lookahead.square_leaving_even_safe_pieces(features) == best_fitting(
            board, left, lambda n: n > 0 and n % 2 == 0
        )
        ties_broken += odd != lowest(left, lambda n: n % 2 == 1)
        others = board.available_pieces()
        before = live_characteristics(board, others)
        created = [
            square
            for square in board.empty_squares()
            if not board.is_winning_placement(square, board.in_hand)
            and live_characteristics(after(board, lambda b, s=square: b.place(s)), others) & ~before
        ]
        assert lookahead.square_creating_live_three(features) == min(created, default=NO_ACTION)
        own = CHARACTERISTICS[board.in_hand]
        blocking = []
        for square in board.empty_squares():
            if board.is_winning_placement(square, board.in_hand):
                continue
            for line in board.rules.lines:
                filled = [board.piece_at(s) for s in line if s != square and board.piece_at(s) != NO_PIECE]
                if square in line and len(filled) == 3:
                    shared = CHARACTERISTICS[filled[0]] & CHARACTERISTICS[filled[1]] & CHARACTERISTICS[filled[2]]
                    if shared & live_characteristics(board, others) and not shared & own:
                        blocking.append(square)
        assert lookahead.square_blocking_live_three(features) == min(blocking, default=NO_ACTION)
        assert lookahead.trap_square(features) == min(trap_squares(board), default=NO_ACTION)
        winning = [square for square in board.empty_squares() if board.is_winning_placement(square, board.in_hand)]
        if winning:  # a win leaves the opponent no reply
            reply_square = min(winning)
            won += 1
        elif len(board.empty_squares()) <= lookahead.REPLY_LOOK_HORIZON:
            keys = square_reply_keys(board)
            reply_square = min(sorted(keys), key=lambda square: keys[square], default=NO_ACTION)
            looked += 1
        else:  # beyond the horizon: the tightest safe square
            left = safe_left_after(board)
            reply_square = min(sorted(left), key=lambda square: left[square], default=NO_ACTION)
            tightest += 1
        assert lookahead.square_leaving_fewest_reply_placements(features) == reply_square
        checked += 1
    assert checked > 40
    assert ties_broken > 5  # the fit decides, not only the lowest square
    assert 20 < looked < checked  # the reply look within its horizon, the tightest safe square beyond
    assert won > 5 and tightest > 5


def test_choice_facts_match_the_slow_definitions(positions):
    checked = parity_decided = 0
    for board in positions:
        if board.in_hand != NO_PIECE:
            continue
        features = Features(board.view())
        replies = reply_safe_placements(board)
        assert lookahead.piece_leaving_no_safe_placement(features) == lowest(replies, lambda n: n == 0)
        lowest_fewest = min(sorted(replies), key=lambda piece: replies[piece], default=NO_ACTION)
        if len(board.empty_squares()) <= lookahead.REPLY_LOOK_HORIZON:
            parities = reply_placement_parities(board)
            fewest = min(sorted(parities), key=lambda piece: parities[piece], default=NO_ACTION)
            parity_decided += fewest != lowest_fewest
        else:  # the opening: the parity is not looked at
            fewest = lowest_fewest
        assert lookahead.piece_leaving_fewest_safe_placements(features) == fewest
        if fewest != NO_ACTION:
            assert replies[fewest] == min(replies.values())  # the parity only breaks ties of the fewest placements
        for piece in board.available_pieces():
            assert lookahead.reply_safe_placements(features, piece) == replies.get(piece, 0)
        assert lookahead.safe_pieces_left_is_odd(features) == (len(safe_pieces(board)) % 2 == 1)
        checked += 1
    assert checked > 40
    assert parity_decided > 5  # the parity changes the piece, not only the count of placements


def test_trap_squares_on_game_like_positions_and_their_promise():
    """Where a trap square is found (positions from 4 to 12 pieces placed, where traps are common), it is the
    slow definition's lowest, and after it some piece makes every reply of the opponent hand back a winning piece;
    with fewer than three pieces placed no trap exists, so the skipped opening positions lose nothing."""
    found = 0
    for board in random_positions(45, 200, min_actions=13, max_actions=25):
        if board.in_hand == NO_PIECE:
            continue
        square = lookahead.trap_square(Features(board.view()))
        assert square == min(trap_squares(board), default=NO_ACTION)
        if square == NO_ACTION:
            continue
        found += 1
        placed = after(board, lambda b, s=square: b.place(s))
        assert any(
            wins_whatever_the_reply(after(placed, lambda b, p=piece: b.choose(p))) for piece in safe_pieces(placed)
        )
    assert found > 10
    openings = [b for b in random_positions(46, 8, min_actions=5, max_actions=6) if b.in_hand != NO_PIECE]
    assert openings and all(board.placed_count == 2 and trap_squares(board) == [] for board in openings)


def test_a_piece_leaving_no_safe_placement_wins_against_any_reply():
    """When the primitive finds one, every placement of it lets the first player win on the next placement."""
    found = 0
    for board in random_positions(77, 400, min_actions=14, max_actions=24):
        if board.in_hand != NO_PIECE:
            continue
        piece = lookahead.piece_leaving_no_safe_placement(Features(board.view()))
        if piece == NO_ACTION:
            continue
        found += 1
        given = after(board, lambda b, p=piece: b.choose(p))
        for square in given.empty_squares():
            placed = after(given, lambda b, s=square: b.place(s))
            if placed.is_over():
                continue  # the opponent could win at once only if the piece was not safe: it is
            for reply in placed.legal_pieces():
                assert any(placed.is_winning_placement(s, reply) for s in placed.empty_squares())
    assert found > 0


def test_in_the_opening_a_parity_square_joins_a_line_the_piece_fits():
    # One piece on square 14 (row 3, column 2); the piece in hand shares three characteristics with it. Every
    # square leaves 14 safe pieces (even): the lowest square, 0, shares no line with it; square 2 (column 2) does.
    features = Features(Board.from_text("..../..../..../..0. 1").view())
    assert lookahead.square_leaving_even_safe_pieces(features) == 2
    assert lookahead.square_leaving_odd_safe_pieces(features) == NO_ACTION


def square_before_it_took_wins(features: Features) -> int:
    """``square_leaving_fewest_reply_placements`` as it was before it took wins and gave the tightest safe square
    beyond :data:`~gpquarto.games.quarto.primitives.lookahead.REPLY_LOOK_HORIZON`: ``NO_ACTION`` in both cases."""
    if len(features.empty_squares) > lookahead.REPLY_LOOK_HORIZON:
        return NO_ACTION
    best = lookahead._square_reply_placements(features)
    return min(sorted(best), key=lambda square: best[square], default=NO_ACTION)


def reply_counter_place_before(board: Board) -> int:
    """The placement of ``examples/players/reply_counter.json``'s place rules with the square as it was
    (:func:`square_before_it_took_wins`): the first rule's legal square, ``NO_ACTION`` for the random fallback."""
    features = Features(board.view())
    for rule in (
        tactical.winning_square,
        square_before_it_took_wins,
        tactical.tightest_safe_square,
        tactical.safe_square,
    ):
        square = rule(features)
        if square in board.empty_squares():
            return square
    return NO_ACTION


def test_reply_counter_places_as_it_did_before_the_square_took_wins():
    # Its place rules put winning_square before the square and tightest_safe_square after it, so what the square
    # gives now in those two cases was the next rule's answer before: every placement is the same. Checked on the
    # placements of seeded games against a careful random opponent (it wins at once when it can, gives a safe
    # piece and places without losing when it can), which reach the endgame, and of games between two copies.
    player = load_player(REPO / "examples" / "players" / "reply_counter.json", seed=0)
    rng = random.Random(97)
    compared = {"won": 0, "looked": 0, "beyond": 0, "fallback": 0}
    for game in range(150):
        board = Board()
        ours = {game % 2, 1 - game % 2} if game >= 130 else {game % 2}  # the last 20: reply_counter on both seats
        mover = 0  # player 0 opens by choosing; the player given a piece places it, then chooses
        while not board.is_over():
            if board.in_hand == NO_PIECE:
                if mover in ours:
                    piece = player.choose_piece(board.view())
                else:
                    safe = safe_pieces(board)
                    piece = rng.choice(safe or board.available_pieces())
                board.choose(piece)
                mover = 1 - mover
                continue
            if mover in ours:
                before = reply_counter_place_before(board)
                square = player.place_piece(board.view(), board.in_hand)
                fell_back = player.explain("place")["rule"] is None
                assert (NO_ACTION if fell_back else square) == before, board.text()
                empties = len(board.empty_squares())
                if before == NO_ACTION:
                    compared["fallback"] += 1
                elif board.is_winning_placement(before, board.in_hand):
                    compared["won"] += 1
                else:
                    compared["looked" if empties <= lookahead.REPLY_LOOK_HORIZON else "beyond"] += 1
            else:
                squares = board.empty_squares()
                winning = [s for s in squares if board.is_winning_placement(s, board.in_hand)]
                quiet = [
                    s for s in squares if s not in winning and safe_pieces(after(board, lambda b, s=s: b.place(s)))
                ]
                square = rng.choice(winning or quiet or squares)
            board.place(square)
    assert compared["won"] > 50 and compared["looked"] > 300 and compared["beyond"] > 300, compared
