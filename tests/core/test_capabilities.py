"""The capability vocabulary: normalised on tools, declared by every built-in tool."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pydantic

from tooldeck.capabilities import CAPABILITIES, effective
from tooldeck.models import ToolDef

if TYPE_CHECKING:  # annotations only: pytest loads the plugin module itself
    from tooldeck.testing import DeckFactory


class _P(pydantic.BaseModel):
    pass


def _tool(*caps: str) -> ToolDef:
    return ToolDef(id="t", description="t", params=_P, executor="x", capabilities=set(caps))


def test_old_spellings_are_normalised_on_the_tool() -> None:
    assert _tool("exec").capabilities == {"execute"}
    assert _tool("Delete", " READ ").capabilities == {"write", "read"}


def test_a_tool_without_capabilities_may_do_everything() -> None:
    tool = _tool()
    assert tool.effective_capabilities == CAPABILITIES
    assert not tool.read_only and not tool.network_read
    assert _tool("mcp").effective_capabilities == CAPABILITIES  # a marker grants nothing
    assert effective(["read", "mcp"]) == {"read"}


def test_read_only_means_read_and_nothing_else() -> None:
    assert _tool("read").read_only
    for other in ("write", "execute", "network", "state"):
        assert not _tool("read", other).read_only, other
    assert _tool("read", "network").network_read


def test_the_build_warns_about_a_tool_declaring_nothing(make_deck: DeckFactory) -> None:
    class Plugin:
        from tooldeck import hookimpl

        @hookimpl
        def tooldeck_register_tools(self, register: object) -> None:
            register(ToolDef(id="mystery", description="?", params=_P,  # type: ignore[operator]
                             executor="mystery"))

        @hookimpl
        def tooldeck_register_executors(self, register: object) -> None:
            class Ex:
                name = "mystery"

                async def execute(self, call: object, ctx: object) -> object:
                    raise AssertionError("not run")
            register(Ex())  # type: ignore[operator]

    deck = make_deck(plugins={"mystery": Plugin()})
    assert any("'mystery'" in w and "declares no capability" in w
               for w in deck.runtime.warnings)
