"""Malformed calls end in a structured ``[tool_error]`` and one audit line, never a traceback.

Each case is something a model (or the code turning its output into a call) can send: a
parameters value that is not an object, nesting the audit encoder used to recurse into, lone
surrogates that made the audit line unwritable, integers too long to print.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.call_shape import MAX_PARAMS_DEPTH, _table_error, shape_error
from tooldeck.deck import Deck
from tooldeck.errors import ErrorCategory
from tooldeck.models import ToolCall
from tooldeck.plugins.audit import LOG

ALLOW_ECHO = """
[[tools.permissions.echo]]
pattern = "*"
action = "allow"
"""


def nested(depth: int) -> list[Any]:
    """A list nested ``depth`` levels deep, built without recursion."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def audit_lines(deck: Deck) -> list[str]:
    """The raw lines of the deck's audit file, decoded strictly as UTF-8."""
    path = deck.runtime.settings.core.audit.resolved_path()
    return path.read_bytes().decode("utf-8").splitlines() if path.exists() else []


def strict_json(line: str) -> dict[str, Any]:
    """Parse one audit line as strict JSON (NaN and Infinity are not JSON)."""
    def refuse(name: str) -> None:
        raise ValueError(f"non-standard JSON constant {name}")

    record: dict[str, Any] = json.loads(line, parse_constant=refuse)
    return record


@pytest.fixture
def deck(make_deck: Callable[..., Deck], tool_plugin: Callable[..., Any]) -> Deck:
    return make_deck(ALLOW_ECHO, {"tools": tool_plugin("echo")})


def call_once(deck: Deck, call: ToolCall) -> tuple[Any, dict[str, Any]]:
    """Run ``call``; check it wrote exactly one strict-JSON audit line and return both."""
    before = len(audit_lines(deck))
    result = deck.call_sync(call)
    lines = audit_lines(deck)
    assert len(lines) == before + 1, "exactly one audit line per call"
    record = strict_json(lines[-1])
    assert record["kind"] == "tool_call"
    assert record["call_id"] == call.call_id
    return result, record


@pytest.mark.parametrize(("params", "found"), [
    (None, "null"), ([1, 2], "an array"), ("command=ls", "a string"), (7, "a number"),
])
def test_params_that_are_not_an_object_are_invalid_parameters(
    deck: Deck, params: Any, found: str
) -> None:
    result, record = call_once(deck, ToolCall("echo", params))
    assert result.error.category is ErrorCategory.INVALID_PARAMETERS
    assert f"must be a JSON object such as {{\"name\": value}}, found {found}" in result.text
    assert result.text.startswith("[tool_error]\ncategory: invalid_parameters\n")
    assert record["error_category"] == "invalid_parameters"


@pytest.mark.parametrize("tool_id", [None, 42, ["echo"]])
def test_a_tool_id_that_is_not_a_string_is_tool_not_found(deck: Deck, tool_id: Any) -> None:
    result, record = call_once(deck, ToolCall(tool_id, {"command": "x"}))
    assert result.error.category is ErrorCategory.TOOL_NOT_FOUND
    assert "the tool name must be a string" in result.text
    assert record["error_category"] == "tool_not_found"


def test_parameter_names_must_be_strings(deck: Deck) -> None:
    result, record = call_once(deck, ToolCall("echo", {1: "x", "command": "ls"}))
    assert result.error.category is ErrorCategory.INVALID_PARAMETERS
    assert "parameter names must be strings, found a number 1" in result.text
    assert record["error_category"] == "invalid_parameters"


@pytest.mark.parametrize("tool_id", ["echo", "no_such_tool"])
def test_deep_nesting_is_refused_and_audited(deck: Deck, tool_id: str) -> None:
    # the audit encoder used to recurse into these parameters and die with RecursionError
    result, record = call_once(deck, ToolCall(tool_id, {"x": nested(10_000)}))
    assert result.error.category is ErrorCategory.INVALID_PARAMETERS
    assert f"nested deeper than {MAX_PARAMS_DEPTH} levels" in result.text
    assert len(record["command"]) <= deck.runtime.settings.core.audit.max_value_chars


def test_nesting_up_to_the_limit_reaches_validation(deck: Deck) -> None:
    # the parameters object is level 1: it holds MAX_PARAMS_DEPTH - 1 levels of lists
    result, _ = call_once(deck, ToolCall("echo", {"x": nested(MAX_PARAMS_DEPTH - 2)}))
    assert "Extra inputs are not permitted" in result.text
    result, _ = call_once(deck, ToolCall("echo", {"x": nested(MAX_PARAMS_DEPTH - 1)}))
    assert "rule 'params-depth'" in result.text


