"""The opt-in pytest fixtures of ``tooldeck.testing``, used the way a plugin author would."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pytest
from pydantic import BaseModel, ConfigDict

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.errors import ConfigError
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext, Runtime

if TYPE_CHECKING:
    # Imported for annotations only: importing the plugin module before pytest loads it
    # through pytest_plugins would make pytest warn that it cannot rewrite its asserts.
    from tooldeck.testing import AuditReader, ConfigFactory, DeckFactory

pytest_plugins = ["tooldeck.testing", "pytester"]

ALLOW_ECHO = """
    [[tools.permissions.echo]]
    pattern = "*"
    action = "allow"
"""


class EchoSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    prefix: str = ""


class EchoParams(BaseModel):
    text: str


class EchoExecutor:
    name = "echo"

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        return ToolOutput(call.tool_id, self.prefix + cast(EchoParams, ctx.params).text)


class EchoPlugin:
    """An embedded plugin that also records its runtime's lifecycle."""

    def __init__(self) -> None:
        self.events: list[str] = []

    @hookimpl
    def tooldeck_register_settings(self, register: Callable[..., None]) -> None:
        register("plugins.echo", EchoSettings)

    @hookimpl
    def tooldeck_register_executors(self, register: Callable[..., None],
                                    settings: Settings) -> None:
        register(EchoExecutor(settings.get(EchoSettings).prefix))

    @hookimpl
    def tooldeck_register_tools(self, register: Callable[..., None]) -> None:
        register(ToolDef(id="echo", description="Echo the text.", params=EchoParams,
                         executor="echo", input_param="text"))

    @hookimpl
    def tooldeck_configure(self, runtime: Runtime) -> None:
        self.events.append("configure")

    @hookimpl
    def tooldeck_unconfigure(self, runtime: Runtime) -> None:
        self.events.append("unconfigure")


def test_tooldeck_config_writes_dedented_text(tooldeck_config: ConfigFactory,
                                              tmp_path: Path) -> None:
    path = tooldeck_config("""
        [agent]
        autonomy = "readonly"
    """)
    assert path == tmp_path / "tooldeck.toml"
    assert path.read_text() == '\n[agent]\nautonomy = "readonly"\n'
    nested = tooldeck_config("not = [valid", name="sub/other.toml")
    assert nested.read_text() == "not = [valid"


def test_make_deck_runs_an_embedded_plugin(make_deck: DeckFactory) -> None:
    plugin = EchoPlugin()
    deck = make_deck(ALLOW_ECHO + '\n    [plugins.echo]\n    prefix = "> "\n',
                     plugins={"echo": plugin})
    result = deck.call_sync(ToolCall("echo", {"text": "hi"}))
    assert (result.ok, result.text) == (True, "> hi")
    assert plugin.events == ["configure"]
    path = deck.runtime.settings.document.path
    assert path is not None
    assert (path.parent.name, path.name) == ("deck-1", "tooldeck.toml")


def test_make_deck_reports_config_errors(make_deck: DeckFactory) -> None:
    with pytest.raises(ConfigError, match=r"plugins\.echo\.prefix: Input should be a valid"):
        make_deck("[plugins.echo]\nprefix = 42\n", plugins={"echo": EchoPlugin()})


def test_audit_goes_to_tmp_path_one_file_per_deck(make_deck: DeckFactory,
                                                  audit_log: AuditReader,
                                                  tmp_path: Path) -> None:
    first = make_deck(ALLOW_ECHO, plugins={"echo": EchoPlugin()})
    second = make_deck(plugins={"echo": EchoPlugin()})
    first.call_sync(ToolCall("echo", {"text": "one"}))
    second.call_sync(ToolCall("echo", {"text": "two"}), confirm=True)
    assert first.runtime.settings.core.audit.resolved_path() == tmp_path / "deck-1/audit.jsonl"
    (one,) = audit_log(first)
    assert (one["kind"], one["command"], one["decision"]["verdict"]) == ("tool_call", "one",
                                                                         "allow")
    (two,) = audit_log()  # the last deck built
    assert (two["command"], two["approved_by"]) == ("two", "pre-approved")
    assert audit_log(kind="policy.reloaded") == []


def test_an_audit_path_in_the_toml_is_kept(make_deck: DeckFactory, audit_log: AuditReader,
                                           tmp_path: Path) -> None:
    own = tmp_path / "elsewhere" / "log.jsonl"
    deck = make_deck(f'[tools.audit]\npath = "{own.as_posix()}"\n' + textwrap.dedent(ALLOW_ECHO),
                     plugins={"echo": EchoPlugin()})
    deck.call_sync(ToolCall("echo", {"text": "x"}))
    assert own.is_file()
    assert [r["command"] for r in audit_log()] == ["x"]


def test_audit_log_of_a_disabled_audit_is_empty(make_deck: DeckFactory,
                                                audit_log: AuditReader) -> None:
    deck = make_deck("[tools.audit]\nenabled = false\n" + textwrap.dedent(ALLOW_ECHO),
                     plugins={"echo": EchoPlugin()})
    assert deck.call_sync(ToolCall("echo", {"text": "x"})).ok
    assert audit_log() == []


def test_audit_log_needs_a_deck(audit_log: AuditReader) -> None:
    with pytest.raises(LookupError, match="make_deck"):
        audit_log()


def test_process_environment_does_not_leak_in(make_deck: DeckFactory,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLDECK_AGENT_AUTONOMY", "readonly")
    assert make_deck().runtime.settings.core.agent.autonomy == "supervised"
    deck = make_deck(environ={"TOOLDECK_AGENT_AUTONOMY": "full"})
    assert deck.runtime.settings.core.agent.autonomy == "full"


async def test_make_deck_in_an_async_test(make_deck: DeckFactory,
                                          audit_log: AuditReader) -> None:
    deck = make_deck(ALLOW_ECHO, plugins={"echo": EchoPlugin()})
    result = await deck.call(ToolCall("echo", {"text": "async"}))
    assert result.text == "async"
    assert [r["command"] for r in audit_log()] == ["async"]


async def test_reload_rereads_the_written_file(make_deck: DeckFactory) -> None:
    plugin = EchoPlugin()
    deck = make_deck(ALLOW_ECHO, plugins={"echo": plugin})
    path = deck.runtime.settings.document.path
    assert path is not None
    path.write_text(path.read_text() + '\n[plugins.echo]\nprefix = "new "\n')
    assert await deck.reload()
    assert (await deck.call(ToolCall("echo", {"text": "x"}))).text == "new x"
    assert plugin.events == ["configure", "configure", "unconfigure"]


def test_decks_are_closed_at_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inner="""
        from tooldeck import hookimpl

        pytest_plugins = ["tooldeck.testing"]
        EVENTS = []

        class Recorder:
            @hookimpl
            def tooldeck_unconfigure(self):
                EVENTS.append("unconfigure")

        def test_builds_two_decks(make_deck):
            make_deck(plugins={"recorder": Recorder()})
            make_deck(plugins={"recorder": Recorder()})
            assert EVENTS == []

        def test_after_teardown():
            assert EVENTS == ["unconfigure", "unconfigure"]
    """)
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:asyncio")
    result.assert_outcomes(passed=2)

