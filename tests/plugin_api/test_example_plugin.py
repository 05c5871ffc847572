"""The example plugin installed for real: a fresh venv, non-editable installs, the real CLI.

One venv per module: tooldeck (from this checkout) and examples/tooldeck-hello are copied to
a temporary directory and pip-installed from there, so a build never writes into the source
tree. The venv borrows the test interpreter's installed dependencies through a ``.pth`` file
listing its site-packages directories; a directory added by a ``.pth`` line does not have its
own ``.pth`` files processed, so an editable tooldeck in the parent environment cannot leak
in. Build requirements the parent lacks (an old setuptools) are installed into the venv
from the package index first; everything else installs with ``--no-index``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs
import pytest
from packaging.requirements import Requirement

from tooldeck.trust import trust

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tooldeck-hello"
DOCS_WITH_HELLO = [ROOT / "docs" / "plugins.md", EXAMPLE / "README.md"]
HELLO_FENCE = re.compile(r"```toml tooldeck-hello\n(.*?)```", re.S)
ROOT_SKIP = {"build", "dist", "tests", "examples", "bench", "docs", "venv"}
ALLOW_HELLO = """
[[tools.permissions.hello]]
pattern = "*"
action = "allow"
"""

pytestmark = pytest.mark.timeout(300)


def _generated(names: list[str]) -> set[str]:
    return {n for n in names if n == "__pycache__" or n.endswith(".egg-info")}


def _copy_root(directory: str, names: list[str]) -> set[str]:
    """shutil.copytree ignore function: the package sources only, nothing generated."""
    skipped = _generated(names)
    if Path(directory) == ROOT:
        skipped |= {n for n in names if n.startswith(".") or n in ROOT_SKIP}
    return skipped


def _copy_example(directory: str, names: list[str]) -> set[str]:
    skipped = _generated(names)
    if Path(directory) == EXAMPLE:
        skipped |= {n for n in names if n in {"build", "dist"}}
    return skipped


def _clean_env() -> dict[str, str]:
    """The current environment (XDG dirs already isolated) without import-path overrides."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def _run(args: list[str | Path], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          env=_clean_env(), stdin=subprocess.DEVNULL, **kwargs)


def _check(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, f"{proc.args}\n{proc.stdout}\n{proc.stderr}"
    return proc


def _parent_site_dirs() -> list[str]:
    """The site-packages directories the test interpreter imports its dependencies from."""
    return [p for p in sys.path
            if Path(p).name in ("site-packages", "dist-packages") and Path(p).is_dir()]


def _missing_build_requirements(*projects: Path) -> list[str]:
    """``build-system.requires`` entries the test interpreter's environment does not satisfy."""
    missing = []
    for project in projects:
        data = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))
        for text in data["build-system"]["requires"]:
            req = Requirement(text)
            if req.marker is not None and not req.marker.evaluate():
                continue
            try:
                version = metadata.version(req.name)
            except metadata.PackageNotFoundError:
                missing.append(text)
                continue
            if not req.specifier.contains(version, prereleases=True):
                missing.append(text)
    return missing


def _source_tree_state() -> dict[str, int]:
    """What a build in the source tree would leave: build/ and dist/ at the root, egg-info
    folders at the root (their names: an editable install elsewhere may rewrite their
    content), and every file of the example with its modification time."""
    state = {str(p.relative_to(ROOT)): 0 for p in ROOT.glob("*.egg-info")}
    for base in (ROOT / "build", ROOT / "dist", EXAMPLE):
        for path in [base, *base.rglob("*")] if base.exists() else []:
            if "__pycache__" not in path.parts:
                state[str(path.relative_to(ROOT))] = path.stat().st_mtime_ns
    return state


