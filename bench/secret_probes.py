"""Recall of redaction on probe lines generated from trufflehog's detector *definitions*.

``generate`` reads a bare git mirror of trufflesecurity/trufflehog and, for every detector
under ``pkg/detectors`` (``*_test.go`` files are never read: the scanner fixtures of
``bench/secret_fixtures.py`` come from them), takes its ``Keywords()`` and the regexes it
compiles (``keyPat``, ``secretPat``, ``idPat``…, usually ``detectors.PrefixRegex(…) +
`\\b(value)\\b```). From each regex's value group it draws values the regex accepts: one at
random, one of the shortest length, one of letters only when the charset allows it. Rows
(detector, keyword, role, value pattern, values) go to ``tests/secrets_corpus/probes.jsonl``
with the mirror's commit in a header row.

``measure`` (the default) writes each value into the lines real code and configuration
carry a credential in (an env line, a Python assignment, a JSON field, ``export``, a
setter call, a command-line option, inline and nested YAML, a URL query, log lines, Go, a
Jenkins credential: the log and Jenkins shapes are the ones scanners' tests use), all
named after the detector's keyword, and prints the share :func:`tooldeck.secrets.redact`
hides, per value shape and per variant, and lists misses. The probe set is a *tune* set:
its misses are read and fixed by class.

    python bench/secret_probes.py generate --trufflehog MIRROR  # a bare git mirror
    python bench/secret_probes.py [measure] [--show N] [--role secret|id]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from tooldeck.secrets import redact

PROBES = Path(__file__).resolve().parent.parent / "tests" / "secrets_corpus" / "probes.jsonl"

TEMPLATES = {
    "env": "{KW}_{ROLE}={v}",
    "python": "{kw}_{role} = \"{v}\"",
    "json": "  \"{kw}{Role}\": \"{v}\",",
    "export": "export {KW}_{ROLE}='{v}'",
    "setter": "{kw}_client.set_{role}(\"{v}\")",
    "option": "{kw}-cli --{kw}-{dash} {v}",
    "yaml-inline": "{kw}: {{ {role}: {v} }}",
    "yaml-nested": "{kw}:\n  {role}: {v}",
    "url": "https://api.{kw}.com/v1/check?{role}={v}",
    "log": "[INFO] connecting to {kw} with {dash} {v}",
    "debug": "[INFO] Sending request to the {kw} API\n[DEBUG] Using Key={v}\n"
             "[INFO] Response received: 200 OK",
    "debug-named": "[DEBUG] Using {kw} Key={v}",
    "debug-spaced": "[DEBUG] {kw} {dash} = {v}",
    "go": "{kw}Key := \"{v}\"",
    "jenkins": "<id>{{{kw}}}</id>\n<secret>{{AQAAABAAA {v}}}</secret>",
}
"""The lines a value is written into; ``{kw}`` is the detector's keyword, ``{role}`` what
the value is (``api_key``, ``secret``, ``token``, ``id``…)."""

_ROLES = (
    ("password", "password"), ("passwd", "password"), ("pass", "password"),
    ("secret", "secret"), ("token", "token"), ("pat", "token"), ("auth", "token"),
    ("key", "api_key"), ("id", "id"),
)
"""A regex variable's name → the role its value plays (the first word that fits)."""
_IDENTITIES = ("url", "host", "domain", "email", "user", "name", "endpoint", "region", "org",
               "tenant", "project", "server", "workspace", "account", "instance", "subdomain",
               "uri", "base", "team", "company", "app", "zone", "site", "cloud", "version")
"""Words of a variable's name that say its value identifies, not authenticates."""
_MUST_COMPILE = re.compile(r"(\w+)\s*(?:=|:=)\s*regexp\.MustCompile\(")
_LITERAL = re.compile(r"`[^`]*`|\"(?:[^\"\\\n]|\\.)*\"")
_KEYWORDS = re.compile(r"func \([^)]*\) Keywords\(\) \[\]string \{\s*return \[\]string\{([^}]*)\}")
_PREFIX_REGEX = re.compile(r"detectors\.PrefixRegex\(\[\]string\{[^}]*\}\)")
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_TOKEN_SYMBOLS = "-_+/=."
"""Besides letters and digits, what a drawn value is made of (a class such as ``\\S``
would otherwise draw symbols no issued key carries)."""
_CATEGORIES = {
    sre_parse.CATEGORY_DIGIT: "0123456789",
    sre_parse.CATEGORY_WORD: _LETTERS + "0123456789_",
    sre_parse.CATEGORY_SPACE: " ",
}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True,
                          capture_output=True, text=True).stdout


def _call_body(text: str, start: int) -> str:
    """The argument text of a call whose ``(`` is just before ``start``."""
    depth, pos, quote = 1, start, ""
    while pos < len(text) and depth:
        char = text[pos]
        if quote:
            if char == quote and (quote == "`" or text[pos - 1] != "\\"):
                quote = ""
        elif char in "`\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        pos += 1
    return text[start : pos - 1]


