"""The training benchmark times the same generations on every runner it is given."""

from __future__ import annotations

from gpquarto.bench.train import format_train_benchmark, train_benchmark
from gpquarto.runner import SerialRunner
from gpquarto.runner.processes import ProcessRunner
from gpquarto.training import EvolutionConfig


def test_every_runner_gets_its_repeats_and_the_table_names_them():
    config = EvolutionConfig(population=4, games=2, opponents="random", final_games=0)
    closed = []

    class CountingRunner(SerialRunner):
        def close(self) -> None:
            closed.append(True)

    results = train_benchmark({"serial": CountingRunner, "pool": lambda: ProcessRunner(2)}, config, repeats=3)
    assert [result.label for result in results] == ["serial", "pool"]
    assert all(len(result.seconds) == 3 and result.median > 0 for result in results)
    assert closed == [True]
    table = format_train_benchmark(results, config)
    assert "serial" in table and "pool" in table and "1.00x" in table


def test_bench_set_is_for_train_only_and_checked(capsys):
    from gpquarto.cli import main

    assert main(["bench", "engine", "--set", "games=2"]) == 2
    assert "goes with 'bench train' only" in capsys.readouterr().err
    assert main(["bench", "train", "--set", "nope=1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "bad setting 'nope=1'" in err and "\n" not in err
    assert main(["bench", "train", "--set", "population=1"]) == 2
    assert "population must be at least 2" in capsys.readouterr().err


def test_speedup_is_the_median_of_per_repeat_ratios_not_a_ratio_of_medians():
    from gpquarto.bench.train import GenerationTimes, paired_speedup

    # A slow spell hit repeats 2 and 3 on both runners: the per-repeat ratios are 2, 2, 2, 1 -> 2.
    serial = GenerationTimes("serial", [4.0, 12.0, 12.0, 4.0])
    pool = GenerationTimes("pool", [2.0, 6.0, 6.0, 4.0])
    assert paired_speedup(serial, pool) == 2.0
    assert serial.median / pool.median != 2.0  # 8 / 5 = 1.6: what a ratio of medians would have said
    assert paired_speedup(serial, serial) == 1.0
