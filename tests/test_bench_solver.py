"""The solver benchmark: its positions (deterministic by seed) and its table (not its speed)."""

from __future__ import annotations

import argparse

import pytest

from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto.bench.solver import run_solver_benchmark, solver_positions


def test_positions_have_the_empty_squares_and_decision_asked_for() -> None:
    groups = solver_positions(seed=3, empties=(5, 6), per_kind=2)
    assert sorted(groups) == [
        (5, DecisionKind.CHOOSE),
        (5, DecisionKind.PLACE),
        (6, DecisionKind.CHOOSE),
        (6, DecisionKind.PLACE),
    ]
    for (empties, kind), positions in groups.items():
        assert len(positions) == 2
        for position in positions:
            assert 16 - position.placed_count == empties and not position.is_over()
            assert position.choice_due == (kind == DecisionKind.CHOOSE)
    assert [p.text() for p in solver_positions(seed=3, empties=(5,))[5, DecisionKind.CHOOSE]] == [
        p.text() for p in solver_positions(seed=3, empties=(5,))[5, DecisionKind.CHOOSE]
    ]
    with pytest.raises(ValueError, match="empty squares"):
        solver_positions(empties=(0,))


def test_command_prints_a_row_per_group_and_the_reference_rows(capsys) -> None:
    args = argparse.Namespace(rules="classic", empties=[4, 5], positions=2, compare="tests.reference")
    assert run_solver_benchmark(args) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [row.split()[:2] for row in rows] == [[e, k] for e in ("4", "5") for k in ("choose", "place") for _ in "rc"]
    assert all(row.endswith("x") for row in rows[1::2])
