"""The adversarial gate: an LLM judge that may veto a call, never vouch for one.

For every call of a tool not in ``exempt_tools`` the gate sends the judge the policy and the
call (:mod:`.prompt`) and reads its one-word answer:

=====================  ======================================================================
answer                 vote
=====================  ======================================================================
``ALLOW``              none: the gate abstains, so the other gates decide (an ``ALLOW`` can
                       never turn another gate's deny or ask into a run, nor a call no gate
                       allowed into one)
``DENY[: reason]``     deny, ``[adversarial] Tool call denied by policy``
anything else          deny, as ``DENY: unexpected policy LLM response``
timeout / error        deny ``[adversarial] Tool call denied: policy check failed``; with
                       ``fail_open`` the gate abstains instead
=====================  ======================================================================

Like Zeph, the gate keeps the judge's reason and the error out of the refusal the model
reads (a model probing the judge learns nothing from it): each judged call gets an
``adversarial_policy.verdict`` audit event whose ``outcome`` is ``allow``, ``deny:<reason>``
or ``error:<message>``. A user's confirmation settles an ``ask``, never a deny, so confirmed
calls are judged too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tooldeck import hookimpl
from tooldeck.audit import runtime_event
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.plugins.adversarial_gate.client import JudgeError, ask_judge, chat_url
from tooldeck.plugins.adversarial_gate.prompt import (
    parse_reply,
    sanitize_params,
    system_prompt,
    user_message,
)
from tooldeck.plugins.adversarial_gate.settings import AdversarialPolicySettings
from tooldeck.runtime import Runtime

__all__ = ["DENIED", "FAILED", "GATE", "AdversarialGate", "api_key_from"]

GATE = "adversarial_policy"
"""The gate's name in decisions and audit events."""

DENIED = "[adversarial] Tool call denied by policy"
"""The refusal of a call the judge denied."""

FAILED = "[adversarial] Tool call denied: policy check failed"
"""The refusal of a call the judge could not judge (fail closed)."""


class AdversarialGate:
    """Asks an OpenAI-compatible chat endpoint whether each call complies with the policy.

    :param settings: ``[tools.adversarial_policy]``.
    :param policies: the policy rules (from ``policy_file``).
    :param api_key: the API key read from ``api_key_env``, or ``None`` to send none.
    :param source: where the policy came from (the policy file, or the configuration), for
        the decisions' provenance.
    :param policy_file: the policy file, when there is one.
    """

    name = GATE

    def __init__(self, settings: AdversarialPolicySettings, policies: tuple[str, ...],
                 api_key: str | None, source: str, policy_file: Path | None = None) -> None:
        self.settings = settings
        self.url = chat_url(settings.base_url)
        self.system = system_prompt(policies)
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.source = source
        self.policy_file = policy_file
        self.exempt = frozenset(settings.exempt_tools)

    def payload(self, call: ToolCall) -> dict[str, Any]:
        """The request body for ``call``: the model and the two messages.

        :param call: the call to judge.
        :returns: the chat-completions request.
        """
        return {"model": self.settings.model, "messages": [
            {"role": "system", "content": self.system},
            {"role": "user", "content": user_message(call.tool_id, sanitize_params(
                dict(call.params)))},
        ]}

    def _decision(self, verdict: Verdict, reason: str, rule: str) -> Decision:
        return Decision(verdict, reason, gate=GATE, rule=rule, source=self.source)

    def _audit(self, runtime: Runtime, call: ToolCall, outcome: str, blocked: bool) -> None:
        runtime.hooks.audit(runtime_event(f"{GATE}.verdict", {
            "call_id": call.call_id, "tool": call.tool_id, "caller_id": call.caller_id,
            "outcome": outcome, "blocked": blocked}), runtime)

    @hookimpl
    def tooldeck_check_call(
        self, call: ToolCall, tool: ToolDef, runtime: Runtime
    ) -> Decision | None:
        """Deny what the judge denies (or cannot judge, unless ``fail_open``); else abstain."""
        if tool.id in self.exempt:
            return None
        try:
            reply = parse_reply(ask_judge(self.url, self.payload(call), self.headers,
                                          self.settings.timeout_ms))
        except JudgeError as exc:
            self._audit(runtime, call, f"error:{exc}", not self.settings.fail_open)
            if self.settings.fail_open:
                return None
            return self._decision(Verdict.DENY, FAILED, "adversarial-policy.error")
        self._audit(runtime, call, "allow" if reply.allowed else f"deny:{reply.reason}",
                    not reply.allowed)
        if reply.allowed:
            return None
        return self._decision(Verdict.DENY, DENIED, "adversarial-policy.deny")


def api_key_from(settings: AdversarialPolicySettings) -> str | None:
    """The API key named by ``api_key_env``.

    :param settings: the section.
    :returns: the key, or ``None`` when no variable is named.
    :raises KeyError: the variable is named but not set (or empty).
    """
    if settings.api_key_env is None:
        return None
    key = os.environ.get(settings.api_key_env, "")
    if not key:
        raise KeyError(settings.api_key_env)
    return key
