"""Every command and code example in the README works as written."""

from __future__ import annotations

import re
import shlex

import pytest

from gpquarto.cli import build_parser
from tests.conftest import REPO, run_cli

README = (REPO / "README.md").read_text()
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", README, flags=re.DOTALL)


def gpquarto_commands() -> list[list[str]]:
    """The arguments of every ``python -m gpquarto ...`` line in the README's shell blocks."""
    commands = []
    for language, body in BLOCKS:
        if language:
            continue
        for line in body.splitlines():
            line = line.split("  #")[0].strip()
            for part in line.split("&&"):
                words = shlex.split(part)
                if words[:3] in (["python", "-m", "gpquarto"], ["python3", "-m", "gpquarto"]):
                    commands.append(words[3:])
    return commands


def test_readme_shows_many_commands():
    assert len(gpquarto_commands()) >= 12


@pytest.mark.parametrize("arguments", gpquarto_commands(), ids=lambda a: " ".join(a)[:60])
def test_every_readme_command_is_accepted_by_the_cli(arguments):
    args = build_parser().parse_args(arguments)
    assert callable(args.handler)


def test_ci_runs_the_readme_test_command():
    marker = README.index("<!-- test-command -->")
    command = re.search(r"```\n(.*?)\n```", README[marker:]).group(1)
    assert "pytest" in command
    ci = (REPO / ".ci" / "run").read_text()
    assert "<!-- test-command -->" in ci and 'bash -c "$test_command"' in ci


def test_python_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    examples = [body for language, body in BLOCKS if language == "python" and "@primitive" not in body]
    assert len(examples) >= 2
    for body in examples:
        exec(compile(body, "README.md", "exec"), {})


def test_plugin_example_loads(tmp_path):
    body = next(body for language, body in BLOCKS if language == "python" and "@primitive" in body)
    plugin = tmp_path / "my_primitives.py"
    plugin.write_text(body)
    result = run_cli("primitives", "--plugin", str(plugin))
    assert result.returncode == 0, result.stderr
    assert "centre_square" in result.stdout


def test_cheap_readme_commands_run():
    for arguments in gpquarto_commands():
        if arguments[:1] in (["show"], ["solve"]) or arguments == ["players"]:
            if arguments[:1] == ["show"]:
                continue  # needs a trained player; test_train_e2e covers show on a fresh one
            result = run_cli(*arguments)
            assert result.returncode == 0, (arguments, result.stderr)
