r"""Whether a value found next to a secret's name is a credential: the precision rules.

The broad rules of :mod:`tooldeck.secrets` (``password = …``, ``api_key: …``, ``Bearer …``,
``scheme://user:password@host``) find a *name* that says secret; what follows it is often
not a value at all. Source code is full of them: ``credentials: GoogleCredentials | None``,
``return self.secret_keys[-1]``, ``password=auth[1]``, ``token = "abc123"`` in a test. A value
counts only when it looks like a credential; each rule below rejects one kind of non-value,
and :func:`value_rejection` names the first that fires.

=============  ===========================================================================
check          rejects (the value is not a secret)
=============  ===========================================================================
template       a placeholder to fill in: ``$TOKEN``, ``${X}``, ``{{ x }}``, ``<your key>``,
               ``%s``, ``%(name)s``, ``{0}``, an f-string field, ``[REDACTED…``
path           a file path: ``/etc/x``, ``./x``, ``../x``, ``~/x``, ``C:\\x``
expression     an unquoted piece of code: a call or subscript (``auth[1]``,
               ``get_password(u)``), an attribute path (``self.token``), a keyword (``None``)
mask           a masked or blank value: ``********``, ``xxxxxxxx``, ``xxxx1234``
placeholder    a word standing for a value (``changeme``, ``password1``, ``qwerty``), or a
               value that names its own kind or says it is an example (``example-password``,
               ``monalisa2-token``, ``your-api-key``)
short          fewer than 8 characters: no issued credential is that short
short-key      (a bare ``…key`` name) fewer than 16 characters, unless a service's name
               comes just before the name (``[DEBUG] Using Key=hrLBEnXODDefY4`` after
               ``Sending request to the checkvist API``)
prose          words and numbers separated by spaces, none of them key-like (``a secret``,
               ``keyboard cat``, ``Repeat 0``)
public-key     public key material: ``ssh-rsa AAAA…``, ``ecdsa-sha2-…``, a PEM public key
regex          a regular expression: ``r"[-!#$%&'*+.^_`|~0-9a-zA-Z]+"``, ``"(?:\\d+)"``
plain          no digit, and its letters read as words (``GoogleCredentials``,
               ``oauthClientSecret``): random letters alternate case far more often.
               Overruled when a service's name comes just before the secret's name
               and the letters are random (:func:`random_letters`):
               ``smartsheet_token = "xkQpRmZtWvBn"``, ``twitch: {token: …}``
sequence       a counting filler: ``abc123``, ``abcdef123456``, ``a1b2c3d4``, ``12345678``;
               not one of 24 characters or more, which fills a token format's whole width
               (a test key is still a key: code that takes it takes real ones too)
basic-         HTTP Basic credentials (``Basic dXNlcm5hbWU6cGFzc3dvcmQ=``) whose password is
placeholder    a template, a mask or a placeholder (there: ``username:password``); a
               password of plain words is still one (a docker ``config.json`` ``auth``)
vendor-shape   a vendor's prefix on too short a value (``gho_abc123``): a real token of that
               vendor is found by the vendor's own format rule
example-host   (URLs) the host is reserved for documentation: ``example.com``, ``*.test``…
jwt            (JWTs) the header is not a base64url-encoded JSON object, or the claims of
               a signed token are not
no-digit       (long ``…key`` values, vendor prefixes of other lengths, service names) no
               digit in the value
not-key-       (service names) not one token of letters mixed with digits: a word, a
shaped         number, a URL, an address
words          (values near a service's name) an identifier whose letters are words
               (``python_3_11_compat_mode``), whatever digits it holds
not-random     (values near a service's name) no digit, and letters that do not look
               random (:func:`random_letters`)
snake-name     (values a space after a secret's name) a snake_case name of lowercase words
               and short parts (``reset_link_expired_after_24h``)
=============  ===========================================================================

Names are judged too (:func:`name_rejection`): a name that ends with a secret word but
stands for something public (``public_key``, ``cache_key``, ``page_token``), and ``key`` on
its own as a JSON, YAML or struct field (``"key": …``, ``Key: …``: a map or cache key),
are not secrets' names; ``key = …``, ``Key=…`` and ``key := …`` still are. A call named
after a secret takes one only when it gives it (``setApiKey("…")``, ``with_token("…")``): a
name that starts by looking one up, deriving, checking or printing it (``get_secret("db")``,
``hash_password("…")``) is a ``lookup``. ``PASS:`` in capitals is a test runner's outcome
(``--- PASS: TestCmdName``), not a password's name: a ``test-outcome``.
"""