def _go_literal(token: str) -> str:
    if token.startswith("`"):
        return token[1:-1]
    return str(json.loads(token))


def _value_pattern(expr: str) -> str | None:
    """The value part of a MustCompile argument: the literals after a PrefixRegex, joined.

    :returns: the first capture group's pattern (the whole pattern when there is none), or
        ``None`` when Python's ``re`` cannot read it.
    """
    expr = _PREFIX_REGEX.sub("", expr)
    pattern = "".join(_go_literal(token) for token in _LITERAL.findall(expr))
    pattern = pattern.replace("(?i:", "(?:").replace("(?i)", "")
    try:
        groups = re.compile(pattern).groups
    except (re.error, OverflowError, RecursionError):
        return None
    return _group_text(pattern, 1) if groups else pattern


def _group_text(pattern: str, number: int) -> str | None:
    """The source text of capture group ``number`` of ``pattern``."""
    count, depth, start, pos = 0, 0, -1, 0
    while pos < len(pattern):
        char = pattern[pos]
        if char == "\\":
            pos += 2
            continue
        if char == "[":
            pos = pattern.index("]", pos + 2) + 1
            continue
        if char == "(":
            depth += 1
            if pattern[pos + 1 : pos + 2] != "?" or pattern[pos + 1 : pos + 3] == "?P":
                count += 1
                if count == number:
                    start, target = pos, depth
        elif char == ")":
            if start >= 0 and depth == target:
                inner = pattern[start + 1 : pos]
                return re.sub(r"^\?P<\w+>", "", inner)
            depth -= 1
        pos += 1
    return None


def _role(variable: str) -> str | None:
    name = re.sub(r"(?:pat|pattern|regex|re|rx)s?$", "", variable.lower())
    for word, role in _ROLES:
        if word in name:
            if role == "id" and any(word in name for word in _IDENTITIES):
                return None
            return role
    return None


def _choices(items: list[tuple[Any, Any]], letters_only: bool) -> str:
    chars: list[str] = []
    negate = False
    for op, arg in items:
        if op is sre_parse.NEGATE:
            negate = True
        elif op is sre_parse.LITERAL:
            chars.append(chr(arg))
        elif op is sre_parse.RANGE:
            chars.extend(chr(c) for c in range(arg[0], arg[1] + 1))
        elif op is sre_parse.CATEGORY:
            chars.extend(_CATEGORIES.get(arg, ""))
    if negate:
        chars = [c for c in _LETTERS + "0123456789" if c not in chars]
    pool = "".join(chars)
    if any(c.isalnum() for c in pool):  # [\S]{32}, [^"]+: keep the characters keys are made of
        pool = "".join(c for c in pool if c.isalnum() or c in _TOKEN_SYMBOLS)
    letters = "".join(c for c in pool if c.isalpha())
    return letters if letters_only and letters else pool


def _draw(parsed: Any, rng: random.Random, *, shortest: bool, letters_only: bool) -> str:
    out: list[str] = []
    for op, arg in parsed:
        if op is sre_parse.LITERAL:
            out.append(chr(arg))
        elif op is sre_parse.IN:
            out.append(rng.choice(_choices(arg, letters_only) or "x"))
        elif op is sre_parse.ANY:
            out.append(rng.choice(_LETTERS if letters_only else _LETTERS + "0123456789"))
        elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT):
            low, high, sub = arg
            high = min(high, low + 24)
            count = low if shortest else rng.randint(low, high)
            out.extend(_draw(sub, rng, shortest=shortest, letters_only=letters_only)
                       for _ in range(count))
        elif op is sre_parse.SUBPATTERN:
            out.append(_draw(arg[-1], rng, shortest=shortest, letters_only=letters_only))
        elif op is sre_parse.BRANCH:
            out.append(_draw(rng.choice(arg[1]), rng, shortest=shortest,
                             letters_only=letters_only))
        elif op is sre_parse.CATEGORY and arg in _CATEGORIES:
            out.append(rng.choice(_CATEGORIES[arg]))
        elif op is sre_parse.AT:
            continue
        else:
            raise ValueError(f"unsupported regex element {op}")
    return "".join(out)


def values(pattern: str, rng: random.Random) -> dict[str, str]:
    """Values ``pattern`` accepts: ``random``, ``shortest`` and (if it can) ``letters``.

    :param pattern: the value regex (Python ``re`` syntax).
    :param rng: the random source.
    :returns: variant name → value, only values the pattern fully matches.
    """
    parsed = sre_parse.parse(pattern)
    compiled = re.compile(pattern)
    drawn = {
        "random": _draw(parsed, rng, shortest=False, letters_only=False),
        "shortest": _draw(parsed, rng, shortest=True, letters_only=False),
        "letters": _draw(parsed, rng, shortest=False, letters_only=True),
        "short-letters": _draw(parsed, rng, shortest=True, letters_only=True),
    }
    out: dict[str, str] = {}
    for name, value in drawn.items():
        if name.endswith("letters") and not value.isalpha():
            continue
        if compiled.fullmatch(value) and value not in out.values() and value.isprintable():
            out[name] = value
    return out


