"""Extract secret fixtures from public scanners' test suites into one JSONL file.

Reads bare git mirrors (``git --git-dir=… show HEAD:path``) of gitleaks, trufflehog and
detect-secrets and writes one row per (scanner, rule, sample text, secret value):

- gitleaks: each rule's true positives built by ``utils.GenerateSampleSecrets(id, secret)``.
  The secret expression (string literals, ``secrets.NewSecret(<regex>)``, ``utils.Hex("32")``
  and the other pattern helpers, joined with ``+``) is evaluated here, random strings are
  drawn from the regex with a seed per rule, and a few of the sample syntaxes (INI, JSON,
  YAML, Go, Python, Makefile, …; re-implemented from their documented shapes) are kept.
- trufflehog: ``pkg/detectors/<name>/<name>_test.go`` pattern tests: each case's ``input``
  and every ``want`` value that appears verbatim in it.
- detect-secrets: ``tests/plugins/*_test.py`` ``(line, True)`` parameters; the secret is
  the longest token of the line that the plugin's own regexes match (the plugin modules are
  read from the mirror, not imported).

The first line of the output is a header row with each repository's commit.

    python bench/extract_secret_fixtures.py --gitleaks DIR --trufflehog DIR \
        --detect-secrets DIR [-o tests/secrets_corpus/fixtures.jsonl]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import random
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

SAMPLES_PER_RULE = 3
CASES_PER_DETECTOR = 2

# The shapes gitleaks' GenerateSampleSecrets writes a secret in ({i} identifier, {I} upper
# case identifier, {s} secret); written from its documentation of each syntax.
TEMPLATES = (
    "{i}Token=\"{s}\"",
    "{i}Token = \"{s}\"",
    "{i}Token={s}",
    "{i}Token = {s}",
    "{{\n    \"{i}_token\": \"{s}\"\n}}",
    "{{\"config.ini\": \"{I}_TOKEN={s}\\nBACKUP_ENABLED=true\"}}",
    "<{i}Token>\n    {s}\n</{i}Token>",
    "{i}_token: {s}",
    "{i}_token: '{s}'",
    "{i}_token: \"{s}\"",
    "string {i}Token = \"{s}\";",
    "var {i}Token string = \"{s}\"",
    "{i}Token := \"{s}\"",
    "{i}Token := `{s}`",
    "String {i}Token = \"{s}\";",
    "var {i}Token = \"{s}\"",
    "${i}Token .= \"{s}\"",
    "{i}Token = '{s}'",
    "{i}Token = \"{s}\"",
    "System.setProperty(\"{I}_TOKEN\", \"{s}\")",
    "  \"{i}Token\" => \"{s}\"",
    "{i}_TOKEN = \"{s}\"",
    "{i}_TOKEN := \"{s}\"",
    "{i}_TOKEN ::= \"{s}\"",
    "{i}_TOKEN :::= \"{s}\"",
    "{i}_TOKEN ?= \"{s}\"",
)

HELPERS = {
    "Numeric": "[0-9]{{{}}}",
    "Hex": "[a-f0-9]{{{}}}",
    "AlphaNumeric": "[a-z0-9]{{{}}}",
    "AlphaNumericExtendedShort": "[a-z0-9_-]{{{}}}",
    "AlphaNumericExtended": "[a-z0-9=_\\-]{{{}}}",
    "AlphaNumericExtendedLong": "[a-z0-9\\/=_\\+\\-]{{{}}}",
}
UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def git_show(repo: Path, path: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), "show", f"HEAD:{path}"],
                          check=True, capture_output=True, text=True).stdout


def git_ls(repo: Path, path: str) -> list[str]:
    out = subprocess.run(["git", "--git-dir", str(repo), "ls-tree", "-r", "--name-only",
                          "HEAD", path], check=True, capture_output=True, text=True).stdout
    return out.split()


def git_head(repo: Path) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


# --- a string drawn from a regular expression -------------------------------------------

_CATEGORIES = {
    sre_parse.CATEGORY_DIGIT: "0123456789",
    sre_parse.CATEGORY_WORD: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
    sre_parse.CATEGORY_SPACE: " ",
}


def _choices(items: list[tuple[Any, Any]]) -> list[str]:
    chars: list[str] = []
    for op, arg in items:
        if op is sre_parse.LITERAL:
            chars.append(chr(arg))
        elif op is sre_parse.RANGE:
            chars.extend(chr(c) for c in range(arg[0], arg[1] + 1))
        elif op is sre_parse.CATEGORY:
            chars.extend(_CATEGORIES[arg])
        elif op is sre_parse.NEGATE:
            raise ValueError("negated class")
    return chars


def _draw(parsed: Any, rng: random.Random) -> str:
    out: list[str] = []
    for op, arg in parsed:
        if op is sre_parse.LITERAL:
            out.append(chr(arg))
        elif op is sre_parse.IN:
            out.append(rng.choice(_choices(arg)))
        elif op is sre_parse.ANY:
            out.append(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789"))
        elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT):
            low, high, sub = arg
            high = min(high, low + 8) if high != sre_parse.MAXREPEAT else low + 8
            out.extend(_draw(sub, rng) for _ in range(rng.randint(low, high)))
        elif op is sre_parse.SUBPATTERN:
            out.append(_draw(arg[-1], rng))
        elif op is sre_parse.BRANCH:
            out.append(_draw(rng.choice(arg[1]), rng))
        elif op is sre_parse.AT:
            continue
        else:
            raise ValueError(f"unsupported regex element {op}")
    return "".join(out)


def regex_sample(pattern: str, rng: random.Random) -> str:
    """A string matching ``pattern`` (bounded repeats), drawn with ``rng``."""
    return _draw(sre_parse.parse(pattern), rng)


# --- gitleaks -----------------------------------------------------------------------------

def _go_string(token: str) -> str:
    if token.startswith("`"):
        return token[1:-1]
    return str(ast.literal_eval(token))


def _split_top(expr: str, sep: str) -> list[str]:
    parts, depth, quote, current = [], 0, "", ""
    for char in expr:
        if quote:
            current += char
            if char == quote and not current.endswith("\\" + quote):
                quote = ""
            continue
        if char in "\"`":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == sep and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    parts.append(current.strip())
    return parts


def _eval_pattern(expr: str) -> str:
    """A Go expression that yields a regex string (literals, utils helpers, ``+``)."""
    out = []
    for term in _split_top(expr, "+"):
        if term[:1] in "\"`":
            out.append(_go_string(term))
        elif term == "utils.Hex8_4_4_4_12()":
            out.append(UUID)
        elif m := re.fullmatch(r"utils\.(\w+)\(\"(\d+(?:,\d*)?)\"\)", term):
            out.append(HELPERS[m[1]].format(m[2]))
        else:
            raise ValueError(f"cannot evaluate {term!r}")
    return "".join(out)


def _eval_secret(expr: str, rng: random.Random) -> str:
    out = []
    for term in _split_top(expr, "+"):
        if term[:1] in "\"`":
            out.append(_go_string(term))
        elif term.startswith("secrets.NewSecret(") and term.endswith(")"):
            out.append(regex_sample(_eval_pattern(term[len("secrets.NewSecret("):-1]), rng))
        else:
            out.append(regex_sample(_eval_pattern(term), rng))
    return "".join(out)


def _call_args(text: str, start: int) -> str:
    depth = 0
    quote = ""
    for pos in range(start, len(text)):
        char = text[pos]
        if quote:
            if char == quote and text[pos - 1] != "\\":
                quote = ""
        elif char in "\"`":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return text[start:pos]
            depth -= 1
    raise ValueError("unbalanced call")


def gitleaks_rows(repo: Path) -> Iterator[dict[str, str]]:
    call = "utils.GenerateSampleSecrets("
    for path in git_ls(repo, "cmd/generate/config/rules"):
        if not path.endswith(".go") or path.endswith("_test.go"):
            continue
        source = git_show(repo, path)
        for body in re.split(r"\nfunc ", source)[1:]:
            rule = re.search(r"RuleID:\s*\"([^\"]+)\"", body)
            if rule is None:
                continue
            rule_id = rule[1]
            rng = random.Random(rule_id)
            kept = 0
            for found in re.finditer(re.escape(call), body):
                args = _split_top(_call_args(body, found.end()), ",")
                if len(args) != 2 or kept >= SAMPLES_PER_RULE:
                    continue
                try:
                    identifier = _go_string(args[0])
                    secret = _eval_secret(args[1], rng)
                except (ValueError, KeyError, SyntaxError):
                    continue
                if len(secret) < 8:
                    continue
                template = TEMPLATES[rng.randrange(len(TEMPLATES))]
                sample = template.format(i=identifier, I=identifier.upper(), s=secret)
                kept += 1
                yield {"scanner": "gitleaks", "rule": rule_id, "sample": sample,
                       "secret": secret}


# --- trufflehog ---------------------------------------------------------------------------

_CASE = re.compile(r"input:\s*(?P<input>`[^`]*`|\"(?:[^\"\\\n]|\\.)*\")\s*,\s*\n\s*"
                   r"want:\s*\[\]string\{(?P<want>[^}]*)\}")
_GO_LITERAL = re.compile(r"`[^`]*`|\"(?:[^\"\\\n]|\\.)*\"")


def trufflehog_rows(repo: Path) -> Iterator[dict[str, str]]:
    for path in git_ls(repo, "pkg/detectors"):
        parts = path.split("/")
        if len(parts) != 4 or parts[3] != f"{parts[2]}_test.go":
            continue
        source = git_show(repo, path)
        kept = 0
        for case in _CASE.finditer(source):
            if kept >= CASES_PER_DETECTOR:
                break
            try:
                sample = _go_string(case["input"])
                wants = [_go_string(w) for w in _GO_LITERAL.findall(case["want"])]
            except (ValueError, SyntaxError):
                continue
            wants = [w for w in wants if len(w) >= 8 and w in sample]
            if not wants:
                continue
            kept += 1
            sample = "\n".join(line.strip() for line in sample.strip().splitlines())
            for want in wants[:2]:
                yield {"scanner": "trufflehog", "rule": parts[2], "sample": sample,
                       "secret": want}


# --- detect-secrets -------------------------------------------------------------------------

def _plugin_regexes(repo: Path) -> list[re.Pattern[str]]:
    regexes = []
    for path in git_ls(repo, "detect_secrets/plugins"):
        if not path.endswith(".py"):
            continue
        for literal in re.findall(r"re\.compile\(\s*((?:r?(?:'[^'\n]*'|\"[^\"\n]*\")\s*)+)",
                                  git_show(repo, path)):
            try:
                pattern = "".join(ast.literal_eval(p) for p in
                                  re.findall(r"r?(?:'[^'\n]*'|\"[^\"\n]*\")", literal))
                regexes.append(re.compile(pattern))
            except (re.error, ValueError, SyntaxError):
                continue
    return regexes


def _secret_in(line: str, regexes: list[re.Pattern[str]]) -> str | None:
    best = ""
    for regex in regexes:
        for match in regex.finditer(line):
            groups = [g for g in match.groups() if g] or [match[0]]
            for value in groups:
                if len(value) > len(best) and len(value) >= 8:
                    best = value
    return best or None


def detect_secrets_rows(repo: Path) -> Iterator[dict[str, str]]:
    regexes = _plugin_regexes(repo)
    for path in git_ls(repo, "tests/plugins"):
        if not path.endswith("_test.py") or "base" in path or "ip_public" in path:
            continue
        plugin = Path(path).name.removesuffix("_test.py")
        tree = ast.parse(git_show(repo, path))
        kept = 0
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Tuple) and len(node.elts) == 2):
                continue
            line, flag = node.elts
            if not (isinstance(flag, ast.Constant) and flag.value is True):
                continue
            if not (isinstance(line, ast.Constant) and isinstance(line.value, str)):
                continue
            secret = _secret_in(line.value, regexes)
            if secret is None or kept >= 4:
                continue
            kept += 1
            yield {"scanner": "detect-secrets", "rule": plugin, "sample": line.value,
                   "secret": secret}


def _mirror_name(repo: Path) -> str:
    return repo.parent.name if repo.name == "repo" else repo.name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gitleaks", type=Path, required=True)
    parser.add_argument("--trufflehog", type=Path, required=True)
    parser.add_argument("--detect-secrets", type=Path, required=True)
    parser.add_argument("-o", "--output", type=Path,
                        default=Path("tests/secrets_corpus/fixtures.jsonl"))
    args = parser.parse_args()
    sources = {"gitleaks": args.gitleaks, "trufflehog": args.trufflehog,
               "detect-secrets": args.detect_secrets}
    header = {"header": {name: {"mirror": _mirror_name(repo), "commit": git_head(repo)}
                         for name, repo in sources.items()}}
    rows = [*gitleaks_rows(args.gitleaks), *trufflehog_rows(args.trufflehog),
            *detect_secrets_rows(args.detect_secrets)]
    seen: set[str] = set()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        for row in rows:
            key = hashlib.sha256(json.dumps(row, sort_keys=True).encode()).hexdigest()
            if key not in seen:
                seen.add(key)
                out.write(json.dumps(row) + "\n")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["scanner"]] = counts.get(row["scanner"], 0) + 1
    print(f"{len(seen)} rows -> {args.output}: {counts}")


if __name__ == "__main__":
    main()
