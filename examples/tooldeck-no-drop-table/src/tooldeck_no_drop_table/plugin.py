"""The ``no_drop_table`` plugin: a gate that denies any call whose parameters say DROP TABLE.

Every string in the call's parameters (nested ones too) is compared case-insensitively with
runs of white space (and SQL comments ``/* … */``) read as one space, so ``drop  table``
and ``DROP/**/TABLE`` are caught. The gate abstains on every other call: it never allows
anything by itself, the permission rules still decide.

Configuration::

    [plugins]
    enable = ["no_drop_table"]
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from tooldeck import hookimpl
from tooldeck.models import Decision, ToolCall, Verdict

_DROP_TABLE = re.compile(r"\bDROP(?:\s|/\*.*?\*/)+TABLE\b", re.IGNORECASE | re.DOTALL)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


@hookimpl
def tooldeck_check_call(call: ToolCall) -> Decision | None:
    """Deny a call with DROP TABLE in any parameter; abstain (``None``) otherwise."""
    for text in _strings(call.params):
        if _DROP_TABLE.search(text):
            return Decision(Verdict.DENY, "parameters contain DROP TABLE", rule="DROP TABLE")
    return None

