"""Find and redact secrets in text: the one service behind audit records and output filters.

Each rule is an id, a description and a linear-time (RE2) pattern whose group ``secret`` is
the part to hide; the rest of the match (a key name, a URL scheme) stays readable. A
redaction never reveals the value: it is replaced by ``[REDACTED:<rule>]``, and a finding's
:meth:`SecretFinding.warning` names the kind and the line, never the value.

Two kinds of rule. **Format rules** recognise a credential by its shape alone (a PEM private
key block, a JWT, a vendor's prefix, charset and length: :mod:`tooldeck.secret_formats`).
**Name rules** find a name that says secret (``password=``, ``api_key:``, ``Bearer``,
``user:password@``) and take what follows only if it looks like a credential: the checks of
:mod:`tooldeck.secret_values` reject code (``self.secret_keys[-1]``, ``GoogleCredentials``),
placeholders, examples and fillers, and name the check that fired.

=======================  ================================================================
rule                     what it finds
=======================  ================================================================
private-key              PEM private key blocks (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted,
                         PGP); a block cut before its END line is hidden to the end
aws-access-key-id        ``AKIA…``/``ASIA…``/``ABIA…``/``ACCA…``/``A3T…`` access key ids
aws-secret-access-key    the 40-character value of ``aws_secret_access_key = …``
github-token             ``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``
gitlab-token             ``glpat-`` personal access tokens
slack-token              ``xoxb-``, ``xoxp-``, ``xoxa-``, ``xoxo-``, ``xoxr-``, ``xoxs-``
slack-webhook            ``https://hooks.slack.com/services|workflows|triggers/…``
stripe-key               ``sk_``/``rk_`` + ``live_``/``test_``/``prod_`` keys
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
azure-identifiable-key   Azure's identifiable keys (storage, Cosmos DB, Service Bus, Event Hubs,
                         Relay, Functions, Search, Cache for Redis, IoT, API Management,
                         Container Registry, Batch, ML, SQL, Event Grid): base64 with the
                         service's fixed four-character signature before a six-character tail
jwt                      ``header.claims[.signature]`` whose parts decode to JSON objects
                         (also base64-encoded once more, ``ZXlK…``)
vendor-token             about a hundred more vendors' formats, each a documented prefix,
                         charset and length (:data:`tooldeck.secret_formats.VENDOR_FORMATS`)
vendor-prefix            a known vendor prefix followed by 12+ token characters with a digit
                         (lengths the table does not list)
discord-bot-token        Discord bot tokens: three dot-separated parts
bearer-token             ``Bearer …`` values
authorization-header     ``Authorization: Basic …``/``Token …``/``OAuth …`` (Twitch)/bare
                         values of the header
authorization-argument   the header given as a setter's two arguments, with its scheme
                         (``Header.Set("Authorization", "Token …")``)
url-password             the password in ``scheme://user:password@host`` (also ``:password@``)
url-token                a key-shaped user of a URL with no password (``https://<token>@host``)
teams-webhook            Microsoft Teams incoming webhook URLs (``*.webhook.office.com``)
webex-bot-token          Webex bot tokens: 64 characters, ``_``, 4, ``_``, a UUID-like part
cloudinary-url           the ``api_key:api_secret`` of ``cloudinary://…@cloud``
cloudinary-key           a 15-digit Cloudinary API key within 40 characters of ``cloudinary``
npmrc-token              the value of an ``.npmrc`` line ``//registry/:_authToken=…``, any
                         literal (``${NPM_TOKEN}`` excepted)
connection-password      the ``password=``/``pwd=`` of a JDBC URL or ADO.NET/ODBC connection
                         string, any literal (``…;Password=tiger``)
connection-userinfo      the password of a JDBC URL's ``user:password@`` (Oracle:
                         ``thin:user/password@``), any literal
curl-user                the password of ``curl -u user:password``
curl-user-token          a key-shaped user of ``curl -u KEY:`` (Stripe-style: the key is the
                         user, the password empty)
jenkins-credential       the inside of the ``{…}`` value of a ``<secret>``, ``<password>``,
                         ``<apiToken>`` … element of a Jenkins ``credentials.xml`` (also
                         ``<id>``: braces hold an encrypted value, never a plain id)
property-call            a value given to ``setProperty("…_TOKEN", "…")``,
                         ``os.environ.setdefault("API_KEY", "…")``, ``putenv`` and the like
xml-setting              ``<add key="…Password" value="…"/>`` (.NET, NuGet configuration)
option-value             the value after a command-line option naming a secret, with a space
                         (``--token abc…``, ``--db-password …``; ``--token=…`` is an assignment)
spaced-value             a key-shaped value (16+ characters, a digit) a space after a secret's
                         name, as logs and prose write it (``connecting with api-key 3f9a…``)
assignment               ``password=…``, ``api_key: …``, ``client_secret=…``, ``token=…``,
                         ``auth``, ``pass``, ``passphrase``, ``accessId``…: the key word ends
                         the key name (``max_tokens=4096`` is left alone), which may be camelCase
                         (``adafruitToken``); operators ``=``, ``:``, ``:=``, ``::=``, ``?=``,
                         ``.=``, ``=>``, an XML element (``<apiToken>…``), Go's ``var name
                         string = …``; env dumps, logs, YAML, INI, JSON alike; a quoted
                         literal given to a setter named after it (``setApiKey("…")``)
service-assignment       a key-shaped value assigned to a service's name (``railway = '…'``)
key-assignment           a 16+ character value assigned to a ``…key`` name (``bitfinexKey
                         := "…"``, ``Using Key=…``); 8+ when a service's name comes
                         within 40 characters before the name
service-nearby           a key-shaped value (a digit, or random letters) within 40 characters
                         after a service's name (a log line's ``twitch … with k3j9…``),
                         nothing path-like between
config-line              a whole line ``NAME=value`` / ``export NAME=value`` / ``NAME: value``
                         whose upper-case name says secret: a passphrase of words counts
                         (``DB_PASSWORD=correcthorsebatterystaple``)
=======================  ================================================================

The name rules' values pass :data:`tooldeck.secret_values.GENERIC_CHECKS` (or the bearer,
URL, configuration and connection-string variants); their names pass
:func:`tooldeck.secret_values.name_rejection`. A service's name within 40 characters before
a secret's name vouches for its value: it overrules the ``plain`` check for random letters
(:func:`tooldeck.secret_values.random_letters`) and ``short-key``, never the others.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

import attrs
import re2

from tooldeck.secret_formats import vendor_length, vendor_pattern
from tooldeck.secret_services import NEARBY_NAMES, SERVICE_NAMES
from tooldeck.secret_values import (
    AZURE_KEY_LENGTH,
    BEARER_CHECKS,
    CONFIG_CHECKS,
    CONNECTION_CHECKS,
    DIGIT,
    GENERIC_CHECKS,
    JWT_CHECKS,
    KEY_SHAPE,
    NEARBY_CHECKS,
    REFERENCE_CHECKS,
    SHORT_KEY,
    SNAKE_NAME,
    URL_CHECKS,
    WORDS,
    Check,
    host_rejection,
    name_rejection,
    random_letters,
    value_rejection,
)

__all__ = [
    "SECRET_RULES",
    "Rejection",
    "SecretFinding",
    "SecretRule",
    "find_secrets",
    "redact",
    "redact_found",
    "redaction_label",
    "rejection",
    "rejections",
]


@attrs.frozen
class SecretRule:
    """One kind of secret.

    :param rule_id: short stable id, shown in warnings and redaction markers.
    :param description: what the secret is, for the warning.
    :param pattern: RE2 pattern with a group ``secret`` (the part to hide); optionally
        ``name`` (the secret's name), ``op`` (what joins name and value) and ``host`` (a
        URL's host), which the checks read.
    :param checks: the value checks (:mod:`tooldeck.secret_values`) a match must pass; none
        for format rules.
    :param length: for a rule whose pattern finds candidates: the length of the secret at
        the start of a candidate, ``None`` when it is not one.
    :param trigger: what the one scan of every rule (:func:`_rule_set`) looks for in place
        of the pattern: a cheap part every match holds, for a pattern whose long runs of
        common characters would make that scan slow; ``None``: the pattern itself.
    """

    rule_id: str
    description: str
    pattern: str
    checks: tuple[Check, ...] = ()
    length: Callable[[str], int | None] | None = None
    trigger: str | None = None


_KEY_WORDS = (
    r"(?:(?:api|auth|service|account|db|database|priv|private|client|access|secret)[_-]?key|"
    r"apikey|secret|client[_-]?secret|token|passw(?:or)?d|passwd|passphrase|pwd|pass|"
    r"credentials?|auth|contrase(?:ñ|n)a|access[_-]?(?:key[_-]?)?id)(?:[_-]?base|[_-]v?[0-9]{1,2}|[_-]?(?:value|val|str|"
    r"string|data|b64|base64|hex|raw|plain|enc|encoded|prod|live|dev|test|hash))?"
)
"""Words that end a secret's name, the spellings of detect-secrets' keyword list among them
(``db_key``, ``priv_key``, ``contraseña``); a version or number (``API_KEY_2``, ``token_v2``)
or a word about the value's form or stage (``tokenValue``, ``password_hash``, ``API_KEY_PROD``)
may follow, and Rails' ``secret_key_base`` is a secret too. An access id (``accessId``,
``access_key_id``) is the first half of a key pair, issued with its secret (Sumo Logic,
Alibaba Cloud, AWS): trufflehog reports it with the key."""

_SPACED_KEY_WORDS = (
    r"(?:api[_-]?key|apikey|(?:access|secret|private)[_-]?key|token|secret|passw(?:or)?d|"
    r"client[_-]?secret)"
)
"""The names that say credential on their own in prose (``with api-key …``, ``token …``):
not ``pass``, ``auth`` or ``key``, which are verbs and nouns of ordinary sentences too."""

_OPERATOR = (
    r"(?P<op>(?:[ \t]+string|\[[0-9]*\])?"
    r"(?:[\"']?\]?[ \t]*(?:[:?.+]{0,3}=>?|:|\|\||\?\?)[ \t]*@?|>\s*|\([ \t]*))"
)
"""Between a key and its value: ``=``, ``:``, ``:=``, ``::=``, ``?=``, ``.=``, ``=>``, ``>``
of an XML element; Go's ``var name string = …``; a subscript (``config["password"] =``),
a C array (``char password[32] =``), a fallback (``process.env.TOKEN || "…"``, ``??``), an
Objective-C string (``@"…"``). Only an XML element's value may start on
the next line: a key word that ends a line (``if password:``) is not assigned the next one.
A call named after the secret takes a quoted literal (``client.setApiKey("…")``); the
lookups and checks among such calls are told apart by their names
(:func:`tooldeck.secret_values.name_rejection`)."""

_NAME_START = r"(?:^|[^A-Za-z0-9])"
"""A name starts a word: ``bypass`` is a name ending in ``pass``; so is ``compass``."""


def _value(quoted: int, bare: int) -> str:
    """A value pattern: quoted (quotes included) of ``quoted``+ characters, or bare.

    :param quoted: least characters between the quotes.
    :param bare: least characters of an unquoted value.
    :returns: an RE2 pattern (a non-capturing group).
    """
    inside, outside = f"{{{quoted},}}", f"{{{bare},}}"
    prefix = "[bBrRuU]{0,2}"  # Python's b"…", r'…'
    return (rf"(?:{prefix}\"[^\"\n]{inside}\"|{prefix}'[^'\n]{inside}'|`[^`\n]{inside}`|"
            rf"[\"']?[^\s\"'`,;&|<\\]{outside})")


_LONG_PREFIXES = (
    r"xapp-|xoxe\.xox[bp]-|xoxe-|glft-|glrt-|glptt-|gldt-|glsoat-|glcbt-|HRKU-|api_org_|"
    r"pscale_tkn_|pscale_oauth_|pscale_pw_|PMAK-|rubygems_|sq0atp-|sq0csp-|AGE-SECRET-KEY-1|"
    r"CLOJARS_|dp\.pt\.|dp\.st\.|dp\.ct\.|duffel_test_|duffel_live_|FLWSECK_TEST-|FLWSECK-|"
    r"sm_aat_|sm_pat_|shippo_live_|shippo_test_|dckr_pat_|hvs\.|hvb\.|ya29\.|lin_api_|"
    r"sntrys_|sntryu_|sgp_|rdme_|pplx-|xai-|sk_pr_|alcht_|NRAK-|NRJS-|NRII-|ntn_|pul-|"
    r"fo1_|atlasv1\.|npm_|oy2|EZAK|ABSK|bedrock-api-key-|sk-or-v1-|gsk_|"
    r"r8_|pcsk_|tvly-|nvapi-|LTAI|glc_|pgar_|ico-|spu-|tfp_|aio_"
)
"""Prefixes of vendor tokens followed by 12+ token characters (with a digit)."""
_CONFIG_NAME = (
    r"[A-Z0-9_]*(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|"
    r"(?:API|SECRET|ACCESS|PRIVATE|AUTH|MASTER|CLIENT)_?KEY)(?:_?[0-9]{1,2})?"
)
"""An environment variable's name that says secret: upper case, the key word last."""
_CONFIG_LINE = (
    r"(?m)^[ \t]*(?:export[ \t]+|ENV[ \t]+|-[ \t]+)?(?P<name>" + _CONFIG_NAME + r")"
    r"(?P<op>=|:[ \t]+)(?P<secret>\"[^\"\n]{8,}\"|'[^'\n]{8,}'|[^\s\"'`,;()]{8,})[ \t]*\r?$"
)
"""A whole line of configuration: ``NAME=value`` (env file, ``export``, Dockerfile ``ENV``,
a compose list item) or ``NAME: value`` (compose, CI YAML), the name an upper-case
environment variable's, ``=`` without spaces, the value running to the end of the line.
Code assigns with spaces (``TOKEN = token``), passes keyword arguments with a comma
(``TOKEN=token,``) and names in lower or mixed case; configuration does not."""
_JDBC = r"\bjdbc:[A-Za-z0-9]{2,12}:"
_CONNECTION_PASSWORD = (
    r"(?i)(?:" + _JDBC + r"[^\s\"'<>]*?[?&;:]|;[ \t]*)(?:password|passwd|pwd)="
    r"(?P<secret>\{[^}\n]+\}|[^;&\s\"'<>{][^;&\s\"'<>]*)"
)
"""A connection string's password parameter: JDBC (``?password=``, ``;password=``) and
ADO.NET/ODBC (``…;Password=…``); a value holding ``;`` or other specials is written in
braces (``Password={a;b}``), the braces included in the match."""
_AZURE_SIGNATURES = "|".join((
    r"\+ASt", r"\+ACR", r"\+ASb", r"\+AEh", r"\+ARm", r"\+ABa", r"\+AMC", r"\+SQL",
    "AzFu", "ACDb", "AzCa", "AzSe", "AIoT", "APIM", "AZEG", "/AM7",
))
"""The fixed signatures Azure writes into its identifiable keys, one per service
(microsoft/security-utilities, ``IdentifiableMetadata``): storage ``+ASt``, Container
Registry ``+ACR``, Service Bus ``+ASb``, Event Hubs ``+AEh``, Relay ``+ARm``, Batch ``+ABa``,
ML classic ``+AMC``, SQL ``+SQL``, Functions ``AzFu``, Cosmos DB ``ACDb``, Cache for Redis
``AzCa``, Search ``AzSe``, IoT ``AIoT``, API Management ``APIM``, Event Grid ``AZEG``, ML
``/AM7``."""
_CONNECTION_USERINFO = (
    r"(?i)" + _JDBC + r"(?:[A-Za-z0-9]{2,12}:)?(?://)?[^\s\"'<>/:@;?=]+[:/]"
    r"(?P<secret>[^\s\"'<>/@;?]+)@"
)
"""A JDBC URL's ``user:password@`` or Oracle's ``thin:user/password@``."""
_NEAR_JOIN = (
    r"(?:[ \t]*(?:=>|:=|[=,(>])[ \t]*[\"'`]?|[ \t]*:(?:[ \t]+[\"'`]?|[\"'`])|\s+[\"'`]?|[\"'`])"
)
"""What joins a name to its value: an operator, a quote, a space; a colon only before a space
or a quote (``h1:UFat…`` in go.sum is a hash's label, not a name's value)."""
_SERVICE_NEARBY = (
    r"(?i)(?:^|[^A-Za-z0-9$])(?P<name>" + "|".join(NEARBY_NAMES) + r")"
    r"[A-Za-z0-9_ \t\n.\[\]-]{0,40}?" + _NEAR_JOIN + r"(?P<secret>[A-Za-z0-9_-]{20,})\b"
)
"""A service's name, then within 40 characters (trufflehog's "keyword near the token"; a log
line's end and the next line's ``[DEBUG] Using key`` among them) what joins a name to a value,
then the value; no ``/``, ``@``, ``:`` or ``+`` on the way (a path, an image digest, a go.sum
hash is not a key)."""
_NPMRC_TOKEN = r"(?:^|[\s\"'])//[^\s]+/:_authToken=[ \t]*(?P<secret>[^\s\"']+)"
"""An ``.npmrc`` registry credential line (npm documents ``//registry/:_authToken=…``)."""
_SHORT_PREFIXES = r"(?:EAA[A-Z]|AQVN|t1\.)"
"""Short prefixes, only with 20+ letters and digits after them."""