def detector_rows(repo: Path) -> Iterator[dict[str, Any]]:
    """One row per (detector, credential regex) of the mirror's ``pkg/detectors``."""
    files = [path for path in _git(repo, "ls-tree", "-r", "--name-only", "HEAD",
                                   "pkg/detectors").splitlines()
             if path.endswith(".go") and not path.endswith("_test.go")
             and path.count("/") >= 3]
    for path in sorted(files):
        detector = path.split("/")[2]
        text = _git(repo, "show", f"HEAD:{path}")
        keywords_match = _KEYWORDS.search(text)
        if not keywords_match:
            continue
        keywords = [_go_literal(t) for t in _LITERAL.findall(keywords_match.group(1))]
        keyword = next((k for k in keywords if re.fullmatch(r"[A-Za-z][A-Za-z0-9]{2,}", k)),
                       detector)
        rng = random.Random(f"{path}")
        for match in _MUST_COMPILE.finditer(text):
            role = _role(match.group(1))
            if role is None:
                continue
            pattern = _value_pattern(_call_body(text, match.end()))
            if not pattern:
                continue
            try:
                drawn = values(pattern, rng)
            except (ValueError, re.error, IndexError, OverflowError, RecursionError):
                continue
            if drawn:
                yield {"detector": detector, "variable": match.group(1), "keyword": keyword,
                       "role": role, "pattern": pattern, "values": drawn}


def shape(pattern: str) -> str:
    """A value pattern's family group: prefixed, uuid, hex, alnum or other."""
    if re.match(r"^(?:\\b)?[A-Za-z0-9_]{2,}[-_.]", pattern) or re.match(r"^[A-Za-z]{3,}", pattern):
        return "prefixed"
    if "-[0-9a-f]{4}-" in pattern.replace("A-F", "").replace("a-fA-F", "a-f"):
        return "uuid"
    classes = set(re.findall(r"\[([^\]]+)\]", pattern))
    if classes and all(set(re.sub(r"a-f|A-F|0-9|\\d", "", c)) <= set() for c in classes):
        return "hex"
    if classes and all(set(re.sub(r"a-z|A-Z|0-9|\\d", "", c)) <= set() for c in classes):
        return "alnum"
    return "other"


def lines(row: dict[str, Any], value: str) -> dict[str, str]:
    """The probe lines of ``value`` for a row, by template name."""
    kw = row["keyword"].lower()
    role = row["role"]
    fields = {"kw": kw, "KW": kw.upper(), "role": role, "ROLE": role.upper(),
              "Role": role.title().replace("_", ""), "dash": role.replace("_", "-"), "v": value}
    return {name: template.format(**fields) for name, template in TEMPLATES.items()}


def load(path: Path = PROBES) -> list[dict[str, Any]]:
    """The probe rows (the header line skipped)."""
    text = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in text[1:] if line.strip()]


def generate(trufflehog: Path, out: Path) -> None:
    warnings.simplefilter("ignore", FutureWarning)  # Go's [[:alpha:]]-style sets
    rows = list(detector_rows(trufflehog))
    header = {"header": {"trufflehog": {"mirror": "trufflesecurity+trufflehog",
                                        "commit": _git(trufflehog, "rev-parse", "HEAD").strip(),
                                        "read": "pkg/detectors/*/*.go, *_test.go excluded"}}}
    with out.open("w", encoding="utf-8") as handle:
        for row in (header, *rows):
            handle.write(json.dumps(row, sort_keys=True) + "\n")
    print(f"{len(rows)} rows from {len({r['detector'] for r in rows})} detectors -> {out}")


def measure(role: str, show: int) -> None:
    rows = [row for row in load() if (row["role"] == "id") == (role == "id")]
    totals: Counter[str] = Counter()
    hidden: Counter[str] = Counter()
    misses: list[str] = []
    for row in rows:
        group = shape(row["pattern"])
        for variant, value in row["values"].items():
            for template, line in lines(row, value).items():
                ok = value not in redact(line)
                for key in (f"shape {group}", f"variant {variant}", f"template {template}", "all"):
                    totals[key] += 1
                    hidden[key] += ok
                if not ok:
                    misses.append(f"{row['detector']}/{variant}/{template}: {line!r}")
    for key in sorted(totals):
        print(f"{key:24} {hidden[key]:6}/{totals[key]:<6} {100 * hidden[key] / totals[key]:5.1f} %")
    for miss in misses[:show]:
        print("  miss", miss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", default="measure", choices=("measure", "generate"))
    parser.add_argument("--trufflehog", type=Path, help="bare git mirror (generate)")
    parser.add_argument("-o", "--output", type=Path, default=PROBES)
    parser.add_argument("--role", default="secret", choices=("secret", "id"))
    parser.add_argument("--show", type=int, default=0, help="misses to list")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.trufflehog, args.output)
    else:
        measure(args.role, args.show)


if __name__ == "__main__":
    main()
