"""Find and redact secrets in text: the one service behind audit records and output filters.

Each rule is an id, a description and a linear-time (RE2) pattern whose group ``secret`` is
the part to hide; the rest of the match (a key name, a URL scheme) stays readable. A
redaction never reveals the value: it is replaced by ``[REDACTED:<rule>]``, and a finding's
:meth:`SecretFinding.warning` names the kind and the line, never the value.

=======================  ================================================================
rule                     what it finds
=======================  ================================================================
private-key              PEM private key blocks (RSA, EC, OpenSSH, PKCS#8, PGP); a block
                         cut before its END line is hidden to the end of the text
aws-access-key-id        ``AKIA…``/``ASIA…`` access key ids
aws-secret-access-key    the 40-character value of ``aws_secret_access_key = …``
github-token             ``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``
gitlab-token             ``glpat-`` personal access tokens
slack-token              ``xoxb-``, ``xoxp-``, ``xoxa-``, ``xoxo-``, ``xoxr-``, ``xoxs-``
slack-webhook            ``https://hooks.slack.com/services/…``
stripe-key               ``sk_live_``/``rk_live_``/``sk_test_`` keys
google-api-key           ``AIza…`` keys
anthropic-key            ``sk-ant-`` keys
openai-key               ``sk-``, ``sk-proj-``, ``sk-svcacct-``, ``sk-admin-`` keys
huggingface-token        ``hf_…`` tokens
npm-token                ``npm_…`` access tokens
pypi-token               ``pypi-AgE…`` upload tokens
sendgrid-api-key         ``SG.….…`` keys
twilio-api-key           ``SK`` + 32 hex digits
digitalocean-token       ``dop_v1_``/``doo_v1_``/``dor_v1_`` tokens
shopify-token            ``shpat_``/``shpca_``/``shppa_``/``shpss_`` tokens
azure-storage-key        ``AccountKey=…==`` in connection strings
jwt                      three base64url segments starting ``eyJ``
discord-bot-token        Discord bot tokens: ``M``/``N``/``O`` + 23-25, 6, 27+ characters
                         in three dot-separated parts
vendor-token             vendor tokens by a known prefix (``xapp-``, ``xoxe-``, ``glrt-``,
                         ``glptt-``, ``dckr_pat_``, ``hvs.``, ``ya29.``, ``sq0atp-``,
                         ``PMAK-``, ``pscale_tkn_``, ``rubygems_``, ``NRAK-``, ``pplx-``,
                         ``xai-``, …, with a digit) and fixed shapes: Mailgun ``key-`` + 32
                         hex, Databricks ``dapi`` + 32 hex, Mailchimp ``…-us1``, Telegram
                         bot ``123456789:AA…``, LaunchDarkly ``api-``/``sdk-`` + UUID
bearer-token             ``Bearer …`` values (with a digit)
url-password             the password in ``scheme://user:password@host``
assignment               ``password=…``, ``api_key: …``, ``client_secret=…``, ``token=…``
                         and the like, the key word ending the key name (a whole quoted
                         value, quotes included, or a bare value of 4+ characters); the
                         key may be camelCase (``adafruitToken``); operators ``=``, ``:``,
                         ``:=``, ``::=``, ``?=``, ``.=``, ``=>``, an XML element
                         (``<apiToken>…``), Go's ``var name string = …``
jenkins-credential       the inside of the ``{…}`` value of a ``<secret>``, ``<password>``,
                         ``<apiToken>`` … element of a Jenkins ``credentials.xml``
property-call            a quoted value given to ``setProperty("…_TOKEN", "…")``,
                         ``os.environ.setdefault("API_KEY", "…")``, ``putenv`` and the like
key-assignment           a 16+ character value with a digit assigned to a ``…key`` name
                         (``bitfinexKey := "…"``, ``Using Key=…``)
=======================  ================================================================

False-positive guards (so source code and command lines the agent reads stay intact):
``bearer-token`` and ``assignment`` values need a digit (or a space inside quotes: a
passphrase; or 16+ letters and nothing else: code identifiers have ``_``, ``.``, ``(``);
placeholders (``$TOKEN``, ``<your key>``, ``{{x}}``, ``%s``, ``********``) and paths
(``/etc/…``, ``./…``, ``~/…``) are not secrets; the key word must end the key name, so
``max_tokens=4096`` and ``password_file = /etc/x`` are left alone.
"""

from __future__ import annotations

