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

__all__ = [
    "MAX_DEPTH", "fits_line", "is_json_safe", "json_line", "json_safe", "plain_json", "safe_repr",
    "safe_text",
]

MAX_DEPTH = 32
"""Containers nested deeper than this are replaced by a marker."""

_EXACT_DIGITS = 100
_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}
_LOG10_2 = math.log10(2)
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
_SORTING = json.JSONEncoder(ensure_ascii=False, allow_nan=False, sort_keys=True)
"""Refuses keys of mixed types (``1`` and ``"1"`` would both be written as ``"1"``)."""


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


class _Converter:
    """One conversion: how many characters the encoded value may still take.

    Values of the plain JSON types (``str``, ``dict``, ``list``…, by exact type) take a short
    path; anything else goes through :meth:`other`, which follows the table above too.
    """

    def __init__(self, total: int, per_string: int) -> None:
        self.left = total
        self.per_string = per_string

    def text(self, value: str) -> str:
        limit = self.per_string if self.per_string < self.left else self.left
        if len(value) > limit:
            value = _cut(value, max(limit, 1))
        if not value.isascii():
            value = safe_text(value)
        self.left -= len(value) + 2
        return value

    def convert(self, value: Any, depth: int) -> Any:
        kind = type(value)
        if kind is str:
            return self.text(value)
        if kind is dict:
            return self.mapping(value, depth)
        if value is None or kind is bool:
            self.left -= 6
            return value
        if kind is int:
            self.left -= 22
            return _int(value)
        if kind is float:
            self.left -= 22
            return _float(value)
        if kind is list or kind is tuple:
            return self.sequence(value, depth)
        return self.other(value, depth)

    def other(self, value: Any, depth: int) -> Any:
        if isinstance(value, Mapping):
            return self.mapping(value, depth)
        if isinstance(value, (list, tuple, set, frozenset)):
            return self.sequence(value, depth)
        return self.scalar(value)

    def mapping(self, value: Mapping[Any, Any], depth: int) -> Any:
        if depth >= MAX_DEPTH:
            return f"<nested deeper than {MAX_DEPTH} levels>"
        try:
            items = list(value.items())
        except Exception:
            return f"<{type(value).__name__}>"
        out: dict[str, Any] = {}
        per_string = self.per_string
        for i, (k, v) in enumerate(items):
            left = self.left
            if left <= 0:
                out["…"] = f"<{len(items) - i} more items cut>"
                break
            # the value spends the budget before its key; a short ASCII string is kept as it
            # is (what text() would do, without the call)
            if type(v) is str and len(v) <= per_string and len(v) <= left and v.isascii():
                left -= len(v) + 2
                safe: Any = v
            else:
                safe = self.convert(v, depth + 1)
                left = self.left
            if type(k) is str and len(k) <= per_string and len(k) <= left and k.isascii():
                self.left = left - len(k) - 2
                out[k] = safe
            else:
                self.left = left
                out[self.text(k) if type(k) is str else self.key(k)] = safe
        return out

    def sequence(self, value: Any, depth: int) -> Any:
        if depth >= MAX_DEPTH:
            return f"<nested deeper than {MAX_DEPTH} levels>"
        seq: list[Any] = []
        elements = list(value)
        for i, element in enumerate(elements):
            if self.left <= 0:
                seq.append(f"<{len(elements) - i} more items cut>")
                break
            seq.append(self.convert(element, depth + 1))
        self.left -= 2
        return seq

    def scalar(self, value: Any) -> Any:
        if value is None or isinstance(value, bool):
            self.left -= 6
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, int):
            self.left -= 22
            return _int(value)
        if isinstance(value, float):
            self.left -= 22
            return _float(value)
        if isinstance(value, (bytes, bytearray)):
            return self.text(bytes(value[: self.per_string]).decode("utf-8", "backslashreplace"))
        try:
            text = str(value)
        except Exception:
            text = f"<{type(value).__name__}>"
        return self.text(text)

    def key(self, key: Any) -> str:
        safe = self.scalar(key)
        return safe if isinstance(safe, str) else _ENCODER.encode(safe)


def json_safe(value: Any, *, max_chars: int, max_string: int | None = None) -> Any:
    """A copy of ``value`` that :func:`json.dumps` encodes strictly, as valid UTF-8, always.

    :param value: anything.
    :param max_chars: roughly how many characters the encoded copy may take in all.
    :param max_string: the longest string kept (default ``max_chars``).
    :returns: dicts, lists, strings, finite floats, small ints, booleans and ``None`` only.
    """
    return _Converter(max_chars, max_string or max_chars).convert(value, 0)


