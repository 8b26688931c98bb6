"""The learning benchmark times every method on every runner it is given, and its command checks its input."""

from __future__ import annotations

from gpquarto.bench.learn import format_learn_benchmark, learn_benchmark
from gpquarto.learning import LearnConfig
from gpquarto.runner import SerialRunner
from gpquarto.runner.processes import ProcessRunner


def test_every_method_and_runner_gets_its_repeats_and_the_table_names_them():
    configs = {
        method: LearnConfig(game="quixo", settings={"size": 3}, method=method, episodes=8, batch=4, eval_games=0)
        for method in ("td-ntuple", "monte-carlo")
    }
    closed = []

    class CountingRunner(SerialRunner):
        def close(self) -> None:
            closed.append(True)

    results = learn_benchmark({"serial": CountingRunner, "pool": lambda: ProcessRunner(2)}, configs, repeats=2)
    assert [(r.method, r.runner) for r in results] == [
        ("td-ntuple", "serial"), ("td-ntuple", "pool"), ("monte-carlo", "serial"), ("monte-carlo", "pool"),
    ]  # fmt: skip
    assert all(len(result.rates) == 2 and result.median > 0 for result in results)
    assert closed == [True]
    table = format_learn_benchmark(results, configs)
    rows = [line.split() for line in table.splitlines() if line.split()[:1] in (["td-ntuple"], ["monte-carlo"])]
    assert [(row[0], row[1]) for row in rows] == [(r.method, r.runner) for r in results]
    # Each method's first runner is the yardstick of its speed-ups (the pool's may round to 1.00x too).
    assert [row[-1] for row in rows if row[1] == "serial"] == ["1.00x", "1.00x"]
    assert all(row[-1].endswith("x") and float(row[-1][:-1]) > 0 for row in rows)


def test_bench_learn_refuses_an_unknown_method_in_one_line(capsys):
    from gpquarto.cli import main

    assert main(["bench", "learn", "--methods", "sarsa"]) == 2
    error = capsys.readouterr().err
    assert "unknown method 'sarsa'" in error and error.count("\n") == 1