from __future__ import annotations

import binascii
import functools
import itertools
from collections.abc import Callable

from tooldeck.secret_formats import VENDOR_FORMATS, literal_leads

__all__ = [
    "AZURE_KEY_LENGTH",
    "BEARER_CHECKS",
    "CONFIG_CHECKS",
    "CONNECTION_CHECKS",
    "DIGIT",
    "GENERIC_CHECKS",
    "JWT_CHECKS",
    "KEY_SHAPE",
    "NEARBY_CHECKS",
    "REFERENCE_CHECKS",
    "SHORT_KEY",
    "SNAKE_NAME",
    "URL_CHECKS",
    "WORDS",
    "Check",
    "host_rejection",
    "name_rejection",
    "random_letters",
    "value_rejection",
]

MIN_LENGTH = 8
"""Shortest value the broad rules take for a credential."""
_RANDOM_LETTERS = 12
"""Shortest letters-only value that may pass for random."""
_CASE_CHANGES = 0.4
_RANDOM_ONE_CASE = 16
"""Shortest one-case letters-only value that may pass for random."""
_FEW_VOWELS = 0.25
"""Random letters are a fifth vowels (5 of 26); words are about two fifths."""
_SOME_VOWELS = 0.3
_CONSONANT_PAIRS = 0.45
"""Share of adjacent letters both consonants: random letters about two thirds, words a third."""
_SERVICE_CASE_CHANGES = 0.25
_LONG_KEY = 16
"""Shortest value a bare ``key`` name takes on its own (``key = "…"`` is often a map's)."""
"""Share of adjacent letter pairs that change case in random letters (words: about 0.2)."""

_TEMPLATE_STARTS = ("$", "<", "{", "%", "#", "[REDACTED", "@{", "=")
_TEMPLATE_MARKS = ("${", "{{", "%s", "%(", "%d", "<%", "#{", "[REDACTED")
_PATH_STARTS = ("/", "./", "../", "~/", "~\\", ".\\")
_CODE_CHARS = frozenset("()[]{}*")
_KEYWORDS = frozenset({"none", "null", "nil", "true", "false", "undefined", "nan"})
_MASK_CHARS = frozenset("xX*•#.-_")
_PLACEHOLDER_WORDS = frozenset({
    "pass", "password", "passwd", "pwd", "secret", "secrets", "token", "tokens", "apikey",
    "credential", "credentials", "changeme", "changeit", "example", "examples", "sample",
    "test", "foo", "bar", "baz", "qux", "foobar", "dummy", "fake", "placeholder", "xxx",
    "yyy", "user", "username", "mypassword", "mysecret", "yourpassword", "yoursecret", "your",
    "yours", "redacted", "qwerty", "letmein", "admin", "root", "default", "none", "hunter",
    "s3cr3t", "p4ssw0rd", "passw0rd", "insert", "replace", "todo", "tbd",
})
"""Words that stand for a value in docs and tests (also with digits added: ``password1``)."""
_KIND_WORDS = frozenset({
    "password", "passwd", "secret", "secrets", "token", "tokens", "apikey", "credential",
    "credentials", "example", "examples", "sample", "dummy", "fake", "placeholder", "changeme",
    "redacted", "your", "mock", "foo", "bar", "baz", "qux", "foobar", "pass",
})
"""Words that, as a whole part of a value (``example-password``), say it is not real."""
_PUBLIC_KEY_STARTS = ("ssh-rsa ", "ssh-ed25519 ", "ssh-dss ", "ecdsa-sha2-", "sk-ssh-",
                      "sk-ecdsa-", "-----BEGIN PUBLIC", "-----BEGIN CERTIFICATE",
                      "-----BEGIN SSH2 PUBLIC")