import functools
import urllib.parse

import attrs
import re2

__all__ = [
    "SECRET_RULES",
    "SecretFinding",
    "SecretRule",
    "find_secrets",
    "redact",
    "redact_found",
    "redaction_label",
]


@attrs.frozen
class SecretRule:
    """One kind of secret.

    :param rule_id: short stable id, shown in warnings and redaction markers.
    :param description: what the secret is, for the warning.
    :param pattern: RE2 pattern with a group ``secret`` (the part to hide).
    :param needs_digit: only values containing a digit count (also a quoted value with a
        space, or a bare one of 16+ letters); cuts false positives of the broad rules.
    :param skips_placeholders: values that are code (``auth[1]``, ``self.token``) or
        placeholder words (``pass``, ``changeme``, ``password1``) are not secrets.
    :param digit_only: with ``needs_digit``, a value without a digit never counts (no
        passphrase or long-word exception).
    """

    rule_id: str
    description: str
    pattern: str
    needs_digit: bool = False
    skips_placeholders: bool = False
    digit_only: bool = False


_KEY_WORDS = (
    r"(?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?key|private[_-]?key|"
    r"client[_-]?secret|auth[_-]?token|access[_-]?token|refresh[_-]?token|private[_-]?token|"
    r"token|passw(?:or)?d|passwd|pwd|credentials?)"
)

_OPERATOR = (
    r"(?:[ \t]+string)?(?:[\"']?[ \t]*(?:[:?.+]{0,3}=>?|:)[ \t]*|>\s*)"
)
"""Between a key and its value: ``=``, ``:``, ``:=``, ``::=``, ``?=``, ``.=``, ``=>``, ``>``
of an XML element; Go's ``var name string = …``. Only an XML element's value may start on
the next line: a key word that ends a line (``if password:``) is not assigned the next one."""


def _value(quoted: int, bare: int) -> str:
    """A value pattern: quoted (quotes included) of ``quoted``+ characters, or bare.

    :param quoted: least characters between the quotes.
    :param bare: least characters of an unquoted value.
    :returns: an RE2 pattern (a non-capturing group).
    """
    inside, outside = f"{{{quoted},}}", f"{{{bare},}}"
    return (rf"(?:\"[^\"\n]{inside}\"|'[^'\n]{inside}'|`[^`\n]{inside}`|"
            rf"[\"']?[^\s\"'`,;&|<]{outside})")


_LONG_PREFIXES = (
    r"xapp-|xoxe\.xox[bp]-|xoxe-|glft-|glrt-|glptt-|gldt-|glsoat-|glcbt-|HRKU-|api_org_|"
    r"pscale_tkn_|pscale_oauth_|PMAK-|rubygems_|sq0atp-|sq0csp-|AGE-SECRET-KEY-1|"
    r"CLOJARS_|dp\.pt\.|dp\.st\.|dp\.ct\.|duffel_test_|duffel_live_|FLWSECK_TEST-|FLWSECK-|"
    r"sm_aat_|sm_pat_|shippo_live_|shippo_test_|dckr_pat_|hvs\.|hvb\.|ya29\.|lin_api_|"
    r"sntrys_|sntryu_|sgp_|rdme_|pplx-|xai-|sk_pr_|alcht_|NRAK-|NRJS-|NRII-|ntn_|pul-|"
    r"fo1_|atlasv1\.|npm_|oy2|EZAK|ABSK|bedrock-api-key-|AGE-SECRET|sk-or-v1-|gsk_|"
    r"r8_|pcsk_|tvly-|nvapi-|LTAI|glc_|pgar_|ico-|spu-|tfp_|aio_"
)
"""Prefixes of vendor tokens followed by 12+ token characters (with a digit)."""
_SHORT_PREFIXES = r"(?:EAA[A-Z]|AQVN|t1\.)"
"""Short prefixes, only with 20+ letters and digits after them."""

