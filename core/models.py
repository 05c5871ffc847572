"""Value types that flow through a tool call: definitions, calls, outputs, decisions, audit events.

All are frozen attrs classes: cheap to build on the hot path, hashable where it matters, and
impossible to mutate behind a gate's back. Pydantic lives at the boundaries only (TOML
config, tool parameters, plugin settings).
"""

from __future__ import annotations

import enum
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs
import pydantic

from tooldeck.capabilities import CAPABILITIES, normalise
from tooldeck.errors import ErrorCategory

__all__ = [
    "BUILTIN",
    "INPUT_KEYS",
    "AuditEvent",
    "Decision",
    "FilterStats",
    "Rollback",
    "ToolCall",
    "ToolDef",
    "ToolOutput",
    "Verdict",
    "new_call_id",
]

BUILTIN = "builtin"
"""The provenance ``source`` of a decision made by a gate's own code, not by a configured rule."""

_TOOL_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_.:-]{0,63}$")
_FENCED = re.compile(r"^fenced:[A-Za-z][A-Za-z0-9_-]*$")


def new_call_id() -> str:
    """Return a fresh call id: a random (version 4) UUID as 32 lowercase hex characters.

    Made from the random bytes directly, as :func:`uuid.uuid4` makes them, without building
    a :class:`uuid.UUID` (every call gets one).
    """
    raw = bytearray(os.urandom(16))
    raw[6] = raw[6] & 0x0F | 0x40  # version 4
    raw[8] = raw[8] & 0x3F | 0x80  # the RFC 4122 variant
    return raw.hex()


def _check_tool_id(_inst: object, _attr: object, value: str) -> None:
    if not _TOOL_ID.match(value):
        raise ValueError(
            f"invalid tool id {value!r}: start with a letter; letters, digits, '_', '.', ':', '-'"
        )


def _capability_tags(values: Iterable[str]) -> frozenset[str]:
    return normalise(values)


def _check_invocation(_inst: object, _attr: object, value: str) -> None:
    if value != "tool_call" and not _FENCED.match(value):
        raise ValueError(f"invalid invocation {value!r}: expected 'tool_call' or 'fenced:<tag>'")


@attrs.frozen
class ToolDef:
    """A tool as the model sees it, and how tooldeck routes and governs it.

    :param id: the tool name the model calls (``bash``, ``read``, ``fetch``…).
    :param description: what the tool does, for the model.
    :param params: the pydantic model of the parameters; the JSON Schema comes from it.
    :param executor: name of the registered executor that runs this tool.
    :param invocation: ``tool_call`` (structured) or ``fenced:<tag>`` (a fenced block in text).
    :param capabilities: what the tool may do, from :data:`tooldeck.capabilities.CAPABILITIES`
        (``read``, ``write``, ``execute``, ``network``, ``state``); normalised on the way in
        (``exec`` becomes ``execute``). A tool that names none of them is treated as naming
        all (:attr:`effective_capabilities`).
    :param input_param: the parameter that is "the input" for permission rules (command, path,
        url). ``None`` means: the first of ``command``, ``path``, ``file_path``, ``url``,
        ``uri``, ``query``, ``source`` present in the call.
    :param source: where the tool comes from when it is not tooldeck's own: ``mcp:<server>``
        for a tool of an MCP server (audited as ``mcp_server_id``). ``None`` for built-ins.
    :param trust: the trust level the operator gave the tool's source (``trusted``,
        ``verified``, ``quarantined``, ``blocked``), for gates that judge by it; ``None``
        when the source has no configured level.
    """

    id: str = attrs.field(validator=_check_tool_id)
    description: str
    params: type[pydantic.BaseModel]
    executor: str
    invocation: str = attrs.field(default="tool_call", validator=_check_invocation)
    capabilities: frozenset[str] = attrs.field(default=frozenset(), converter=_capability_tags)
    input_param: str | None = None
    source: str | None = None
    trust: str | None = None

    @property
    def fenced_tag(self) -> str | None:
        """The fence tag for ``fenced:<tag>`` tools, else ``None``."""
        return self.invocation.split(":", 1)[1] if self.invocation.startswith("fenced:") else None

    @property
    def read_only(self) -> bool:
        """True when the tool declares ``read`` and nothing that changes state or goes out.

        ``write``, ``execute``, ``state`` and ``network`` each disqualify it: readonly
        autonomy means no side effects and no network.
        """
        return self.effective_capabilities == {"read"}

    @property
    def effective_capabilities(self) -> frozenset[str]:
        """What gates assume the tool may do: its declared capabilities, or all five if none."""
        # capabilities are normalised on the way in: only the vocabulary is left to apply
        return (self.capabilities & CAPABILITIES) or CAPABILITIES

    @property
    def network_read(self) -> bool:
        """True when the tool reads from the network and changes nothing (``fetch``)."""
        return self.effective_capabilities == {"read", "network"}

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of the parameters, generated from the params model."""
        return self.params.model_json_schema()


INPUT_KEYS = ("command", "path", "file_path", "url", "uri", "query", "source")
"""The parameters tried, in order, as a call's input when its tool names none."""