_EXAMPLE_DOMAINS = ("example.com", "example.org", "example.net")
_EXAMPLE_SUFFIXES = (".example", ".test", ".invalid", ".example.com",
                     ".example.org", ".example.net")
_FORMAT_PREFIXES = (
    "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-",
    "xoxo-", "xoxr-", "xoxs-", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "sk-ant-",
    "sk-proj-", "sk-", "AKIA", "ASIA", "AIza", "npm_", "hf_", "pypi-", "dop_v1_", "shpat_",
    "shpca_", "shppa_", "shpss_", "SG.",
)
"""Prefixes of the tokens that :mod:`tooldeck.secrets` has a format rule for."""
_VENDOR_BODY = 16
"""A vendor token has at least this many characters after its prefix."""
_REGEX_MARKS = ("(?:", "(?P<", "(?i)", "\\d+", "\\w+", "\\s*", "\\s+", ".*", ".+", "[^", "]+$",
                "^[", "[a-z", "[A-Z", "[0-9")
_PAIRS = """
    ab ac ad af ag ai ak al am an ap ar as at au av aw ax ay ba bb be bi bj bl bo br bs bu
    by ca cc cd ce ch ci ck cl co cp cr cs ct cu da db dc dd de df di dl dm do dp dr ds dt
    du ea eb ec ed ee ef eg eh ei el em en eo ep eq er es et eu ev ew ex ey fa fe ff fi fl
    fo fr fs ft fu ga ge gf gg gh gi gl gm gn go gr gs gt gu ha he hi ho hr ht hu hy ia ib
    ic id ie if ig il im in io ip ir is it iu iv ix iz ja je ka ke ki ks la lb lc ld le lf
    li ll lo lp lr ls lt lu ly ma mb mc md me mi ml mm mo mp ms mt mu mv na nc nd ne nf ng
    ni nk nl nm nn no np nr ns nt nu nv oa ob oc od of og oi ok ol om on oo op or os ot ou
    ov ow pa pc pd pe ph pi pl po pp pr ps pt pu py qu ra rb rc rd re rf rg ri rk rl rm rn
    ro rp rr rs rt ru rv ry sa sc sd se sf sh si sk sl sm sn so sp sr ss st su sw sy ta tb
    tc td te tf th ti tl tm tn to tp tr ts tt tu tw ty ua ub uc ud ue ug ui ul um un up ur
    us ut va ve vi vm vo wa we wh wi wn wo wr ws xc xe xp xt yc ye yi yl ym yn yp ys yt ze
    zi
"""
_PLAUSIBLE_PAIRS = frozenset(_PAIRS.split())
"""Letter pairs common in English words and in code's identifiers: the pairs that make 95 %
of the pairs of Debian's ``wamerican`` word list, joined with those that make 95 % of the
pairs of the identifiers (underscores dropped) of the Python packages the precision bench's
tune half reads. Random letters hit one of the other 356 pairs at almost every
other step; words and identifiers seldom do."""
_IMPLAUSIBLE_SHARE = 0.35
"""Share of implausible pairs from which 16+ letters of one case read as random: 96 % of
random 32-letter strings and 85 % of 16-letter ones."""
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_TOKEN_WIDTH = 24
"""Length from which a counting filler stands for a whole token, not a short stand-in."""
_DIGITS = "01234567890123456789"

