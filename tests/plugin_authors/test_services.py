"""The core services plugins use: one path rule for every caller, services without their plugin."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.cli import main
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError, ToolError
from tooldeck.models import ToolCall
from tooldeck.services import PathService, Services

ALLOW_READ = '[[tools.permissions.read]]\npattern = "*"\naction = "allow"\n'


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    """A root holding app.db, and a working directory outside it holding another app.db."""
    root, elsewhere = tmp_path / "root", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    (root / "app.db").write_text("in the root\n")
    (elsewhere / "app.db").write_text("outside every root\n")
    (root / "sub").mkdir()
    (root / "sub" / "app.db").write_text("in a subdirectory\n")
    config = tmp_path / "tooldeck.toml"
    config.write_text(f'[tools.file]\nallowed_paths = ["{root}"]\n'
                      f'[tools.audit]\nenabled = false\n{ALLOW_READ}')
    return {"root": root, "elsewhere": elsewhere, "config": config}


def _check_path(config: Path, path: str, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    assert main(["check", "path", path, "--json", "--config", str(config)]) == 0
    report: dict[str, str] = json.loads(capsys.readouterr().out)
    return report


@pytest.mark.parametrize(("cwd", "expected"), [
    ("elsewhere", "root/app.db"),  # outside every root: the first root
    ("root", "root/app.db"),
    ("root/sub", "root/sub/app.db"),  # inside: the working directory
])
def test_read_check_path_and_the_service_agree_on_app_db(
    layout: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, cwd: str, expected: str,
) -> None:
    monkeypatch.chdir(tmp_path / cwd)
    want = tmp_path / expected
    report = _check_path(layout["config"], "app.db", capsys)
    assert (report["verdict"], report["resolved"]) == ("allow", str(want))
    deck = Deck.from_config(str(layout["config"]))
    try:
        assert deck.runtime.services.paths.resolve("app.db") == want
        result = deck.call_sync(ToolCall("read", {"path": "app.db"}))
        assert result.ok and result.text == f"   1\t{want.read_text().strip()}", result.text
    finally:
        deck.close()


def test_relative_roots_stay_where_they_are_when_the_cwd_is_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "app.db").write_text("x")
    monkeypatch.chdir(tmp_path)
    doc = parse_document('[tools.file]\nallowed_paths = ["proj"]\n[tools.audit]\n'
                         'enabled = false\n', None, "test")
    deck = Deck.from_config(doc)
    try:
        assert deck.runtime.services.paths.roots == (tmp_path / "proj",)
        assert deck.runtime.services.paths.resolve("app.db") == tmp_path / "proj" / "app.db"
    finally:
        deck.close()


def test_the_sandbox_service_is_enforced_with_the_files_plugin_disabled(
    layout: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(layout["elsewhere"])
    text = layout["config"].read_text() + '[plugins]\ndisable = ["files"]\n'
    deck = Deck.from_config(parse_document(text, layout["config"], "test"))
    try:
        assert "read" not in deck.runtime.tools
        paths = deck.runtime.services.paths
        assert paths.resolve("app.db") == layout["root"] / "app.db"
        with pytest.raises(ToolError, match="inside-root") as caught:
            paths.resolve(str(layout["elsewhere"] / "app.db"))
        assert caught.value.category.label == "policy_blocked"
        check = paths.check("../elsewhere/app.db")
        assert (check.verdict, check.category) == ("deny", "policy_blocked")
    finally:
        deck.close()


def test_a_bad_sandbox_glob_is_refused_even_with_the_files_plugin_disabled() -> None:
    doc = parse_document('[plugins]\ndisable = ["files"]\n[tools.file]\ndeny_read = ["[a"]\n',
                         None, "test")
    with pytest.raises(ConfigError, match="deny_read"):
        Deck.from_config(doc)


def test_the_agent_hook_verdict_uses_the_same_sandbox(layout: dict[str, Path],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from tooldeck.plugins.agent_hooks.decide import judge

    monkeypatch.chdir(layout["elsewhere"])
    deck = Deck.from_config(str(layout["config"]))
    try:
        assert judge(deck.runtime, "read", {"path": "app.db"})[0] == "allow"
        verdict, reason = judge(deck.runtime, "read", {"path": "/etc/hostname"})
        assert verdict == "deny" and "inside-root" in reason
    finally:
        deck.close()


def test_redaction_egress_and_overflow_without_their_plugins(tmp_path: Path) -> None:
    db = tmp_path / "store" / "overflow.sqlite3"
    doc = parse_document(
        '[plugins]\ndisable = ["web", "overflow", "egress"]\n'
        '[tools.scrape]\ndenied_domains = ["evil.example"]\n'
        f'[tools.overflow]\npath = "{db}"\n[tools.audit]\nenabled = false\n', None, "test")
    deck = Deck.from_config(doc)
    try:
        services = deck.runtime.services
        assert "[REDACTED:" in services.redact("api_key=sk-live-4f9a8b7c6d5e4f3a2b1c")
        assert services.egress.check_url("https://evil.example/x").verdict == "deny"
        assert services.egress.check_url("http://127.0.0.1/").verdict == "deny"
        assert services.egress.check_url("https://ok.example/").verdict == "allow"
        reference = services.overflow.put("token=ghp_0123456789abcdefghijABCDEFGHIJ012345\n"
                                          "line two", tool="mine", caller_id="a")
        assert reference is not None and reference.startswith("overflow:")
        stored = services.overflow.get(reference, caller_id="a")
        assert stored is not None and "ghp_" not in stored and "line two" in stored
        assert services.overflow.get(reference, caller_id="b") is None
        assert db.exists() and (db.stat().st_mode & 0o777) == 0o600
    finally:
        deck.close()


def test_services_from_settings_is_what_the_runtime_has(layout: dict[str, Path],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(layout["elsewhere"])
    deck = Deck.from_config(str(layout["config"]))
    try:
        fresh = Services.from_settings(deck.runtime.settings)
        assert fresh.paths.roots == deck.runtime.services.paths.roots
        assert fresh.paths.cwd == deck.runtime.services.paths.cwd == layout["root"]
    finally:
        deck.close()


NAMES = st.text(alphabet=st.sampled_from("ab./~-"), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(raw=NAMES)
def test_every_allowed_path_lies_inside_a_root(raw: str) -> None:
    """Whatever a tool passes, an allowed path is canonical and inside a root (fail closed)."""
    root = Path(os.environ.get("TMPDIR", "/tmp")).resolve()
    doc = parse_document(f'[tools.file]\nallowed_paths = ["{root}"]\n', None, "test")
    from tooldeck.config import validate_sections

    paths = PathService.from_settings(validate_sections(doc, {}))
    check = paths.check(raw, "write")
    if check.verdict == "allow":
        assert check.resolved is not None
        assert check.resolved == root or root in check.resolved.parents
    else:
        assert check.category in ("policy_blocked", "invalid_parameters")


def test_environment_overrides_reach_the_sandbox_with_the_files_plugin_disabled(
    tmp_path: Path,
) -> None:
    doc = parse_document('[plugins]\ndisable = ["files"]\n[tools.file]\nallowed_paths = ["/"]\n'
                         '[tools.audit]\nenabled = false\n', None, "test")
    deck = Deck.from_config(doc, environ={
        "TOOLDECK_TOOLS_FILE_ALLOWED_PATHS": f'["{tmp_path}"]'})
    try:
        assert deck.runtime.services.paths.roots == (tmp_path.resolve(),)
        assert deck.runtime.settings.sources["tools.file.allowed_paths"] == (
            "$TOOLDECK_TOOLS_FILE_ALLOWED_PATHS")
        with pytest.raises(ToolError, match="inside-root"):
            deck.runtime.services.paths.resolve("/etc/hostname")
    finally:
        deck.close()
