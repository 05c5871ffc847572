"""tooldeck_select_executor: a plugin's router runs before the core's trylast default."""

from __future__ import annotations

import pydantic

from tooldeck import hookimpl
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall, ToolDef, ToolOutput


class Params(pydantic.BaseModel):
    text: str


class Named:
    def __init__(self, name: str) -> None:
        self.name = name

    async def execute(self, call, ctx):  # type: ignore[no-untyped-def]
        return ToolOutput("echo", f"{self.name}: {ctx.params.text}")


class Tools:
    def __init__(self) -> None:
        self.local, self.remote = Named("local"), Named("remote")

    @hookimpl
    def tooldeck_register_executors(self, register):  # type: ignore[no-untyped-def]
        register(self.local)
        register(self.remote)

    @hookimpl
    def tooldeck_register_tools(self, register):  # type: ignore[no-untyped-def]
        register(ToolDef(id="echo", description="d", params=Params, executor="local",
                         input_param="text"))


class RemoteRouter:
    @hookimpl
    def tooldeck_select_executor(self, call: ToolCall, runtime):  # type: ignore[no-untyped-def]
        return runtime.executors["remote"] if call.params["text"].startswith("far") else None


def deck(**plugins: object) -> Deck:
    doc = parse_document('[tools.audit]\nenabled = false\n[[tools.permissions.echo]]\n'
                         'pattern = "*"\naction = "allow"\n', None, "test")
    return Deck.from_config(doc, extra_plugins={"tools": Tools(), **plugins},
                            environ={"TOOLDECK_PLUGINS_DISABLE": '["filters"]'})


def test_default_routing_uses_the_tools_executor() -> None:
    assert deck().call_sync(ToolCall("echo", {"text": "far away"})).text == "local: far away"


def test_a_router_overrides_and_none_falls_back_to_the_default() -> None:
    routed = deck(router=RemoteRouter())
    assert routed.call_sync(ToolCall("echo", {"text": "far away"})).text == "remote: far away"
    assert routed.call_sync(ToolCall("echo", {"text": "near"})).text == "local: near"
    routed.close()