_PUBLIC_QUALIFIERS = frozenset({
    "public", "pub", "cache", "sort", "primary", "foreign", "partition", "idempotency",
    "page", "next", "prev", "previous", "continuation", "pagination", "cursor", "row",
    "lookup", "map", "dict", "group", "object", "routing", "i18n", "translation", "form",
    "field", "hot", "sync", "cancel", "cancellation", "max", "num", "tokenizer",
})
"""What a ``…key`` or ``…token`` name is when it is not a secret (``sort_key``, ``page_token``)."""
_LOOKUP_VERBS = frozenset({
    "get", "fetch", "read", "load", "lookup", "find", "has", "is", "require", "ensure",
    "delete", "del", "remove", "clear", "reset", "revoke", "rotate", "refresh", "check",
    "verify", "validate", "compare", "hash", "encode", "decode", "encrypt", "decrypt",
    "parse", "mask", "redact", "generate", "gen", "create", "new", "make", "build", "print",
    "log", "show", "list", "describe", "test", "assert", "expect", "mock", "fake",
})
"""First words of a call named after a secret that does not take one as its argument: it
looks one up by name, derives, checks or prints it (``get_secret("db")``,
``verifyPassword(…)`` in a test, ``generate_token("user")``)."""


def _unprefixed(value: str) -> str:
    """A string literal without Python's ``b``/``r``/``u`` prefix: ``b'…'`` → ``'…'``."""
    head = value[:3].lstrip("bBrRuU")
    prefix = len(value[:3]) - len(head)
    return value[prefix:] if 0 < prefix <= 2 and head[:1] in ("\"", "'") else value


def _bare(value: str) -> str:
    return _unprefixed(value).strip("\"'`")


def _quoted(value: str) -> bool:
    return _unprefixed(value)[:1] in "\"'`"


def _is_template(value: str) -> bool:
    bare = _bare(value)
    if bare.startswith(_TEMPLATE_STARTS) or any(mark in bare for mark in _TEMPLATE_MARKS):
        return True
    # a format field: {0}, {name}, {user.token}
    start = bare.find("{")
    end = bare.find("}", start + 1)
    return start >= 0 and end > start and all(
        char.isalnum() or char in "_.:!" for char in bare[start + 1 : end])


def _is_connection_template(value: str) -> bool:
    """Whether a connection string's value is a template.

    Braces quote a value there (``Password={a;b}`` holds a password) unless they hold a
    format field (``password={db_password}``, ``{0}``, ``{pw!r}``).
    """
    bare = _bare(value)
    if not (bare.startswith("{") and bare.endswith("}")) or bare.startswith("{{"):
        return _is_template(value)
    field = bare[1:-1].split(":", 1)[0]
    name, _, conversion = field.partition("!")
    if conversion not in ("", "r", "s", "a") or not (
            name.isdigit() or not name or (name.replace(".", "_").isidentifier())):
        return False
    scrambled = any(char.isdigit() for char in name.rstrip("0123456789")) and (
        name not in (name.lower(), name.upper()))
    return not scrambled


def _is_not_azure_key_length(value: str) -> bool:
    """Whether an Azure-signed value is too short or too long to be an Azure key.

    The random part before the signature is 33 characters for 32-byte keys, 42 for
    Container Registry, 44 for Functions, 76 for 64-byte keys; the signature and a
    six-character tail follow.
    """
    head = len(value.rstrip("=")) - 10
    return not 33 <= head <= 76


def _is_path(value: str) -> bool:
    bare = _bare(value)
    return bare.startswith(_PATH_STARTS) or (
        len(bare) > 2 and bare[0].isalpha() and bare[1:3] in (":\\", ":/"))


def _is_expression(value: str) -> bool:
    if _quoted(value):
        return False
    bare = _bare(value)
    if _CODE_CHARS & set(bare) or bare.lower() in _KEYWORDS:
        return True
    parts = bare.split(".")  # self.token, settings.SECRET_KEY
    return (len(parts) > 1 and all(part.isidentifier() for part in parts)) or _is_type_name(bare)


