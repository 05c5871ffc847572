"""Environment values keep the field's type; relative audit paths follow the config file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.build import build_runtime
from tooldeck.config import ConfigError, parse_document, read_document

CORE_ONLY = {"TOOLDECK_PLUGINS_DISABLE": '["files", "web", "shell", "overflow"]'}


@pytest.mark.parametrize("value", ["inf", "nan", "1979-05-27", "true", "42"])
def test_string_fields_keep_what_was_written(value: str) -> None:
    runtime = build_runtime(parse_document("", None, "t"), environ={
        **CORE_ONLY, "TOOLDECK_TOOLS_AUDIT_ENABLED": "false",
        "TOOLDECK_TOOLS_AUDIT_PATH": value})
    assert runtime.settings.core.audit.path == value


def test_numbers_booleans_lists_and_quoted_strings_are_converted() -> None:
    runtime = build_runtime(parse_document("", None, "t"), environ={
        **CORE_ONLY, "TOOLDECK_TOOLS_AUDIT_ENABLED": "false",
        "TOOLDECK_AGENT_MAX_TOOL_ITERATIONS": "7", "TOOLDECK_AGENT_AUTONOMY": '"readonly"'})
    agent = runtime.settings.core.agent
    assert (agent.max_tool_iterations, agent.autonomy) == (7, "readonly")
    assert runtime.settings.core.audit.enabled is False


def test_a_bad_environment_value_names_the_variable() -> None:
    with pytest.raises(ConfigError, match=r"\$TOOLDECK_AGENT_MAX_TOOL_ITERATIONS: "
                                          r"agent.max_tool_iterations"):
        build_runtime(parse_document("", None, "t"),
                      environ={**CORE_ONLY, "TOOLDECK_AGENT_MAX_TOOL_ITERATIONS": "many"})


def test_relative_audit_path_is_taken_from_the_config_directory(
        tmp_path: Path, in_tmp: Path) -> None:
    conf_dir = tmp_path / "etc"
    conf_dir.mkdir()
    config = conf_dir / "tooldeck.toml"
    config.write_text('[tools.audit]\npath = "logs/audit.jsonl"\n')
    runtime = build_runtime(read_document(config, "--config"), environ=CORE_ONLY)
    try:
        assert (conf_dir / "logs" / "audit.jsonl").exists()
        assert not (in_tmp / "logs").exists()
    finally:
        runtime.hooks.unconfigure(runtime)


@pytest.mark.parametrize(("autonomy", "expected"), [
    ("readonly", {"find_path", "grep", "list_directory", "read", "search_code",
                  "set_working_directory", "memory_search"}),
    ("full", {"copy_path", "create_directory", "delete_path", "edit", "find_path", "grep",
              "list_directory", "move_path", "read", "search_code", "set_working_directory",
              "write", "memory_save", "memory_search"}),
])
def test_the_catalog_follows_autonomy(autonomy: str, expected: set[str]) -> None:
    from tooldeck.deck import Deck

    deck = Deck.from_config(parse_document(
        '[[tools.permissions.write]]\npattern = "*"\naction = "deny"\n', None, "t"),
        environ={"TOOLDECK_PLUGINS_DISABLE": '["web", "shell", "overflow", "scheduler",'
                                             ' "diagnostics"]',
                 "TOOLDECK_TOOLS_AUDIT_ENABLED": "false",
                 "TOOLDECK_AGENT_AUTONOMY": autonomy})
    assert {t.id for t in deck.tools()} == expected
    deck.close()
