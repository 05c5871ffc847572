"""The output formats of checkers not installed here (pyright, eslint, old mypy), as documented."""

from __future__ import annotations

import json

from tooldeck.plugins.diagnostics.executor import render
from tooldeck.plugins.diagnostics.parsers import (
    Diagnostic,
    parse_cargo,
    parse_eslint,
    parse_mypy_text,
    parse_pyright,
)


def test_pyright_outputjson() -> None:
    out = json.dumps({"version": "1.1.400", "generalDiagnostics": [
        {"file": "/p/a.py", "severity": "error", "message": "Cannot access attribute\n  x",
         "range": {"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 9}},
         "rule": "reportAttributeAccessIssue"},
        {"file": "/p/b.py", "severity": "warning", "message": "unused",
         "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}},
    ], "summary": {"errorCount": 1}})
    assert render(parse_pyright(out), "/p") == (
        "a.py:4:5: error: Cannot access attribute x [reportAttributeAccessIssue]\n"
        "b.py:1:1: warning: unused")


def test_eslint_json() -> None:
    out = json.dumps([
        {"filePath": "/p/src/a.js", "messages": [
            {"ruleId": "no-unused-vars", "severity": 2, "message": "'x' is unused.",
             "line": 1, "column": 7},
            {"ruleId": None, "severity": 1, "message": "Parsing warning", "line": 2,
             "column": 1}]},
        {"filePath": "/p/src/b.js", "messages": []},
    ])
    assert render(parse_eslint(out), "/p") == (
        "src/a.js:1:7: error: 'x' is unused. [no-unused-vars]\n"
        "src/a.js:2:1: warning: Parsing warning")


def test_mypy_text_format_of_old_versions() -> None:
    out = ("a.py:4:12: error: Incompatible return value type  [return-value]\n"
           "a.py:5:1: note: See https://example\n")
    assert parse_mypy_text(out) == [
        Diagnostic("error", "Incompatible return value type [return-value]", "a.py", 4, 12),
        Diagnostic("note", "See https://example", "a.py", 5, 1),
    ]


def test_cargo_messages_as_the_seed_reads_them() -> None:
    lines = [
        {"reason": "compiler-artifact"},
        {"reason": "compiler-message", "message": {"level": "warning", "message": " unused ",
                                                     "spans": [{"is_primary": False},
                                                               {"is_primary": True,
                                                                "file_name": "src/lib.rs",
                                                                "line_start": 3,
                                                                "column_start": 9}]}},
        {"reason": "compiler-message", "message": {"message": "aborting", "spans": []}},
        {"reason": "compiler-message", "message": {"level": "error", "message": "  "}},
    ]
    out = "not json\n" + "\n".join(json.dumps(line) for line in lines)
    assert render(parse_cargo(out), "/p") == (
        "src/lib.rs:3:9: warning: unused\nunknown: aborting")


def test_garbage_is_no_diagnostics() -> None:
    for parse in (parse_cargo, parse_eslint, parse_pyright, parse_mypy_text):
        assert parse("{not json\n[1, 2]\n") == []
    assert render([], "/p") == "No diagnostics"
