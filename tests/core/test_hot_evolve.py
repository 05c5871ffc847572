"""``tooldeck.hot_evolve.evolve``: the same copies as ``attrs.evolve``, fields looked up once."""

from __future__ import annotations

from typing import Any

import attrs
import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.hot_evolve import evolve
from tooldeck.models import Decision, FilterStats, ToolCall, ToolDef, ToolOutput, Verdict
from tooldeck.results import ToolResult

_TEXT = st.text(max_size=8)


class _Params(pydantic.BaseModel):
    command: str
_CALL = st.builds(ToolCall, tool_id=_TEXT, params=st.dictionaries(_TEXT, _TEXT, max_size=3),
                  call_id=_TEXT, caller_id=st.none() | _TEXT,
                  turn=st.none() | st.integers(), model=st.none() | _TEXT)


@given(call=_CALL, changes=st.fixed_dictionaries({}, optional={
    "tool_id": _TEXT, "params": st.dictionaries(_TEXT, st.integers(), max_size=2),
    "call_id": _TEXT, "caller_id": st.none() | _TEXT, "turn": st.none() | st.integers(),
    "model": st.none() | _TEXT}))
def test_a_call_is_copied_as_attrs_copies_it(call: ToolCall, changes: dict[str, Any]) -> None:
    assert evolve(call, **changes) == attrs.evolve(call, **changes)
    assert evolve(call) == call and evolve(call) is not call


@given(duration=st.floats(allow_nan=False), approval=st.none() | _TEXT)
def test_a_result_and_an_output_keep_every_other_field(duration: float,
                                                        approval: str | None) -> None:
    output = ToolOutput("bash", "x", {"stdout": "x"}, filter_stats=FilterStats(1, 1, 1, 1),
                        truncated=True, exit_code=3)
    result = ToolResult(ToolCall("bash", {"command": "x"}, caller_id="c", turn=2),
                        output=output, decision=Decision(Verdict.ALLOW, "ok", gate="g"),
                        approved_by="yes")
    changed = evolve(result, duration_ms=duration, approval_id=approval)
    assert changed == attrs.evolve(result, duration_ms=duration, approval_id=approval)
    assert evolve(output, summary="y") == attrs.evolve(output, summary="y")
    failed = ToolResult(result.call, error=ToolError(ErrorCategory.TIMEOUT, "slow"))
    assert evolve(failed, duration_ms=duration) == attrs.evolve(failed, duration_ms=duration)


def test_validators_converters_and_private_names_apply_as_in_attrs() -> None:
    tool = ToolDef("bash", "runs", _Params, "shell", capabilities={"exec"})
    assert evolve(tool, capabilities={"exec", "read"}).capabilities == {"execute", "read"}
    with pytest.raises(ValueError, match="invalid tool id"):
        evolve(tool, id="1 bad")

    @attrs.frozen
    class Private:
        _hidden: int
        derived: int = attrs.field(init=False, default=attrs.Factory(
            lambda self: self._hidden * 2, takes_self=True))

    copied = evolve(Private(2), hidden=5)
    assert (copied._hidden, copied.derived) == (5, 10)
    assert copied == attrs.evolve(Private(2), hidden=5)
    with pytest.raises(TypeError):
        evolve(Private(2), nowhere=1)