@attrs.frozen
class Venv:
    """A temporary virtual environment with tooldeck and tooldeck-hello installed."""

    python: Path
    scripts: Path
    site: Path
    example: Path

    def tooldeck(self, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        """Run the installed ``tooldeck`` console script."""
        return _run([self.scripts / "tooldeck", *args], cwd=cwd)


@pytest.fixture(scope="module")
def source_tree_before() -> dict[str, int]:
    return _source_tree_state()


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory,
         source_tree_before: dict[str, int]) -> Iterator[Venv]:
    if not _parent_site_dirs():
        pytest.skip("the test interpreter has no site-packages directory to lend")
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not installed in the test environment")
    base = tmp_path_factory.mktemp("example-venv")
    src = base / "tooldeck-src"
    example = base / "tooldeck-hello"
    shutil.copytree(ROOT, src, ignore=_copy_root)
    shutil.copytree(EXAMPLE, example, ignore=_copy_example)

    env_dir = base / "venv"
    _check(_run([sys.executable, "-m", "venv", "--without-pip", env_dir]))
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    paths = json.loads(_check(_run([python, "-c", (
        "import json, sysconfig; print(json.dumps("
        "[sysconfig.get_path('purelib'), sysconfig.get_path('scripts')]))"
    )])).stdout)
    site, scripts = Path(paths[0]), Path(paths[1])
    (site / "_tooldeck_test_parent.pth").write_text("\n".join(_parent_site_dirs()) + "\n")

    pip = [python, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    missing = _missing_build_requirements(src, example)
    if missing:
        _check(_run([*pip, "install", "-q", *missing]))
    _check(_run([*pip, "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                 "--ignore-installed", "--no-cache-dir", src, example]))
    yield Venv(python=python, scripts=scripts, site=site, example=example)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """An empty directory to run the CLI in: no ./tooldeck.toml until a test writes one."""
    return tmp_path


def write_config(workdir: Path, text: str) -> Path:
    """A ./tooldeck.toml the user trusts (``tooldeck config trust``), so all of it applies."""
    path = workdir / "tooldeck.toml"
    path.write_text(text, encoding="utf-8")
    trust(path)
    return path


def plugins_by_name(venv: Venv, workdir: Path) -> dict[str, dict[str, Any]]:
    proc = _check(venv.tooldeck("plugins", "--json", cwd=workdir))
    return {p["name"]: p for p in json.loads(proc.stdout)}


def test_the_venv_runs_installed_copies_not_the_checkout(venv: Venv) -> None:
    # -I: no current directory on sys.path, so nothing of the checkout can be found.
    probe = _check(_run([venv.python, "-I", "-c", (
        "import json, sys, tooldeck, tooldeck_hello.plugin\n"
        "from importlib import metadata\n"
        "dist = metadata.distribution('tooldeck')\n"
        "print(json.dumps({'tooldeck': tooldeck.__file__,\n"
        "                  'hello': tooldeck_hello.plugin.__file__,\n"
        "                  'direct_url': json.loads(dist.read_text('direct_url.json')),\n"
        "                  'finders': [m for m in sys.modules if 'editable' in m]}))"
    )], cwd=venv.site))
    found = json.loads(probe.stdout)
    assert Path(found["tooldeck"]).is_relative_to(venv.site)
    assert Path(found["hello"]).is_relative_to(venv.site)
    assert not found["direct_url"].get("dir_info", {}).get("editable", False)
    assert found["finders"] == []


def test_installed_is_not_enabled(venv: Venv, workdir: Path) -> None:
    plugins = plugins_by_name(venv, workdir)
    hello = plugins["hello"]
    assert (hello["dist"], hello["version"], hello["state"]) == ("tooldeck-hello", "0.1.0",
                                                                 "disabled")
    assert "[plugins] enable" in hello["why"]
    builtins = {n: p for n, p in plugins.items() if p["dist"] == "tooldeck"}
    assert {"core", "audit", "permissions"} <= set(builtins)
    assert all(p["state"] == "enabled" for p in builtins.values()), builtins
    assert plugins["core"]["essential"] is True


def test_a_disabled_plugin_offers_no_tool(venv: Venv, workdir: Path) -> None:
    proc = venv.tooldeck("call", "hello", "--params", '{"name": "Ada"}', "--json", cwd=workdir)
    assert proc.returncode == 1, proc.stderr
    result = json.loads(proc.stdout)
    assert (result["ok"], result["category"]) == (False, "tool_not_found")


def test_enabled_but_unruled_asks_and_yes_approves(venv: Venv, workdir: Path) -> None:
    write_config(workdir, '[plugins]\nenable = ["hello"]\n')
    asked = venv.tooldeck("call", "hello", "--params", '{"name": "Ada"}', "--json", cwd=workdir)
    assert asked.returncode == 1, asked.stderr
    assert json.loads(asked.stdout)["category"] == "confirmation_required"
    approved = venv.tooldeck("call", "hello", "--params", '{"name": "Ada"}', "--yes",
                             cwd=workdir)
    assert (approved.returncode, approved.stdout) == (0, "Hello, Ada!\n"), approved.stderr


def test_enabled_and_allowed_greets(venv: Venv, workdir: Path) -> None:
    write_config(workdir, '[plugins]\nenable = ["hello"]\n' + ALLOW_HELLO)
    assert plugins_by_name(venv, workdir)["hello"]["state"] == "enabled"
    proc = venv.tooldeck("call", "hello", "--params", '{"name": "Ada"}', cwd=workdir)
    assert (proc.returncode, proc.stdout) == (0, "Hello, Ada!\n"), proc.stderr
    as_json = venv.tooldeck("call", "hello", "--params", '{"name": "Ada"}', "--json",
                            cwd=workdir)
    result = json.loads(as_json.stdout)
    assert (result["ok"], result["text"], result["category"]) == (True, "Hello, Ada!", None)
    assert result["decision"]["verdict"] == "allow"
    assert (result["decision"]["gate"], result["decision"]["pattern"]) == ("permissions", "*")


def test_settings_section_reaches_the_executor(venv: Venv, workdir: Path) -> None:
    write_config(workdir, '[plugins]\nenable = ["hello"]\n[plugins.hello]\ngreeting = "Howdy"\n'
                 + ALLOW_HELLO)
    proc = venv.tooldeck("call", "hello", "--params", '{"name": "Ada"}', cwd=workdir)
    assert (proc.returncode, proc.stdout) == (0, "Howdy, Ada!\n"), proc.stderr


def test_mistyped_setting_is_a_config_error(venv: Venv, workdir: Path) -> None:
    path = write_config(workdir, '[plugins]\nenable = ["hello"]\n[plugins.hello]\ngreeting = 42\n')
    proc = venv.tooldeck("call", "hello", "--params", '{"name": "Ada"}', cwd=workdir)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"{path}: plugins.hello.greeting:" in proc.stderr
    assert proc.stdout == ""


def test_documented_hello_configurations_are_valid(venv: Venv, workdir: Path) -> None:
    blocks = [(doc.name, block) for doc in DOCS_WITH_HELLO
              for block in HELLO_FENCE.findall(doc.read_text("utf-8"))]
    assert len(blocks) >= 2, "the docs lost their tooldeck-hello configuration examples"
    for i, (where, block) in enumerate(blocks):
        path = workdir / f"example-{i}.toml"
        path.write_text(block, encoding="utf-8")
        proc = venv.tooldeck("config", "check", str(path), "--json", cwd=workdir)
        assert proc.returncode == 0, f"{where} block {i}:\n{block}\n{proc.stderr}"
        assert "hello" in json.loads(proc.stdout)["tools"], f"{where} block {i}"


def test_the_example_own_tests_pass_against_the_install(venv: Venv) -> None:
    proc = _run([venv.python, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                cwd=venv.example)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"\b[1-9]\d* passed\b", proc.stdout), proc.stdout


def test_nothing_was_built_in_the_source_tree(venv: Venv,
                                              source_tree_before: dict[str, int]) -> None:
    assert _source_tree_state() == source_tree_before