SECRET_RULES: tuple[SecretRule, ...] = (
    SecretRule("private-key", "private key block",
               r"(?P<secret>-{4,5} ?BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)? ?-{4,5}"
               r"(?:\s|\\[rn])+(?:[A-Za-z-]+: [^\n]*(?:\s|\\[rn])+)*[A-Za-z0-9+/=]{4}"
               r"[\s\S]*?(?:-{4,5} ?END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)? ?-{4,5}|\z)|"
               r"PuTTY-User-Key-File-[0-9]+: [\s\S]*?(?:Private-MAC: [0-9a-fA-F]+|\z))"),
    SecretRule("aws-access-key-id", "AWS access key id",
               r"\b(?P<secret>(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{16})\b"),
    SecretRule("aws-secret-access-key", "AWS secret access key",
               r"(?i)(?:aws_?secret_?(?:access_?)?key[\"']?[ \t]*[:=][ \t]*[\"']?|"
               r"aws[A-Za-z0-9_.-]{0,20}?(?:key|pwd|pw|password|pass|token)[^\n'\"]{0,20}?"
               r"[\"'])(?P<secret>[A-Za-z0-9/+=]{40})\b"),
    SecretRule("github-token", "GitHub token",
               r"\b(?P<secret>gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    SecretRule("gitlab-token", "GitLab personal access token",
               r"\b(?P<secret>glpat-[A-Za-z0-9_-]{20,}(?:\.[0-9a-z]{2}\.?[0-9a-z]{7,9})?)"),
    SecretRule("slack-token", "Slack token", r"\b(?P<secret>xox[abposr]-[A-Za-z0-9-]{10,})"),
    SecretRule("slack-webhook", "Slack webhook URL",
               r"(?P<secret>https://hooks\.slack\.com/(?:services|workflows|triggers)/"
               r"[A-Za-z0-9+/]{20,})"),
    SecretRule("stripe-key", "Stripe secret key",
               r"\b(?P<secret>(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{10,})"),
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
    SecretRule("azure-identifiable-key", "Azure identifiable key (signature inside the key)",
               r"(?:^|[^A-Za-z0-9+/_-])(?P<secret>[A-Za-z0-9+/_-]+"
               r"(?:" + _AZURE_SIGNATURES + r")[A-Za-z0-9+/_-]{5,6}={0,2})(?:[^A-Za-z0-9+/_=-]|\z)",
               (AZURE_KEY_LENGTH,), trigger=_AZURE_SIGNATURES),
    SecretRule("jwt", "JSON Web Token",
               r"\b(?P<secret>eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}"
               r"(?:\.[A-Za-z0-9_-]+)*\.?|ZXlK[A-Za-z0-9+/]{40,}={0,2})", JWT_CHECKS),
    SecretRule("vendor-token", "vendor API token of a known format", vendor_pattern(),
               length=vendor_length),
    SecretRule("vendor-prefix", "vendor API token with a known prefix",
               r"\b(?P<secret>(?:" + _LONG_PREFIXES + r")[A-Za-z0-9_=+/.-]{12,}|" +
               _SHORT_PREFIXES + r"[A-Za-z0-9]{20,})", (DIGIT,)),
    SecretRule("webex-bot-token", "Webex bot token",
               r"\b(?P<secret>[A-Za-z0-9]{64}_[A-Za-z0-9]{4}_[A-Za-z0-9]{8}-[A-Za-z0-9]{4}-"
               r"[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{12})\b"),
    SecretRule("cloudinary-url", "Cloudinary API key and secret in CLOUDINARY_URL",
               r"\bcloudinary://(?P<secret>[0-9]{6,}:[A-Za-z0-9_-]+)@"),
    SecretRule("cloudinary-key", "Cloudinary API key (15 digits) after the service's name",
               r"(?i)\bcloudinary[A-Za-z0-9_ \t\n.\[\]-]{0,40}?" + _NEAR_JOIN +
               r"(?P<secret>[0-9]{15})\b"),
    SecretRule("npmrc-token", "npm registry token in .npmrc", _NPMRC_TOKEN, REFERENCE_CHECKS),
    SecretRule("discord-bot-token", "Discord bot token",
               r"\b(?P<secret>[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,})"),
    SecretRule("bearer-token", "bearer token",
               r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{8,})", BEARER_CHECKS),
    SecretRule("authorization-header", "Authorization header value",
               r"(?i)\bauthorization[\"']?[ \t]*[:=][ \t]*[\"']?"
               r"(?:(?:basic|token|digest|apikey|api-key|sso-key|key|bot|bearer|oauth)[ \t]+)?"
               r"(?P<secret>[A-Za-z0-9._~+/=:-]{8,})", BEARER_CHECKS),
    SecretRule("authorization-argument", "Authorization header value given to a setter",
               r"(?i)\bauthorization[\"'][ \t]*,[ \t]*[\"']"
               r"(?:basic|token|digest|apikey|api-key|sso-key|key|bot|oauth)[ \t]+"
               r"(?P<secret>[A-Za-z0-9._~+/=:-]{8,})", BEARER_CHECKS),
    SecretRule("teams-webhook", "Microsoft Teams incoming webhook URL",
               r"(?i)https://(?:[a-z0-9-]+\.webhook\.office\.com/webhookb2|"
               r"outlook\.office(?:365)?\.com/webhook)/(?P<secret>[A-Za-z0-9@/_-]{40,})"),
    SecretRule("url-password", "password in a URL",
               r"[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]*:(?P<secret>[^\s@/]+)@"
               r"(?P<host>[A-Za-z0-9.-]*)", URL_CHECKS),
    SecretRule("url-token", "token as the user of a URL",
               r"[A-Za-z][A-Za-z0-9+.-]*://(?P<secret>[A-Za-z0-9_-]{20,})@"
               r"(?P<host>[A-Za-z0-9.-]*)", (*URL_CHECKS, DIGIT, KEY_SHAPE, WORDS)),
    SecretRule("connection-password", "password of a connection string",
               _CONNECTION_PASSWORD, CONNECTION_CHECKS),
    SecretRule("connection-userinfo", "password in a JDBC URL", _CONNECTION_USERINFO,
               CONNECTION_CHECKS),
    SecretRule("curl-user", "password given to curl -u",
               r"\bcurl\b[^\n]*?[ \t](?:-u|--user)(?:[ \t]+|=)[\"']?[^\s:\"']*:"
               r"(?P<secret>[^\s\"']+)", URL_CHECKS),
    SecretRule("curl-user-token", "API key given to curl -u as the user, no password",
               r"\bcurl\b[^\n]*?[ \t](?:-u|--user)(?:[ \t]+|=)[\"']?"
               r"(?P<secret>[A-Za-z0-9_-]{20,}):(?:[\s\"']|\z)",
               (*URL_CHECKS, DIGIT, KEY_SHAPE, WORDS)),
    SecretRule("jenkins-credential", "Jenkins credential value",
               r"(?i)<(?:secret|password|passphrase|private-?key|api-?token|token|id)>"
               r"\{(?P<secret>[^<>{}\n]{16,})\}</"),
    SecretRule("property-call", "secret passed to a property or environment setter",
               r"(?i)(?:set[A-Za-z]*|get[A-Za-z]*|add[A-Za-z]*|putenv|fetch|env)\(\s*[\"']"
               r"(?P<name>[A-Za-z0-9_.-]*" + _KEY_WORDS + r")[\"']\s*,\s*"
               r"(?P<secret>\"[^\"\n]+\"|'[^'\n]+')", GENERIC_CHECKS),
    SecretRule("xml-setting", "secret in an XML key/value setting",
               r"(?i)<add\s+key=[\"'](?P<name>[A-Za-z0-9_.:-]*" + _KEY_WORDS + r")[\"']\s+"
               r"value=(?P<secret>\"[^\"\n]+\"|'[^'\n]+')", GENERIC_CHECKS),
    SecretRule("assignment", "password, secret or token assignment",
               r"(?i)" + _NAME_START + r"(?P<name>(?:[A-Za-z0-9]+[_.-]?)*" + _KEY_WORDS + ")" +
               _OPERATOR + r"(?P<secret>" + _value(1, 4) + ")", GENERIC_CHECKS),
    SecretRule("option-value", "secret given to a command-line option",
               r"(?i)(?:^|[\s\"'])--(?P<name>(?:[A-Za-z0-9]+[_-])*" + _KEY_WORDS + r")"
               r"(?P<op>[ \t]+)(?P<secret>" + _value(8, 8) + ")", GENERIC_CHECKS),
    SecretRule("spaced-value", "key-shaped value a space after a secret's name",
               r"(?i)(?:^|[\s\"'(\[])(?P<name>(?:[A-Za-z0-9]+[_-])*" + _SPACED_KEY_WORDS + r")"
               r"(?P<op>[ \t]+)(?P<secret>[A-Za-z0-9][A-Za-z0-9+/_.|-]{15,}={0,2})"
               r"(?:[\s,;)\]]|\z)",
               (*GENERIC_CHECKS, DIGIT, KEY_SHAPE, WORDS, SNAKE_NAME)),
    SecretRule("service-assignment", "key-shaped value assigned to a service's name",
               r"(?i)(?:^|[^A-Za-z0-9_.$])(?P<name>" + "|".join(SERVICE_NAMES) + ")" +
               _OPERATOR + r"(?P<secret>" + _value(16, 16) + ")",
               (*GENERIC_CHECKS, DIGIT, KEY_SHAPE)),
    SecretRule("key-assignment", "long key value assignment",
               r"(?i)" + _NAME_START + r"(?P<name>(?:[A-Za-z0-9]+[_.-]?)*key)" + _OPERATOR +
               r"(?P<secret>" + _value(8, 8) + ")", (*GENERIC_CHECKS, SHORT_KEY)),
    SecretRule("service-nearby", "key-shaped value a few words after a service's name",
               _SERVICE_NEARBY, NEARBY_CHECKS),
    SecretRule("config-line", "secret in a line of configuration", _CONFIG_LINE,
               CONFIG_CHECKS),
)  # fmt: skip
"""The rule table, most specific first: at one position the earlier rule names the finding."""

