"""The documentation site (``mkdocs.yml``) builds with ``--strict``: a broken link, a page missing from the
navigation or a reference to a module that is gone fails here. Its command-line reference is the parsers' own
help, and its tutorial is the README."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin", "HOME": str(folder)},
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return folder


def text_of(page: Path) -> str:
    return re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8"))


def test_the_command_line_reference_holds_every_commands_help(site):
    from gpquarto.cli import COMMAND_MODULES

    page = text_of(site / "cli" / "index.html")
    for module in COMMAND_MODULES:
        command = {"players_cmd": "players", "primitives_cmd": "primitives"}.get(module.rsplit(".", 1)[1])
        command = command or module.rsplit(".", 1)[1]
        assert f"usage: gpquarto {command} [-h]" in page, command
    assert "--generations" in page and "--game" in page


def test_every_public_name_the_readme_imports_has_a_reference_page(site):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    imported = re.findall(r"^from (gpquarto[\w.]*) import ([\w, ]+)$", readme, flags=re.M)
    documented = {  # the objects the reference pages document, by their last name (``id="gpquarto.gp.primitives.primitive"``)
        anchor.rsplit(".", 1)[-1]
        for page in (site / "reference").rglob("index.html")
        for anchor in re.findall(r'id="(gpquarto[\w.]*)"', page.read_text(encoding="utf-8"))
    }
    missing = [
        f"{module}.{name}"
        for module, names in imported
        for name in (part.strip() for part in names.split(","))
        if name not in documented
    ]
    assert missing == []


def test_the_tutorial_is_the_readme_with_links_inside_the_site(site):
    page = (site / "tutorial" / "index.html").read_text(encoding="utf-8")
    assert "python3 -m gpquarto train --generations 120" in page
    assert 'href="docs/' not in page  # the README's links into docs/ point at the site's pages


def test_docstring_cross_references_read_as_code_without_their_sphinx_role(site):
    pages = "".join(page.read_text(encoding="utf-8") for page in (site / "reference").rglob("index.html"))
    assert ":class:<code>" not in pages and ":func:<code>" not in pages
    assert "<code>PlayerForm</code>" in pages  # :class:`~gpquarto.games.capabilities.PlayerForm` in arena.game


#: Each task guide and the README sections it takes (README's own headings, less their numbers).
GUIDES = {
    "train": ("Train a player", "Read a run folder", "Experiments over many seeds"),
    "measure": ("Grade it", "Match", "Tournament"),
    "browser": ("Play in the browser", "Watch a game"),
    "primitives": ("Add a primitive",),
    "dask": ("Run on a Dask cluster",),
    "quixo": ("Quixo",),
}


def test_each_task_guide_holds_its_readme_sections_whole(site):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for guide, sections in GUIDES.items():
        page = text_of(site / guide / "index.html")
        for title in sections:
            assert re.search(rf"^## \d+\. {re.escape(title)}$", readme, flags=re.M), title
            assert f"{title}¶" in page or f"{title}\n" in page, (guide, title)
        commands = [line for line in readme.splitlines() if line.startswith("python3 -m gpquarto ")]
        shown = [command for command in commands if command.split("  #")[0].strip() in page]
        assert shown, guide  # the section's commands, as the README's test runs them


def test_a_guide_naming_a_section_the_readme_lacks_fails_the_build():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import hooks
    finally:
        sys.path.remove(str(ROOT / "docs"))
    with pytest.raises(ValueError, match="the README has no section '## 99. Nowhere'"):
        hooks.on_page_markdown("<!-- README section: 99. Nowhere -->", None, None, None)
    assert hooks.readme_section("2. Grade it").startswith("## Grade it\n")


def test_the_gp_guides_table_of_training_defaults_is_the_codes():
    """docs/gp.md's table of each game's training sizes reads what ``train`` uses (it drifted once)."""
    from gpquarto.games.defaults import training_defaults
    from gpquarto.training.config import EvolutionConfig

    row = next(
        line for line in (ROOT / "docs" / "gp.md").read_text().splitlines() if "generations, population, games" in line
    )
    quarto, quixo = ([int(number) for number in cell.split(",")] for cell in row.strip("|").split("|")[1:3])
    default = EvolutionConfig()
    assert quarto == [default.generations, default.population, default.games]
    generic = training_defaults("quixo").evolution
    assert quixo == [generic["generations"], generic["population"], generic["games"]]
