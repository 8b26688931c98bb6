"""Loading primitives from plugin files and installed packages (entry points); the ``primitives`` command."""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path

import pytest

from gpquarto.cli import main
from gpquarto.gp.library import load_library
from gpquarto.gp.plugins import ENTRY_POINT_GROUP, PluginError
from gpquarto.gp.primitives import PrimitiveError

PLUGIN = '''
from gpquarto.games.quarto.gp.features import Features
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import Count, Square


@primitive
def free_corners(features: Features) -> Count:
    """Free corners."""
    return sum(features.is_legal_square(square) for square in (0, 3, 12, 15))


@primitive(family="plugged squares")
def last_free_square(features: Features) -> Square:
    """The free square with the highest index."""
    squares = features.empty_squares
    return squares[-1] if squares else -1
'''


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text))
    return path


def test_plugin_file_adds_its_primitives_with_its_path_as_source(tmp_path):
    plugin = write(tmp_path / "corners.py", PLUGIN)
    library = load_library([str(plugin)], entry_points=False)
    spec = library.get("free_corners")
    assert (spec.source, spec.family, spec.signature) == (str(plugin), "corners", "free_corners -> Count")
    assert library.get("last_free_square").family == "plugged squares"
    assert library.versions[str(plugin)].startswith("sha256:") and len(library.versions[str(plugin)]) == 19
    assert library.get("square_in_fuller_column").source == "builtin"


def test_libraries_do_not_mix_and_a_plugin_loads_again(tmp_path):
    plugin = write(tmp_path / "corners.py", PLUGIN)
    first = load_library([str(plugin)], entry_points=False)
    plain = load_library(entry_points=False)
    again = load_library([str(plugin)], entry_points=False)
    assert "free_corners" in first and "free_corners" not in plain and "free_corners" in again
    assert len(first) == len(again) == len(plain) + 2
    changed = write(tmp_path / "corners.py", PLUGIN + "\n# edited\n")
    assert load_library([str(changed)], entry_points=False).versions[str(changed)] != first.versions[str(plugin)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("def broken(:\n", "SyntaxError"),
        ("import no_such_module_for_gpquarto\n", "ModuleNotFoundError: No module named 'no_such_module_for_gpquarto'"),
        ("x = 1\n", "registers no primitive"),
        (
            "from gpquarto.gp.primitives import primitive\nfrom gpquarto.gp.types import Count\n"
            "@primitive\ndef half() -> Count:\n    '''Half.'''\n    return 0.5\n",
            "primitive 'half' returned 0.5 (float) where Count",
        ),
    ],
)
def test_failing_plugin_names_itself_and_the_cause(tmp_path, text, expected):
    plugin = write(tmp_path / "bad_plugin.py", text)
    with pytest.raises(PluginError) as caught:
        load_library([str(plugin)], entry_points=False)
    message = str(caught.value)
    assert message.startswith(f"plugin {plugin}: ") and expected in message and "\n" not in message


def test_missing_or_non_python_plugin_files_are_refused(tmp_path):
    with pytest.raises(PluginError, match=r"plugin .*nowhere\.py: cannot read it"):
        load_library([str(tmp_path / "nowhere.py")], entry_points=False)
    with pytest.raises(PluginError, match="not a Python file"):
        load_library([str(write(tmp_path / "notes.txt", "hello"))], entry_points=False)


def test_plugin_redefining_a_builtin_name_is_refused_naming_both_sources(tmp_path):
    plugin = write(
        tmp_path / "clash.py",
        "from gpquarto.gp.primitives import primitive\nfrom gpquarto.gp.types import Count\n"
        "@primitive\ndef add(a: Count, b: Count) -> Count:\n    '''Add.'''\n    return a + b\n",
    )
    with pytest.raises(
        PrimitiveError,
        match=rf"'add' is defined twice: by builtin \(family arithmetic\) and by {plugin} \(family clash\)",
    ):
        load_library([str(plugin)], entry_points=False)


def fake_distribution(root: Path, distribution: str, version: str, entry_points: dict[str, str]) -> None:
    """An installed-looking distribution: a ``.dist-info`` folder with ``entry_points.txt`` on ``sys.path``."""
    info = root / f"{distribution.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n")
    lines = "".join(f"{name} = {module}\n" for name, module in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}")


def test_entry_points_register_with_the_distribution_as_source(tmp_path, monkeypatch):
    write(
        tmp_path / "fake_quarto_prims_ok.py",
        PLUGIN.replace("free_corners", "ep_free_corners").replace("last_free_square", "ep_last"),
    )
    fake_distribution(tmp_path, "fake-quarto-prims", "1.2.3", {"corners": "fake_quarto_prims_ok"})
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    library = load_library()
    spec = library.get("ep_free_corners")
    assert spec.source == "fake-quarto-prims" and spec.family == "fake_quarto_prims_ok"
    assert library.versions["fake-quarto-prims"] == "1.2.3"
    assert "ep_free_corners" not in load_library(entry_points=False)


def test_failing_entry_point_names_itself_and_its_distribution(tmp_path, monkeypatch):
    fake_distribution(tmp_path, "broken-prims", "0.0.1", {"gone": "fake_quarto_prims_missing"})
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    with pytest.raises(PluginError) as caught:
        load_library()
    message = str(caught.value)
    assert (
        "entry point gone = fake_quarto_prims_missing (distribution broken-prims, group gpquarto.primitives)" in message
    )
    assert "ModuleNotFoundError" in message


def test_primitives_command_lists_families_sources_signatures_and_docs(tmp_path, capsys):
    plugin = write(tmp_path / "corners.py", PLUGIN)
    assert main(["primitives", "--plugin", str(plugin)]) == 0
    out = capsys.readouterr().out
    assert "tactical (builtin " in out and "combinators (builtin " in out and f"corners ({plugin} sha256:" in out
    assert any(
        line.split()
        == ["in_diagonal(Characteristic)", "->", "bool", *"Some piece on the diagonal has the characteristic.".split()]
        for line in out.splitlines()
    )
    assert any(line.split()[:3] == ["free_corners", "->", "Count"] for line in out.splitlines())
    assert main(["primitives", "--no-tactical"]) == 0
    out = capsys.readouterr().out
    assert (
        "winning_square" not in out
        and "tactical (" not in out
        and "square_in_fuller_column(Square, Square) -> Square" in out
    )
    assert "The square whose column holds more pieces. (formerly colmore)" in out


def test_primitives_command_reports_a_bad_plugin_in_one_line(tmp_path, capsys):
    plugin = write(tmp_path / "bad.py", "raise RuntimeError('nope')\n")
    assert main(["primitives", "--plugin", str(plugin)]) == 2
    err = capsys.readouterr().err
    assert err == f"gpquarto: error: plugin {plugin}: RuntimeError: nope\n"