_GROUPS = ("secret", "name", "op", "host")


@functools.cache
def _compiled(index: int) -> tuple[SecretRule, re2._Regexp, dict[str, int]]:
    """Rule ``index`` compiled on its own, with its groups' numbers.

    Compiled on first use: only the rules the set scan (:func:`_rule_set`) found somewhere
    ever run.
    """
    rule = SECRET_RULES[index]
    options = re2.Options()
    options.max_mem = 8 << 20
    regexp = re2.compile(rule.pattern, options)
    return rule, regexp, dict(regexp.groupindex)


@functools.cache
def _rule_set() -> re2.Set:
    """Every rule in one RE2 set, to say in one linear scan which rules match at all.

    Text without a secret costs that one scan; text with one runs only the rules that hit.
    """
    options = re2.Options()
    options.max_mem = 64 << 20
    options.never_capture = True
    rules = re2.Set.SearchSet(options)
    for rule in SECRET_RULES:
        body = rule.pattern if rule.trigger is None else rule.trigger
        for group in _GROUPS:
            body = body.replace(f"(?P<{group}>", "(?:")
        rules.Add(body)
    rules.Compile()
    return rules


@functools.cache
def _marker() -> re2._Regexp:
    return re2.compile(r"\[REDACTED:[a-z0-9-]+\]")