def is_json_safe(value: Any, *, max_chars: int, max_string: int) -> bool:
    """Whether ``value`` already is, as JSON, what :func:`json_safe` would make of it.

    True when its strict encoding is provably left alone by the conversion (see
    :func:`json_line`) and no longer than ``max_string``, so that no string in it can be cut.
    The check encodes ``value`` once (in C, keys sorted: a mapping whose keys are of mixed
    types, which two keys could share a spelling, is refused), which costs less than
    converting it. What stays as it is may differ from the converted copy in Python types
    only (a tuple is not made a list), never in its JSON.

    :param value: anything.
    :param max_chars: the size budget :func:`json_safe` would get.
    :param max_string: the longest string :func:`json_safe` would keep.
    """
    line = _plain_line(value, max_chars, _SORTING)
    return line is not None and len(line) <= max_string


def plain_json(value: Mapping[str, Any], *, max_chars: int, max_string: int) -> str | None:
    """``value`` as :func:`json_line` writes it, when :func:`is_json_safe` holds for it.

    One encoding serves both the check and the writing. Unlike :func:`is_json_safe` the keys
    are not sorted, so a mapping whose keys are not all strings is the caller's to refuse
    (``1`` and ``"1"`` would both be written ``"1"``).

    :param value: a mapping whose keys are strings, at every level.
    :param max_chars: the size budget :func:`json_safe` would get.
    :param max_string: the longest string :func:`json_safe` would keep.
    :returns: the line, or ``None`` when the value must be converted first.
    """
    line = _plain_line(value, max_chars)
    if line is None or len(line) > max_string:
        return None
    return line if line.isascii() else line.translate(_LINE_BREAKS)


def fits_line(line: str, *, max_chars: int) -> bool:
    """Whether :func:`json_line` with this budget writes a plain line as it is (uncut).

    :param line: a line from :func:`plain_json` (or :func:`json_line`).
    :param max_chars: the size budget given to :func:`json_line`.
    """
    return len(line) * _PER_ITEM < max_chars


def json_line(record: Any, *, max_chars: int) -> str:
    r"""``record`` as one line of strict JSON (no newline at the end); never raises.

    Besides ``\n`` and ``\r`` (which JSON escapes), the line breaks Python's
    ``str.splitlines`` knows (U+0085, U+2028, U+2029) are escaped too, so that any reader
    splitting the file into lines finds one record per line.

    :param record: anything; it goes through :func:`json_safe` first (a record that
        :func:`json_safe` would leave as it is, the usual case, is encoded directly).
    :param max_chars: the size budget given to :func:`json_safe`.
    """
    line = _plain_line(record, max_chars)
    if line is None:
        line = _ENCODER.encode(json_safe(record, max_chars=max_chars))
    return line if line.isascii() else line.translate(_LINE_BREAKS)


_DIGIT_MARKS = bytes(0 if 0x30 <= b <= 0x39 else 1 for b in range(256))
_DIGIT_RUN = bytes(20)  # twenty digits in a row: an integer that may not fit in 64 bits
_PER_ITEM = 22  # the most budget one item spends per character of its encoding (a number)


def _plain_line(record: Any, max_chars: int,
                encoder: json.JSONEncoder = _ENCODER) -> str | None:
    """``record`` encoded as it is, when that is provably what :func:`json_safe` gives.

    The encoder accepts only JSON types, refuses NaN and infinities, and the line must be
    valid UTF-8 (no lone surrogate). What it lets through that :func:`json_safe` would
    change is ruled out on the line itself: an integer over 64 bits (20 digits or more in a
    row, found on the bytes with every digit marked), nesting deeper than :data:`MAX_DEPTH`
    (more opening brackets than that), and a cut (each item spends at most
    :data:`_PER_ITEM` budget characters per character it takes in the line). Any doubt
    returns ``None``: the caller then converts.
    """
    try:
        line = encoder.encode(record)
        data = line.encode("utf-8")
    except Exception:  # not plain JSON, a cycle, too deep, a lone surrogate: convert it
        return None
    if (len(line) * _PER_ITEM >= max_chars or data.count(b"[") + data.count(b"{") > MAX_DEPTH
            or _DIGIT_RUN in data.translate(_DIGIT_MARKS)):
        return None
    return line


def safe_repr(value: Any, limit: int = 80) -> str:
    """A short printable description of ``value`` for an error message; never raises.

    Strings are quoted and cut, lone surrogates escaped; other values are described by their
    JSON-safe form, cut to ``limit`` characters.
    """
    if isinstance(value, str):
        return repr(_cut(value, limit))
    return _cut(json_line(value, max_chars=limit * 2), limit)
