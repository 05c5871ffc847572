"""load_document: --config, $TOOLDECK_CONFIG, ./tooldeck.toml, user config, embedded default."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tooldeck.build import build_runtime
from tooldeck.config import (
    embedded_default_text,
    parse_document,
    validate_sections,
)
from tooldeck.errors import ConfigError
from tooldeck.loader import PluginSpec
from tooldeck.lookup import load_document


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def user_config() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "tooldeck" / "tooldeck.toml"


def test_explicit_config_is_used(tmp_path: Path, in_tmp: Path) -> None:
    explicit = write(tmp_path / "elsewhere" / "mine.toml", "[agent]\nmax_tool_iterations = 2\n")
    write(in_tmp / "tooldeck.toml", "[agent]\nmax_tool_iterations = 3\n")
    doc = load_document(explicit)
    assert (doc.path, doc.origin) == (explicit, "--config")
    assert doc.data == {"agent": {"max_tool_iterations": 2}}


def test_missing_explicit_config_is_an_error(tmp_path: Path, in_tmp: Path) -> None:
    write(in_tmp / "tooldeck.toml", "")
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as info:
        load_document(missing)
    assert str(info.value) == f"{missing}: config file not found (given by --config)"
    assert info.value.path == str(missing)


def test_environment_config_comes_after_explicit(
    tmp_path: Path, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from_env = write(tmp_path / "env.toml", "[agent]\nautonomy = 'full'\n")
    monkeypatch.setenv("TOOLDECK_CONFIG", str(from_env))
    write(in_tmp / "tooldeck.toml", "")
    doc = load_document()
    assert (doc.path, doc.origin) == (from_env, "$TOOLDECK_CONFIG")
    explicit = write(tmp_path / "explicit.toml", "")
    assert load_document(explicit).origin == "--config"


def test_missing_environment_config_is_an_error(
    tmp_path: Path, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(in_tmp / "tooldeck.toml", "")
    missing = tmp_path / "gone.toml"
    monkeypatch.setenv("TOOLDECK_CONFIG", str(missing))
    with pytest.raises(ConfigError, match=r"config file not found \(given by \$TOOLDECK_CONFIG\)"):
        load_document()


def test_working_directory_config_comes_before_user_config(in_tmp: Path) -> None:
    write(user_config(), "[agent]\nmax_tool_iterations = 9\n")
    local = write(in_tmp / "tooldeck.toml", "[agent]\nmax_tool_iterations = 4\n")
    doc = load_document()
    assert doc.origin.startswith("./tooldeck.toml")
    assert doc.path is not None and doc.path.resolve() == local.resolve()
    # untrusted, and not provably stricter: the user's value runs until the file is trusted
    assert doc.data["agent"]["max_tool_iterations"] == 9 and doc.notes
    from tooldeck.trust import trust

    trust(local)
    doc = load_document()
    assert doc.origin == "./tooldeck.toml" and doc.data["agent"]["max_tool_iterations"] == 4


def test_user_config_under_xdg_config_home(in_tmp: Path) -> None:
    path = write(user_config(), "[agent]\nmax_tool_iterations = 9\n")
    doc = load_document()
    assert (doc.path, doc.origin) == (path, "user config")
    assert doc.label == str(path)


def test_embedded_default_when_no_file_exists(
    in_tmp: Path, builtins_installed: dict[str, PluginSpec]
) -> None:
    doc = load_document()
    assert doc.path is None
    assert doc.origin == "embedded default"
    assert doc.label == "<embedded default>"
    assert doc.text == embedded_default_text()
    runtime = build_runtime(doc, installed=builtins_installed, environ={})
    try:
        assert runtime.settings.core.agent.autonomy == "supervised"
        # with only the core's own plugins, the sections of the others are merely noted
        for warning in runtime.warnings:
            assert warning.endswith("is not validated: no enabled plugin owns it"), warning
    finally:
        asyncio.run(runtime.aclose())


def test_embedded_default_validates_cleanly() -> None:
    doc = parse_document(embedded_default_text(), None, "d")
    settings = validate_sections(doc, {}, installed_plugins=(), environ={})
    assert settings.core.tools.enabled is True


def test_invalid_toml_names_file_and_position(tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.toml", "[agent]\nmax_tool_iterations = = 3\n")
    with pytest.raises(ConfigError) as info:
        load_document(bad)
    message = str(info.value)
    assert message.startswith(f"{bad}: invalid TOML: ")
    assert "line 2" in message and "column" in message
    assert info.value.path == str(bad)


def test_non_utf8_file_is_an_error(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b"# caf\xe9\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_document(bad)


def test_digest_tells_versions_apart(tmp_path: Path) -> None:
    one = load_document(write(tmp_path / "a.toml", "[agent]\n"))
    two = load_document(write(tmp_path / "b.toml", "[agent]\n\n"))
    assert len(one.digest) == 16
    assert one.digest != two.digest
