"""The message adapters: provider shapes in and out, checked against the official SDK types."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.adapters import AdapterError, ProviderCall, adapter_for, parse_arguments
from tooldeck.call_shape import shape_error
from tooldeck.deck import ToolResult
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolOutput


def ok(call: ToolCall, text: str = "fine") -> ToolResult:
    return ToolResult(call, output=ToolOutput("bash", text))


def failed(call: ToolCall) -> ToolResult:
    return ToolResult(call, error=ToolError(ErrorCategory.POLICY_BLOCKED, "no"))


def test_parallel_calls_and_results_round_trip(dialect: Any) -> None:
    adapter = adapter_for(dialect.name)
    response = dialect.tool_reply([("id1", "bash", {"command": "ls"}),
                                   ("id2", "read", {"path": "a.txt"})], text="two")
    reply = adapter.parse(response, caller_id="me", turn=4)
    assert reply.text == "two"
    assert [(pc.provider_id, pc.call.tool_id, dict(pc.call.params)) for pc in reply.calls] == [
        ("id1", "bash", {"command": "ls"}), ("id2", "read", {"path": "a.txt"})]
    assert {(pc.call.caller_id, pc.call.turn) for pc in reply.calls} == {("me", 4)}
    # tooldeck's own call ids are fresh UUIDs, not the provider's
    assert all(len(pc.call.call_id) == 32 for pc in reply.calls)
    results = [(reply.calls[0], ok(reply.calls[0].call)),
               (reply.calls[1], failed(reply.calls[1].call))]
    messages = [*reply.messages, *adapter.result_messages(results)]
    dialect.validate({dialect.messages_key: [{"role": "user", "content": "hi"}, *messages]})


def test_anthropic_flags_errors_and_groups_results_in_one_user_message() -> None:
    adapter = adapter_for("anthropic")
    a, b = (ProviderCall(ToolCall("bash", {}), pid) for pid in ("toolu_a", "toolu_b"))
    (message,) = adapter.result_messages([(a, ok(a.call, "out")), (b, failed(b.call))])
    assert message["role"] == "user"
    first, second = message["content"]
    assert first == {"type": "tool_result", "tool_use_id": "toolu_a", "content": "out"}
    assert second["is_error"] is True and second["tool_use_id"] == "toolu_b"
    assert second["content"].startswith("[tool_error]\ncategory: policy_blocked")
    assert adapter.result_messages([]) == []


@pytest.mark.parametrize(("arguments", "expected"), [
    ('{"command": "ls"', '{"command": "ls"'),   # cut short: passed on as text
    ("[1, 2]", [1, 2]),                          # JSON, but not an object
    ("null", None),
    ("", {}),                                    # some servers send "" for no arguments
    ("  ", {}),
    ("[" * 100_000, "[" * 100_000),              # nested too deep for the decoder
])
def test_malformed_arguments_reach_the_deck_as_an_invalid_shape(
        arguments: str, expected: Any) -> None:
    value = parse_arguments(arguments)
    assert value == expected
    if not isinstance(value, dict):
        error = shape_error(ToolCall("bash", value))
        assert error is not None and error.category is ErrorCategory.INVALID_PARAMETERS


@given(st.text(max_size=200))
def test_parse_arguments_never_raises(text: str) -> None:
    parse_arguments(text)


@pytest.mark.parametrize("name", ["openai_chat", "openai_responses", "anthropic"])
@pytest.mark.parametrize("response", [{}, {"choices": []}, {"choices": [{}]},
                                      {"content": "text"}, {"output": {}}, [], "x", None])
def test_a_response_of_another_shape_is_an_adapter_error(name: str, response: Any) -> None:
    with pytest.raises(AdapterError):
        adapter_for(name).parse(response)


def test_a_call_without_an_id_gets_tooldecks_id_on_both_sides() -> None:
    adapter = adapter_for("openai_chat")
    reply = adapter.parse({"choices": [{"message": {"role": "assistant", "content": None,
                                                     "tool_calls": [{"function": {
                                                         "name": "bash",
                                                         "arguments": {"command": "ls"}}}]}}]})
    (pc,) = reply.calls
    assert pc.provider_id == pc.call.call_id
    (echoed,) = reply.messages[0]["tool_calls"]
    assert echoed["id"] == pc.call.call_id
    assert json.loads(echoed["function"]["arguments"]) == {"command": "ls"}
    (result,) = adapter.result_messages([(pc, ok(pc.call))])
    assert result["tool_call_id"] == pc.call.call_id


def test_a_name_that_is_not_a_string_is_passed_on_for_the_deck_to_refuse() -> None:
    reply = adapter_for("anthropic").parse(
        {"content": [{"type": "tool_use", "id": "t", "name": 7, "input": {}}]})
    (pc,) = reply.calls
    error = shape_error(pc.call)
    assert error is not None and error.category is ErrorCategory.TOOL_NOT_FOUND


def test_tool_specs_validate_against_the_sdk_types(dialect: Any, make_deck: Any) -> None:
    deck = make_deck()
    tools = adapter_for(dialect.name).tool_specs(deck.tools(), deck.runtime.settings.core.tafc)
    assert len(tools) == len(deck.tools())
    dialect.validate({dialect.messages_key: [], "tools": tools})


def test_unknown_adapter_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="anthropic, openai_chat, openai_responses"):
        adapter_for("gemini")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["choices", "message", "tool_calls", "function", "name",
                                       "arguments", "id", "content", "type", "input", "text",
                                       "output", "call_id", "role"]), children, max_size=5),
    max_leaves=12,
)
CALLISH = st.fixed_dictionaries({
    "choices": st.lists(st.fixed_dictionaries({"message": st.fixed_dictionaries({
        "role": st.just("assistant"), "content": JSON,
        "tool_calls": st.lists(st.fixed_dictionaries(
            {"id": JSON, "type": st.just("function"),
             "function": st.fixed_dictionaries({"name": JSON, "arguments": JSON})}),
            max_size=3)})}), min_size=1, max_size=1),
    "content": st.lists(st.fixed_dictionaries(
        {"type": st.sampled_from(["text", "tool_use", "thinking"]), "id": JSON, "name": JSON,
         "input": JSON, "text": JSON}), max_size=3),
    "output": st.lists(st.fixed_dictionaries(
        {"type": st.sampled_from(["message", "function_call", "reasoning"]), "call_id": JSON,
         "name": JSON, "arguments": JSON, "content": JSON}), max_size=3),
})


@pytest.mark.parametrize("name", ["openai_chat", "openai_responses", "anthropic"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(response=JSON | CALLISH)
def test_any_response_is_read_or_refused_never_a_crash(name: str, response: Any) -> None:
    adapter = adapter_for(name)
    try:
        reply = adapter.parse(response, caller_id="c", turn=1)
    except AdapterError:
        return
    json.dumps(list(reply.messages))  # the history stays JSON
    for pc in reply.calls:
        assert isinstance(pc.provider_id, str) and pc.provider_id
        if not isinstance(pc.call.tool_id, str) or not isinstance(pc.call.params, dict):
            assert shape_error(pc.call) is not None   # the deck refuses it, classified
    answers = adapter.result_messages([(pc, ok(pc.call)) for pc in reply.calls])
    json.dumps(answers)


@pytest.mark.parametrize(("name", "response"), [
    ("openai_chat", {"model": "o3-mini", "choices": [{"message": {
        "role": "assistant", "content": None,
        "tool_calls": [{"id": "c1", "function": {"name": "read", "arguments": "{}"}}]}}]}),
    ("openai_responses", {"model": "o3-mini", "output": [
        {"type": "function_call", "call_id": "c1", "name": "read", "arguments": "{}"}]}),
    ("anthropic", {"model": "o3-mini", "content": [
        {"type": "tool_use", "id": "c1", "name": "read", "input": {}}]}),
])
def test_the_model_that_asked_is_carried_on_each_call(name: str, response: Any) -> None:
    """The audit says which model asked (the anomaly detector calls out reasoning models)."""
    (pc,) = adapter_for(name).parse(response).calls
    assert pc.call.model == "o3-mini"
    response.pop("model")
    (pc,) = adapter_for(name).parse(response).calls
    assert pc.call.model is None
