"""Building a runtime: registration collisions name both plugins; failures isolate or fail."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.build import build_runtime
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.loader import PluginSpec
from tooldeck.models import Decision, ToolCall, Verdict
from tooldeck.runtime import PluginInfo, Runtime


class Section(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")

    level: int = 1


class SettingsPlugin:
    """Throwaway plugin registering one settings section."""

    def __init__(self, section: str) -> None:
        self.section = section

    @hookimpl
    def tooldeck_register_settings(self, register: Callable[..., None]) -> None:
        register(self.section, Section)


class FailingRegistration:
    """Throwaway plugin whose tool registration raises."""

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
        raise RuntimeError("cannot list my tools")


class FailingGate(FailingRegistration):
    """Like FailingRegistration, but it also votes on calls: a gate."""

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall) -> Decision:
        return Decision(Verdict.ALLOW, "fine")


def infos(deck: Deck) -> dict[str, PluginInfo]:
    return {p.name: p for p in deck.runtime.plugins}


def broken_pair(deck: Deck, a: str, b: str) -> PluginInfo:
    """Exactly one of plugins ``a``/``b`` is broken; return it."""
    by_name = infos(deck)
    broken = [by_name[n] for n in (a, b) if by_name[n].state == "broken"]
    assert len(broken) == 1, by_name
    return broken[0]


def test_same_tool_id_from_two_plugins_breaks_one_and_names_both(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    first = tool_plugin("echo", executor="first")
    second = tool_plugin("echo", executor="second")
    deck = make_deck("", {"first": first, "second": second})
    broken = broken_pair(deck, "first", "second")
    other = "first" if broken.name == "second" else "second"
    assert broken.why == (
        f"registration failed: plugin {broken.name!r}: tool 'echo' is already registered by "
        f"plugin {other!r}"
    )
    # the broken plugin's executor went with it; the survivor's tool still works
    assert set(deck.runtime.executors) == {other}
    assert deck.runtime.tools["echo"].executor == other
    assert f"plugin {broken.name!r} is broken: {broken.why}" in deck.runtime.warnings


def test_same_executor_name_from_two_plugins_names_both(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    deck = make_deck("", {
        "first": tool_plugin("one", executor="shared"),
        "second": tool_plugin("two", executor="shared"),
    })
    broken = broken_pair(deck, "first", "second")
    other = "first" if broken.name == "second" else "second"
    assert f"executor 'shared' is already registered by plugin {other!r}" in broken.why
    assert f"plugin {broken.name!r}" in broken.why
    assert broken.hooks == ()


def test_same_settings_section_from_two_plugins_names_both(
    make_deck: Callable[..., Deck],
) -> None:
    deck = make_deck("", {"first": SettingsPlugin("tools.shared"),
                          "second": SettingsPlugin("tools.shared")})
    broken = broken_pair(deck, "first", "second")
    other = "first" if broken.name == "second" else "second"
    assert broken.why == (
        f"registration failed: plugin {broken.name!r}: section [tools.shared] is already "
        f"registered by plugin {other!r}"
    )


def test_section_outside_the_allowed_parents_is_refused(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck("", {"odd": SettingsPlugin("toplevel")})
    assert infos(deck)["odd"].state == "broken"
    assert "section [toplevel] must sit under" in infos(deck)["odd"].why


def test_a_plugin_failing_to_register_is_isolated(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    deck = make_deck("", {"bad": FailingRegistration(), "good": tool_plugin("echo")})
    assert infos(deck)["bad"].state == "broken"
    assert infos(deck)["bad"].why == "registration failed: RuntimeError: cannot list my tools"
    assert infos(deck)["good"].state == "enabled"
    assert "echo" in deck.runtime.tools


def test_a_gate_failing_to_register_refuses_the_configuration(
    make_deck: Callable[..., Deck],
) -> None:
    with pytest.raises(ConfigError) as info:
        make_deck("", {"guard": FailingGate()})
    assert "plugin 'guard' failed while registering (rule: gates fail closed)" in str(info.value)
    assert "RuntimeError: cannot list my tools" in str(info.value)


def test_registering_something_that_is_not_a_tool_breaks_the_plugin(
    make_deck: Callable[..., Deck],
) -> None:
    class NotATool:
        @hookimpl
        def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
            register({"id": "echo"})

    deck = make_deck("", {"odd": NotATool()})
    assert infos(deck)["odd"].state == "broken"
    assert "register() takes a ToolDef" in infos(deck)["odd"].why


def test_executor_without_async_execute_breaks_the_plugin(make_deck: Callable[..., Deck]) -> None:
    class NoExecute:
        name = "lazy"

    class Registers:
        @hookimpl
        def tooldeck_register_executors(self, register: Callable[..., None]) -> None:
            register(NoExecute())

    deck = make_deck("", {"odd": Registers()})
    assert infos(deck)["odd"].state == "broken"
    assert "executor 'lazy' has no async execute()" in infos(deck)["odd"].why


def test_tool_without_executor_is_unavailable_with_a_warning(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    plugin = tool_plugin("echo")

    class ToolsOnly:
        @hookimpl
        def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
            for tool in plugin.tools:
                register(tool)

    deck = make_deck("", {"tools_only": ToolsOnly()})
    assert "echo" not in deck.runtime.tools
    assert (
        "tool 'echo' (plugin 'tools_only') is unavailable: no executor 'recorder' is registered"
        in deck.runtime.warnings
    )


def test_configure_failure_refuses_the_runtime_and_unconfigures(
    make_deck: Callable[..., Deck],
) -> None:
    closed: list[str] = []

    class Opens:
        @hookimpl
        def tooldeck_configure(self, runtime: Runtime) -> None:
            raise OSError("port in use")

        @hookimpl
        def tooldeck_unconfigure(self, runtime: Runtime) -> None:
            closed.append("closed")

    with pytest.raises(ConfigError, match="a plugin failed to configure: OSError: port in use"):
        make_deck("", {"opens": Opens()})
    assert closed == ["closed"]


def test_embedded_plugins_are_listed(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    deck = make_deck("", {"mine": tool_plugin("echo")})
    info = infos(deck)["mine"]
    assert (info.dist, info.state) == ("<embedded>", "enabled")
    assert info.hooks == ("tooldeck_register_executors", "tooldeck_register_tools")
    assert infos(deck)["core"].essential


def test_embedded_name_clashing_with_an_installed_plugin_is_an_error(
    make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]
) -> None:
    with pytest.raises(ConfigError, match="clash with installed plugins: \\['audit'\\]"):
        make_deck("", {"audit": tool_plugin("echo")})


def test_installed_plugin_with_gate_hooks_must_be_listed_as_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builtins_installed: dict[str, PluginSpec]
) -> None:
    name = f"tooldeck_fake_{uuid.uuid4().hex[:12]}"
    (tmp_path / f"{name}.py").write_text(
        "from tooldeck import hookimpl\n"
        "from tooldeck.models import Decision, Verdict\n"
        "@hookimpl\n"
        "def tooldeck_check_call(call):\n"
        "    return Decision(Verdict.ALLOW, 'sneaky')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    installed = {**builtins_installed,
                 "sneaky": PluginSpec("sneaky", name, "tooldeck-extras", "1.0", gate=False)}
    doc = parse_document('[plugins]\nenable = ["sneaky"]\n', tmp_path / "t.toml", "test")
    with pytest.raises(ConfigError) as info:
        build_runtime(doc, installed=installed, environ={})
    assert "plugin 'sneaky' (tooldeck-extras) implements policy gates but is not listed in " \
        "entry-point group 'tooldeck.gates'" in str(info.value)
    listed = {**installed, "sneaky": PluginSpec("sneaky", name, "tooldeck-extras", "1.0",
                                                gate=True)}
    runtime = build_runtime(doc, installed=listed, environ={})
    try:
        assert "sneaky" in runtime.hooks.gate_names
    finally:
        asyncio.run(runtime.aclose())


def third_party_settings_plugin(root: Path, section: str) -> str:
    """A module registering ``section`` with a one-field model; returns its name."""
    name = f"tooldeck_fake_{uuid.uuid4().hex[:12]}"
    (root / f"{name}.py").write_text(
        "import pydantic\n"
        "from tooldeck import hookimpl\n"
        "class Mine(pydantic.BaseModel):\n"
        "    model_config = pydantic.ConfigDict(extra='forbid')\n"
        "    level: int = 1\n"
        "@hookimpl\n"
        "def tooldeck_register_settings(register):\n"
        f"    register({section!r}, Mine)\n"
    )
    return name


@pytest.mark.parametrize("section", ["tools.mine", "tools.shell", "plugins.other"])
def test_third_party_settings_stay_in_their_namespace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    builtins_installed: dict[str, PluginSpec], section: str,
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    module = third_party_settings_plugin(tmp_path, section)
    installed = {**builtins_installed,
                 "mine": PluginSpec("mine", module, "tooldeck-extras", "1.0")}
    doc = parse_document('[plugins]\nenable = ["mine"]\n', tmp_path / "t.toml", "test")
    runtime = build_runtime(doc, installed=installed, environ={})
    try:
        info = {p.name: p for p in runtime.plugins}["mine"]
        assert info.state == "broken"
        assert f"section [{section}] is outside its namespace" in info.why
        assert section not in runtime.settings.sections
    finally:
        asyncio.run(runtime.aclose())


def test_third_party_section_in_its_namespace_is_validated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builtins_installed: dict[str, PluginSpec]
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    module = third_party_settings_plugin(tmp_path, "plugins.mine")
    installed = {**builtins_installed,
                 "mine": PluginSpec("mine", module, "tooldeck-extras", "1.0")}
    ok = parse_document('[plugins]\nenable = ["mine"]\n[plugins.mine]\nlevel = 3\n',
                        tmp_path / "t.toml", "test")
    runtime = build_runtime(ok, installed=installed, environ={})
    try:
        assert runtime.settings.section("plugins.mine").model_dump() == {"level": 3}
    finally:
        asyncio.run(runtime.aclose())
    bad = parse_document('[plugins]\nenable = ["mine"]\n[plugins.mine]\nlevle = 3\n',
                         tmp_path / "t.toml", "test")
    with pytest.raises(ConfigError, match=r"plugins\.mine\.levle: unknown key \(did you mean "
                       r"'level'\?\)"):
        build_runtime(bad, installed=installed, environ={})


def test_installed_but_disabled_plugin_table_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builtins_installed: dict[str, PluginSpec]
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    module = third_party_settings_plugin(tmp_path, "plugins.mine")
    installed = {**builtins_installed,
                 "mine": PluginSpec("mine", module, "tooldeck-extras", "1.0")}
    doc = parse_document("[plugins.mine]\nlevle = 3\n", tmp_path / "t.toml", "test")
    runtime = build_runtime(doc, installed=installed, environ={})
    try:
        assert {p.name: p.state for p in runtime.plugins}["mine"] == "disabled"
        assert runtime.settings.table("plugins.mine") == {"levle": 3}
    finally:
        asyncio.run(runtime.aclose())
