"""Connect Four's threats, parity and columns (terms of :mod:`connect_four.gp`): what wins, what must be blocked,
where not to play (under the opponent's threat), which columns add threats (on the mover's good rows), the double
threat, the counts of threats by parity, the centre, and two plies of lookahead with a threat and parity
evaluation. Columns are tried centre first; a choice with nothing to propose returns ``NO_ACTION`` (-1)."""

from __future__ import annotations

from connect_four.gp import ConnectFourFeatures, best_column
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Action, Count

FAMILY = "c4_threats"


def _first(columns: tuple[int, ...]) -> int:
    return columns[0] if columns else NO_ACTION


@primitive
def c4_win_column(features: ConnectFourFeatures) -> Action:
    """The column (centre first) whose playable cell completes four of the mover's discs."""
    return _first(features.win_columns)


@primitive
def c4_block_column(features: ConnectFourFeatures) -> Action:
    """The column (centre first) whose playable cell is a threat of the opponent: the disc that stops its win."""
    return _first(features.block_columns)


@primitive
def c4_unguarded_column(features: ConnectFourFeatures) -> Action:
    """The column nearest the centre that does not drop a disc right under a threat of the opponent."""
    return _first(features.unguarded_columns)


@primitive
def c4_is_unguarded(features: ConnectFourFeatures, action: Action) -> bool:
    """The proposed column is legal and does not drop a disc right under a threat of the opponent."""
    return action in features.unguarded_columns


@primitive
def c4_double_threat_column(features: ConnectFourFeatures) -> Action:
    """The column after which the opponent cannot win at once and the mover has two threats one block cannot stop
    (two playable, or a playable one with another right above it)."""
    return _first(features.double_threat_columns)


@primitive
def c4_good_threat_column(features: ConnectFourFeatures) -> Action:
    """The unguarded column adding the most threats on the mover's good rows (at least one)."""
    added = {column: counts[1] for column, counts in features.new_threats.items() if counts[1]}
    return best_column(added, [column for column in features.unguarded_columns if column in added])


@primitive
def c4_threat_column(features: ConnectFourFeatures) -> Action:
    """The unguarded column adding the most threats of the mover, on any row (at least one)."""
    added = {column: counts[0] for column, counts in features.new_threats.items() if counts[0]}
    return best_column(added, [column for column in features.unguarded_columns if column in added])


@primitive
def c4_spoiling_column(features: ConnectFourFeatures) -> Action:
    """The unguarded column whose playable cell lies on the most lines of four the opponent has begun and the
    mover has not (at least one)."""
    spoiled = {column: lines for column, lines in features.spoiled_lines.items() if lines}
    return best_column(spoiled, [column for column in features.unguarded_columns if column in spoiled])


@primitive
def c4_centre_column(features: ConnectFourFeatures) -> Action:
    """The legal column nearest the centre."""
    return next(iter(features.column_cells), NO_ACTION)


@primitive
def c4_lookahead_column(features: ConnectFourFeatures) -> Action:
    """The column best for the mover by two plies of minimax (its disc, the opponent's best reply), positions
    valued by threats, threats on good rows, and the lines through the discs' cells."""
    return best_column(features.lookahead_values, tuple(features.column_cells))


@primitive
def c4_good_threat_count(features: ConnectFourFeatures) -> Count:
    """The mover's threats on its good rows (odd rows for the first player, even for the second)."""
    return (features.own_threats & features.good_rows[0]).bit_count()


@primitive
def c4_opponent_good_threat_count(features: ConnectFourFeatures) -> Count:
    """The opponent's threats on its good rows."""
    return (features.opponent_threats & features.good_rows[1]).bit_count()


@primitive
def c4_threat_count(features: ConnectFourFeatures) -> Count:
    """The mover's threats, on any row."""
    return features.own_threats.bit_count()


@primitive
def c4_opponent_threat_count(features: ConnectFourFeatures) -> Count:
    """The opponent's threats, on any row."""
    return features.opponent_threats.bit_count()