def rejection(rule: SecretRule, value: str, name: str = "", operator: str = "",
              host: str | None = None) -> str | None:
    """Why a match of ``rule`` is not a secret, or ``None`` when it is one.

    :param rule: the rule that matched.
    :param value: its ``secret`` group (quotes included when quoted).
    :param name: its ``name`` group, if any.
    :param operator: its ``op`` group, if any.
    :param host: its ``host`` group, if any.
    :returns: the name of the check that rejected it (``expression``, ``public-name``…).
    """
    if operator.startswith("(") and value.lstrip("bBrRuU")[:1] not in ("'", '"', "`"):
        return "expression"  # password(request), Token(user=…): a call's argument
    if name and (reason := name_rejection(name, operator)):
        return reason
    if host is not None and (reason := host_rejection(host)):
        return reason
    return value_rejection(value, rule.checks)


def _match_rejection(rule: SecretRule, match: re2._Match, groups: dict[str, int],
                     value: str) -> str | None:
    if not rule.checks:
        return None

    def group(name: str) -> str:
        found = match.group(groups[name]) if name in groups else None
        return found.decode("utf-8") if found else ""

    host = group("host") if "host" in groups else None
    reason = rejection(rule, value, group("name"), group("op"), host)
    if reason in _VOUCHED and "name" in groups and (reason != "plain" or random_letters(value)):
        # a service's name just before the secret's name vouches for random letters and
        # for a short value of a bare key; the other checks still apply
        window = match.start(groups["name"])
        if _service_names().search(match.string, max(0, window - _SERVICE_WINDOW),
                                   match.end(groups["name"])):
            return value_rejection(value, tuple(c for c in rule.checks if c[0] not in _VOUCHED))
    return reason


