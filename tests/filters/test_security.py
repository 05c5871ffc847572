"""Zeph §4.6 security warnings, and secret detection with redaction."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.filters.engine import FilterEngine, FilterSettings, SecuritySettings, WarningKind
from tooldeck.filters.fallback import FallbackParams
from tooldeck.filters.rules import Rule
from tooldeck.filters.security import SECURITY_PATTERNS, SecurityScanner, security_block

LISTING = FallbackParams().data_lines
"""Lines of a listing on each side of a security line: together, past the lines shown whole."""


def test_there_are_17_builtin_security_patterns() -> None:
    assert len(SECURITY_PATTERNS) == 17


def test_clean_build_has_no_warnings() -> None:
    scanner = SecurityScanner()
    assert scanner.scan("Compiling zeph v0.9.0\nFinished dev [unoptimized] target(s) in 2.3s") == []


@pytest.mark.parametrize(
    "line",
    [
        "warning: unused `Result` that must be used",
        "warning: unused return value of `foo` that must be used",
        "thread 'main' panicked at src/main.rs:3:5",
        "warning: usage of an unsafe block",
        "error: dereference of raw pointer is unsafe",
        "fatal: Authentication failed for 'https://github.com/x/y'",
        "ERROR: Unauthorized",
        "bash: ./deploy.sh: Permission denied",
        "HTTP 401 Unauthorized",
        "HTTP/1.1 403 Forbidden",
        "warning: weak cipher suite negotiated",
        "warning: deprecated algorithm sha1",
        "insecure hash function md5 used",
        "possible SQL injection in query builder",
        "unsafe query construction detected",
        "RUSTSEC-2024-0001: memory corruption in foo",
        "npm: Security advisory for lodash",
        "scan: vulnerability detected in openssl",
    ],
)
def test_each_pattern_preserves_its_line(line: str) -> None:
    assert SecurityScanner().scan(f"ok\n{line}\nok") == [line]


def test_block_format() -> None:
    assert security_block(["a", "b"]) == "\n\n--- Security Warnings (preserved) ---\na\nb\n"
    assert security_block([]) == ""


def test_invalid_extra_pattern_is_skipped_with_a_warning() -> None:
    scanner = SecurityScanner(["[broken", "LEAK"])
    assert len(scanner.warnings) == 1 and "[broken" in scanner.warnings[0]
    assert scanner.scan("LEAK here") == ["LEAK here"]


def test_security_lines_survive_filtering(rules: tuple[Rule, ...]) -> None:
    raw = "./src/pkg/line.py\n" * LISTING + "advisory RUSTSEC-2023-0071 in rsa\n"
    raw += "./src/pkg/line.py\n" * LISTING
    result = FilterEngine(rules).apply("find . -type f", raw, 0)
    assert result.output.endswith(
        "--- Security Warnings (preserved) ---\nadvisory RUSTSEC-2023-0071 in rsa\n"
    )
    assert result.warnings[0].kind is WarningKind.SECURITY


def test_a_security_line_already_shown_is_not_repeated(rules: tuple[Rule, ...]) -> None:
    raw = "./src/pkg/line.py\n" * 200 + "thread 'main' panicked at src/x.rs:1:1\n"
    raw += "./src/pkg/line.py\n" * 200
    result = FilterEngine(rules).apply("find . -type f", raw, 0)
    assert result.output.count("thread 'main' panicked at src/x.rs:1:1") == 1
    assert "Security Warnings" not in result.output
    assert result.warnings[0].kind is WarningKind.SECURITY


def test_security_pass_can_be_disabled(rules: tuple[Rule, ...]) -> None:
    settings = FilterSettings(security=SecuritySettings(enabled=False))
    result = FilterEngine(rules, settings).apply("ls", "Permission denied", 1)
    assert "Security Warnings" not in result.output and result.warnings == ()


GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5" * 3 + "F6g7H8"


def test_engine_redacts_and_warns_without_the_value(rules: tuple[Rule, ...]) -> None:
    token = GITHUB_TOKEN
    raw = f"Permission denied for token {token}\nretrying\n"
    result = FilterEngine(rules).apply("ls", raw, 1)
    assert token not in result.output
    assert "[REDACTED:github-token]" in result.output
    assert all(token not in warning.message for warning in result.warnings)
    kinds = [warning.kind for warning in result.warnings]
    assert kinds == [WarningKind.SECURITY, WarningKind.SECRET]
    assert result.raw == raw


def test_redaction_can_be_disabled(rules: tuple[Rule, ...]) -> None:
    token = GITHUB_TOKEN
    settings = FilterSettings(security=SecuritySettings(redact_secrets=False))
    result = FilterEngine(rules, settings).apply("ls", f"token {token}", 0)
    assert token in result.output and result.warnings == ()


def test_a_secret_the_filter_cut_out_of_context_is_still_redacted(
    rules: tuple[Rule, ...],
) -> None:
    key_body = "MIIEowIBAAKCAQEAx4UbaDzY5xjW9Jz0"
    raw = ("-----BEGIN RSA PRIVATE KEY-----\n" + f"{key_body}\n" * 2
           + "-----END RSA PRIVATE KEY-----\n" + "".join(f"line {n}\n" for n in range(300)))
    result = FilterEngine(rules).apply("head -c 100000 key.pem", raw, 0)
    assert key_body not in result.output
    assert "[REDACTED:private-key]" in result.output
    (warning,) = result.warnings
    assert warning.message == (
        "possible secret on line 1: private key block (private-key); the value is redacted"
    )


@pytest.mark.parametrize("text", [
    "python train.py --max_tokens=4096",
    "def f(password: str) -> None:",
    "password_file = /etc/app/db.pass",
])
def test_source_code_is_not_redacted(rules: tuple[Rule, ...], text: str) -> None:
    result = FilterEngine(rules).apply("cat app.py", text, 0)
    assert result.output == text and result.warnings == ()


def test_without_warnings_a_filtered_output_still_gets_its_security_lines(
    rules: tuple[Rule, ...],
) -> None:
    raw = "./src/pkg/line.py\n" * LISTING + "advisory RUSTSEC-2023-0071 in rsa\n"
    raw += "./src/pkg/line.py\n" * LISTING
    result = FilterEngine(rules).apply("find . -type f", raw, 0, warnings=False)
    assert result.output.endswith(
        "--- Security Warnings (preserved) ---\nadvisory RUSTSEC-2023-0071 in rsa\n"
    )


def test_without_warnings_a_short_output_is_shown_whole_and_redacted(
    rules: tuple[Rule, ...],
) -> None:
    raw = "HTTP 401 Unauthorized\ntoken ghp_" + "a1B2c3D4e5" * 4 + "\n"
    wanted = FilterEngine(rules).apply("curl x", raw, 1)
    quiet = FilterEngine(rules).apply("curl x", raw, 1, warnings=False)
    assert quiet.output == wanted.output and "ghp_a1B2" not in quiet.output
    assert "HTTP 401 Unauthorized" in quiet.output
    assert [w.kind for w in quiet.warnings] == [WarningKind.SECRET]
    assert [w.kind for w in wanted.warnings] == [WarningKind.SECURITY, WarningKind.SECRET]


_LINES = st.sampled_from([
    "./src/pkg/line.py", "thread 'main' panicked at src/x.rs:1:1", "", "  indented",
    "HTTP/1.1 403 Forbidden", "password=hunter2hunter2", "\x1b[1mbold\x1b[0m", "a\rb",
    "Compiling zeph v0.9.0", "RUSTSEC-2024-0001: memory corruption in foo",
])


@settings(max_examples=60, deadline=None,  # the rules fixture is an immutable tuple
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.tuples(_LINES, st.integers(1, 40)), max_size=8),
       command=st.sampled_from(["find . -type f", "cargo test", "ls", "true"]),
       exit_code=st.sampled_from([0, 1, None]))
def test_skipping_the_warnings_never_changes_the_text(
    rules: tuple[Rule, ...], lines: list[tuple[str, int]], command: str, exit_code: int | None,
) -> None:
    raw = "".join(f"{line}\n" * count for line, count in lines)
    engine = FilterEngine(rules)
    wanted = engine.apply(command, raw, exit_code)
    quiet = engine.apply(command, raw, exit_code, warnings=False)
    assert (quiet.output, quiet.stats_line, quiet.rules) == (
        wanted.output, wanted.stats_line, wanted.rules)
