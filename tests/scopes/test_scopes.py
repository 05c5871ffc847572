"""Task scopes (zeph-facts §7.7): rows derived from the facts, in a real deck."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pydantic
import pytest

from tooldeck import hookimpl
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError, ErrorCategory
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.plugins.scopes import use_scope
from tooldeck.plugins.scopes.compile import compile_scopes
from tooldeck.plugins.scopes.ids import namespace_of, namespaced_id
from tooldeck.runtime import CallContext

REVIEW = ('[tools.scopes.tasks]\nreview = ["builtin:read", "builtin:grep", '
          '"builtin:find_path"]\nresearch = ["builtin:fetch", "mcp:search/*"]\n')


@pytest.mark.parametrize(("tool_id", "namespaced"), [
    ("read", "builtin:read"), ("bash", "builtin:bash"),
    ("mcp_github__create_issue", "mcp:github/create_issue"),
    ("mcp_a__b__c", "mcp:a/b__c"), ("mcp_x", "builtin:mcp_x"), ("mcp___y", "builtin:mcp___y"),
])
def test_namespaced_ids(tool_id: str, namespaced: str) -> None:
    assert namespaced_id(tool_id) == namespaced


def test_a_pattern_needs_a_namespace() -> None:
    with pytest.raises(ValueError, match=r"^tool id 'read' has no namespace prefix \(expected "
                                         r"'<namespace>:<id>'\)$"):
        namespace_of("read")
    with pytest.raises(ValueError, match="unknown namespace 'tool'"):
        namespace_of("tool:read")


REGISTRY = ["read", "write", "bash", "mcp_github__search", "mcp_github__push"]


def test_whole_registry_pattern_is_an_error() -> None:
    with pytest.raises(ConfigError, match=r"scope 'x': pattern 'builtin:\*' matches the "
                                          'entire registry; use default_scope="general" to '
                                          "opt in"):
        compile_scopes({"x": ["builtin:read", "builtin:*"]}, ["read", "bash"], "provisional",
                       "c.toml")
    scopes, _ = compile_scopes({"x": ["builtin:*"]}, REGISTRY, "provisional", "c.toml")
    assert scopes["x"].admitted == {"read", "write", "bash"}


@pytest.mark.parametrize(("mode", "pattern", "error"), [
    ("provisional", "builtin:nope", True),
    ("provisional", "skill:docs/*", True),
    ("provisional", "mcp:jira/*", False),
    ("strict", "mcp:jira/*", True),
    ("permissive", "builtin:nope", False),
])
def test_dead_patterns(mode: str, pattern: str, error: bool) -> None:
    message = f"scope 'x': pattern '{pattern}' matched zero registered tools (dead pattern)"
    if error:
        with pytest.raises(ConfigError, match=message.replace("*", r"\*").replace("(", r"\(")
                           .replace(")", r"\)")):
            compile_scopes({"x": ["builtin:read", pattern]}, REGISTRY, mode, "c.toml")
    else:
        _, warnings = compile_scopes({"x": ["builtin:read", pattern]}, REGISTRY, mode, "c.toml")
        assert warnings == [f"c.toml: tools.scopes.tasks.x: {message}"]


def test_general_is_reserved_and_admits_all() -> None:
    with pytest.raises(ConfigError, match='scope "general" is built in'):
        compile_scopes({"general": ["builtin:read"]}, REGISTRY, "provisional", "c.toml")
    scopes, _ = compile_scopes({}, REGISTRY, "provisional", "c.toml")
    assert all(scopes["general"].admits(t) for t in REGISTRY)


async def test_default_changes_nothing(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck()
    assert "read" in [t.id for t in deck.tools()] and "bash" in [t.id for t in deck.tools()]


async def test_scope_filters_catalog_and_denies_calls(
    make_deck: Callable[..., Deck], project: Path,
    audit_log: Callable[[], list[dict[str, Any]]],
) -> None:
    (project / "a.txt").write_text("x\n")
    deck = make_deck(REVIEW + '[tools.scopes]\ndefault_scope = "review"\n')
    assert {t.id for t in deck.tools()} <= {"read", "grep", "find_path"}
    assert (await deck.call(ToolCall("read", {"path": "a.txt"}))).ok
    denied = await deck.call(ToolCall("write", {"path": "b.txt", "content": "y"}))
    assert denied.error is not None
    assert denied.error.category is ErrorCategory.POLICY_BLOCKED
    assert denied.error.message == "tool call denied by policy"
    assert not (project / "b.txt").exists()
    record = audit_log()[-1]
    assert record["decision"]["gate"] == "scopes"
    assert record["decision"]["rule"] == "out_of_scope: builtin:write not in scope 'review'"


async def test_use_scope_swaps_at_runtime_per_deck_and_caller(
    make_deck: Callable[..., Deck], project: Path
) -> None:
    (project / "a.txt").write_text("x\n")
    deck = make_deck(REVIEW)
    assert "write" in [t.id for t in deck.tools()]
    use_scope(deck.runtime, "review")
    assert "write" not in [t.id for t in deck.tools()]
    write = ToolCall("write", {"path": "b.txt", "content": "y"}, caller_id="agent-2")
    assert not (await deck.call(write)).ok
    use_scope(deck.runtime, "general", caller_id="agent-2")
    assert (await deck.call(write)).ok
    use_scope(deck.runtime, None)
    assert "write" in [t.id for t in deck.tools()]
    with pytest.raises(KeyError, match="unknown scope 'nope'"):
        use_scope(deck.runtime, "nope")


async def test_scope_survives_reload_and_a_dropped_scope_is_refused(
    make_deck: Callable[..., Deck], project: Path
) -> None:
    async def no_wait() -> None:
        return None

    deck = make_deck(REVIEW, settle_wait=no_wait)
    use_scope(deck.runtime, "review")
    config = project / "tooldeck.toml"
    config.write_text(config.read_text() + "\n# edit\n")
    assert await deck.reload()
    assert "write" not in [t.id for t in deck.tools()]
    config.write_text(config.read_text().replace("review = [", "reviewing = ["))
    assert not await deck.reload()
    assert "scope review is in use" in (deck.last_reload_error or "")
    assert "write" not in [t.id for t in deck.tools()]


def test_unknown_default_scope_is_an_error(make_deck: Callable[..., Deck]) -> None:
    with pytest.raises(ConfigError, match=r"tools\.scopes\.default_scope: unknown scope 'x'"):
        make_deck('[tools.scopes]\ndefault_scope = "x"\n')


def test_dead_builtin_pattern_refuses_the_config(make_deck: Callable[..., Deck]) -> None:
    with pytest.raises(ConfigError, match="matched zero registered tools"):
        make_deck('[tools.scopes.tasks]\nx = ["builtin:reed"]\n')


class _Params(pydantic.BaseModel):
    q: str = ""


class _Mcp:
    """Stands in for MCP tools as the MCP client names them (mcp_<server>__<tool>)."""

    name = "fake_mcp"

    @hookimpl
    def tooldeck_register_tools(self, register: Any) -> None:
        for tool in ("search", "push"):
            register(ToolDef(id=f"mcp_github__{tool}", description="", params=_Params,
                             executor="fake_mcp"))

    @hookimpl
    def tooldeck_register_executors(self, register: Any) -> None:
        register(self)

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        return ToolOutput(tool_name=call.tool_id, summary="ok")


async def test_mcp_namespace(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck('[tools.scopes]\ndefault_scope = "gh"\n[tools.scopes.tasks]\n'
                     'gh = ["mcp:github/search", "builtin:read"]\n'
                     '[[tools.permissions.mcp_github__search]]\npattern = "*"\naction = "allow"\n'
                     '[[tools.permissions.mcp_github__push]]\npattern = "*"\naction = "allow"\n'
                     # MCP tools are quarantined until the operator trusts their server
                     '[tools.trust.sources]\n"mcp:github" = "verified"\n',
                     extra_plugins={"fake_mcp": _Mcp()})
    assert (await deck.call(ToolCall("mcp_github__search", {"q": "x"}))).ok
    assert not (await deck.call(ToolCall("mcp_github__push", {"q": "x"}))).ok


async def test_disabled_by_plugins_disable(make_deck: Callable[..., Deck]) -> None:
    deck = make_deck(REVIEW + '[tools.scopes]\ndefault_scope = "review"\n'
                     '[plugins]\ndisable = ["scopes"]\n')
    assert "write" in [t.id for t in deck.tools()]


@pytest.mark.parametrize(("old", "new", "tightens"), [
    ('[tools.scopes.tasks]\nx = ["builtin:read", "builtin:grep"]\n',
     '[tools.scopes.tasks]\nx = ["builtin:read"]\n', True),
    ('[tools.scopes.tasks]\nx = ["builtin:read"]\n',
     '[tools.scopes.tasks]\nx = ["builtin:read", "builtin:bash"]\n', False),
    ('[tools.scopes]\ndefault_scope = "x"\n', "", False),
])
def test_reload_classification(old: str, new: str, tightens: bool) -> None:
    from tooldeck.generation import FileVersion
    from tooldeck.policy_change import classify

    path = Path("/etc/tooldeck.toml")
    change = classify({path: FileVersion(path, old.encode(), "config")},
                      {path: FileVersion(path, new.encode(), "config")})
    assert change.tightens is tightens