_VOUCHED = frozenset({"plain", "short-key"})
"""The checks a service's name just before the secret's name overrules."""
_SERVICE_WINDOW = 40
"""How far before a secret's name a service's name vouches for its value (trufflehog's
keyword distance)."""


@functools.cache
def _service_names() -> re2._Regexp:
    """Any service's name (:data:`tooldeck.secret_services.NEARBY_NAMES`), any case."""
    return re2.compile(rb"(?i)(?:" + "|".join(NEARBY_NAMES).encode() + rb")")


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


def _encodable(text: str) -> str:
    """``text`` with lone surrogates (which RE2 cannot take) replaced, offsets unchanged."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)
    return text


@attrs.frozen
class Rejection:
    """A rule's match that is not a secret, and why: for tests and for explaining.

    :param rule: the rule that matched.
    :param start: offset of the would-be secret.
    :param end: offset just past it.
    :param check: the check that rejected it (``expression``, ``public-name``, ``format``…).
    """

    rule: str
    start: int
    end: int
    check: str


def _matches(data: bytes) -> Iterator[tuple[int, SecretRule, int, int, str | None]]:
    """Every match of every rule that hit: priority, rule, span, and why it is not a secret.

    The scan runs on the UTF-8 bytes (a ``str`` search with a start position converts
    offsets from the beginning of the text at every call); the spans are byte offsets.
    """
    hits = _rule_set().Match(data)
    if not hits:
        return
    for priority in sorted(hits):
        rule, pattern, groups = _compiled(priority)
        secret = groups["secret"]
        pos = 0
        while (match := pattern.search(data, pos)) is not None:
            start, end = match.start(secret), match.end(secret)
            value = data[start:end].decode("utf-8")
            reason: str | None = None
            if rule.length is not None:
                length = rule.length(value)
                if length is None:
                    reason = "format"
                else:
                    value = value[:length]
                    end = start + len(value.encode("utf-8"))
            if reason is None:
                reason = _match_rejection(rule, match, groups, value)
            yield priority, rule, start, end, reason
            # a rejected value may hold the next name (TOKEN = process.env.TOKEN || "…"):
            # look again from where the value started
            again = reason and ("name" not in groups or _names_a_secret(value))
            pos = max(start, match.start() + 1) if again else max(match.end(), pos + 1)


def _char_offsets(text: str, data: bytes) -> Callable[[int], int]:
    """Byte offset → character offset (the identity for ASCII text)."""
    if len(data) == len(text):
        return lambda offset: offset
    return lambda offset: len(data[:offset].decode("utf-8"))


_NAME_HINTS = ("key", "token", "secret", "pass", "pwd", "auth", "cred", "contrase")


def _names_a_secret(value: str) -> bool:
    """Whether a rejected value may hold a secret's name, where a new match could start."""
    lowered = value.lower()
    return any(hint in lowered for hint in _NAME_HINTS)


