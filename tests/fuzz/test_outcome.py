"""The fuzz suite's judge (:func:`tests.fuzz.support.outcome`) catches what it promises to catch."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fuzz.support import Refused, outcome


@pytest.mark.parametrize("per_process", [False, True])
def test_an_input_over_its_memory_cap_fails_by_either_measure(per_process):
    cap = 50_000_000
    with pytest.raises(AssertionError, match=f"over its {cap:,} cap"):
        outcome("big", lambda: float(np.ones(20_000_000).sum()), memory=cap, per_process=per_process)  # 160 MB
    assert outcome("small", lambda: float(np.ones(1000).sum()), memory=cap, per_process=per_process) == 1000.0


def test_a_one_line_value_error_is_a_refusal_and_any_other_exception_reaches_the_test():
    def refuse():
        raise ValueError("bad input: no")

    def crash():
        raise KeyError("oops")

    assert str(outcome("refused", refuse)) == "bad input: no" and isinstance(outcome("refused", refuse), Refused)
    with pytest.raises(KeyError):
        outcome("crash", crash)