def _is_type_name(bare: str) -> bool:
    """A CamelCase name made of words: ``PKCS7PrivateKeyTypes``, ``_AzureApiKeyT``."""
    name = bare.lstrip("_")
    if not (name.isidentifier() and name[0].isupper() and any(c.islower() for c in name)):
        return False
    digit_runs = [run for run in _runs(name) if run[0].isdigit()]
    if len(digit_runs) > 2 or any(len(run) > 5 for run in digit_runs):
        return False
    return _reads_as_words(name, capitalised=True)


def _reads_as_words(name: str, *, capitalised: bool = False) -> bool:
    """Whether the letters of ``name`` are words.

    Each word has a vowel or is a short acronym, and they are 3 letters long on average:
    random letters make many short runs without vowels.

    :param capitalised: every word must start with a capital (a type name).
    """
    words = [run for run in _runs(name) if run[0].isalpha()]
    if not words or sum(map(len, words)) < 3 * len(words):
        return False
    if capitalised and not all(word[0].isupper() for word in words):
        return False
    return all(any(c in "aeiouAEIOU" for c in word) or (word.isupper() and len(word) <= 5)
               for word in words)


def _runs(name: str) -> list[str]:
    """Words of a name: ``PKCS7PrivateKey`` → ``PKCS``, ``7``, ``Private``, ``Key``."""
    runs: list[str] = []
    for index, char in enumerate(name):
        if not char.isalnum():
            runs.append("")
            continue
        before = name[index - 1] if index else ""
        after = name[index + 1] if index + 1 < len(name) else ""
        new = (not runs or not runs[-1] or char.isdigit() != before.isdigit()
               or (char.isupper() and before.islower())
               or (char.isupper() and before.isupper() and after.islower()))
        if new:
            runs.append(char)
        else:
            runs[-1] += char
    return [run for run in runs if run]


def _is_mask(value: str) -> bool:
    bare = _bare(value)
    if len(set(bare)) <= 2:
        return True
    masked = sum(char in _MASK_CHARS for char in bare)
    return masked * 2 >= len(bare) and any(char in "xX*•" for char in bare)


def _parts(bare: str) -> list[str]:
    """The alphanumeric runs of a value, lowercase: ``My-Token_2`` → ``my``, ``token``, ``2``."""
    parts, current = [], []
    for char in bare.lower():
        if char.isalnum():
            current.append(char)
        elif current:
            parts.append("".join(current))
            current = []
    if current:
        parts.append("".join(current))
    return parts


def _is_placeholder(value: str) -> bool:
    import urllib.parse  # only for values next to a secret's name: not at import time

    plain = urllib.parse.unquote(_bare(value))
    letters = "".join(char for char in plain.lower() if char.isalpha())
    if letters in _PLACEHOLDER_WORDS and len(letters) >= len(plain) - 4:
        return True  # pass, password1, changeme!
    return any(part.strip(_DIGITS) in _KIND_WORDS for part in _parts(plain))


def _is_short(value: str) -> bool:
    return len(_bare(value)) < MIN_LENGTH


def _is_short_key(value: str) -> bool:
    return len(_bare(value)) < _LONG_KEY


def _is_prose(value: str) -> bool:
    words = _bare(value).split()
    return len(words) > 1 and not any(_token_like(word) for word in words)


def _token_like(word: str) -> bool:
    """A word that could be (part of) a key.

    Letters mixed with digits, or 8+ characters that are neither a word nor a number.
    """
    if len(word) >= 4 and any(c.isdigit() for c in word) and any(c.isalpha() for c in word):
        return True
    return len(word) >= MIN_LENGTH and not word.isdigit() and not _reads_as_words(word)


def _is_basic_placeholder(value: str) -> bool:
    """``Basic dXNlcm5hbWU6cGFzc3dvcmQ=`` is ``username:password``: judge the password."""
    import base64

    encoded = _bare(value)
    if encoded[:6].lower() == "basic ":
        encoded = encoded[6:].strip()
    try:
        decoded = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
        text = decoded.decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    _user, colon, password = text.partition(":")
    if not colon or not text.isprintable():
        return False
    # a password of words is a password here: the encoding says credential, not code
    return value_rejection(password, (TEMPLATE, MASK, PLACEHOLDER)) is not None


