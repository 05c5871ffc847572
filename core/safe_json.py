r"""Turn any value into something JSON can always encode: for audit records and error messages.

A model can send anything: lone surrogates, NUL bytes, lists nested ten thousand deep,
integers with a million digits, NaN. An audit line must still be written, exactly one per
call, and an error message must still be built. These helpers never raise and never recurse
more than :data:`MAX_DEPTH` levels.

=====================  ===================================================================
value                  becomes
=====================  ===================================================================
str                    itself, cut to the string budget; a lone surrogate becomes the
                       six characters ``\udcxx`` (the line stays valid UTF-8)
int                    itself up to 64 bits; larger ones their digits when there are at
                       most 100, else ``<int with N digits>`` (never ``str()`` of it)
float                  itself; NaN and ±infinity become ``"NaN"``, ``"Infinity"``,
                       ``"-Infinity"`` (strict JSON has no such numbers)
bool, None             themselves
bytes                  decoded as UTF-8, invalid bytes as ``\xNN``
mapping                a dict; keys become strings the same way
list, tuple, set       a list
deeper than 32         ``<nested deeper than 32 levels>``
over the size budget   strings cut, containers closed with ``<N more items cut>``
anything else          ``str()`` of it, as a string (its type name if that fails)
=====================  ===================================================================
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_DEPTH", "json_line", "json_safe", "safe_repr", "safe_text"]

MAX_DEPTH = 32
"""Containers nested deeper than this are replaced by a marker."""

_EXACT_DIGITS = 100
_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}
_LOG10_2 = math.log10(2)


def safe_text(text: str) -> str:
    r"""``text`` with every lone surrogate written as a ``\udcxx`` escape (valid UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def _int(value: int) -> int | str:
    if value.bit_length() <= 64:
        return value
    digits = int(value.bit_length() * _LOG10_2) + 1
    if digits <= _EXACT_DIGITS:
        return str(value)
    return f"<int with about {digits} digits>"


def _float(value: float) -> float | str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


class _Budget:
    """How many characters the encoded value may still take."""

    def __init__(self, total: int, per_string: int) -> None:
        self.left = total
        self.per_string = per_string

    def text(self, value: str) -> str:
        text = safe_text(_cut(value, max(min(self.per_string, self.left), 1)))
        self.left -= len(text) + 2
        return text


def _scalar(value: Any, budget: _Budget) -> Any:
    if value is None or isinstance(value, bool):
        budget.left -= 6
        return value
    if isinstance(value, str):
        return budget.text(value)
    if isinstance(value, int):
        budget.left -= 22
        return _int(value)
    if isinstance(value, float):
        budget.left -= 22
        return _float(value)
    if isinstance(value, (bytes, bytearray)):
        return budget.text(bytes(value[: budget.per_string]).decode("utf-8", "backslashreplace"))
    try:
        text = str(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return budget.text(text)


def _key(key: Any, budget: _Budget) -> str:
    safe = _scalar(key, budget)
    return safe if isinstance(safe, str) else json.dumps(safe)


def _convert(value: Any, depth: int, budget: _Budget) -> Any:
    if isinstance(value, Mapping):
        if depth >= MAX_DEPTH:
            return f"<nested deeper than {MAX_DEPTH} levels>"
        try:
            items = list(value.items())
        except Exception:
            return f"<{type(value).__name__}>"
        out: dict[str, Any] = {}
        for i, (k, v) in enumerate(items):
            if budget.left <= 0:
                out["…"] = f"<{len(items) - i} more items cut>"
                break
            out[_key(k, budget)] = _convert(v, depth + 1, budget)
        return out
    if isinstance(value, (list, tuple, set, frozenset)):
        if depth >= MAX_DEPTH:
            return f"<nested deeper than {MAX_DEPTH} levels>"
        seq: list[Any] = []
        elements = list(value)
        for i, element in enumerate(elements):
            if budget.left <= 0:
                seq.append(f"<{len(elements) - i} more items cut>")
                break
            seq.append(_convert(element, depth + 1, budget))
        budget.left -= 2
        return seq
    return _scalar(value, budget)


def json_safe(value: Any, *, max_chars: int, max_string: int | None = None) -> Any:
    """A copy of ``value`` that :func:`json.dumps` encodes strictly, as valid UTF-8, always.

    :param value: anything.
    :param max_chars: roughly how many characters the encoded copy may take in all.
    :param max_string: the longest string kept (default ``max_chars``).
    :returns: dicts, lists, strings, finite floats, small ints, booleans and ``None`` only.
    """
    return _convert(value, 0, _Budget(max_chars, max_string or max_chars))


def json_line(record: Any, *, max_chars: int) -> str:
    r"""``record`` as one line of strict JSON (no newline at the end); never raises.

    Besides ``\n`` and ``\r`` (which JSON escapes), the line breaks Python's
    ``str.splitlines`` knows (U+0085, U+2028, U+2029) are escaped too, so that any reader
    splitting the file into lines finds one record per line.

    :param record: anything; it goes through :func:`json_safe` first.
    :param max_chars: the size budget given to :func:`json_safe`.
    """
    line = json.dumps(json_safe(record, max_chars=max_chars), ensure_ascii=False, allow_nan=False)
    return line.translate(_LINE_BREAKS)


def safe_repr(value: Any, limit: int = 80) -> str:
    """A short printable description of ``value`` for an error message; never raises.

    Strings are quoted and cut, lone surrogates escaped; other values are described by their
    JSON-safe form, cut to ``limit`` characters.
    """
    if isinstance(value, str):
        return repr(_cut(value, limit))
    return _cut(json_line(value, max_chars=limit * 2), limit)
