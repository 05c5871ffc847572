"""The ``hello`` plugin: one settings section, one executor and one tool.

tooldeck imports this module through the entry point ``hello`` in group ``tooldeck`` once
``[plugins] enable`` names ``hello``, and calls the hook implementations below on every
runtime it builds (at start-up and on each reload).

Configuration::

    [plugins]
    enable = ["hello"]

    [plugins.hello]
    greeting = "Howdy"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from pydantic import BaseModel, ConfigDict, Field

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.runtime import CallContext

SECTION = "plugins.hello"
"""The settings table this plugin owns: ``[plugins.<entry-point name>]``."""


class HelloSettings(BaseModel):
    """``[plugins.hello]``: unknown keys are rejected, so a typo fails loudly."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    greeting: str = Field("Hello", min_length=1, description="The word the greeting starts with.")


class HelloParams(BaseModel):
    """Parameters of the ``hello`` tool; the JSON Schema the model sees comes from here."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100, description="Who to greet.")


class HelloExecutor:
    """Runs the ``hello`` tool; built from the settings of the runtime it belongs to."""

    name = "hello"

    def __init__(self, greeting: str) -> None:
        self.greeting = greeting

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Greet ``ctx.params.name``; the core has already validated the parameters."""
        params = cast(HelloParams, ctx.params)
        return ToolOutput(tool_name=call.tool_id, summary=f"{self.greeting}, {params.name}!")


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own the ``[plugins.hello]`` table."""
    register(SECTION, HelloSettings)


@hookimpl
def tooldeck_register_executors(register: Callable[..., None], settings: Settings) -> None:
    """Build this runtime's executor from the validated ``[plugins.hello]`` section."""
    register(HelloExecutor(settings.get(HelloSettings).greeting))


@hookimpl
def tooldeck_register_tools(register: Callable[..., None]) -> None:
    """Offer the read-only ``hello`` tool; permission rules match on its ``name``."""
    register(
        ToolDef(
            id="hello",
            description="Greet someone by name.",
            params=HelloParams,
            executor=HelloExecutor.name,
            capabilities={"read"},
            input_param="name",
        )
    )
