"""The rule transplant (``EvolutionConfig.rule_transplant_share``, ``train --rule-transplant-share S``): each child
holds its own rules in order with a run of the other parent's consecutive rules inserted, capped at the rule cap;
the same seed gives the same children; a share of 0, the default, breeds the run it bred before the option existed
(no extra random draw) and is not written; bad values are refused in one line."""

from __future__ import annotations

import json
import random

import pytest

import gpquarto.training.genome_kinds as genome_kinds
from gpquarto.cli import main
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import LibraryConfig, get_library, load_library
from gpquarto.gp.variation import TRANSPLANT_MAX_RUN, random_genome, rule_transplant
from gpquarto.runner import SerialRunner
from gpquarto.training.config import EvolutionConfig
from gpquarto.training.evolution import Evolution
from tests.test_draw_value import SETTINGS  # a tiny Quarto run

#: Rule crossovers in every pairing, so that a transplant share decides how each one is done.
CROSSING = {**SETTINGS, "games": 2, "opponents": "random:1", "crossover_rate": 1.0, "rule_crossover_share": 1.0}


@pytest.fixture(scope="module")
def generator():
    return TreeGenerator(load_library().primitive_set(), height_limit=6)


def _texts(genome: Genome, kind: str) -> list[tuple[str, str]]:
    return [rule.texts() for rule in genome.rules(kind)]


def _split(child: list, own: list, donor: list, cap: int) -> bool:
    """Whether ``child`` is ``own`` with a run of 1 to 3 consecutive rules of ``donor`` inserted somewhere, cut
    to its first ``cap`` rules (a slow check: every place, length and start)."""
    for at in range(len(own) + 1):
        for length in range(1, min(TRANSPLANT_MAX_RUN, len(donor)) + 1):
            for start in range(len(donor) - length + 1):
                if child == (own[:at] + donor[start : start + length] + own[at:])[:cap]:
                    return True
    return False


def test_each_child_holds_its_own_rules_in_order_and_a_run_of_the_other_s(generator):
    rng = random.Random(3)
    lengths = set()
    for _ in range(60):
        first = random_genome(rng, generator, min_rules=1, max_rules=6, min_height=1, max_height=2)
        second = random_genome(rng, generator, min_rules=1, max_rules=6, min_height=1, max_height=2)
        before = (first.key(), second.key())
        child_a, child_b = rule_transplant(rng, first, second, max_rules=16)
        assert (first.key(), second.key()) == before  # the parents are left alone
        for kind in first.kinds:
            mine, theirs = _texts(first, kind), _texts(second, kind)
            assert _split(_texts(child_a, kind), mine, theirs, 16)
            assert _split(_texts(child_b, kind), theirs, mine, 16)
            lengths.add(len(_texts(child_a, kind)) - len(mine))
    assert lengths == {1, 2, 3}  # runs of every length, each added whole under a cap never reached


def test_a_child_is_cut_back_to_the_cap_from_its_end(generator):
    rng = random.Random(8)
    cut = 0
    for _ in range(40):
        first = random_genome(rng, generator, min_rules=4, max_rules=5, min_height=1, max_height=2)
        second = random_genome(rng, generator, min_rules=3, max_rules=5, min_height=1, max_height=2)
        child_a, child_b = rule_transplant(rng, first, second, max_rules=5)
        for kind in first.kinds:
            mine, theirs = _texts(first, kind), _texts(second, kind)
            for child, own, donor in ((child_a, mine, theirs), (child_b, theirs, mine)):
                texts = _texts(child, kind)
                assert len(texts) == min(5, len(texts)) and _split(texts, own, donor, 5)
                cut += len(own) + 1 > 5
    assert cut > 20


def test_the_same_seed_gives_the_same_children(generator):
    parents = random.Random(1)
    first = random_genome(parents, generator, min_rules=2, max_rules=6, min_height=1, max_height=2)
    second = random_genome(parents, generator, min_rules=2, max_rules=6, min_height=1, max_height=2)
    runs = [[child.key() for child in rule_transplant(random.Random(seed), first, second, 16)] for seed in (7, 7, 9)]
    assert runs[0] == runs[1] != runs[2]


def _population(**settings) -> list[tuple]:
    run = Evolution.start(EvolutionConfig(generations=2, **settings), get_library(LibraryConfig()))
    run.run(SerialRunner())
    return [genome.key() for genome in run.population] + [json.dumps(row, sort_keys=True) for row in run.logbook]


def test_a_share_of_0_breeds_the_run_without_the_field(monkeypatch):
    without = _population(**CROSSING)

    def refused(*args, **kwargs):
        raise AssertionError("no transplant at share 0")

    monkeypatch.setattr(genome_kinds, "rule_transplant", refused)
    assert _population(**CROSSING, rule_transplant_share=0.0) == without
    monkeypatch.undo()
    transplanted = _population(**CROSSING, rule_transplant_share=1.0)
    assert transplanted != without
    assert _population(**CROSSING, rule_transplant_share=1.0) == transplanted  # same seed, same run


def test_the_share_is_written_only_when_set_and_read_back():
    assert "rule_transplant_share" not in EvolutionConfig.for_game("quixo").as_dict()
    data = EvolutionConfig.for_game("quixo").as_dict()
    assert EvolutionConfig.from_dict(data).rule_transplant_share == 0.0  # an old config reads as 0
    config = EvolutionConfig.for_game("quixo", rule_transplant_share=0.5)
    written = json.loads(json.dumps(config.as_dict()))
    assert written["rule_transplant_share"] == 0.5 and EvolutionConfig.from_dict(written) == config
    assert config.differences(EvolutionConfig.for_game("quixo")) == ["rule_transplant_share"]  # a resume keeps it


@pytest.mark.parametrize("value", [-0.1, 1.5, float("nan"), "0.5"])
def test_a_bad_share_is_refused_in_one_line(value):
    with pytest.raises(ValueError, match="rule_transplant_share must be") as error:
        EvolutionConfig(rule_transplant_share=value)
    assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match="rule_transplant_share is a setting of rule genomes"):
        EvolutionConfig(genome="evaluator", rule_transplant_share=0.5)


def test_the_command_line_sets_the_share_and_refuses_a_bad_one(tmp_path, capsys):
    from gpquarto.cli import build_parser
    from gpquarto.cli.train import _config

    args = build_parser().parse_args(["train", "--game", "quixo", "--rule-transplant-share", "0.5"])
    assert _config(args).rule_transplant_share == 0.5
    assert _config(build_parser().parse_args(["train", "--game", "quixo"])).rule_transplant_share == 0.0
    folder = tmp_path / "r"
    assert main(["train", "--rule-transplant-share", "2", "--run-dir", str(folder), "--quiet", "--workers", "1"]) == 2
    error = capsys.readouterr().err.strip()
    assert "rule_transplant_share must be between 0 and 1, got 2" in error and "\n" not in error
    assert not (folder / "config.json").exists()
    with pytest.raises(SystemExit):
        main(["train", "--rule-transplant-share", "half"])
