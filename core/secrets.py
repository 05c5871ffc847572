"""Find and redact secrets in text: the shared service behind audit records and output filters.

Each rule is a name and a linear-time (RE2) pattern whose group ``secret`` is the part to
hide; the rest of the match (a key name, a URL scheme) stays readable. A redaction never
reveals the value: it is replaced by ``[REDACTED:<rule>]``.

=====================  ==================================================================
rule                   what it finds
=====================  ==================================================================
private-key            PEM private key blocks (RSA, EC, OpenSSH, PKCS#8, PGP); a block
                       cut before its END line is hidden to the end of the text
aws-access-key-id      ``AKIA…``/``ASIA…`` access key ids
github-token           ``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``
gitlab-token           ``glpat-`` personal access tokens
slack-token            ``xoxb-``, ``xoxp-``, ``xoxa-``, ``xoxr-``, ``xoxs-`` tokens
openai-key             ``sk-`` / ``sk-proj-`` keys
anthropic-key          ``sk-ant-`` keys
google-api-key         ``AIza…`` keys
stripe-key             ``sk_live_``/``rk_live_`` keys
jwt                    three base64url segments starting ``eyJ``
bearer-token           ``Authorization: Bearer …`` / ``Bearer …`` values
url-password           the password in ``scheme://user:password@host``
assignment             ``password=…``, ``api_key: …``, ``secret=…``, ``token=…`` and the
                       like (a whole quoted value, quotes included, or a bare value of 4+
                       characters)
=====================  ==================================================================
"""

from __future__ import annotations

import attrs
import re2

__all__ = ["SECRET_RULES", "SecretFinding", "find_secrets", "redact"]

_KEY_WORDS = (
    r"(?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?key|private[_-]?key|"
    r"client[_-]?secret|auth[_-]?token|access[_-]?token|refresh[_-]?token|token|"
    r"passw(?:or)?d|passwd|pwd|credentials?)"
)

SECRET_RULES: tuple[tuple[str, str], ...] = (
    (
        "private-key",
        r"(?P<secret>-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
        r"(?:-----END (?:[A-Z0-9]+ )?PRIVATE KEY(?: BLOCK)?-----|\z))",
    ),
    ("aws-access-key-id", r"\b(?P<secret>(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})\b"),
    (
        "github-token",
        r"\b(?P<secret>(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}))",
    ),
    ("gitlab-token", r"\b(?P<secret>glpat-[A-Za-z0-9_-]{20,})"),
    ("slack-token", r"\b(?P<secret>xox[baprs]-[A-Za-z0-9-]{10,})"),
    ("anthropic-key", r"\b(?P<secret>sk-ant-[A-Za-z0-9_-]{20,})"),
    ("openai-key", r"\b(?P<secret>sk-(?:proj-)?[A-Za-z0-9_-]{20,})"),
    ("google-api-key", r"\b(?P<secret>AIza[0-9A-Za-z_-]{35})"),
    ("stripe-key", r"\b(?P<secret>(?:sk|rk)_live_[0-9A-Za-z]{16,})"),
    ("jwt", r"\b(?P<secret>eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"),
    ("bearer-token", r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{8,})"),
    ("url-password", r"[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:(?P<secret>[^\s@/]+)@"),
    (
        "assignment",
        r"(?i)\b[A-Za-z0-9_.-]*" + _KEY_WORDS + r"[A-Za-z0-9_.-]*[\"']?\s*[:=]\s*"
        r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+'|[\"']?[^\s\"',;&|]{4,})",
    ),
)
"""The rule table: ``(name, pattern)``; each pattern has a ``secret`` group."""


def _compile() -> tuple[tuple[str, re2._Regexp, int], ...]:
    options = re2.Options()
    options.max_mem = 8 << 20
    compiled = []
    for name, pattern in SECRET_RULES:
        regexp = re2.compile(pattern, options)
        compiled.append((name, regexp, regexp.groupindex["secret"]))
    return tuple(compiled)


def _any_rule() -> re2._Regexp:
    """One alternation of every rule, to answer "no secret here" in a single linear scan."""
    parts = []
    for _name, pattern in SECRET_RULES:
        body = pattern.replace("(?P<secret>", "(?:")
        if body.startswith("(?i)"):
            body = "(?i:" + body[4:] + ")"
        parts.append(f"(?:{body})")
    options = re2.Options()
    options.max_mem = 32 << 20
    return re2.compile("|".join(parts), options)


_COMPILED = _compile()
_ANY = _any_rule()
_MARKER = re2.compile(r"\[REDACTED:[a-z0-9-]+\]")
_MAX_PASSES = 8


@attrs.frozen
class SecretFinding:
    """One secret found in a text.

    :param rule: the rule that found it.
    :param start: offset of the secret's first character.
    :param end: offset just past the secret.
    :param line: 1-based line number of the secret's start.
    """

    rule: str
    start: int
    end: int
    line: int


def find_secrets(text: str) -> list[SecretFinding]:
    """All secrets in ``text``, in order, overlapping findings merged into the first one.

    A match starting inside an earlier ``[REDACTED:…]`` marker is not a new secret, which
    keeps :func:`redact` idempotent.
    """
    if _ANY.search(text) is None:  # the common case: one scan instead of one per rule
        return []
    markers = [(m.start(), m.end()) for m in _MARKER.finditer(text)]
    spans: list[tuple[int, int, str]] = []
    for name, pattern, group in _COMPILED:
        for match in pattern.finditer(text):
            start, end = match.start(group), match.end(group)
            if not any(m_start <= start < m_end for m_start, m_end in markers):
                spans.append((start, end, name))
    spans.sort()
    findings: list[SecretFinding] = []
    last_end = -1
    for start, end, name in spans:
        if start < last_end:
            if end > last_end:  # merge: the union of overlapping secrets is hidden
                findings[-1] = attrs.evolve(findings[-1], end=end)
                last_end = end
            continue
        findings.append(SecretFinding(name, start, end, text.count("\n", 0, start) + 1))
        last_end = end
    return findings


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED:<rule>]``.

    A marker can change what its neighbours look like (a word boundary, a ``key=`` now
    followed by a value), so redaction repeats until nothing more is found: the result is
    stable, ``redact(redact(t)) == redact(t)``. A pass only replaces text that starts outside
    the markers, so in practice the second pass finds nothing; the passes are capped anyway.
    """
    for _ in range(_MAX_PASSES):
        findings = find_secrets(text)
        if not findings:
            break
        parts: list[str] = []
        pos = 0
        for f in findings:
            parts.append(text[pos : f.start])
            parts.append(f"[REDACTED:{f.rule}]")
            pos = f.end
        parts.append(text[pos:])
        text = "".join(parts)
    return text
