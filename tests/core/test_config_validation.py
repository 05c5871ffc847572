"""Section validation: every error names the file and dotted key, what was expected and found."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.config import (
    UNBUILT_FEATURE_SECTIONS,
    Settings,
    StrictModel,
    parse_document,
    validate_sections,
)
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError

FILE = Path("/etc/tooldeck-test/tooldeck.toml")


def validate(text: str, environ: dict[str, str] | None = None) -> Settings:
    doc = parse_document(text, FILE, "test")
    return validate_sections(
        doc, {}, installed_plugins=["audit", "permissions"], environ=environ or {}
    )


def config_error(text: str, environ: dict[str, str] | None = None) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        validate(text, environ)
    return info.value


class ThingSettings(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    timeout: int = 30
    names: tuple[str, ...] = ()


class ThingPlugin:
    """Throwaway plugin owning ``[tools.thing]``."""

    @hookimpl
    def tooldeck_register_settings(self, register: Callable[..., None]) -> None:
        register("tools.thing", ThingSettings)


def test_misspelt_tools_subsection_names_file_key_and_suggestion() -> None:
    error = config_error("[tools.shel]\ntimeout = 5\n")
    assert str(error) == f"{FILE}: tools.shel: unknown key (did you mean 'shell'?)"
    assert error.path == str(FILE)
    assert error.key == "tools.shel"


def test_wrong_type_in_core_section_says_expected_and_found() -> None:
    error = config_error('[tools.audit]\nenabled = "x"\n')
    message = str(error)
    assert message.startswith(f"{FILE}: tools.audit.enabled: ")
    assert "valid boolean" in message
    assert message.endswith("found 'x' (str)")
    assert error.key == "tools.audit.enabled"


def test_wrong_type_in_plugin_owned_section(make_deck: Callable[..., Deck]) -> None:
    with pytest.raises(ConfigError) as info:
        make_deck('[tools.thing]\ntimeout = "x"\n', {"thing": ThingPlugin()})
    message = str(info.value)
    assert "tooldeck.toml: tools.thing.timeout: " in message
    assert "valid integer" in message
    assert "found 'x' (str)" in message
    assert info.value.key == "tools.thing.timeout"


def test_plugin_owned_section_is_validated_and_reachable(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck('[tools.thing]\ntimeout = 7\nnames = ["a"]\n', {"thing": ThingPlugin()})
    settings = deck.runtime.settings
    assert settings.get(ThingSettings) == ThingSettings(timeout=7, names=("a",))
    assert settings.section("tools.thing") == ThingSettings(timeout=7, names=("a",))
    assert settings.sources["tools.thing.timeout"].endswith("tooldeck.toml")


def test_unknown_key_in_plugin_section_gets_a_suggestion(make_deck: Callable[..., Deck]) -> None:
    with pytest.raises(ConfigError, match=r"tools\.thing\.timeot: unknown key \(did you mean "
                       r"'timeout'\?\)"):
        make_deck("[tools.thing]\ntimeot = 5\n", {"thing": ThingPlugin()})


@pytest.mark.parametrize(
    ("text", "key", "suggestion"),
    [
        ("[agnet]\nautonomy = 'full'\n", "agnet", "agent"),
        ("[tool]\nenabled = true\n", "tool", "tools"),
        ("[plugin]\ndisable = []\n", "plugin", "plugins"),
        ("[tools.audit]\nenabeld = true\n", "tools.audit.enabeld", "enabled"),
        ("[agent]\nmax_tool_iteration = 3\n", "agent.max_tool_iteration", "max_tool_iterations"),
        ("[tools]\nenable = false\n", "tools.enable", "enabled"),
        ("[tools.tafcc]\nenabled = true\n", "tools.tafcc", "tafc"),
    ],
)


def test_did_you_mean(text: str, key: str, suggestion: str) -> None:
    error = config_error(text)
    assert f"{FILE}: {key}: " in str(error)
    assert f"(did you mean {suggestion!r}?)" in str(error)
    assert error.key == key


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[zzzzzz]\nx = 1\n",
         "zzzzzz: unknown section; expected one of: agent, examples, mcp, plugins, storage, tools"),
        ("[agent]\nquux = 1\n",
         "agent.quux: unknown key; expected one of: autonomy, max_tool_iterations, "
         "readonly_network, tool_filter"),
        ("[tools.tafc]\nzzz = 1\n",
         "tools.tafc.zzz: unknown key; expected one of: complexity_threshold, enabled"),
    ],
)


def test_without_a_close_match_the_expected_names_are_listed(text: str, message: str) -> None:
    assert str(config_error(text)) == f"{FILE}: {message}"


def test_unknown_plugin_table_is_rejected() -> None:
    error = config_error("[plugins.unknown]\nx = 1\n")
    assert str(error) == (
        f"{FILE}: plugins.unknown: unknown key; expected one of: audit, disable, enable, "
        "permissions"
    )
    assert error.key == "plugins.unknown"


def test_table_of_an_installed_plugin_is_accepted_without_warning() -> None:
    settings = validate("[plugins.audit]\nanything = 1\n")
    assert settings.table("plugins.audit") == {"anything": 1}
    assert settings.warnings == ()


@pytest.mark.parametrize(
    ("text", "key", "found"),
    [
        ("agent = 5\n", "agent", "5 (int)"),
        ('tools = "on"\n', "tools", "'on' (str)"),
        ("[tools]\naudit = 5\n", "tools.audit", "5 (int)"),
        ("[tools]\ntafc = [1, 2]\n", "tools.tafc", "[1, 2] (list)"),
    ],
)


def test_section_that_is_not_a_table(text: str, key: str, found: str) -> None:
    error = config_error(text)
    expected = f"{FILE}: {key}: expected a table, found {found}"
    assert expected in str(error)
    assert error.key == key


def test_a_non_table_section_is_reported_once() -> None:
    error = config_error("agent = 5\n")
    assert str(error) == f"{FILE}: agent: expected a table, found 5 (int)"


@pytest.mark.parametrize("section", sorted(UNBUILT_FEATURE_SECTIONS))
def test_a_feature_section_nobody_provides_is_an_error(section: str) -> None:
    # e.g. [tools.anomaly] enabled = true would otherwise look like a working detector
    error = config_error(f"[{section}]\nenabled = true\n")
    assert str(error).startswith(f"{FILE}: {section}: no enabled plugin provides this feature")
    assert error.key == section


def test_a_feature_section_is_fine_once_a_plugin_owns_it() -> None:
    class Owned(StrictModel):
        enabled: bool = False

    doc = parse_document("[tools.anomaly]\nenabled = true\n", FILE, "test")
    settings = validate_sections(doc, {"tools.anomaly": Owned}, environ={})
    assert settings.sections["tools.anomaly"] == Owned(enabled=True)


def test_reserved_section_without_owner_is_accepted_with_a_warning(
    make_deck: Callable[..., Deck],
) -> None:
    deck = make_deck('[tools.shell]\nblocked_commands = ["sudo"]\nwhatever = 1\n')
    warnings = deck.runtime.warnings
    assert "[tools.shell] is not validated: no enabled plugin owns it" in warnings
    assert deck.runtime.settings.table("tools.shell") == {
        "blocked_commands": ["sudo"], "whatever": 1,
    }


def test_absent_reserved_section_gives_no_warning() -> None:
    assert validate("[agent]\nautonomy = 'full'\n").warnings == ()


def test_every_error_is_reported_at_once() -> None:
    error = config_error('[agent]\nmax_tool_iterations = 0\n[tools.audit]\nenabled = "x"\n')
    lines = str(error).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{FILE}: agent.max_tool_iterations: ")
    assert "greater than or equal to 1" in lines[0]
    assert lines[0].endswith("found 0 (int)")
    assert lines[1].startswith(f"{FILE}: tools.audit.enabled: ")


def test_defaults_apply_to_an_empty_document() -> None:
    core = validate("").core
    assert core.agent.max_tool_iterations == 10
    assert core.agent.autonomy == "supervised"
    assert core.tools.enabled is True
    assert core.tools.max_tool_calls_per_session is None
    assert core.audit.enabled is True
    assert core.audit.max_value_chars == 500
    assert core.tafc.enabled is False


# ------------------------------------------------------------------ environment overrides


def test_environment_overrides_file_value_and_records_its_source() -> None:
    settings = validate(
        "[agent]\nmax_tool_iterations = 3\n",
        {"TOOLDECK_AGENT_MAX_TOOL_ITERATIONS": "5"},
    )
    assert settings.core.agent.max_tool_iterations == 5
    assert settings.sources["agent.max_tool_iterations"] == "$TOOLDECK_AGENT_MAX_TOOL_ITERATIONS"


@pytest.mark.parametrize(
    ("var", "raw", "section", "field", "value"),
    [
        ("TOOLDECK_AGENT_AUTONOMY", "full", "agent", "autonomy", "full"),
        ("TOOLDECK_AGENT_AUTONOMY", '"readonly"', "agent", "autonomy", "readonly"),
        ("TOOLDECK_TOOLS_ENABLED", "false", "tools", "enabled", False),
        ("TOOLDECK_TOOLS_AUDIT_MAX_VALUE_CHARS", "64", "tools.audit", "max_value_chars", 64),
        ("TOOLDECK_TOOLS_TAFC_COMPLEXITY_THRESHOLD", "0.25", "tools.tafc",
         "complexity_threshold", 0.25),
        ("TOOLDECK_TOOLS_AUDIT_PATH", "/var/log/td.jsonl", "tools.audit", "path",
         "/var/log/td.jsonl"),
    ],
)


def test_environment_values_are_read_as_toml_or_plain_strings(
    var: str, raw: str, section: str, field: str, value: Any
) -> None:
    settings = validate("", {var: raw})
    assert getattr(settings.section(section), field) == value
    assert settings.sources[f"{section}.{field}"] == f"${var}"


def test_environment_list_value(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck("", {"thing": ThingPlugin()},
                     environ={"TOOLDECK_TOOLS_THING_NAMES": '["a", "b"]'})
    assert deck.runtime.settings.get(ThingSettings).names == ("a", "b")


def test_invalid_environment_value_names_the_variable() -> None:
    error = config_error("", {"TOOLDECK_AGENT_MAX_TOOL_ITERATIONS": "zero"})
    message = str(error)
    assert message.startswith("$TOOLDECK_AGENT_MAX_TOOL_ITERATIONS: agent.max_tool_iterations: ")
    assert message.endswith("found 'zero' (str)")


def test_unrelated_environment_is_ignored() -> None:
    settings = validate("", {"TOOLDECK_NOPE": "1", "AGENT_MAX_TOOL_ITERATIONS": "2"})
    assert settings.core.agent.max_tool_iterations == 10


def test_environment_can_disable_a_plugin(
    make_deck: Callable[..., Deck], tmp_path: Path
) -> None:
    log = tmp_path / "audit.jsonl"
    deck = make_deck(f'[tools.audit]\npath = "{log}"\n',
                     environ={"TOOLDECK_PLUGINS_DISABLE": '["audit"]'})
    assert deck.runtime.settings.core.plugins.disable == ("audit",)
    states = {p.name: p.state for p in deck.runtime.plugins}
    assert states["audit"] == "disabled"
    assert not log.exists()


def test_invalid_plugin_list_from_the_environment_names_the_variable(
    make_deck: Callable[..., Deck],
) -> None:
    with pytest.raises(ConfigError) as info:
        make_deck("", environ={"TOOLDECK_PLUGINS_ENABLE": "audit"})
    assert str(info.value).startswith(
        "$TOOLDECK_PLUGINS_ENABLE: plugins.enable: expected a list of plugin names"
    )
    assert info.value.key == "plugins.enable"
