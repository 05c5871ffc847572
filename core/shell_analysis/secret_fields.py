"""A secret field taken out of a file: ``jq -r .private_key sa.json``, ``grep password app.ini``.

A file whose name says nothing (``sa.json``, ``config.ini``) is no secret path, but a command
that picks its secret field out prints the secret all the same (rule ``secret-read``). Inside
the project it asks: the file may be a fixture or a template, the value is redacted before the
model sees it, and looking up where a password is configured (``grep -n password
docker-compose.yml``) is ordinary work. Outside the project (``~/keys/sa.json``) it is
denied, and so is a private key's content anywhere: its PEM block cut out (``sed -n
'/BEGIN.*PRIVATE/,/END/p'``) or printed by ``ssh-keygen -y``.
The field names are those secret scanners key on (detect-secrets' keyword plugin, gitleaks'
generic rules) and the documented fields of credential files (a Google service account's
``private_key``, an OAuth client's ``client_secret``, a Docker config's ``auths[].auth``, a
Kubernetes Secret's ``data.password``).

| reader                                 | picks a secret when                                 |
| -------------------------------------- | --------------------------------------------------- |
| ``jq``, ``gojq``, ``jaq``, ``yq``,     | a name of its filter is a secret field              |
| ``dasel``                              | (``.installed.client_secret``, ``.db.password``)    |
| ``grep`` family, ``rg``, ``awk``,      | its pattern or program names a secret and every     |
| ``sed``                                | file it reads is a data file (``.ini``, ``.yaml``,  |
|                                        | ``.json``, ``.txt`` …), not source code, a tree or  |
|                                        | a CI workflow (which holds references, not values)  |
| ``python -c``, ``node -e|-p``,         | the code loads a file and subscripts a secret field |
| ``ruby -e``                            | (``json.load(open("sa.json"))["private_key"]``)     |
| ``ssh-keygen``                         | ``-y``/``-e`` of a private key (``-f`` not ``.pub``) |

Not a secret: a count or a setting that only contains the word (``.usage.total_tokens``,
``.password_policy``), a filter deleting the field (``jq 'del(.password)'``) or setting it in
place (``yq -i``), a pattern searched in source code (``grep -n secret_key signer.py``)
or across the project's tree (``grep -rn password src/``), a grep that prints no line
(``-c``, ``-l``, ``-q``) and ``sed -i`` (it edits the file, printing nothing).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.findings import ASK, DENY, Finding
from tooldeck.shell_analysis.model import Segment
from tooldeck.shell_analysis.program_text import program_words

__all__ = ["FIELD_HEADS", "secret_field_finding"]

_JSON_FILTERS = frozenset({"jq", "gojq", "jaq", "yq", "dasel"})
_SEARCHES = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "awk", "gawk",
                       "mawk", "nawk", "sed"})
_CODE = frozenset({"python", "python3", "node", "ruby"})

FIELD_HEADS: frozenset[str] = _JSON_FILTERS | _SEARCHES | _CODE | frozenset({"ssh-keygen"})
"""Command names :func:`secret_field_finding` looks at."""

_SECRET_FIELD = re.compile(
    r"(?:password|passwd|passphrase|secret|token|privatekey|apikey|secretkey|accesskey|auth|"
    r"credentials?|extraheader|connectionstring)$")
"""A field name (lowercased, ``_``/``-`` dropped) that holds a secret: ``POSTGRES_PASSWORD``,
``client_secret``, ``SecretAccessKey``, ``refresh_token``, ``apiKey``, Docker's ``auth``."""

_SECRET_WORDS = re.compile(
    r"passw|secret|token|api[_-]?key|private[_ -]?key|BEGIN.{0,20}PRIVATE|access[_-]?key|"
    r"extraheader|credential", re.IGNORECASE)
"""A search pattern or a program that names a secret."""
_KEY_BLOCK = re.compile(r"BEGIN.{0,20}PRIVATE|PRIVATE KEY", re.IGNORECASE)
"""A pattern that cuts a private key's PEM block out (denied wherever the file is)."""

_DATA_SUFFIXES = (".ini", ".cfg", ".conf", ".cnf", ".yaml", ".yml", ".toml", ".json", ".txt",
                  ".properties", ".xml", ".plist", ".tfvars", ".tfstate", ".config", ".env",
                  ".pem", ".key", ".bak", ".backup")
_REFERENCE_FILES = (".github/", "workflows/", ".gitlab-ci", ".circleci/", "azure-pipelines")
"""CI definitions name their secrets (``${{ secrets.TOKEN }}``) without holding them."""

_LOADS = re.compile(r"open\(|json\.load|toml\w*\.load|yaml\.\w*load|require\(|readFileSync|"
                    r"File\.read|JSON\.parse|load_file")
