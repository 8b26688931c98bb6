"""The layout's rules, checked on the source: imports flow one way with no module circles, and the engine's
privates stay private."""

from __future__ import annotations

import ast
import functools
import importlib
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Layers from the ground up; a module may import its own layer and the ones below, never above.
LAYERS = (
    (
        "gpquarto.atomic",
        "gpquarto.folder_lock",
        "gpquarto.cache_dir",
        "gpquarto.seeding",
        "gpquarto.plain_files",
        "gpquarto.safe_text",
        "gpquarto.runner",
    ),
    ("gpquarto.games",),
    ("gpquarto.search",),
    ("gpquarto.players",),
    ("gpquarto.arena",),
    ("gpquarto.gp", "gpquarto.learned", "gpquarto_primitives"),
    ("gpquarto.resolve",),
    ("gpquarto.training", "gpquarto.learning", "gpquarto.jobs", "gpquarto.grading"),
    ("gpquarto.bench", "gpquarto.adapters", "gpquarto.openspiel", "gpquarto.web"),
    ("gpquarto.cli", "gpquarto.__main__"),
)


@functools.cache  # each test walks every module: each is read and parsed once (the trees are only read)
def parsed(path: Path) -> ast.Module:
    """The syntax tree of the source file at ``path``."""
    return ast.parse(path.read_text())


def game_package(module: str) -> str | None:
    """The game package (``gpquarto.games.quixo``) that ``module`` belongs to, or None."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["gpquarto", "games"] and (ROOT / "gpquarto" / "games" / parts[2]).is_dir():
        return ".".join(parts[:3])
    return None


def is_game_capability(module: str) -> bool:
    """A module in a subpackage of a game package (its players, search, GP, primitives, learning, adapters...):
    it plugs into the shared layers, so it sits above them all; a game's top-level modules are its engine."""
    parts = module.split(".")
    return game_package(module) is not None and len(parts) >= 4 and (ROOT.joinpath(*parts[:4])).is_dir()


def layer_of(module: str) -> int | None:
    if module == "gpquarto":
        return 1  # the package's face hands on engine names only
    if is_game_capability(module):
        return len(LAYERS) - 1
    for level, prefixes in enumerate(LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return level
    return None


def source_modules() -> list[tuple[str, Path]]:
    modules = []
    for path in sorted((ROOT / "gpquarto").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), path))
    for path in sorted((ROOT / "primitives").glob("*.py")):
        name = "gpquarto_primitives" + ("" if path.stem == "__init__" else "." + path.stem)
        modules.append((name, path))
    return modules


def imported_modules(tree: ast.AST) -> list[tuple[str, int]]:
    """Every module imported anywhere in the file (lazy imports inside functions included), with its line."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [(f"{node.module}.{alias.name}", node.lineno) for alias in node.names]
    return found


def test_every_module_has_a_layer():
    assert [name for name, _ in source_modules() if layer_of(name) is None] == []


@pytest.mark.parametrize(("module", "path"), source_modules(), ids=lambda item: str(item))
def test_imports_flow_one_way(module, path):
    level = layer_of(module)
    upward = []
    for imported, line in imported_modules(parsed(path)):
        if imported == "gpquarto" or imported.startswith("gpquarto.__version__"):
            continue  # the package's version and face (engine names only)
        target = layer_of(imported)
        if target is not None and target > level:
            upward.append(f"{path.relative_to(ROOT)}:{line} imports {imported}")
    assert upward == []


#: Attributes of the games' states and views (Quarto's Board, Quixo's QuixoBoard) that only their engine may touch.
ENGINE_PRIVATES = {"_history", "_line_masks", "_board", "_masks", "_keys", "_counts", "_tables", "_course"}


def game_imports() -> set[tuple[str, str]]:
    """(module, game package) for every module outside a game package that imports one."""
    found = set()
    for module, path in source_modules():
        for imported, _ in imported_modules(parsed(path)):
            package = game_package(imported)
            if package is not None and game_package(module) != package:
                found.add((module, package))
    return found


def test_shared_code_imports_no_game_package():
    assert sorted(game_imports()) == []


def game_name_literals() -> dict[str, int]:
    """How many strings equal to a registered game's name each module outside ``gpquarto/games/`` holds (the game
    layer names the default game; the games name themselves)."""
    from gpquarto.games.registry import game_names

    names = set(game_names())
    found = {}
    for module, path in source_modules():
        if module.startswith("gpquarto.games"):
            continue
        count = sum(1 for node in ast.walk(parsed(path)) if isinstance(node, ast.Constant) and node.value in names)
        if count:
            found[module] = count
    return found


def test_shared_code_names_no_game():
    assert game_name_literals() == {}


def _names_default_game(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "DEFAULT_GAME") or (
        isinstance(node, ast.Attribute) and node.attr == "DEFAULT_GAME"
    )


def test_shared_code_never_branches_on_the_default_game():
    """The default game is what a command plays unless told; shared code may default to it but never compares a game
    with it (that would treat it as special: the games' own knowledge)."""
    offences = []
    for module, path in source_modules():
        if module.startswith("gpquarto.games"):
            continue
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.Compare) and any(map(_names_default_game, [node.left, *node.comparators])):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offences == []