SECRET_RULES: tuple[SecretRule, ...] = (
    SecretRule("private-key", "private key block",
               r"(?P<secret>-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY(?: BLOCK)?-----"
               r"(?:\s|\\[rn])+(?:[A-Za-z-]+: [^\n]*(?:\s|\\[rn])+)*[A-Za-z0-9+/=]{4}"
               r"[\s\S]*?(?:-----END (?:[A-Z0-9]+ )?PRIVATE KEY(?: BLOCK)?-----|\z))"),
    SecretRule("aws-access-key-id", "AWS access key id",
               r"\b(?P<secret>(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16})\b"),
    SecretRule("aws-secret-access-key", "AWS secret access key",
               r"(?i)aws_?secret_?(?:access_?)?key[\"']?[ \t]*[:=][ \t]*[\"']?"
               r"(?P<secret>[A-Za-z0-9/+=]{40})\b"),
    SecretRule("github-token", "GitHub token",
               r"\b(?P<secret>gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})"),
    SecretRule("gitlab-token", "GitLab personal access token",
               r"\b(?P<secret>glpat-[A-Za-z0-9_-]{20,})"),
    SecretRule("slack-token", "Slack token", r"\b(?P<secret>xox[abposr]-[A-Za-z0-9-]{10,})"),
    SecretRule("slack-webhook", "Slack webhook URL",
               r"(?P<secret>https://hooks\.slack\.com/services/[A-Za-z0-9+/]{20,})"),
    SecretRule("stripe-key", "Stripe secret key",
               r"\b(?P<secret>(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,})"),
    SecretRule("google-api-key", "Google API key", r"\b(?P<secret>AIza[0-9A-Za-z_-]{35})"),
    SecretRule("anthropic-key", "Anthropic API key", r"\b(?P<secret>sk-ant-[A-Za-z0-9_-]{20,})"),
    SecretRule("openai-key", "OpenAI API key",
               r"\b(?P<secret>sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})"),
    SecretRule("huggingface-token", "Hugging Face token", r"\b(?P<secret>hf_[A-Za-z0-9]{30,})\b"),
    SecretRule("npm-token", "npm access token", r"\b(?P<secret>npm_[A-Za-z0-9]{36})\b"),
    SecretRule("pypi-token", "PyPI upload token", r"\b(?P<secret>pypi-AgE[A-Za-z0-9_-]{50,})"),
    SecretRule("sendgrid-api-key", "SendGrid API key",
               r"\b(?P<secret>SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})"),
    SecretRule("twilio-api-key", "Twilio API key", r"\b(?P<secret>SK[0-9a-fA-F]{32})\b"),
    SecretRule("digitalocean-token", "DigitalOcean token",
               r"\b(?P<secret>do[por]_v1_[a-f0-9]{64})\b"),
    SecretRule("shopify-token", "Shopify access token",
               r"\b(?P<secret>shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})\b"),
    SecretRule("azure-storage-key", "Azure storage account key",
               r"AccountKey=(?P<secret>[A-Za-z0-9+/]{86}==)"),
    SecretRule("jwt", "JSON Web Token",
               r"\b(?P<secret>eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"),
    SecretRule("bearer-token", "bearer token",
               r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{8,})", needs_digit=True,
               skips_placeholders=True),
    SecretRule("url-password", "password in a URL",
               r"[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:(?P<secret>[^\s@/:]+)@",
               skips_placeholders=True),
    SecretRule("discord-bot-token", "Discord bot token",
               r"\b(?P<secret>[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,})"),
    SecretRule("vendor-token", "vendor API token with a known prefix",
               r"\b(?P<secret>(?:" + _LONG_PREFIXES + r")[A-Za-z0-9_=+/.-]{12,}|(?:" +
               _SHORT_PREFIXES + r")[A-Za-z0-9]{20,}|key-[0-9a-f]{32}|dapi[0-9a-f]{32}|"
               r"[0-9a-f]{32}-us[0-9]{1,2}\b|[0-9]{8,10}:AA[0-9A-Za-z_-]{33}|"
               r"(?:api|sdk)-[0-9a-z]{8}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{12})",
               needs_digit=True),
    SecretRule("jenkins-credential", "Jenkins credential value",
               r"(?i)<(?:secret|password|passphrase|private-?key|api-?token|token)>"
               r"\{(?P<secret>[^<>{}\n]{16,})\}</"),
    SecretRule("property-call", "secret passed to a property or environment setter",
               r"(?i)(?:setProperty|setenv|putenv|setdefault|environ\.set|set)\(\s*[\"']"
               r"[A-Za-z0-9_.-]*" + _KEY_WORDS + r"[\"']\s*,\s*"
               r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+')",
               needs_digit=True, skips_placeholders=True),
    SecretRule("assignment", "password, secret or token assignment",
               r"(?i)(?:^|[^A-Za-z0-9])(?:[A-Za-z0-9]+[_.-]?)*" + _KEY_WORDS + _OPERATOR +
               r"(?P<secret>" + _value(1, 4) + ")",
               needs_digit=True, skips_placeholders=True),
    SecretRule("key-assignment", "long key value assignment",
               r"(?i)(?:^|[^A-Za-z0-9])(?:[A-Za-z0-9]+[_.-]?)*key" + _OPERATOR +
               r"(?P<secret>" + _value(16, 16) + ")",
               needs_digit=True, skips_placeholders=True, digit_only=True),
)  # fmt: skip
"""The rule table, most specific first: at one position the earlier rule names the finding."""

