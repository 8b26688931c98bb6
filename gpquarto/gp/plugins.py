"""Where primitives come from: the built-in library, installed packages and plugin files.

* **Built-in**: the top-level ``primitives/`` folder of the project, installed as the package
  ``gpquarto_primitives`` (``package-dir`` in ``pyproject.toml``, for wheel and editable installs alike).
  Its ``__init__`` lists the family modules in ``FAMILY_MODULES`` (neutral and Quarto primitives); a game's own
  primitive package (``gpquarto.games.quixo.primitives``, the binding's ``family_package``) lists its own in
  its ``FAMILY_MODULES``. When the package is not installed
  under that name (a checkout used through an older editable install), the folder next to the
  ``gpquarto`` package is imported under the same name. Source ``"builtin"``, version gpquarto's.
* **Installed packages**: every entry point of the group ``gpquarto.primitives`` names a module
  (``my_primitives = "my_package.quarto_primitives"``); its registrations get the distribution's name as
  source and the distribution's version.
* **Plugin files**: ``load_plugin_file("path/to/file.py")`` imports the file under a fresh module name
  (``gpquarto_plugin_<n>_<stem>``); source = the path as given, version = ``sha256:`` + 12 hex digits of its
  content; the default family of its primitives is the file's stem (unless it sets ``FAMILY``).

A module's registrations are read from the module itself (see :mod:`gpquarto.gp.primitives`), so loading
is repeatable and libraries never mix. Any failure raises :class:`PluginError` naming the plugin.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import itertools
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from gpquarto.gp.primitives import DEFAULT_FAMILY, PrimitiveError, PrimitiveInfo, module_specs, registering_into_modules

ENTRY_POINT_GROUP = "gpquarto.primitives"
BUILTIN_PACKAGE = "gpquarto_primitives"
BUILTIN_SOURCE = "builtin"
_plugin_numbers = itertools.count()


class PluginError(ValueError):
    """A source of primitives that cannot be loaded; the message names it and the cause."""


@dataclass(frozen=True)
class LoadedSource:
    """The specs one source registered (their ``source`` field is set by :func:`load_library`)."""

    source: str
    version: str
    specs: tuple[PrimitiveInfo, ...]


def _describe(error: BaseException) -> str:
    """The cause in one line: a registration problem as it is, anything else with its type."""
    return str(error) if isinstance(error, PrimitiveError) else f"{type(error).__name__}: {error}"


def _builtin_package() -> ModuleType:
    try:
        return importlib.import_module(BUILTIN_PACKAGE)
    except ModuleNotFoundError as error:
        if error.name != BUILTIN_PACKAGE:
            raise
    import gpquarto

    folder = Path(gpquarto.__file__).resolve().parent.parent / "primitives"
    init = folder / "__init__.py"
    if not init.is_file():
        raise PluginError(f"the built-in primitive library is missing: no package {BUILTIN_PACKAGE} and no {init}")
    spec = importlib.util.spec_from_file_location(BUILTIN_PACKAGE, init, submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[BUILTIN_PACKAGE] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[BUILTIN_PACKAGE]
        raise
    return module


def load_builtin(family_package: str = "", *, generic: bool = False) -> LoadedSource:
    """The built-in library: every module listed in ``gpquarto_primitives.FAMILY_MODULES``, then (``generic``,
    for a game bound generically) every module of ``gpquarto_primitives.GENERIC_FAMILY_MODULES``, then, for a
    game's own primitive package (``family_package``, a module name such as ``"gpquarto.games.quixo.primitives"``),
    every module its ``FAMILY_MODULES`` lists (a full name ``gpquarto_primitives.X`` there moves the shared family
    ``X`` to that place)."""
    from gpquarto import __version__

    with registering_into_modules():
        package = _builtin_package()
        own = list(importlib.import_module(family_package).FAMILY_MODULES) if family_package else []
        # a game's list may name a shared module in full to give it its place among the game's own families
        claimed = {name.rpartition(".")[2] for name in own if name.startswith(f"{BUILTIN_PACKAGE}.")}
        shared = [name for name in package.FAMILY_MODULES if name not in claimed]
        specs: list[PrimitiveInfo] = []
        for name in (*shared, *(package.GENERIC_FAMILY_MODULES if generic else ())):
            specs += module_specs(importlib.import_module(f"{BUILTIN_PACKAGE}.{name}"))
        for name in own:
            module = name if name.startswith(f"{BUILTIN_PACKAGE}.") else f"{family_package}.{name}"
            specs += module_specs(importlib.import_module(module))
    return LoadedSource(BUILTIN_SOURCE, __version__, tuple(specs))


def load_entry_points() -> list[LoadedSource]:
    """One :class:`LoadedSource` per entry point of the group ``gpquarto.primitives``, sorted by distribution and name."""
    found = {(entry.name, entry.value): entry for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    loaded = []
    for entry in sorted(found.values(), key=lambda entry: (entry.dist.name if entry.dist else "", entry.name)):
        distribution = entry.dist.name if entry.dist else entry.name
        version = entry.dist.version if entry.dist else "unknown"
        label = f"entry point {entry.name} = {entry.value} (distribution {distribution}, group {ENTRY_POINT_GROUP})"
        try:
            with registering_into_modules():
                module = importlib.import_module(entry.module)
        except Exception as error:
            raise PluginError(f"{label}: {_describe(error)}") from error
        specs = module_specs(module)
        if not specs:
            raise PluginError(f"{label}: module {entry.module} registers no primitive")
        loaded.append(LoadedSource(distribution, version, tuple(specs)))
    return loaded


def load_plugin_file(path: str | Path) -> LoadedSource:
    """Import a plugin file under a fresh module name and return its registrations."""
    source = str(path)
    file = Path(path)
    if file.suffix != ".py":
        raise PluginError(f"plugin {source}: not a Python file (expected a .py file)")
    try:
        content = file.read_bytes()
    except OSError as error:
        raise PluginError(f"plugin {source}: cannot read it: {error.strerror or error}") from error
    stem = "".join(char if char.isalnum() else "_" for char in file.stem)
    module_name = f"gpquarto_plugin_{next(_plugin_numbers)}_{stem}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    setattr(module, DEFAULT_FAMILY, file.stem)
    sys.modules[module_name] = module
    try:
        with registering_into_modules():
            spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise PluginError(f"plugin {source}: {_describe(error)}") from error
    specs = module_specs(module)
    if not specs:
        raise PluginError(f"plugin {source}: registers no primitive (decorate functions with @primitive)")
    return LoadedSource(source, "sha256:" + hashlib.sha256(content).hexdigest()[:12], tuple(specs))
