"""The layout is the architecture: packaging, entry points and import boundaries."""

from __future__ import annotations

import ast
import sys
from importlib import metadata
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
FOLDERS = {"tooldeck": "core", "tooldeck.plugins": "plugins", "tooldeck.filters": "filters"}


def package_folders() -> dict[str, Path]:
    """Every folder with an __init__.py under the mapped roots, by dotted package name."""
    found: dict[str, Path] = {}
    for package, folder in FOLDERS.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            found[".".join([package, *rel.parts]) if rel.parts else package] = init.parent
    return found


def test_every_package_folder_is_listed_for_setuptools() -> None:
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    assert listed == set(package_folders()), (
        "setuptools silently drops unlisted subpackages from the wheel"
    )


def test_package_dir_maps_the_three_folders() -> None:
    assert PYPROJECT["tool"]["setuptools"]["package-dir"] == FOLDERS


def builtin_plugin_modules() -> set[str]:
    plugins = ROOT / "plugins"
    names = {p.stem for p in plugins.glob("*.py") if p.stem != "__init__"}
    names |= {p.parent.name for p in plugins.glob("*/__init__.py")}
    return names


def command_only_packages() -> set[str]:
    """Built-in packages that only contribute a ``tooldeck.commands`` entry (``mcp_server``)."""
    plugin_eps = {ep.value.split(":")[0] for ep in metadata.entry_points(group="tooldeck")}
    names = set()
    for ep in metadata.entry_points(group="tooldeck.commands"):
        parts = ep.value.split(":")[0].split(".")
        package = ".".join(parts[:3])
        if parts[:2] == ["tooldeck", "plugins"] and package not in plugin_eps:
            names.add(parts[2])
    return names


def test_command_only_packages_register_no_hooks() -> None:
    for name in command_only_packages():
        for path in (ROOT / "plugins" / name).rglob("*.py"):
            assert "hookimpl" not in path.read_text(), f"{path}: a hook needs a plugin entry point"


def test_every_builtin_plugin_is_an_entry_point() -> None:
    eps = {ep.name: ep.value for ep in metadata.entry_points(group="tooldeck")
           if ep.dist is not None and ep.dist.metadata["Name"] == "tooldeck"}
    modules = {value.split(":")[0].rsplit(".", 1)[-1] for value in eps.values()
               if value.startswith("tooldeck.plugins.")}
    assert modules | command_only_packages() == builtin_plugin_modules()
    for name, value in eps.items():
        assert value.startswith(("tooldeck.plugins.", "tooldeck.filters")), name


def test_gate_plugins_are_listed_as_gates() -> None:
    gates = {ep.name for ep in metadata.entry_points(group="tooldeck.gates")
             if ep.dist is not None and ep.dist.metadata["Name"] == "tooldeck"}
    assert "permissions" in gates


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


# (folder, forbidden import prefixes, why)
BOUNDARIES = [
    ("core", ("tooldeck.plugins", "tooldeck.filters", "core", "plugins", "filters"),
     "the core finds plugins and filters through entry points only"),
    ("plugins", ("tooldeck.filters", "core", "plugins", "filters"),
     "plugins use the core's public API, never the filters"),
    ("filters", ("tooldeck.plugins", "core", "plugins", "filters"),
     "filters use the core's public API, never the plugins"),
]


@pytest.mark.parametrize(("folder", "forbidden", "why"), BOUNDARIES, ids=[b[0] for b in BOUNDARIES])
def test_import_boundaries(folder: str, forbidden: tuple[str, ...], why: str) -> None:
    offenders = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for name in imports_of(path):
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders, f"{why}:\n" + "\n".join(offenders)


def test_plugins_do_not_import_each_other() -> None:
    """A built-in plugin uses the core's public API, never another plugin's modules."""
    offenders = []
    for path in sorted((ROOT / "plugins").rglob("*.py")):
        parts = path.relative_to(ROOT / "plugins").parts
        own = parts[0].removesuffix(".py")
        for name in imports_of(path):
            if name.startswith("tooldeck.plugins."):
                other = name.split(".")[2]
                if other != own:
                    offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert not offenders, "\n".join(offenders)
