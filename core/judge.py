"""Judging a call without running it: the gates' combined decision, as the pipeline makes it.

``tooldeck check`` and ``tooldeck replay`` ask this module, and so does the pipeline for its
gate step, so a policy question is answered the same way everywhere: the ``[tools] enabled``
switch, then every gate's vote combined (deny > ask > allow; nobody voting is ``ask``).
Nothing here executes a tool, routes a call or writes an audit record.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pydantic

from tooldeck.call_memo import call_memo
from tooldeck.models import INPUT_KEYS, Decision, ToolCall, ToolDef, Verdict
from tooldeck.runtime import Runtime

__all__ = [
    "combine_decisions", "judge_call", "judge_recorded", "recorded_params", "tools_disabled",
]

_RANK = {Verdict.ALLOW: 0, Verdict.ASK: 1, Verdict.DENY: 2}
_TAFC_PREFIX = "_tafc_think"


def combine_decisions(votes: list[Decision]) -> Decision:
    """Combine gate votes: deny > ask > allow; the first vote of the winning kind explains it.

    With no votes at all the result is ``ask`` (fail closed: nobody vouched for the call).
    """
    if not votes:
        return Decision(Verdict.ASK, "no gate allowed this call", gate="core", rule="no-vote")
    best = votes[0]
    for vote in votes[1:]:
        if _RANK[vote.verdict] > _RANK[best.verdict]:
            best = vote
    return best


def tools_disabled(runtime: Runtime) -> Decision:
    """The decision for every call while ``[tools] enabled = false``."""
    return Decision(Verdict.DENY, "tools are disabled ([tools] enabled = false)", gate="core",
                    rule="tools.enabled", source=runtime.settings.origin("tools.enabled"))


def _no_tool(tool_id: str) -> Decision:
    return Decision(Verdict.DENY, f"no tool {tool_id!r} is enabled", gate="core",
                    rule="tool-not-found")


def judge_call(runtime: Runtime, tool_id: str, params: Mapping[str, Any], *,
               caller_id: str | None = None) -> Decision:
    """The decision ``runtime``'s policy makes about a call, without running anything.

    :param runtime: the policy (a deck's current runtime).
    :param tool_id: the tool called.
    :param params: the parameters as sent (``_tafc_think*`` fields are ignored).
    :param caller_id: who calls, for gates that look at it.
    :returns: the combined decision; a tool this runtime does not offer, or parameters it
        would refuse, is a ``deny`` by the ``core`` gate (the call could not run).
    """
    tool = runtime.tools.get(tool_id)
    if tool is None:
        return _no_tool(tool_id)
    kept = {k: v for k, v in params.items() if not str(k).lower().startswith(_TAFC_PREFIX)}
    try:
        model = tool.params.model_validate(kept)
    except pydantic.ValidationError:
        return Decision(Verdict.DENY, f"invalid parameters for {tool_id}", gate="core",
                        rule="invalid-parameters")
    return judge_recorded(runtime, tool_id, model.model_dump(), caller_id=caller_id)


def judge_recorded(runtime: Runtime, tool_id: str, params: Mapping[str, Any], *,
                   caller_id: str | None = None, turn: int | None = None) -> Decision:
    """The gates' decision about a call rebuilt from a record, whose parameters may be partial.

    The parameters are not validated: a record keeps a call's input (command, path, URL),
    which is what the gates judge, not every parameter.

    :param runtime: the policy.
    :param tool_id: the tool called.
    :param params: the parameters to show the gates.
    :param caller_id: who called.
    :param turn: the agent turn the call belonged to (gates with history use it).
    :returns: the combined decision; a tool this runtime does not offer is a ``core`` deny.
    """
    tool = runtime.tools.get(tool_id)
    if tool is None:
        return _no_tool(tool_id)
    if not runtime.settings.core.tools.enabled:
        return tools_disabled(runtime)
    call = ToolCall(tool_id, dict(params), caller_id=caller_id, turn=turn)
    with call_memo():
        return combine_decisions(runtime.hooks.check_call(call, tool, runtime))


def recorded_params(tool: ToolDef, command: str) -> dict[str, Any]:
    """The parameters a recorded ``command`` stands for, for ``tool``.

    :param tool: the tool in the new policy.
    :param command: the record's ``command``.
    :returns: ``{input: command}`` for a tool with an input parameter, else the JSON object
        the record holds (empty when it holds none); defaults are filled in when the
        parameters validate.
    """
    fields = tool.params.model_fields
    key = tool.input_param or next((k for k in INPUT_KEYS if k in fields), None)
    params: dict[str, Any]
    if key is not None:
        params = {key: command}
    else:
        try:
            loaded = json.loads(command)
        except ValueError:
            loaded = None
        params = loaded if isinstance(loaded, dict) else {}
    try:
        return tool.params.model_validate(params).model_dump()
    except pydantic.ValidationError:
        return params
