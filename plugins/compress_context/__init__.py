"""Built-in plugin ``compress_context``: the model frees context space by summarising.

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.compress_context]``, validated
``tool``           the ``compress_context`` tool and its executor
=================  ===========================================================================

The summary is written by whatever a ``tooldeck_summarizer`` hook supplies (the built-in
``openai_summarizer`` plugin, ``[tools.summarizer]``); the tool is hidden while there is
none. It works inside a :class:`tooldeck.loop.ToolLoop`, which hands it the messages before
the calling reply and, once the summary exists, replaces them with the loop's grown
knowledge block (:mod:`tooldeck.context_compression`). The result cache never serves it.
"""

from __future__ import annotations

from collections.abc import Callable

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.models import ToolDef
from tooldeck.plugins.compress_context.settings import SECTION, CompressContextSettings
from tooldeck.plugins.compress_context.tool import COMPRESS_CONTEXT_TOOL, CompressContextExecutor
from tooldeck.runtime import Runtime


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[tools.compress_context]``."""
    register(SECTION, CompressContextSettings)


@hookimpl
def tooldeck_register_tools(register: Callable[..., None], settings: Settings) -> None:
    """Register ``compress_context`` (unavailable when the section disables it)."""
    register(COMPRESS_CONTEXT_TOOL,
             available=settings.get(CompressContextSettings).enabled)


@hookimpl
def tooldeck_register_executors(register: Callable[..., None]) -> None:
    """Register the executor of ``compress_context``."""
    register(CompressContextExecutor())


@hookimpl
def tooldeck_tool_hidden(tool: ToolDef, runtime: Runtime) -> bool | None:
    """Hide ``compress_context`` while no plugin supplies a summariser.

    :returns: ``True`` to hide it, ``None`` for every other tool.
    """
    if tool.id != COMPRESS_CONTEXT_TOOL.id:
        return None
    return True if runtime.hooks.summarizer(runtime) is None else None
