"""The docs site: generated references current, nothing undocumented, a --strict build.

The hook and configuration references are generated (``scripts/hooks_reference.py``,
``scripts/config_reference.py``) and committed; these tests fail when they are stale, when a
hook specification or a configuration key has no documentation (shown with throwaway ones),
and when ``mkdocs build --strict`` warns.
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

from tooldeck import hookspec, hookspecs

ROOT = Path(__file__).resolve().parents[2]
HOOKS = runpy.run_path(str(ROOT / "scripts" / "hooks_reference.py"))
CONFIG = runpy.run_path(str(ROOT / "scripts" / "config_reference.py"))


def test_the_hook_reference_is_current() -> None:
    page = (ROOT / "docs" / "reference" / "hooks.md").read_text("utf-8")
    assert page == HOOKS["render"](), (
        "docs/reference/hooks.md is stale: "
        "python scripts/hooks_reference.py > docs/reference/hooks.md")
    for name in hookspecs.hook_names():
        assert f"## `{name}`" in page


def test_the_configuration_reference_is_current() -> None:
    page = (ROOT / "docs" / "reference" / "configuration.md").read_text("utf-8")
    assert page == CONFIG["render"](), (
        "docs/reference/configuration.md is stale: "
        "python scripts/config_reference.py > docs/reference/configuration.md")


def _throwaway_specs(documented: bool) -> types.ModuleType:
    module = types.ModuleType("throwaway_hookspecs")
    for name in hookspecs.hook_names():
        setattr(module, name, getattr(hookspecs, name))

    def tooldeck_throwaway(runtime: Any) -> None:
        pass

    if documented:
        tooldeck_throwaway.__doc__ = "A hook documented as it should be."
    module.tooldeck_throwaway = hookspec(tooldeck_throwaway)  # type: ignore[attr-defined]
    return module


def test_an_undocumented_hookspec_fails_the_reference() -> None:
    with pytest.raises(HOOKS["UndocumentedError"], match="tooldeck_throwaway"):
        HOOKS["render"](_throwaway_specs(documented=False))
    assert "## `tooldeck_throwaway`" in HOOKS["render"](_throwaway_specs(documented=True))


def test_an_undocumented_config_key_fails_the_reference() -> None:
    class Throwaway(BaseModel):
        """``[plugins.throwaway]``: a section for this test.

        :param by_param: documented in the docstring.
        """

        described: int = Field(1, description="Documented by its field.")
        by_param: int = 2
        silent: int = 3

    with pytest.raises(CONFIG["UndocumentedError"], match=r"plugins\.throwaway\.silent$"):
        CONFIG["render"]({"plugins.throwaway": Throwaway}, {"plugins.throwaway": "test"})


def test_the_site_builds_with_no_warnings(tmp_path: Path) -> None:
    mkdocs = [sys.executable, "-m", "mkdocs"]
    proc = subprocess.run(
        [*mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "site" / "reference" / "hooks" / "index.html").is_file()


def test_every_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text("utf-8")
    pages = [p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")]
    assert [p for p in pages if f" {p}\n" not in nav] == []