@attrs.frozen
class ToolCall:
    """One request from the model to run a tool.

    :param tool_id: the tool's name.
    :param params: the raw parameters as the model sent them.
    :param call_id: correlates the call with its result, events and audit line.
    :param caller_id: who is calling (a session, a skill, a user); carried into the audit.
    :param turn: the agent loop's turn (one model response) the call belongs to, counting up;
        gates that look at recent history (the risk chain) age calls out by it.
    :param model: the model that asked for the call, when known (the message adapters read
        it from the provider's response); carried into the audit.
    """

    tool_id: str
    params: Mapping[str, Any] = attrs.field(factory=dict)
    call_id: str = attrs.field(factory=new_call_id)
    caller_id: str | None = None
    turn: int | None = None
    model: str | None = None

    def input_text(self, tool: ToolDef | None = None) -> str:
        """The string permission rules match against (see :attr:`ToolDef.input_param`).

        Empty when there is none, and when ``params`` is not a mapping at all.
        """
        params = self.params
        # a dict is the usual case: asked first, it skips the abstract-class check
        if type(params) is not dict and not isinstance(params, Mapping):
            return ""  # malformed: the pipeline refuses the call
        keys = (tool.input_param,) if tool and tool.input_param else INPUT_KEYS
        for key in keys:
            value = params.get(key)
            if isinstance(value, str):
                return value
        return ""


class Verdict(str, enum.Enum):
    """A gate's vote. Precedence when combined: deny > ask > allow."""

    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