_LONG_WORD = 16
_PASSPHRASE = 12
_PLACEHOLDER_STARTS = ("$", "<", "{", "%", "#", "[REDACTED", "/", "./", "~/")
_PLACEHOLDER_WORDS = frozenset({
    "pass", "password", "passwd", "pwd", "secret", "token", "apikey", "changeme", "changeit",
    "example", "test", "foo", "bar", "baz", "qux", "dummy", "sample", "placeholder", "xxx",
    "yyy", "user", "username", "mypassword", "mysecret", "yourpassword", "yoursecret",
})
"""Words that stand for a value in docs and tests, also with digits added (``password1``)."""
_CODE_CHARS = frozenset("()[]{}*")
_KEYWORD_IN_VALUE = ("password", "passwd", "secret", "token", "privatekey", "apikey")


@functools.cache
def _compiled() -> tuple[tuple[SecretRule, re2._Regexp, int], ...]:
    """Each rule compiled on its own; only needed once the prefilter found something."""
    options = re2.Options()
    options.max_mem = 8 << 20
    compiled = []
    for rule in SECRET_RULES:
        regexp = re2.compile(rule.pattern, options)
        compiled.append((rule, regexp, regexp.groupindex["secret"]))
    return tuple(compiled)


@functools.cache
def _any_rule() -> re2._Regexp:
    """One alternation of every rule, to answer "no secret here" in a single linear scan."""
    parts = []
    for rule in SECRET_RULES:
        body = rule.pattern.replace("(?P<secret>", "(?:")
        if body.startswith("(?i)"):
            body = "(?i:" + body[4:] + ")"
        parts.append(f"(?:{body})")
    options = re2.Options()
    options.max_mem = 32 << 20
    options.never_capture = True
    return re2.compile("|".join(parts), options)




@functools.cache
def _marker() -> re2._Regexp:
    return re2.compile(r"\[REDACTED:[a-z0-9-]+\]")


_MAX_PASSES = 8
_DESCRIPTIONS = {rule.rule_id: rule.description for rule in SECRET_RULES}


def redaction_label(rule_id: str) -> str:
    """The text that replaces a secret value.

    :param rule_id: the rule that found it.
    :returns: ``[REDACTED:rule_id]``.
    """
    return f"[REDACTED:{rule_id}]"


@attrs.frozen
class SecretFinding:
    """One secret found in a text: where it is, never what it is.

    :param rule: the id of the rule that found it.
    :param start: offset of the secret's first character.
    :param end: offset just past the secret.
    :param line: 1-based line number of the secret's start.
    """

    rule: str
    start: int
    end: int
    line: int

    def warning(self) -> str:
        """A warning for a reader: the kind and the line, never the value.

        :returns: e.g. ``possible secret on line 2: GitHub token (github-token); the value
            is redacted``.
        """
        return (
            f"possible secret on line {self.line}: {_DESCRIPTIONS[self.rule]} ({self.rule});"
            " the value is redacted"
        )


def _is_identifier_path(value: str) -> bool:
    """``self.secret_keys``, ``settings.SECRET_KEY``: attribute access in code."""
    parts = value.split(".")
    return len(parts) > 1 and all(part.isidentifier() for part in parts)


def _is_placeholder(value: str, bare: str) -> bool:
    quoted = value[:1] in "\"'"
    if not quoted and (_CODE_CHARS & set(bare) or _is_identifier_path(bare)):
        return True  # an expression: auth[1], b64encode(userpass).decode(), self.token
    plain = urllib.parse.unquote(bare)
    word = "".join(char for char in plain.lower() if char.isalpha())
    if word in _PLACEHOLDER_WORDS and len(word) >= len(plain) - 4:
        return True  # pass, password1, p@ss is not caught: it is not a placeholder word
    if not any(key in word for key in _KEYWORD_IN_VALUE):
        return False
    if quoted or " " in plain:  # naming what it stands for: "a secret", "challengePassword"
        return not any(char.isdigit() for char in plain)
    # a type in an annotation: private_key: PKCS7PrivateKeyTypes
    return plain[:1].isupper() and any(char.islower() for char in plain)


