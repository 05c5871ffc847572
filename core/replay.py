"""Re-judging recorded calls under another policy: what ``tooldeck replay`` reports.

Every ``tool_call`` record of an audit log that carries a gate decision is judged again by
the new policy's gates (:func:`tooldeck.judge.judge_recorded`), in the log's order, so gates
that keep per-session history (the risk chain) see the same sequence. Nothing is executed,
routed or audited: only decisions are compared.

The call is rebuilt from the record: its ``command`` is the tool's input (the command, path
or URL the rules match), or, for a tool without one, its parameters as JSON. The record is
what the gates of the recording saw, secrets redacted and long values cut: a cut input is
judged as cut, and says so.

Records written before the schema had a version (no ``v``) replay the same way. A record
of a newer version than this tooldeck knows is refused rather than misread. Records that
carry no gate decision (an unknown tool, invalid parameters, a quota refusal) are skipped
and counted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from tooldeck.audit import SCHEMA_VERSION
from tooldeck.errors import ConfigError
from tooldeck.judge import judge_recorded, recorded_params
from tooldeck.models import Decision, Verdict
from tooldeck.runtime import Runtime

__all__ = ["Change", "ReplayReport", "replay"]

_RANK = {"allow": 0, "ask": 1, "deny": 2}
_NOT_GATED = ("quota_blocked",)


@attrs.frozen
class Change:
    """One recorded call the new policy decides differently.

    :param line: its line in the audit log (1-based).
    :param call_id: the recorded call id.
    :param tool: the tool called.
    :param command: the recorded input.
    :param before: the recorded decision (``verdict`` and provenance) and ``policy``.
    :param after: the new decision (``verdict`` and provenance) and ``policy``.
    :param cut: True when the recorded input was cut (the new policy judged the cut text).
    """

    line: int
    call_id: str
    tool: str
    command: str
    before: Mapping[str, Any]
    after: Mapping[str, Any]
    cut: bool = False

    @property
    def loosened(self) -> bool:
        """True when the new verdict is more permissive (deny → ask/allow, ask → allow)."""
        return _RANK[str(self.after["verdict"])] < _RANK[str(self.before["verdict"])]

    def as_json(self) -> dict[str, Any]:
        """The change as the ``--json`` output lists it."""
        return {"line": self.line, "call_id": self.call_id, "tool": self.tool,
                "command": self.command, "cut": self.cut,
                "change": "loosened" if self.loosened else "tightened",
                "before": dict(self.before), "after": dict(self.after)}


@attrs.frozen
class ReplayReport:
    """What a replay found.

    :param replayed: records judged again.
    :param skipped: call records without a gate decision, and lines that are no record.
    :param changes: the records decided differently, in log order.
    :param policy: the digest of the policy that judged them.
    """

    replayed: int
    skipped: int
    changes: tuple[Change, ...]
    policy: str

    @property
    def loosened(self) -> int:
        """How many calls the new policy would let through more easily."""
        return sum(change.loosened for change in self.changes)


def _decision_json(decision: Decision, policy: str) -> dict[str, Any]:
    return {"verdict": decision.verdict.value, **decision.provenance(), "policy": policy}


def _records(lines: Iterable[str]) -> Iterable[tuple[int, dict[str, Any] | None]]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            yield number, None
            continue
        yield number, record if isinstance(record, dict) else None


def _gated(record: Mapping[str, Any]) -> bool:
    decision = record.get("decision")
    result = record.get("result")
    kind = result.get("type") if isinstance(result, Mapping) else None
    return (isinstance(decision, Mapping) and decision.get("verdict") in _RANK
            and isinstance(record.get("tool"), str) and isinstance(record.get("command"), str)
            and kind not in _NOT_GATED)


def replay(lines: Iterable[str], runtime: Runtime, *, max_value_chars: int) -> ReplayReport:
    """Judge every gated call record of ``lines`` under ``runtime``'s policy.

    :param lines: the audit log's lines.
    :param runtime: the new policy.
    :param max_value_chars: the recording's cut length: an input this long was cut.
    :returns: the report.
    :raises ConfigError: a record of a schema version newer than :data:`SCHEMA_VERSION`.
    """
    policy = runtime.digest()
    replayed = skipped = 0
    changes: list[Change] = []
    for number, record in _records(lines):
        if record is None:
            skipped += 1
            continue
        if record.get("kind", "tool_call") != "tool_call":
            continue
        version = record.get("v", 1)
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise ConfigError(f"line {number}: audit schema version {version!r} is newer than "
                              f"this tooldeck reads ({SCHEMA_VERSION}); upgrade tooldeck")
        if not _gated(record):
            skipped += 1
            continue
        replayed += 1
        tool_id, command = record["tool"], record["command"]
        tool = runtime.tools.get(tool_id)
        params = recorded_params(tool, command) if tool is not None else {}
        turn = record.get("turn")
        caller = record.get("caller_id")
        decision = judge_recorded(runtime, tool_id, params,
                                  caller_id=caller if isinstance(caller, str) else None,
                                  turn=turn if isinstance(turn, int) else None)
        before = {**record["decision"], "policy": record.get("policy")}
        if decision.verdict is Verdict(before["verdict"]):
            continue
        changes.append(Change(number, str(record.get("call_id", "")), tool_id, command,
                              before, _decision_json(decision, policy),
                              cut=len(command) >= max_value_chars and command.endswith("…")))
    return ReplayReport(replayed, skipped, tuple(changes), policy)