@attrs.frozen
class Decision:
    """A gate's decision about one call, with its provenance.

    :param verdict: allow, ask or deny.
    :param reason: why, in words an operator understands.
    :param gate: the gate (plugin) that decided.
    :param rule: the id of the rule that fired (``tools.permissions.bash[2]``, a shell rule
        name such as ``segment-rule``), when there is one.
    :param source: where the rule came from: a file, or ``env`` (an environment override) or
        ``default`` (the embedded default configuration); ``None`` means the gate's own code
        (recorded as ``builtin``).
    :param pattern: the rule's pattern (a glob, a blocked command), when it has one.
    :param line: the line of the rule in ``source``, when known.
    :param segment: for a shell command, the segment (or command position) that decided.
    :param suggestion: for a deny, what the model should do next; it replaces the error
        category's own suggestion in the ``[tool_error]`` block the model reads.
    :param category: for a deny returned by ``tooldeck_probe_call``, the error category the
        call ends with (default ``policy_blocked``): a probe that skips a call rather than
        forbidding it says ``cancelled``. Ignored in a gate's vote: the deny that wins a
        vote may be a security rule's, and stays a policy block.

    .. versionadded:: 0.1 ``suggestion`` and ``category``
    """

    verdict: Verdict = attrs.field(converter=Verdict)
    reason: str
    gate: str = ""
    rule: str | None = None
    source: str | None = None
    pattern: str | None = None
    line: int | None = None
    segment: str | None = None
    suggestion: str | None = None
    category: ErrorCategory | None = None

    def provenance(self) -> dict[str, str | int]:
        """Where the decision came from, for audit records and ``check`` answers.

        :returns: ``gate`` and ``source`` (``builtin`` when the gate's code decided), then
            ``rule``, ``pattern``, ``line`` and ``segment`` when they have a value.
        """
        out: dict[str, str | int] = {"gate": self.gate, "source": self.source or BUILTIN}
        for name in ("rule", "pattern", "line", "segment"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


@attrs.frozen
class FilterStats:
    """What output filtering did to one result.

    :param raw_chars: characters before filtering.
    :param filtered_chars: characters after filtering.
    :param raw_lines: lines before filtering.
    :param filtered_lines: lines after filtering.
    :param confidence: ``full``, ``partial`` or ``fallback``; ``None`` when no rule ran.
    :param command: the command the output came from, when known.
    :param rules: names of the rules that ran.
    """

    raw_chars: int
    filtered_chars: int
    raw_lines: int
    filtered_lines: int
    confidence: str | None = None
    command: str | None = None
    rules: tuple[str, ...] = ()

    @property
    def savings_pct(self) -> float:
        """Percentage of characters removed (0 when there was no output)."""
        if self.raw_chars == 0:
            return 0.0
        return (1 - self.filtered_chars / self.raw_chars) * 100


@attrs.frozen
class Rollback:
    """A transactional command that failed and whose file changes were undone.

    :param restored: files put back to their snapshot.
    :param deleted: files the command created that were removed.
    :param unrestored: ``"path: reason"`` for each change that was not undone (empty when
        the rollback was complete).
    """

    restored: int
    deleted: int
    unrestored: tuple[str, ...] = ()


@attrs.frozen
class ToolOutput:
    """A successful tool result.

    :param tool_name: the tool that produced it.
    :param summary: the text given back to the model.
    :param raw_response: structured data for programs (e.g. the shell envelope).
    :param filter_stats: what filtering removed, when filtering ran.
    :param diff: a unified diff of a file change, when there is one.
    :param locations: file paths the call touched or found.
    :param truncated: True when the output was cut to a size limit.
    :param exit_code: the process exit code, for tools that run processes.
    :param rollback: set when the tool undid its own changes (audited as ``rollback``).
    :param read_paths: every file and directory whose state the output was computed from
        (the path as the call named it, resolved the way the tool resolved it), so a result
        cache can tell when the output goes stale; ``None`` when the tool does not say
        (such an output of a local tool is never cached). ``()`` says "no local state".
    :param cache: how a result cache handled the call, when one looked: ``hit`` (served
        from it), ``miss`` (the tool ran) or ``stale`` (the tool ran because a file the
        cached output was read from had changed); written to the audit record.
    """

    tool_name: str
    summary: str
    raw_response: Mapping[str, Any] | None = None
    filter_stats: FilterStats | None = None
    diff: str | None = None
    locations: tuple[str, ...] = ()
    truncated: bool = False
    exit_code: int | None = None
    rollback: Rollback | None = None
    read_paths: tuple[str, ...] | None = None
    cache: str | None = None


@attrs.frozen
class AuditEvent:
    """One audit record: a finished call, or a runtime event such as ``policy.reloaded``.

    :param kind: ``tool_call`` for calls; ``policy.reloaded``, ``policy.reload_failed`` …
        for runtime events.
    :param ts: Unix time in seconds.
    :param fields: the record's payload, already redacted and cut; sinks serialise it as is
        (and never change it: every sink gets the same event).

    ``line`` is :meth:`as_record` already encoded as one line of strict JSON, when whoever
    built the event encoded it anyway (:func:`tooldeck.audit.safe_call_event` does, for its
    size check), else ``None``; a sink writing JSON lines may use it instead of encoding again.
    It is not an argument, so a copy made with ``attrs.evolve`` has none.
    """

    kind: str
    ts: float
    fields: Mapping[str, Any] = attrs.field(factory=dict)
    line: str | None = attrs.field(default=None, init=False, eq=False, repr=False)

    def as_record(self) -> dict[str, Any]:
        """The JSON-ready record: ``ts`` (seconds, as a string, as Zeph writes it), kind, fields."""
        return {"ts": f"{self.ts:.3f}", "kind": self.kind, **self.fields}