def _is_vendor_shaped(value: str) -> bool:
    """``gho_abc123``: a vendor's prefix on a value too short to be that vendor's token.

    A real one is found by the vendor's own format rule.
    """
    bare = _bare(value)
    return any(bare.startswith(prefix) and len(bare) - len(prefix) < _VENDOR_BODY
               for prefix in _vendor_prefixes())


@functools.cache
def _vendor_prefixes() -> tuple[str, ...]:
    leads = (lead for f in VENDOR_FORMATS for lead in literal_leads(f.start))
    return (*_FORMAT_PREFIXES,
            *(lead for lead in leads if len(lead) >= 3 and any(sep in lead for sep in "_-.")))


def _is_regex(value: str) -> bool:
    """``r"[-!#$%&'*+.^_`|~0-9a-zA-Z]+"``: a regular expression, not a value."""
    bare = _bare(value)
    return any(mark in bare for mark in _REGEX_MARKS) or (
        "[" in bare and "]" in bare and bare[bare.rindex("]") + 1 : bare.rindex("]") + 2]
        in ("+", "*", "?", "{"))


def _is_public_key(value: str) -> bool:
    return _bare(value).startswith(_PUBLIC_KEY_STARTS)


def _case_changes(letters: str) -> float:
    pairs = list(itertools.pairwise(letters))
    return sum(a.isupper() != b.isupper() for a, b in pairs) / max(len(pairs), 1)


def _is_plain(value: str) -> bool:
    bare = _bare(value)
    if any(char.isdigit() for char in bare):
        return False
    letters = "".join(char for char in bare if char.isalpha())
    if len(letters) < _RANDOM_LETTERS:
        return True
    if letters.islower() or letters.isupper():  # one case: words have vowels, keys few
        vowels = sum(char in "aeiouAEIOU" for char in letters)
        return len(letters) < _RANDOM_ONE_CASE or (
            vowels >= _FEW_VOWELS * len(letters) and not _implausible(letters))
    return _case_changes(letters) < _CASE_CHANGES or _reads_as_words(bare)


def _implausible(letters: str) -> bool:
    """Whether 16+ letters of one case pair up the way random letters do, not words."""
    lowered = letters.lower()
    odd = sum(a + b not in _PLAUSIBLE_PAIRS for a, b in itertools.pairwise(lowered))
    return len(lowered) >= _RANDOM_ONE_CASE and odd >= _IMPLAUSIBLE_SHARE * (len(lowered) - 1)


def random_letters(value: str) -> bool:
    """Whether a value of letters only reads as random rather than as words.

    The looser test for a value a service's name vouches for (the ``plain`` check's
    exception): mixed case that does not split into words (``suHVcCOXeYGdHU``, not
    ``ProductionKey``), or one case with few vowels or many consonants in a row
    (``prdgwzkvujhyemav``, not ``clientsecretvalue``).

    :param value: the value as found (quotes included when quoted).
    :returns: ``True`` for 8+ letters, nothing else, that look random.
    """
    bare = _bare(value)
    if len(bare) < MIN_LENGTH or not (bare.isascii() and bare.isalpha()):
        return False
    if not (bare.islower() or bare.isupper()):
        return _case_changes(bare) >= _SERVICE_CASE_CHANGES and not _reads_as_words(bare)
    lowered = bare.lower()
    vowels = sum(char in "aeiou" for char in lowered)
    pairs = sum(a not in "aeiou" and b not in "aeiou" for a, b in itertools.pairwise(lowered))
    return (vowels < _SOME_VOWELS * len(bare) or pairs >= _CONSONANT_PAIRS * (len(bare) - 1)
            or (len(bare) >= _RANDOM_ONE_CASE and _implausible(bare)))


