"""What the judge is told and how its answer is read (Zeph §7.5); pure functions, no I/O.

=========================  ================================================================
function                   job
=========================  ================================================================
:func:`sanitize_params`    secret-named keys masked, every value through tooldeck's secret
                           redaction, long strings cut, the JSON text capped
:func:`system_prompt`      the judge's instructions with the policy lines
:func:`user_message`       ``Tool: …`` and the sanitized parameters in a ``json`` fence
:func:`parse_reply`        ``ALLOW`` / ``DENY[: reason]`` / anything else (a deny)
:func:`policy_lines`       a policy file's text as its rule lines
=========================  ================================================================
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from tooldeck.secrets import redact

__all__ = [
    "MAX_JSON_CHARS",
    "MAX_STRING_BYTES",
    "SECRET_KEY_PARTS",
    "Reply",
    "parse_reply",
    "policy_lines",
    "sanitize_params",
    "system_prompt",
    "user_message",
]

SECRET_KEY_PARTS = ("password", "secret", "token", "api_key", "apikey", "private_key",
                    "credential", "auth")
"""A key whose lowercase name contains one of these has its value replaced by a length."""

MAX_STRING_BYTES = 500
"""Longer strings (UTF-8 bytes) are cut to 497 bytes plus ``…``."""

MAX_JSON_CHARS = 2000
"""Longer parameter JSON is cut to 1997 characters plus ``… [truncated]``."""

UNEXPECTED = "unexpected policy LLM response"
DEFAULT_REASON = "policy violation"


def _secret_key(key: str) -> bool:
    lowered = key.lower()
    return any(part in lowered for part in SECRET_KEY_PARTS)


def _cut(text: str) -> str:
    raw = text.encode("utf-8")
    if len(raw) <= MAX_STRING_BYTES:
        return text
    return raw[:MAX_STRING_BYTES - 3].decode("utf-8", errors="ignore") + "…"


def _masked(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return f"[REDACTED:{len(text)}chars]"


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {redact(str(k)): _masked(v) if _secret_key(str(k)) else _clean(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, str):
        return _cut(redact(value))
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return _cut(redact(str(value)))


def sanitize_params(params: dict[str, Any]) -> str:
    """The parameters as the judge sees them: pretty JSON, no secrets, bounded.

    Keys naming a secret (:data:`SECRET_KEY_PARTS`, at any depth) have their value replaced
    by ``[REDACTED:{len}chars]``; every other string, and every key, goes through
    :func:`tooldeck.secrets.redact` and is then cut to :data:`MAX_STRING_BYTES`; the JSON text
    is cut to :data:`MAX_JSON_CHARS`.

    :param params: the call's validated parameters.
    :returns: the JSON text.
    """
    text = json.dumps(_clean(params), indent=2, ensure_ascii=False, default=str)
    if len(text) > MAX_JSON_CHARS:
        text = text[:MAX_JSON_CHARS - 3] + "… [truncated]"
    return text


def policy_lines(text: str) -> tuple[str, ...]:
    """The rules of a policy file: stripped lines, without blank lines and ``#`` comments.

    :param text: the file's content.
    :returns: one rule per line.
    """
    stripped = (line.strip() for line in text.splitlines())
    return tuple(line for line in stripped if line and not line.startswith("#"))


def system_prompt(policies: tuple[str, ...]) -> str:
    """The judge's instructions, listing ``policies`` one ``- `` line each.

    :param policies: the policy rules.
    :returns: the system message's content.
    """
    listed = "\n".join(f"- {rule}" for rule in policies) or "- (no additional policies)"
    return (
        "You are a security policy enforcement agent. Evaluate whether the proposed tool "
        "call complies with the POLICIES below.\n\n"
        f"POLICIES:\n{listed}\n\n"
        "Respond with exactly one of:\n"
        "ALLOW\n"
        "DENY: <brief reason>\n\n"
        "Do not output any other text. If you are uncertain, respond DENY."
    )


def user_message(tool: str, sanitized: str) -> str:
    """The user message: the tool's name and its sanitized parameters in a ``json`` fence.

    :param tool: the tool id.
    :param sanitized: from :func:`sanitize_params`.
    :returns: the user message's content.
    """
    return f"Tool: {tool}\nParameters:\n```json\n{sanitized}\n```"


@attrs.frozen
class Reply:
    """The judge's answer: allowed, or denied with a reason."""

    allowed: bool
    reason: str = ""


def parse_reply(text: str) -> Reply:
    """Read the judge's answer (trimmed, compared upper-case).

    ``ALLOW`` alone or followed by a space or newline allows. Anything starting with ``DENY``
    denies, the reason being the text after the first ``:``, else after the first space,
    else ``policy violation``. Anything else denies with ``unexpected policy LLM response``.

    :param text: the assistant message's content.
    :returns: the reply.
    """
    trimmed = text.strip()
    upper = trimmed.upper()
    if upper == "ALLOW" or upper.startswith(("ALLOW ", "ALLOW\n")):
        return Reply(True)
    if not upper.startswith("DENY"):
        return Reply(False, UNEXPECTED)
    for mark in (":", " "):
        if mark in trimmed:
            reason = trimmed.split(mark, 1)[1].strip()
            return Reply(False, reason or DEFAULT_REASON)
    return Reply(False, DEFAULT_REASON)