def rejections(text: str) -> list[Rejection]:
    """The matches in ``text`` that the checks turned down, with the check that did.

    :param text: any text.
    :returns: the rejected matches, in rule order (offsets into ``text``).
    """
    text = _encodable(text)
    data = text.encode("utf-8")
    char = _char_offsets(text, data)
    return [Rejection(rule.rule_id, char(start), char(end), reason)
            for _priority, rule, start, end, reason in _matches(data) if reason]


def find_secrets(text: str) -> list[SecretFinding]:
    """All secrets in ``text``, in order, overlapping findings merged into the first one.

    A match starting inside an earlier ``[REDACTED:…]`` marker is not a new secret, which
    keeps :func:`redact` idempotent. The common case (no secret) costs one RE2 scan; then
    only the rules that matched somewhere run.

    :param text: any text.
    :returns: the findings (offsets into ``text``).
    """
    text = _encodable(text)
    data = text.encode("utf-8")
    markers: list[tuple[int, int]] | None = None
    spans: list[tuple[int, int, int, str]] = []
    for priority, rule, start, end, reason in _matches(data):
        if reason:
            continue
        if markers is None:
            markers = [(m.start(), m.end()) for m in _marker().finditer(data)]
        if not any(m_start <= start < m_end for m_start, m_end in markers):
            spans.append((start, priority, end, rule.rule_id))
    spans.sort()
    char = _char_offsets(text, data)
    findings: list[SecretFinding] = []
    last_end = -1
    for start, _priority, end, rule_id in spans:
        if start < last_end:
            if end > last_end:  # merge: the union of overlapping secrets is hidden
                findings[-1] = attrs.evolve(findings[-1], end=char(end))
                last_end = end
            continue
        findings.append(SecretFinding(rule_id, char(start), char(end),
                                      data.count(b"\n", 0, start) + 1))
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
