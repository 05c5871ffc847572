"""Turn each checker's machine-readable output into :class:`Diagnostic` records.

One function per output format; each takes the checker's stdout and returns what it found,
in the checker's order. None of them raises on a line it cannot read: such lines are skipped
(a checker mixes progress lines into its output), and the runner decides from the exit code
whether the run failed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import attrs

__all__ = ["PARSERS", "Diagnostic", "parse_cargo", "parse_eslint", "parse_mypy",
           "parse_mypy_text", "parse_pyright", "parse_ruff", "parse_tsc"]


@attrs.frozen
class Diagnostic:
    """One finding.

    :param level: ``error``, ``warning``, ``note``… as the checker says.
    :param message: the text (one line; a rule code, when there is one, in brackets).
    :param file: the file, as the checker names it; ``None`` for a finding without one.
    :param line: 1-based line.
    :param column: 1-based column.
    """

    level: str
    message: str
    file: str | None = None
    line: int = 0
    column: int = 0


def _json_lines(text: str) -> Iterator[dict[str, Any]]:
    for line in text.splitlines():
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _json_document(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _one_line(message: str, code: object = None) -> str:
    text = " ".join(message.split())
    return f"{text} [{code}]" if code else text


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def parse_cargo(stdout: str) -> list[Diagnostic]:
    """``cargo check|clippy --message-format=json``: ``compiler-message`` records.

    Level from ``message.level`` (default ``unknown``), text ``message.message`` trimmed
    (empty ones skipped), position from the primary span when there is one.
    """
    found: list[Diagnostic] = []
    for record in _json_lines(stdout):
        message = record.get("message")
        if record.get("reason") != "compiler-message" or not isinstance(message, dict):
            continue
        text = str(message.get("message") or "").strip()
        if not text:
            continue
        level = str(message.get("level") or "unknown")
        spans = _list(message.get("spans"))
        primary = next((s for s in spans if isinstance(s, dict) and s.get("is_primary")), None)
        if primary is None:
            found.append(Diagnostic(level, text))
        else:
            found.append(Diagnostic(level, text, str(primary.get("file_name")),
                                    _int(primary.get("line_start")),
                                    _int(primary.get("column_start"))))
    return found


def parse_ruff(stdout: str) -> list[Diagnostic]:
    """``ruff check --output-format=json``: a list of violations (1-based row and column)."""
    document = _json_document(stdout)
    found: list[Diagnostic] = []
    for item in _list(document):
        if not isinstance(item, dict):
            continue
        location = _dict(item.get("location"))
        found.append(Diagnostic(str(item.get("severity") or "error"),
                                _one_line(str(item.get("message", "")), item.get("code")),
                                str(item.get("filename")), _int(location.get("row")),
                                _int(location.get("column"))))
    return found


def parse_mypy(stdout: str) -> list[Diagnostic]:
    """``mypy -O json``: one object a line (0-based column, made 1-based here)."""
    return [
        Diagnostic(str(item.get("severity") or "error"),
                   _one_line(str(item.get("message", "")), item.get("code")),
                   str(item.get("file")), _int(item.get("line")), _int(item.get("column")) + 1)
        for item in _json_lines(stdout)
    ]


def parse_pyright(stdout: str) -> list[Diagnostic]:
    """``pyright --outputjson``: ``generalDiagnostics`` with 0-based ranges."""
    document = _json_document(stdout)
    found: list[Diagnostic] = []
    for item in _list(_dict(document).get("generalDiagnostics")):
        if not isinstance(item, dict):
            continue
        start = _dict(_dict(item.get("range")).get("start"))
        found.append(Diagnostic(str(item.get("severity") or "error"),
                                _one_line(str(item.get("message", "")), item.get("rule")),
                                str(item.get("file")), _int(start.get("line")) + 1,
                                _int(start.get("character")) + 1))
    return found


_TSC_LINE = re.compile(
    r"^(?P<file>[^\s(][^(]*)\((?P<line>\d+),(?P<col>\d+)\): (?P<level>error|warning|message) "
    r"(?P<code>TS\d+): (?P<message>.*)$"
)


def parse_tsc(stdout: str) -> list[Diagnostic]:
    """``tsc --pretty false``: ``file(line,col): error TS1234: message`` lines.

    tsc has no JSON output; this is its stable non-pretty format. Continuation lines of a
    multi-line message (indented) are skipped.
    """
    found: list[Diagnostic] = []
    for line in stdout.splitlines():
        match = _TSC_LINE.match(line)
        if match is not None:
            found.append(Diagnostic(match["level"], _one_line(match["message"], match["code"]),
                                    match["file"], int(match["line"]), int(match["col"])))
    return found


_ESLINT_LEVELS = {1: "warning", 2: "error"}


def parse_eslint(stdout: str) -> list[Diagnostic]:
    """``eslint --format json``: per file, ``messages`` with severity 1 (warning) or 2."""
    document = _json_document(stdout)
    found: list[Diagnostic] = []
    for result in _list(document):
        if not isinstance(result, dict) or not isinstance(result.get("messages"), list):
            continue
        for item in result["messages"]:
            if not isinstance(item, dict):
                continue
            found.append(Diagnostic(_ESLINT_LEVELS.get(_int(item.get("severity")), "error"),
                                    _one_line(str(item.get("message", "")), item.get("ruleId")),
                                    str(result.get("filePath")), _int(item.get("line")),
                                    _int(item.get("column"))))
    return found




_MYPY_TEXT_LINE = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<level>error|warning|note): "
    r"(?P<message>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)


def parse_mypy_text(stdout: str) -> list[Diagnostic]:
    """Mypy before ``-O json`` (< 1.11): ``file:line:col: severity: message  [code]`` lines."""
    found: list[Diagnostic] = []
    for line in stdout.splitlines():
        match = _MYPY_TEXT_LINE.match(line)
        if match is not None:
            found.append(Diagnostic(match["level"], _one_line(match["message"], match["code"]),
                                    match["file"], int(match["line"]), int(match["col"])))
    return found


PARSERS: dict[str, Callable[[str], list[Diagnostic]]] = {
    "check": parse_cargo, "clippy": parse_cargo, "ruff": parse_ruff, "mypy": parse_mypy,
    "pyright": parse_pyright, "tsc": parse_tsc, "eslint": parse_eslint,
}
"""The parser of each ``level``."""
