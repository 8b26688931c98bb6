"""Experiments over many seeds: plans, resumption, and the statistics, checked against slow references."""

from __future__ import annotations

import itertools
import json
import shutil
import sys

import pytest

from gpquarto.arena.stats import holm, mann_whitney
from gpquarto.cli import main
from gpquarto.jobs.experiment import (
    STRENGTH_FILE,
    ExperimentPlan,
    Variant,
    parse_setting,
    run_experiment,
    run_folder,
    summarize,
)
from gpquarto.jobs.experiment_report import format_summary, write_report
from gpquarto.training import EvolutionConfig
from gpquarto.training.config import evaluator_opponents

#: Tiny runs, without the accuracy term (grading every genome on the solved bank): the tests are of the experiments'
#: plans, folders and statistics; the README's experiments run with the defaults.
BASE = {"generations": 2, "population": 4, "games": 2, "opponents": "random", "final_games": 2, "accuracy_weight": 0}


def plan(**changes) -> ExperimentPlan:
    values = {
        "variants": (Variant("basic", {"tactical": False}), Variant("tactical", {})),
        "seeds": (0, 1),
        "base": dict(BASE),
        "opponents": ("random", "novice"),
        "evaluation_games": 6,
    }
    return ExperimentPlan(**{**values, **changes})


def test_settings_are_converted_by_the_config_field_types():
    assert parse_setting("tactical=false") == ("tactical", False)
    assert parse_setting("generations=30") == ("generations", 30)
    assert parse_setting("fallback-weight=0.25") == ("fallback_weight", 0.25)
    assert parse_setting("opponents=random:1,minimax:depth=1:1") == ("opponents", "random:1,minimax:depth=1:1")
    for bad, message in [("speed=3", "KEY one of"), ("generations=many", "must be int"), ("tactical=maybe", "bool")]:
        with pytest.raises(ValueError, match=message):
            parse_setting(bad)


def test_plans_are_checked_before_any_run():
    with pytest.raises(ValueError, match="must differ"):
        plan(variants=(Variant("a"), Variant("a")))
    with pytest.raises(ValueError, match="the experiment sets the seeds"):
        Variant("a", {"seed": 3})
    with pytest.raises(ValueError, match="variant name"):
        Variant("../escape")
    with pytest.raises(ValueError, match="positive even number"):
        plan(base={**BASE, "games": 3})


def exact_mann_whitney(first, second) -> float:
    """Slow reference: the two-sided exact p-value by enumerating every split of the pooled ranks."""
    pooled = sorted(first + second)
    rank = {value: index + 1 for index, value in enumerate(pooled)}  # no ties in the samples used here
    observed = sum(rank[value] for value in first)
    expected = len(first) * (len(pooled) + 1) / 2
    splits = list(itertools.combinations(range(1, len(pooled) + 1), len(first)))
    extreme = sum(1 for split in splits if abs(sum(split) - expected) >= abs(observed - expected) - 1e-9)
    return extreme / len(splits)


def test_a_comparison_without_scipy_is_refused_before_any_run(tmp_path, monkeypatch, capsys):
    """SciPy compares the variants at the end: without it the command says so at once, trains nothing and writes
    nothing; one variant needs no comparison and runs."""
    monkeypatch.setitem(sys.modules, "scipy", None)  # ``import scipy`` raises ImportError
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    out = tmp_path / "two"
    with pytest.raises(ValueError, match=r"needs SciPy: pip install 'gpquarto\[experiment\]'"):
        run_experiment(plan(), out)
    assert not out.exists()
    settings = [f"--set={key}={value}" for key, value in BASE.items()]
    arguments = ["experiment", *settings, "--seeds", "1", "--against", "random", "--eval-games", "2", "--workers", "1"]
    assert main([*arguments, "--variant", "a", "--variant", "b", "--set", "tactical=false", "--out", str(out)]) == 2
    assert (
        capsys.readouterr().err
        == "gpquarto: error: comparing configurations needs SciPy: pip install 'gpquarto[experiment]'\n"
    )
    assert not out.exists()
    assert main([*arguments, "--out", str(tmp_path / "one")]) == 0
    assert (tmp_path / "one" / "summary.csv").is_file()