def test_lone_surrogates_are_escaped_in_the_audit_line(deck: Deck) -> None:
    result, record = call_once(deck, ToolCall("echo", {"command": "echo \udc80\ud800"}))
    assert result.ok
    assert record["command"] == "echo \\udc80\\ud800"


def test_a_surrogate_in_the_tool_id_keeps_line_and_feedback_valid_utf8(deck: Deck) -> None:
    result, record = call_once(deck, ToolCall("echo\udc80", {"command": "ls"}))
    assert result.error.category is ErrorCategory.TOOL_NOT_FOUND
    result.text.encode("utf-8")  # the block goes to a model API as UTF-8
    assert record["tool"] == "echo\\udc80"


def test_unicode_line_breaks_do_not_split_the_audit_line(deck: Deck) -> None:
    # str.splitlines (and many JSONL readers) break lines at U+0085, U+2028 and U+2029
    result, record = call_once(deck, ToolCall("echo", {"command": "a\x85b\u2028c\u2029d"}))
    assert result.ok
    assert record["command"] == "a\x85b\u2028c\u2029d"


@pytest.mark.parametrize("tool_id", ["echo", "no_such_tool"])
def test_integers_too_long_to_print_never_escape(deck: Deck, tool_id: str) -> None:
    huge = 10 ** 5000  # str() of it raises ValueError (int max str digits)
    result, record = call_once(deck, ToolCall(tool_id, {"n": huge, "m": -(2**70)}))
    assert result.error is not None
    if tool_id == "no_such_tool":  # its parameters are the record's command
        assert json.loads(record["command"]) == {
            "m": str(-(2**70)), "n": "<int with about 5001 digits>"}


def test_nan_and_infinity_make_strict_json(deck: Deck) -> None:
    _, record = call_once(deck, ToolCall("nope", {"a": float("nan"), "b": float("-inf")}))
    assert json.loads(record["command"]) == {"a": "NaN", "b": "-Infinity"}


def test_huge_strings_are_cut_in_the_record(deck: Deck) -> None:
    limit = deck.runtime.settings.core.audit.max_value_chars
    _, record = call_once(deck, ToolCall("x" * 1_000_000, {"command": "y" * 1_000_000}))
    assert len(record["tool"]) == limit
    assert len(record["command"]) == limit
    assert len(json.dumps(record)) < 16 * limit + 1000


class ExplodingParams(Mapping[str, Any]):
    """A mapping that fails when read: stands in for a defect anywhere in the pipeline."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("boom")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("boom")

    def __len__(self) -> int:
        return 1


def test_a_defect_in_the_pipeline_is_a_permanent_failure_and_audited(
    deck: Deck, capsys: pytest.CaptureFixture[str]
) -> None:
    result, record = call_once(deck, ToolCall("echo", ExplodingParams()))
    assert result.error.category is ErrorCategory.PERMANENT_FAILURE
    assert "tooldeck failed while handling the call (RuntimeError)" in result.text
    assert record["error_category"] == "permanent_failure"
    assert "the pipeline failed on a call to 'echo': RuntimeError" in capsys.readouterr().err


def test_a_failing_sink_is_reported_and_the_result_kept(
    deck: Deck, capsys: pytest.CaptureFixture[str]
) -> None:
    deck.runtime.stash_get(LOG).close()  # every write now fails with OSError
    result = deck.call_sync(ToolCall("echo", {"command": "ls"}))
    assert result.ok and result.text == "ran: ls"
    assert "audit sink 'audit' failed: OSError" in capsys.readouterr().err


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=4))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner),
    st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), inner, max_size=3)),
    max_leaves=12)
_NAMES = st.one_of(st.text(max_size=6), st.integers(), st.none())


@given(tool_id=st.one_of(st.text(max_size=5), st.integers(), st.none()),
       params=st.one_of(st.dictionaries(_NAMES, _VALUES, max_size=4), _VALUES))
def test_the_quick_accept_says_what_the_rule_table_says(tool_id: Any, params: Any) -> None:
    call = ToolCall(tool_id, params)
    quick, table = shape_error(call), _table_error(call)
    assert (quick is None) == (table is None)
    if quick is not None and table is not None:
        assert (quick.category, quick.message) == (table.category, table.message)


def test_a_nested_value_still_meets_the_depth_rule() -> None:
    deep: Any = "x"
    for _ in range(MAX_PARAMS_DEPTH + 1):
        deep = [deep]
    error = shape_error(ToolCall("bash", {"command": deep}))
    assert error is not None and "params-depth" in error.message