_PICKED = re.compile(r"""\[\s*["']([A-Za-z_][\w-]*)["']\s*\]|\.([A-Za-z_]\w*)\b(?!\s*\()""")
"""A subscript or an attribute read (not a method called: ``keytar.getPassword(…)`` is the
keyring rule's)."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_DELETED = re.compile(r"\bdel(?:paths)?\s*\((?:[^()]|\([^()]*\))*\)")
"""A jq deletion (``del(.password)``, ``delpaths([…])``): the field is removed, not printed."""
_YQ_VERBS = frozenset({"eval", "e", "eval-all", "ea"})
_RECURSIVE = frozenset({"-r", "-R", "--recursive", "--dereference-recursive"})
_NO_LINES = frozenset({"c", "l", "L", "q"})
_NO_LINES_LONG = frozenset({"--count", "--files-with-matches", "--files-without-match",
                            "--quiet", "--silent"})


def _secret_field(name: str) -> bool:
    return _SECRET_FIELD.search(name.lower().replace("_", "").replace("-", "")) is not None


def _json_finding(segment: Segment, head: str, args: Sequence[str]) -> Finding | None:
    program = program_words(segment)
    filters = [w.value for i, w in enumerate(segment.words) if i in program
               and w.value not in _YQ_VERBS]
    if head in ("dasel", "yq") or not filters:  # dasel's selector: -s VALUE or an operand
        filters += [a for a in args if a.startswith((".", "["))]
    if head == "yq" and ("-i" in args or any(a.startswith("--inplace") for a in args)):
        return None  # yq -i edits the file in place, printing nothing
    start = segment.command_positions[-1] + 1
    files = [w.value for i, w in enumerate(segment.words[start:], start)
             if i not in program and not w.value.startswith("-") and
             w.value not in filters and w.value not in _YQ_VERBS]
    for text in filters:
        names = _NAME.findall(_DELETED.sub("", text).replace(".Config.Env", ""))
        if any(_secret_field(n) for n in names):
            verdict = DENY if any(_outside(f) for f in files) else ASK
            return Finding(verdict, "secret-read", f"{segment.text!r} picks the secret field "
                           f"{text!r} out of a file")
    return None


def _outside(path: str) -> bool:
    """A file word that names a place outside the project (``~/…``, ``/…``, ``../…``)."""
    return path.startswith(("/", "~", "$HOME", "${HOME}")) or ".." in path.split("/")


def _short_letters(args: Sequence[str]) -> str:
    """The letters of the short option clusters (``-vb``, ``-rn``), not of joined values."""
    return "".join(a[1:] for a in args
                   if a.startswith("-") and not a.startswith("--") and a[1:].isalpha())


def _search_finding(segment: Segment, head: str, args: Sequence[str]) -> Finding | None:
    program = program_words(segment)
    start = segment.command_positions[-1] + 1
    letters = set(_short_letters(args))
    if head in ("grep", "egrep", "fgrep", "ugrep", "ag", "ack") and (
            not _RECURSIVE.isdisjoint(args) or {"r", "R"} & letters):
        return None  # a search of a tree: the hunt rules judge where it looks
    if (head != "sed" and (letters & _NO_LINES or not _NO_LINES_LONG.isdisjoint(args))) or (
            head == "sed" and ("i" in letters or any(a.startswith("--in-place") for a in args))):
        return None  # grep -c|-l|-q prints no line; sed -i edits the file, printing nothing
    patterns = [w.value for i, w in enumerate(segment.words) if i in program]
    files = [w.value for i, w in enumerate(segment.words[start:], start)
             if i not in program and not w.value.startswith("-") and "=" not in w.value]
    if not files or not any(_SECRET_WORDS.search(p) for p in patterns):
        return None
    if all(f.endswith(_DATA_SUFFIXES) and not any(r in f for r in _REFERENCE_FILES)
           for f in files):
        key_block = any(_KEY_BLOCK.search(p) for p in patterns)
        verdict = DENY if key_block or any(_outside(f) for f in files) else ASK
        return Finding(verdict, "secret-read", f"{segment.text!r} takes a secret out of "
                       f"{files[0]!r}")
    return None


def _code_finding(segment: Segment) -> Finding | None:
    program = program_words(segment)
    for i in program:
        code = segment.words[i].value
        if _LOADS.search(code) is None:
            continue
        for quoted, attribute in _PICKED.findall(code):
            if _secret_field(quoted or attribute):
                return Finding(ASK, "secret-read", f"{segment.text!r} picks the secret "
                               f"field {quoted or attribute!r} out of a file")
    return None


def _key_finding(segment: Segment, args: Sequence[str]) -> Finding | None:
    letters = _short_letters(args)
    if not ("y" in letters or "e" in letters):
        return None
    keys = [b for a, b in itertools.pairwise(args) if a == "-f"]
    keys += [a[2:] for a in args if a.startswith("-f") and len(a) > 2]
    if any(not k.endswith(".pub") for k in keys):
        return Finding(DENY, "secret-read", f"{segment.text!r} prints what a private key holds")
    return None


def secret_field_finding(segment: Segment) -> Finding | None:
    """Ask about a command that takes a secret field out of a file (deny a private key's).

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    if head in _JSON_FILTERS:
        return _json_finding(segment, head, args)
    if head in _SEARCHES:
        return _search_finding(segment, head, args)
    if head == "ssh-keygen":
        return _key_finding(segment, args)
    if head in _CODE:
        return _code_finding(segment)
    return None