def _is_sequence(value: str) -> bool:
    bare = _bare(value).lower()
    if len(bare) >= _TOKEN_WIDTH:
        return False
    letters = "".join(char for char in bare if char.isalpha())
    digits = "".join(char for char in bare if char.isdigit())
    if not (letters or digits) or 2 * (len(letters) + len(digits)) < len(bare):
        return False  # mostly symbols: not a counting filler
    return (letters in _LETTERS or letters == letters[0] * len(letters)) and digits in _DIGITS


def _is_words(value: str) -> bool:
    return _reads_as_words(_bare(value))


def _is_snake_name(value: str) -> bool:
    bare = _bare(value)
    parts = bare.split("_")
    return len(parts) > 1 and bare.isidentifier() and all(
        len(part) <= 3 or (part.islower() and any(c in "aeiou" for c in part)) for part in parts)


def _has_no_digit(value: str) -> bool:
    return not any(char.isdigit() for char in value)


def _is_not_random(value: str) -> bool:
    return _has_no_digit(value) and not random_letters(value)


def _unless_random(rejects: Callable[[str], bool]) -> Callable[[str], bool]:
    """A check that lets random letters through (one case reads as one word otherwise)."""
    return lambda value: rejects(value) and not random_letters(value)


def _is_not_key_shaped(value: str) -> bool:
    bare = _bare(value)
    return not _token_like(bare) or any(char in bare for char in ":@ ")


def _host_is_example(host: str) -> bool:
    host = host.lower().rstrip(".")
    return host in _EXAMPLE_DOMAINS or host.endswith(_EXAMPLE_SUFFIXES)


def _b64_json_object(segment: str) -> bool:
    import base64
    import json

    try:
        decoded = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        return isinstance(json.loads(decoded), dict)
    except (binascii.Error, ValueError):
        return False


def _is_not_jwt(value: str) -> bool:
    import base64

    token = _bare(value)
    if token.startswith("ZXlK"):  # a JWT, base64-encoded once more
        try:
            token = base64.b64decode(token + "=" * (-len(token) % 4)).decode("ascii")
        except (binascii.Error, ValueError):
            return True
    segments = token.split(".")
    if len(segments) < 2 or not _b64_json_object(segments[0]):
        return True
    # a signed token carries JSON claims; an encrypted one (five parts) an encrypted key
    return len(segments) != 5 and not _b64_json_object(segments[1])


Check = tuple[str, Callable[[str], bool]]
"""A check: its name and a predicate that is true when the value is *not* a secret."""

TEMPLATE: Check = ("template", _is_template)
CONNECTION_TEMPLATE: Check = ("template", _is_connection_template)
PATH: Check = ("path", _is_path)
EXPRESSION: Check = ("expression", _is_expression)
MASK: Check = ("mask", _is_mask)
PLACEHOLDER: Check = ("placeholder", _is_placeholder)
SHORT: Check = ("short", _is_short)
SHORT_KEY: Check = ("short-key", _is_short_key)
PROSE: Check = ("prose", _is_prose)
PUBLIC_KEY: Check = ("public-key", _is_public_key)
REGEX: Check = ("regex", _is_regex)
PLAIN: Check = ("plain", _is_plain)
SEQUENCE: Check = ("sequence", _is_sequence)
BASIC: Check = ("basic-placeholder", _is_basic_placeholder)
VENDOR_SHAPE: Check = ("vendor-shape", _is_vendor_shaped)
JWT: Check = ("jwt", _is_not_jwt)
SNAKE_NAME: Check = ("snake-name", _is_snake_name)
AZURE_KEY_LENGTH: Check = ("format", _is_not_azure_key_length)
DIGIT: Check = ("no-digit", _has_no_digit)
KEY_SHAPE: Check = ("not-key-shaped", _is_not_key_shaped)
WORDS: Check = ("words", _is_words)
RANDOM: Check = ("not-random", _is_not_random)

GENERIC_CHECKS: tuple[Check, ...] = (TEMPLATE, PATH, EXPRESSION, MASK, PLACEHOLDER, SHORT,
                                     PROSE, PUBLIC_KEY, REGEX, PLAIN, SEQUENCE, BASIC,
                                     VENDOR_SHAPE)
