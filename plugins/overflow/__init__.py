"""Built-in plugin ``overflow``: long outputs kept whole in SQLite, read back by the model.

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.overflow]``, validated
``shorten``        head + tail of an output with an ``overflow:<id>`` notice between
``tool``           the ``read_overflow`` tool and its executor
=================  ===========================================================================

The store itself is the core's overflow service (``runtime.services.overflow``,
:class:`tooldeck.services.OverflowService`), which plugins use too.

After every other output transform (filters, redaction) has run:

- an output longer than ``threshold`` characters is stored whole and the model gets its head,
  its tail and a notice naming the ``overflow:<id>`` to read the rest with ``read_overflow``;
- with ``keep_filtered``, an output a filter shortened has its unfiltered text stored too, and
  the summary ends with the reference, so whatever a filter omitted stays retrievable.

What is stored is the unfiltered text with secrets redacted (the model reads it back). The
``overflow_id`` is added to ``raw_response``. A store that fails (disk full, unwritable) is
reported on stderr and the output is passed on unshortened rather than lost.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import attrs

from tooldeck import hookimpl
from tooldeck.models import ToolCall, ToolDef, ToolOutput
from tooldeck.plugins.overflow.settings import SECTION, OverflowSettings
from tooldeck.plugins.overflow.shorten import head_and_tail
from tooldeck.plugins.overflow.tool import READ_OVERFLOW, OverflowExecutor
from tooldeck.runtime import Runtime


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[tools.overflow]``."""
    register(SECTION, OverflowSettings)


@hookimpl
def tooldeck_register_tools(register: Callable[..., None]) -> None:
    """Register ``read_overflow``."""
    register(READ_OVERFLOW)


@hookimpl
def tooldeck_register_executors(register: Callable[..., None]) -> None:
    """Register the executor that serves ``read_overflow``."""
    register(OverflowExecutor())


def _unfiltered(output: ToolOutput) -> str:
    raw = output.raw_response or {}
    text = raw.get("unfiltered")
    return text if isinstance(text, str) else output.summary


@hookimpl(trylast=True)
def tooldeck_transform_output(
    call: ToolCall, tool: ToolDef, output: ToolOutput, runtime: Runtime
) -> ToolOutput | None:
    """Store a long or filtered output and point the model at it.

    :returns: the shortened output, or ``None`` when nothing was stored.
    """
    settings = runtime.settings.get(OverflowSettings)
    if not settings.enabled or tool.id == READ_OVERFLOW.id:
        return None
    too_long = len(output.summary) > settings.threshold
    stats = output.filter_stats
    filtered = (settings.keep_filtered and stats is not None
                and stats.filtered_lines < stats.raw_lines)
    if not (too_long or filtered):
        return None
    full = _unfiltered(output)
    try:
        reference = runtime.services.overflow.put(full, tool=tool.id, caller_id=call.caller_id)
    except Exception as exc:  # a full disk must not lose the output
        print(f"tooldeck: overflow store failed, output passed on whole: {exc!r}",
              file=sys.stderr)
        return None
    if reference is None:
        return None
    if too_long:
        summary = head_and_tail(output.summary, settings.threshold, reference)
    else:
        lines = full.count("\n") + (not full.endswith("\n"))
        summary = (f"{output.summary}\n[unfiltered output: {lines} lines, {reference} — "
                   f"read_overflow(id=\"{reference}\")]")
    raw: dict[str, Any] = {**(output.raw_response or {}), "overflow_id": reference}
    return attrs.evolve(output, summary=summary, raw_response=raw, truncated=True if too_long
                        else output.truncated)