def _is_false_positive(rule: SecretRule, value: str) -> bool:
    bare = value.strip("\"'")
    if bare.startswith(_PLACEHOLDER_STARTS) or len(set(bare)) <= 2:
        return True
    if rule.skips_placeholders and _is_placeholder(value, bare):
        return True
    if not rule.needs_digit or any(char.isdigit() for char in bare):
        return False
    if rule.digit_only:
        return True
    if value[:1] in "\"'" and " " in bare:  # a quoted passphrase
        return len(bare) < _PASSPHRASE
    return not (bare.isalpha() and len(bare) >= _LONG_WORD)  # identifiers have _ . ( [ …


def _encodable(text: str) -> str:
    """``text`` with lone surrogates (which RE2 cannot take) replaced, offsets unchanged."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)
    return text


def find_secrets(text: str) -> list[SecretFinding]:
    """All secrets in ``text``, in order, overlapping findings merged into the first one.

    A match starting inside an earlier ``[REDACTED:…]`` marker is not a new secret, which
    keeps :func:`redact` idempotent. The common case (no secret) costs one RE2 scan.

    :param text: any text.
    :returns: the findings (offsets into ``text``).
    """
    text = _encodable(text)
    if _any_rule().search(text) is None:
        return []
    markers = [(m.start(), m.end()) for m in _marker().finditer(text)]
    spans: list[tuple[int, int, int, str]] = []
    for priority, (rule, pattern, group) in enumerate(_compiled()):
        for match in pattern.finditer(text):
            start, end = match.start(group), match.end(group)
            if _is_false_positive(rule, text[start:end]):
                continue
            if not any(m_start <= start < m_end for m_start, m_end in markers):
                spans.append((start, priority, end, rule.rule_id))
    spans.sort()
    findings: list[SecretFinding] = []
    last_end = -1
    for start, _priority, end, rule_id in spans:
        if start < last_end:
            if end > last_end:  # merge: the union of overlapping secrets is hidden
                findings[-1] = attrs.evolve(findings[-1], end=end)
                last_end = end
            continue
        findings.append(SecretFinding(rule_id, start, end, text.count("\n", 0, start) + 1))
        last_end = end
    return findings


def _replace(text: str, findings: list[SecretFinding]) -> str:
    parts: list[str] = []
    pos = 0
    for finding in findings:
        parts.append(text[pos : finding.start])
        parts.append(redaction_label(finding.rule))
        pos = finding.end
    parts.append(text[pos:])
    return "".join(parts)


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED:<rule>]``.

    A marker can change what its neighbours look like (a word boundary, a ``key=`` now
    followed by a value), so redaction repeats until nothing more is found: the result is
    stable, ``redact(redact(t)) == redact(t)``. A pass only replaces text that starts outside
    the markers, so in practice the second pass finds nothing; the passes are capped anyway.

    :param text: any text.
    :returns: the redacted text (``text`` itself when there is no secret).
    """
    for _ in range(_MAX_PASSES):
        findings = find_secrets(text)
        if not findings:
            break
        text = _replace(text, findings)
    return text


def redact_found(text: str, source: str, findings: list[SecretFinding]) -> str:
    """Redact ``text``, also hiding values that were found in ``source``.

    For a text derived from another (filtered output from raw output): a secret cut by the
    filtering (a private key whose BEGIN line was dropped) is no longer recognisable in
    ``text``, so each value found in ``source`` — and each line of 16+ characters of a
    multi-line value — is replaced wherever it appears, then :func:`redact` runs.

    :param text: the text to clean.
    :param source: the text ``findings`` point into.
    :param findings: :func:`find_secrets` of ``source``.
    :returns: the redacted text.
    """
    replacements: dict[str, str] = {}
    for finding in findings:
        value = source[finding.start : finding.end]
        label = redaction_label(finding.rule)
        replacements[value] = label
        for piece in value.split("\n"):
            if len(piece.strip()) >= 16:
                replacements.setdefault(piece.strip(), label)
    for value in sorted(replacements, key=len, reverse=True):
        text = text.replace(value, replacements[value])
    return redact(text)