"""For a value given to a secret's name (assignments, setters, headers)."""
CONFIG_CHECKS: tuple[Check, ...] = tuple(check for check in GENERIC_CHECKS if check != PLAIN)
"""For a whole configuration line (``DB_PASSWORD=correcthorsebatterystaple`` in an env file):
words are a passphrase there, not code, so the value may be letters only."""
CONNECTION_CHECKS: tuple[Check, ...] = (CONNECTION_TEMPLATE, MASK)
"""For the password of a JDBC or ADO.NET connection string: configuration, never code, so
any literal is the password, however short or plain (``jdbc:…;password=tiger``), braces
quote one (``Password={a;b}``) unless they hold a format field."""
REFERENCE_CHECKS: tuple[Check, ...] = (TEMPLATE,)
"""For a value whose place alone says credential (``.npmrc``'s ``:_authToken=``): only a
reference to one (``${NPM_TOKEN}``) is not."""
BEARER_CHECKS: tuple[Check, ...] = (TEMPLATE, MASK, PLACEHOLDER, SHORT, PLAIN, SEQUENCE,
                                    BASIC, VENDOR_SHAPE)
"""For the token after ``Bearer``."""
URL_CHECKS: tuple[Check, ...] = (TEMPLATE, MASK, PLACEHOLDER, PLAIN)
"""For the password of a URL (with :func:`host_rejection`)."""
NEARBY_CHECKS: tuple[Check, ...] = (
    *(check for check in GENERIC_CHECKS if check != PLAIN), RANDOM,
    *((name, _unless_random(rejects)) for name, rejects in (KEY_SHAPE, WORDS)))
"""For a value a few words after a service's name: key-shaped, and a digit or random
letters (:func:`random_letters`) in place of the ``plain`` check."""
JWT_CHECKS: tuple[Check, ...] = (JWT,)
"""For a JSON Web Token."""


def value_rejection(value: str, checks: tuple[Check, ...]) -> str | None:
    """The first check that says ``value`` is not a secret.

    :param value: the value as found (quotes included when it was quoted).
    :param checks: the checks of the rule that found it.
    :returns: the check's name, or ``None`` when the value looks like a credential.
    """
    for name, rejects in checks:
        if rejects(value):
            return name
    return None


def host_rejection(host: str) -> str | None:
    """``example-host`` when a URL's credentials are for a documentation host.

    :param host: the host after the ``@``.
    :returns: ``example-host`` or ``None``.
    """
    return "example-host" if _host_is_example(host) else None


def name_rejection(name: str, operator: str) -> str | None:
    """Why a secret-sounding name stands for something that is not secret, if it does.

    :param name: the name before the operator (``api_key``, ``"sortKey"``, ``Key``).
    :param operator: what joins it to the value (``=``, ``:``, ``:=``, ``>``…).
    :returns: ``public-name``, ``lookup``, ``test-outcome`` or ``None``.
    """
    bare_name = name.strip("\"'`<$ \t")
    if bare_name == "PASS" and operator.strip() == ":":
        return "test-outcome"  # go test's "--- PASS: TestName", automake's "PASS: name"
    words = _parts(_split_camel(bare_name))
    if not words:
        return None
    if operator.startswith("(") and words[0] in _LOOKUP_VERBS:
        return "lookup"  # getToken("name"), hash_password("…"): the argument is no value
    if len(words) == 1 and words[0] == "key" and "=" not in operator:
        return "public-name"  # "key": …, Key: …, <key>…: a map, cache or sort key
    return "public-name" if len(words) > 1 and words[-2] in _PUBLIC_QUALIFIERS else None


def _split_camel(name: str) -> str:
    """``sortKey`` → ``sort_Key``: camelCase words become separate parts."""
    out = []
    for before, char in zip(" " + name, name, strict=False):
        if char.isupper() and before.islower():
            out.append("_")
        out.append(char)
    return "".join(out)