def test_mann_whitney_matches_the_exact_enumeration_and_holm_the_worked_example():
    for first, second in [([0.1, 0.4, 0.35], [0.5, 0.8, 0.45, 0.9]), ([0.2, 0.3, 0.9, 0.7], [0.25, 0.6, 0.65])]:
        assert mann_whitney(first, second) == pytest.approx(exact_mann_whitney(first, second))
    assert mann_whitney([0.5, 0.5], [0.5, 0.5]) == 1.0
    # Holm by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, max(0.04, 0.06)
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])


def test_an_experiment_runs_resumes_and_summarizes(tmp_path):
    out = tmp_path / "exp"
    said = []
    run_experiment(plan(), out, on_run=lambda *event: said.append(event))
    assert [event for event in said if event[2] == "started"] == [
        ("basic", 0, "started"),
        ("tactical", 0, "started"),
        ("basic", 1, "started"),
        ("tactical", 1, "started"),
    ]
    summary = summarize(out)
    for variant in summary.variants:
        for index, seed in enumerate((0, 1)):
            stored = json.loads((run_folder(out, variant.name, seed) / STRENGTH_FILE).read_text())["score"]
            assert variant.strength["random"][index] == stored["random"]
        assert [len(curve) for curve in variant.curves] == [2, 2]
    assert {(item.opponent, item.first, item.second) for item in summary.comparisons} == {
        ("random", "basic", "tactical"),
        ("novice", "basic", "tactical"),
    }
    text = format_summary(summary)
    assert "Mann-Whitney" in text and "basic" in text and "tactical" in text
    assert set(write_report(summary, out)) <= {path.name for path in out.iterdir()}

    # Continue after an interruption: a lost measurement and a run folder gone are redone, the rest skipped.
    (run_folder(out, "basic", 1) / STRENGTH_FILE).unlink()
    shutil.rmtree(run_folder(out, "tactical", 0))
    said.clear()
    run_experiment(plan(), out, on_run=lambda *event: said.append(event))
    assert ("basic", 0, "skipped") in said and ("basic", 1, "measured") in said
    assert ("tactical", 0, "started") in said
    again = summarize(out)
    assert [variant.strength for variant in again.variants] == [variant.strength for variant in summary.variants]
    with pytest.raises(ValueError, match="holds another experiment"):
        run_experiment(plan(seeds=(0, 1, 2)), out)


