"""Each agent's hook format: which tooldeck call an event stands for, and how to answer it.

Formats, as their documentation defines them (the pages are cited in
``docs/integrations/*.md`` and next to the recorded payloads in ``tests/hook/fixtures``):

- **Claude Code** (https://code.claude.com/docs/en/hooks): ``PreToolUse`` is answered with
  ``hookSpecificOutput.permissionDecision`` = ``allow`` | ``deny`` | ``ask`` and
  ``permissionDecisionReason``; ``PostToolUse`` can only add ``additionalContext`` for
  built-in tools (replacing output is for MCP tools only).
- **Codex** (https://developers.openai.com/codex/hooks): the same ``PreToolUse`` shape, but
  only ``deny`` is honoured; ``allow`` without ``updatedInput`` and ``ask`` are rejected as
  unsupported and the tool then runs. So an allow is answered with silence (Codex's own
  approval applies) and an ask with a deny that says confirmation is needed: failing closed.
- **Gemini CLI** (https://geminicli.com/docs/hooks/reference): ``BeforeTool`` is answered
  with top-level ``decision`` = ``allow`` | ``deny`` | ``ask`` and ``reason``; ``AfterTool``
  replaces the output the model sees with ``hookSpecificOutput.tool_output``.

An event this module has no mapping for gets no opinion: empty stdout, exit 0, so the agent's
own permission system decides.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import Any, Literal, NamedTuple

__all__ = [
    "AGENTS",
    "NO_OPINION",
    "Answer",
    "Event",
    "HookInputError",
    "parse_event",
    "render_decision",
    "render_output",
]

AGENTS = ("claude-code", "codex", "gemini-cli")
"""The agents ``tooldeck hook`` speaks to, by the name used on the command line."""

Phase = Literal["pre", "post"]


class Answer(NamedTuple):
    """What the hook process prints and exits with.

    :param stdout: the JSON answer (empty: no opinion).
    :param exit_code: 0, or 2 (the agents' "blocking error": ``stderr`` is the reason).
    :param stderr: the reason for exit code 2, else empty.
    """

    stdout: str
    exit_code: int
    stderr: str = ""


NO_OPINION = Answer("", 0)
"""Empty stdout and exit 0: the agent's own permission system decides."""


class Event(NamedTuple):
    """A hook event translated into the tooldeck call it stands for.

    :param phase: ``pre`` (before the tool runs) or ``post`` (after).
    :param tool: the tooldeck tool id (``bash``, ``read``, …).
    :param params: that tool's parameters.
    :param output: for ``post``: the text the agent's tool produced.
    """

    phase: Phase
    tool: str
    params: dict[str, Any]
    output: str | None = None


class HookInputError(ValueError):
    """The hook input is not a JSON object of the agent's format."""


_PHASES: dict[str, dict[str, Phase]] = {
    "claude-code": {"PreToolUse": "pre", "PostToolUse": "post"},
    "codex": {"PreToolUse": "pre", "PostToolUse": "post"},
    "gemini-cli": {"BeforeTool": "pre", "AfterTool": "post"},
}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _path(raw: Any, cwd: str | None) -> str | None:
    """A path from the agent, joined to the event's ``cwd`` when it is relative."""
    if not isinstance(raw, str):
        return None
    if cwd and not os.path.isabs(raw):
        return os.path.join(cwd, raw)
    return raw


def _search(pattern: Any, path: Any, cwd: str | None) -> dict[str, Any]:
    where = _path(path, cwd) if path else cwd
    params: dict[str, Any] = {"pattern": pattern}
    if where is not None:
        params["path"] = where
    return params


def _edit(inp: Mapping[str, Any], cwd: str | None) -> dict[str, Any]:
    edits = inp.get("edits")
    first = edits[0] if isinstance(edits, list) and edits and isinstance(edits[0], dict) else inp
    params = {"path": _path(inp.get("file_path"), cwd), "old_string": first.get("old_string"),
              "new_string": first.get("new_string")}
    if isinstance(first.get("replace_all"), bool):
        params["replace_all"] = first["replace_all"]
    return params


_Mapper = Callable[[Mapping[str, Any], "str | None"], "tuple[str, dict[str, Any]]"]

_CLAUDE: dict[str, _Mapper] = {
    "Bash": lambda i, cwd: ("bash", {"command": i.get("command")}),
    "Read": lambda i, cwd: ("read", {"path": _path(i.get("file_path"), cwd)}),
    "Write": lambda i, cwd: ("write", {"path": _path(i.get("file_path"), cwd),
                                       "content": i.get("content")}),
    "Edit": lambda i, cwd: ("edit", _edit(i, cwd)),
    "MultiEdit": lambda i, cwd: ("edit", _edit(i, cwd)),
    "WebFetch": lambda i, cwd: ("fetch", {"url": i.get("url")}),
    "Glob": lambda i, cwd: ("find_path", _search(i.get("pattern"), i.get("path"), cwd)),
    "Grep": lambda i, cwd: ("grep", _search(i.get("pattern"), i.get("path"), cwd)),
}

_CODEX: dict[str, _Mapper] = {"Bash": _CLAUDE["Bash"]}

_GEMINI: dict[str, _Mapper] = {
    "run_shell_command": _CLAUDE["Bash"],
    "read_file": lambda i, cwd: ("read", {"path": _path(i.get("file_path")
                                                        or i.get("absolute_path"), cwd)}),
    "write_file": _CLAUDE["Write"],
    "replace": _CLAUDE["Edit"],
    "glob": lambda i, cwd: ("find_path", _search(i.get("pattern"),
                                                 i.get("path") or i.get("dir_path"), cwd)),
    "search_file_content": lambda i, cwd: ("grep", _search(
        i.get("pattern"), i.get("path") or i.get("dir_path"), cwd)),
}
_GEMINI["grep_search"] = _GEMINI["search_file_content"]

_TOOLS: dict[str, dict[str, _Mapper]] = {
    "claude-code": _CLAUDE, "codex": _CODEX, "gemini-cli": _GEMINI,
}


def _response_text(agent: str, response: Any) -> str | None:
    """The text a shell tool produced, from the event's ``tool_response``."""
    if isinstance(response, str):
        return response
    if not isinstance(response, Mapping):
        return None
    if agent == "gemini-cli":
        return _text(response.get("llmContent"))
    stdout, stderr = _text(response.get("stdout")), _text(response.get("stderr"))
    if stdout is None and stderr is None:
        return _text(response.get("output"))
    return "\n".join(part for part in (stdout, stderr) if part)


def parse_event(agent: str, text: str) -> Event | None:
    """Translate one hook input into the tooldeck call it stands for.

    :param agent: one of :data:`AGENTS`.
    :param text: the JSON the agent wrote on the hook's stdin.
    :returns: the event, or ``None`` when tooldeck has no opinion (another event, an
        unmapped tool, a ``post`` event of a tool whose output tooldeck does not filter).
    :raises HookInputError: the input is not a JSON object, or lacks ``tool_input``.
    """
    try:
        payload = json.loads(text)
    except ValueError as exc:
        raise HookInputError(f"the hook input is not JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise HookInputError("the hook input is not a JSON object")
    phase = _PHASES[agent].get(payload.get("hook_event_name", ""))
    mapper = _TOOLS[agent].get(payload.get("tool_name", ""))
    if phase is None or mapper is None:
        return None
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        raise HookInputError("the hook input has no tool_input object")
    tool, params = mapper(tool_input, _text(payload.get("cwd")))
    if phase == "pre":
        return Event("pre", tool, params)
    if tool != "bash":
        return None
    output = _response_text(agent, payload.get("tool_response"))
    return None if output is None else Event("post", tool, params, output)


def _dump(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def render_decision(agent: str, verdict: str, reason: str) -> Answer:
    """Answer a ``pre`` event with the policy's verdict, in the agent's format.

    :param agent: one of :data:`AGENTS`.
    :param verdict: ``allow``, ``deny`` or ``ask``.
    :param reason: why, shown to the model (deny) or the user (ask).
    :returns: the answer.
    """
    reason = f"tooldeck: {reason}"
    if agent == "gemini-cli":
        return Answer(_dump({"decision": verdict, "reason": reason}), 0)
    if agent == "codex":
        if verdict == "allow":
            return NO_OPINION
        if verdict == "ask":
            verdict, reason = "deny", (f"{reason} (this needs a person's confirmation, which "
                                       "Codex's PreToolUse hook cannot ask for; ask the user "
                                       "to run it)")
    return Answer(_dump({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": verdict,
        "permissionDecisionReason": reason,
    }}), 0)


def render_output(agent: str, filtered: str) -> Answer:
    """Answer a ``post`` event with the filtered output, in the agent's format.

    :param agent: one of :data:`AGENTS`.
    :param filtered: the output after the deck's filters and redaction.
    :returns: the answer.
    """
    if agent == "gemini-cli":
        return Answer(_dump({"hookSpecificOutput": {"tool_output": filtered}}), 0)
    return Answer(_dump({"hookSpecificOutput": {
        "hookEventName": "PostToolUse",
        "additionalContext": f"tooldeck filtered this output to:\n{filtered}",
    }}), 0)
