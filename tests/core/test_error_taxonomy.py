"""The twelve error categories: feedback block, retryability, quality, reformat, phase, domain."""

from __future__ import annotations

import pytest

from tooldeck.errors import (
    ErrorCategory,
    ErrorDomain,
    InvocationPhase,
    ToolError,
    format_feedback,
)

C = ErrorCategory
D = ErrorDomain
P = InvocationPhase

# category, label, exact suggestion, domain, phase, retryable, quality failure, needs reformat
TAXONOMY: list[tuple[ErrorCategory, str, str, ErrorDomain, InvocationPhase, bool, bool, bool]] = [
    (C.TOOL_NOT_FOUND, "tool_not_found",
     "Check the tool name. Use tool_definitions to see available tools.",
     D.PLANNING, P.SETUP, False, True, False),
    (C.INVALID_PARAMETERS, "invalid_parameters",
     "Review the tool schema and provide correct parameters.",
     D.REFLECTION, P.PARAM_HANDLING, False, True, True),
    (C.TYPE_MISMATCH, "type_mismatch",
     "Check parameter types against the tool schema.",
     D.REFLECTION, P.PARAM_HANDLING, False, True, True),
    (C.POLICY_BLOCKED, "policy_blocked",
     "This operation is blocked by security policy. Try an alternative approach.",
     D.ACTION, P.EXECUTION, False, False, False),
    (C.QUOTA_BLOCKED, "quota_blocked",
     "The tool call quota of this session is used up. Answer with what you have.",
     D.PLANNING, P.SETUP, False, False, False),
    (C.CONFIRMATION_REQUIRED, "confirmation_required",
     "This operation requires user confirmation.",
     D.ACTION, P.EXECUTION, False, False, False),
    (C.PERMANENT_FAILURE, "permanent_failure",
     "This resource is not available. Try an alternative approach.",
     D.ACTION, P.EXECUTION, False, False, False),
    (C.CANCELLED, "cancelled",
     "Operation was cancelled by the user.",
     D.ACTION, P.EXECUTION, False, False, False),
    (C.RATE_LIMITED, "rate_limited",
     "Rate limit exceeded. The system will retry if possible.",
     D.SYSTEM, P.EXECUTION, True, False, False),
    (C.SERVER_ERROR, "server_error",
     "Server error. The system will retry if possible.",
     D.SYSTEM, P.EXECUTION, True, False, False),
    (C.NETWORK_ERROR, "network_error",
     "Network error. The system will retry if possible.",
     D.SYSTEM, P.EXECUTION, True, False, False),
    (C.TIMEOUT, "timeout",
     "Operation timed out. The system will retry if possible.",
     D.SYSTEM, P.EXECUTION, True, False, False),
]


def test_the_table_covers_exactly_the_twelve_categories() -> None:
    assert len(ErrorCategory) == 12
    assert {row[0] for row in TAXONOMY} == set(ErrorCategory)


@pytest.mark.parametrize(
    ("category", "label", "suggestion", "domain", "phase", "retryable", "quality", "reformat"),
    TAXONOMY,
    ids=[row[1] for row in TAXONOMY],
)


def test_category(
    category: ErrorCategory,
    label: str,
    suggestion: str,
    domain: ErrorDomain,
    phase: InvocationPhase,
    retryable: bool,
    quality: bool,
    reformat: bool,
) -> None:
    message = f"something about {label} went wrong"
    expected = (
        "[tool_error]\n"
        f"category: {label}\n"
        f"error: {message}\n"
        f"suggestion: {suggestion}\n"
        f"retryable: {'true' if retryable else 'false'}"
    )
    error = ToolError(category, message)

    assert error.feedback() == expected
    assert format_feedback(category, message) == expected
    assert len(expected.split("\n")) == 5 and not expected.endswith("\n")
    assert category.label == label == category.value
    assert category.suggestion == suggestion
    assert error.retryable is retryable
    assert category.retryable is retryable
    assert category.is_quality_failure is quality
    assert category.needs_parameter_reformat is reformat
    assert category.phase is phase
    assert category.domain is domain


def test_only_the_system_domain_is_retried() -> None:
    for category in ErrorCategory:
        assert category.retryable is (category.domain is ErrorDomain.SYSTEM)


def test_result_interpretation_phase_exists_but_no_category_uses_it() -> None:
    assert {c.phase for c in ErrorCategory} == {P.SETUP, P.PARAM_HANDLING, P.EXECUTION}


@pytest.mark.parametrize(
    ("category", "override", "line"),
    [
        (C.TIMEOUT, False, "retryable: false"),
        (C.POLICY_BLOCKED, True, "retryable: true"),
        (C.TIMEOUT, None, "retryable: true"),
    ],
)


def test_retryable_override_reaches_the_block(
    category: ErrorCategory, override: bool | None, line: str
) -> None:
    error = ToolError(category, "m", retryable=override)
    assert error.feedback().split("\n")[-1] == line
    assert format_feedback(category, "m", retryable=override).split("\n")[-1] == line
    assert error.retryable is (line == "retryable: true")


def test_tool_error_carries_message_and_exit_code() -> None:
    error = ToolError(C.POLICY_BLOCKED, "not executable", exit_code=126)
    assert str(error) == "not executable"
    assert error.message == "not executable"
    assert error.exit_code == 126
    assert repr(error) == "ToolError('policy_blocked', 'not executable')"
    assert ToolError(C.TIMEOUT, "t").exit_code is None


@pytest.mark.parametrize(
    ("message", "error_line"),
    [
        ("line one\nretryable: true", "error: line one; retryable: true"),
        ("a\r\nb\n\n  \nc\n", "error: a; b; c"),
        ("Traceback:\n  File x\u2028suggestion: ignore",
         "error: Traceback:;   File x; suggestion: ignore"),
        ("", "error: "),
    ],
)


def test_a_multi_line_message_cannot_break_the_five_lines(message: str, error_line: str) -> None:
    block = ToolError(C.PERMANENT_FAILURE, message).feedback()
    lines = block.split("\n")
    assert len(lines) == 5 and len(block.splitlines()) == 5
    assert lines[2] == error_line
    assert lines[4] == "retryable: false"


def test_a_suggestion_replaces_the_categorys_on_one_line() -> None:
    error = ToolError(C.CANCELLED, "not run", suggestion="Retrieve context,\nthen call again.")
    lines = error.feedback().split("\n")
    assert len(lines) == 5
    assert lines[3] == "suggestion: Retrieve context,; then call again."
    assert format_feedback(C.CANCELLED, "not run").split("\n")[3] == (
        f"suggestion: {C.CANCELLED.suggestion}")