def test_the_command_builds_variants_in_order_and_reports_bad_settings(tmp_path, capsys):
    out = tmp_path / "cli"
    settings = [f"--set={key}={value}" for key, value in BASE.items()]
    arguments = ["experiment", *settings, "--variant", "basic", "--set", "tactical=false", "--variant", "tactical"]
    assert main([*arguments, "--seeds", "2", "--against", "random", "--eval-games", "4", "--out", str(out)]) == 0
    saved = ExperimentPlan.from_dict(json.loads((out / "experiment.json").read_text()))
    assert saved.variants == (Variant("basic", {"tactical": False}), Variant("tactical", {}))
    assert saved.base == {"game": "quarto", **BASE} and saved.seeds == (0, 1)  # a plan names its game
    assert "vs random" in capsys.readouterr().out
    assert (out / "strength.png").stat().st_size > 0 and (out / "summary.csv").read_text().startswith("variant,")
    assert main(["experiment", "--set", "speed=3", "--out", str(tmp_path / "bad")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "bad").exists()


def test_best_players_can_be_graded_against_perfect_play_too(tmp_path):
    from gpquarto.jobs.experiment import GRADE_METRIC

    graded = plan(variants=(Variant("only", {}),), opponents=("random",), grade_positions=6)
    run_experiment(graded, tmp_path / "graded")
    summary = summarize(tmp_path / "graded")
    accuracies = summary.variants[0].strength[GRADE_METRIC]
    assert len(accuracies) == 2 and all(0 <= value <= 1 for value in accuracies)
    assert "grade accuracy" in format_summary(summary)
    assert ExperimentPlan.from_dict(graded.as_dict()) == graded


def test_the_strength_figure_widens_with_the_variants_and_scales_to_the_values():
    import io

    from matplotlib.image import imread

    from gpquarto.jobs.experiment import ExperimentSummary, VariantSummary
    from gpquarto.jobs.experiment_report import strength_png

    def figure(names, values):
        variants = tuple(Variant(name, {}) for name in names)
        summary = ExperimentSummary(
            plan(variants=variants),
            [VariantSummary(name, {"random": list(values), "novice": [0.5, 0.6]}, [[0.1, 0.2]]) for name in names],
            [],
        )
        return imread(io.BytesIO(strength_png(summary)), format="png")

    two = figure(["basic", "tactical"], [1.0, 1.0, 1.0])
    six = figure([f"a-long-variant-name-{index}" for index in range(6)], [0.97, 0.99, 1.0])
    assert two.ndim == 3 and six.ndim == 3
    assert six.shape[1] > two.shape[1]  # wider panels for more variants


def test_each_variant_config_is_pinned_so_later_runs_train_like_the_first(tmp_path):
    out = tmp_path / "pinned"
    run_experiment(plan(), out)
    path = out / "experiment.json"
    saved = json.loads(path.read_text())
    assert set(saved["configs"]) == {"basic", "tactical"}
    whole = set(EvolutionConfig.for_game("quarto").as_dict()) - {"seed"}  # Quarto's defaults write racing
    assert all(set(config) == whole for config in saved["configs"].values())
    assert saved["configs"]["basic"]["tactical"] is False and saved["configs"]["tactical"]["games"] == 2

    # As if a default had changed since the experiment began: a run started now trains with the pinned value.
    saved["configs"]["tactical"]["immigrants"] = 1
    path.write_text(json.dumps(saved))
    shutil.rmtree(run_folder(out, "tactical", 1))
    run_experiment(plan(), out)  # the same experiment: pins are not compared
    started = json.loads((run_folder(out, "tactical", 1) / "config.json").read_text())["evolution"]
    assert started["immigrants"] == 1 and started["seed"] == 1
    assert json.loads((run_folder(out, "basic", 1) / "config.json").read_text())["evolution"]["immigrants"] == 2

    # A plan written before configs were pinned still loads, with today's defaults.
    del saved["configs"]
    old = ExperimentPlan.from_dict(saved)
    assert old == plan() and old.config(old.variants[1], 1) == plan().config(plan().variants[1], 1)
    with pytest.raises(ValueError, match="same variants"):
        ExperimentPlan.from_dict({**saved, "configs": {"basic": {}}})


def test_an_experiment_compares_evaluator_variants_with_pinned_configs(tmp_path, capsys):
    """``--set genome=evaluator --set depth=1``: the variants train evaluators (their defaults pinned in the plan),
    and their champions are measured as the ``minimax`` they were evolved for."""
    out = tmp_path / "evaluators"
    settings = ["genome=evaluator", "depth=1", "generations=1", "population=3", "games=2", "final_games=2"]
    arguments = ["experiment", *(f"--set={setting}" for setting in settings), "--variant", "cheap"]
    arguments += ["--set", "cost_weight=0.05", "--variant", "free", "--seeds", "1", "--against", "random"]
    assert main([*arguments, "--eval-games", "2", "--workers", "1", "--out", str(out)]) == 0
    saved = json.loads((out / "experiment.json").read_text())
    pinned = saved["configs"]["cheap"]
    assert (pinned["genome"], pinned["depth"], pinned["cost_weight"]) == ("evaluator", 1, 0.05)
    assert pinned["opponents"] == evaluator_opponents(1) and pinned["hall_of_fame"] == 1
    assert saved["configs"]["free"]["cost_weight"] == 0.0
    assert (out / "free" / "seed-0" / "best_evaluator.json").is_file()
    assert "vs random" in capsys.readouterr().out