def test_no_module_outside_the_engine_reads_board_privates():
    offences = []
    for module, path in source_modules():
        if module.startswith(("gpquarto.games.quarto", "gpquarto.games.quixo")):
            continue
        for node in ast.walk(parsed(path)):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ENGINE_PRIVATES
                and not (isinstance(node.value, ast.Name) and node.value.id == "self")
            ):
                offences.append(f"{path.relative_to(ROOT)}:{node.lineno} reads .{node.attr}")
    assert offences == []


def test_the_names_the_package_once_re_exported_say_where_they_moved():
    import gpquarto

    with pytest.raises(ImportError, match=r"^gpquarto.Board moved: from gpquarto.games.quarto import Board$"):
        gpquarto.Board  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'Boards'"):
        gpquarto.Boards  # noqa: B018


def test_the_layout_table_lists_every_folder():
    readme = (ROOT / "README.md").read_text()
    folders = sorted(
        f"gpquarto/{path.name}/"
        for path in (ROOT / "gpquarto").iterdir()
        if path.is_dir() and (path / "__init__.py").exists()
    )
    missing = [folder for folder in folders if f"`{folder}`" not in readme]
    assert missing == []


def import_graph() -> dict[str, set[str]]:
    """Module -> the source modules it imports (a ``from package import name`` counts as the package unless
    ``name`` is a module of it); lazy imports inside functions count too."""
    modules = dict(source_modules())
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for imported, _ in imported_modules(parsed(path)):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != module:
                targets.add(imported)
        graph[module] = targets
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_import_cycles_are_found():
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_no_two_modules_import_each_other_even_lazily():
    assert import_cycles(import_graph()) == []


#: The libraries of the optional extras (pyproject.toml): a module that needs one is checked where it is installed.
OPTIONAL_LIBRARIES = {"pyspiel", "open_spiel", "numba", "dask", "distributed", "starlette", "uvicorn"}


@pytest.mark.parametrize(("module", "path"), source_modules(), ids=lambda item: str(item))
def test_every_name_a_module_exports_exists(module, path):
    tree = parsed(path)
    exported = next(
        (
            ast.literal_eval(node.value)
            for node in tree.body
            if isinstance(node, ast.Assign) and any(getattr(target, "id", None) == "__all__" for target in node.targets)
        ),
        [],
    )
    if exported:
        try:
            imported = importlib.import_module(module)
        except ModuleNotFoundError as error:  # a module of an optional extra, where the extra is not installed
            if error.name not in OPTIONAL_LIBRARIES:
                raise
            pytest.skip(f"{module} needs {error.name}, an optional extra")
        assert [name for name in exported if not hasattr(imported, name)] == []


def test_every_library_parameter_says_its_type():
    untyped = []
    for _, path in source_modules():
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                untyped += [
                    f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
                    for argument in arguments
                    if argument.arg == "library" and argument.annotation is None
                ]
    assert untyped == []


#: A measured share (``52.2%``, ``8% more``) or a work item (``issue 21``) in a comment or a docstring; the 95% of a
#: confidence interval is a definition, not a measurement.
MEASUREMENT = re.compile(r"(?<![\w.])(?!95%)\d+(?:\.\d+)?\s?%|\bissues? \d+")


def test_code_comments_quote_no_measurement_and_no_work_item():
    """Measurements live in docs/defaults.md, docs/lab/ and the benchmarks; code says what and why."""
    found = []
    for _, path in source_modules():
        source = path.read_text()
        texts = [
            (token.start[0], token.string)
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT
        ]
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                docstring = ast.get_docstring(node, clean=False)
                if docstring:
                    texts.append((node.body[0].lineno, docstring))
        found += [
            f"{path.relative_to(ROOT)}:{line}: {MEASUREMENT.search(text)[0]}"
            for line, text in texts
            if MEASUREMENT.search(text)
        ]
    assert found == []
