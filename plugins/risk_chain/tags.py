r"""What one call is tagged with: the risky kinds of action the risk chain adds up.

=================  ======  ===================================================================
tag                weight  when
=================  ======  ===================================================================
network_egress     0.4     an egress tool (``fetch``, ``web_scrape``), or a shell command with
                           curl, wget, nc, ncat, netcat, socat, telnet, ftp, ssh, scp, sftp or
                           rsync at a command position (wrappers peeled, quotes undone), or a
                           redirection to ``/dev/tcp`` / ``/dev/udp``
sensitive_read     0.3     it touches ``/etc/passwd``, ``/etc/shadow``, ``.ssh/`` or a ``.env``
                           file (``.env``, ``.env.local``; not ``.env.example``, not ``os.environ``)
credential_access  0.3     only without sensitive_read: it touches a credential file — keys and
                           stores (``.pem``, ``.key``, ``.p12``, ``id_rsa``…, ``.netrc``,
                           ``.pgpass``, ``.git-credentials``, ``.npmrc``, ``.docker/config.json``,
                           ``credentials.json``, a bare ``credentials`` under a dot-directory or
                           in the home or working directory), a data file named for a secret
                           (``api_token.txt``, ``secrets.yaml``; source code such as
                           ``credentials.py`` is not) — a variable named for a secret that the
                           shell expands (``"$AWS_SECRET_ACCESS_KEY"``, ``printenv GITHUB_TOKEN``),
                           or the whole environment (``env``, ``printenv``, ``export -p``,
                           ``declare -x``, ``set``, ``/proc/*/environ``). A word in a search
                           pattern (``grep -n secret_key app.py``), an ``echo``'s arguments or a
                           commit message is vocabulary, not an access; a credential a client
                           presents to the service it authenticates to (``curl -H
                           "Authorization: Bearer $TOKEN"``, ``curl -u me:$PASSWORD``, ``ssh -i
                           key.pem``: :data:`PRESENTING_OPTIONS`) is a login, not an access
system_write       0.4     a shell command writing under ``/etc``, ``/usr``, ``/sys`` or ``/boot``
                           (redirections, ``tee``, ``cp``/``mv`` targets, ``sed -i``…)
process_control    0.2     kill, pkill or killall at a command position
=================  ======  ===================================================================

The input is a path (:func:`text_tags`) or a shell command (:func:`shell_tags`), matched
lowercase; a command's words also after Zeph's de-obfuscation (``c'a't /etc/pass""wd``) and
with every quote and backslash removed. Those words only propose the content tags; the shared
shell analyzer keeps the ones the command touches (its code view, its redirections, the
variables it expands, environment dumps), and keeps all of them when it cannot resolve the
command. Command positions come from the same analyzer, which runs only when a command
mentions a command name or system directory above or a content tag was proposed: a command
that names none of them, however quoted or escaped, cannot run one. What the analyzer cannot
resolve (``$cmd``, globbed command words) gets no egress tag; the shell gate asks about such
commands anyway.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Iterable

from tooldeck.call_memo import shell_analysis
from tooldeck.shell_analysis import CommandAnalysis, Segment, Word, deobfuscate
from tooldeck.shell_analysis.data_args import code_view

__all__ = ["Tag", "shell_tags", "text_tags"]


class Tag(enum.Enum):
    """A kind of risky action, with its weight in hundredths of a point."""

    NETWORK_EGRESS = ("network_egress", 40)
    SENSITIVE_READ = ("sensitive_read", 30)
    CREDENTIAL_ACCESS = ("credential_access", 30)
    SYSTEM_WRITE = ("system_write", 40)
    PROCESS_CONTROL = ("process_control", 20)

    @property
    def label(self) -> str:
        """The tag's name as messages show it, e.g. ``network_egress``."""
        return self.value[0]

    @property
    def weight(self) -> int:
        """The tag's weight, in hundredths (``40`` is 0.4)."""
        return self.value[1]


EGRESS_COMMANDS = frozenset({
    "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "ssh", "scp", "sftp",
    "rsync",
})
"""Command names that send data over the network."""

PROCESS_COMMANDS = frozenset({"kill", "pkill", "killall"})
"""Command names that signal other processes."""

SENSITIVE_PATTERN = (
    r"/etc/passwd|/etc/shadow|(?:^|[/~])\.ssh(?:/|$)|"
    r"(?:^|/)\.env(?:\.(?!example$|sample$|template$)[A-Za-z0-9_-]+)?$"
)
"""Paths (words of the input) that read sensitive files."""

CREDENTIAL_FILE_PATTERN = (
    r"(?:^|/)(?:id_(?:rsa|dsa|ecdsa|ed25519)[^/]*|\.netrc|\.pgpass|\.git-credentials|"
    r"\.npmrc|\.pypirc|\.vault-token|\.docker/config\.json|\.kube/config|"
    r"credentials\.[a-z]+|[^/]*\.(?:pem|key|p12|pfx|jks|keystore|kdbx|ppk|asc))$|"
    r"(?:^|/)\.[^/]+/(?:[^/]+/)*credentials$|^[.~]?/?credentials$"
)
"""File names that are credentials whatever their directory; a bare ``credentials`` only under
a dot-directory (``~/.aws/credentials``, ``~/.config/x/credentials``), in the home or working
directory: ``anthropic/lib/credentials`` is a package of source code."""

SECRET_WORDS = (
    "secret", "password", "passwd", "token", "api_key", "apikey", "api-key", "private_key",
    "access_key", "credential",
)
"""Words that name a secret in a data file's name or an environment variable's."""

CODE_EXTENSIONS = frozenset({
    "py", "pyi", "js", "mjs", "cjs", "ts", "tsx", "jsx", "go", "rs", "java", "kt", "scala",
    "rb", "php", "c", "h", "cc", "cpp", "hpp", "cs", "swift", "m", "sh", "bash", "zsh", "lua",
    "pl", "ex", "exs", "erl", "hs", "ml", "clj", "dart", "vue", "svelte", "md", "rst", "txt.in",
    "html", "css", "scss", "sql", "ipynb", "pyc", "o", "so", "snap", "lock", "pub",
})
"""Extensions of source code and documentation: ``test_password.py`` and
``credentials.py`` are not credentials, ``id_rsa.pub`` is a public key."""

ENV_DUMPERS = frozenset({"env", "printenv", "export", "declare", "typeset", "set"})
"""Commands that print the whole environment when given no name (``env``, ``export -p``)."""

PRESENTING_OPTIONS: dict[str, frozenset[str]] = {
    "curl": frozenset({"-u", "--user", "--oauth2-bearer", "-E", "--cert", "--key",
                       "--proxy-user", "-U"}),
    "wget": frozenset({"--password", "--http-password", "--ftp-password", "--user",
                       "--http-user", "--certificate", "--private-key"}),
    "http": frozenset({"-a", "--auth"}), "https": frozenset({"-a", "--auth"}),
    "xh": frozenset({"-a", "--auth", "--bearer"}),
    "ssh": frozenset({"-i"}), "scp": frozenset({"-i"}), "sftp": frozenset({"-i"}),
}
"""Options whose value is a credential the client presents to its server (the clients'
manuals): a login, not a read. ``-H``/``--header`` values that set ``Authorization`` are
presented too (:func:`_presented`)."""

_AUTH_HEADERS = ("authorization:", "proxy-authorization:")
_HEADER_OPTIONS = frozenset({"-H", "--header"})

SYSTEM_DIRS = ("/etc/", "/usr/", "/sys/", "/boot/")
"""Directories a write into is a system write."""


def _any_of(markers: Iterable[str]) -> re.Pattern[str]:
    """One search for several literal markers (fixed, escaped: linear in the input)."""
    return re.compile("|".join(re.escape(marker) for marker in markers))


_SENSITIVE = re.compile(SENSITIVE_PATTERN)
_CREDENTIAL_FILE = re.compile(CREDENTIAL_FILE_PATTERN)
_SECRET_WORD = _any_of(SECRET_WORDS)
_ENV_REFERENCE = re.compile(r"\$\{?([a-z_][a-z0-9_]*)")
_PROC_ENVIRON = re.compile(r"^/proc/[^/]+/environ$")
_WORD_SPLIT = re.compile(r"[\s;|&()<>`=,]+")
_SYSTEM_REDIRECT = re.compile(r">>?[ \t]*/(?:etc|usr|sys|boot)/")
_ANALYSIS_TRIGGER = _any_of(
    (*EGRESS_COMMANDS, *PROCESS_COMMANDS, "/dev/tcp", "/dev/udp", *SYSTEM_DIRS)
)
_UNQUOTE = str.maketrans("", "", "\\'\"")


def _is_credential_path(word: str) -> bool:
    name = word.rsplit("/", 1)[-1]
    extension = name.rsplit(".", 1)[-1] if "." in name.strip(".") else ""
    if extension in CODE_EXTENSIONS:
        return False  # credentials.py is code about credentials
    if _CREDENTIAL_FILE.search(word):
        return True
    # a bare word is a search pattern or a name, not a file
    return bool(extension) and _SECRET_WORD.search(name) is not None


def _references_secret_variable(word: str) -> bool:
    return any(_SECRET_WORD.search(name) for name in _ENV_REFERENCE.findall(word))


def _word_tags(words: Iterable[str], *, references: bool = True) -> frozenset[Tag]:
    """Sensitive read or credential access, from words that may be paths.

    :param references: also count ``$SECRET_NAME`` in a word (the cheap first look, which
        does not know quoting; the analyzer's look finds expansions itself).
    """
    credential = False
    for word in words:
        if _SENSITIVE.search(word):
            return frozenset({Tag.SENSITIVE_READ})
        credential = credential or _is_credential_path(word) or (
            references and _references_secret_variable(word))
    return frozenset({Tag.CREDENTIAL_ACCESS}) if credential else frozenset()


def text_tags(text: str) -> frozenset[Tag]:
    """The content tags of a non-shell input (a path): sensitive read or credential.

    :param text: the call's main input.
    :returns: the tags, possibly none.
    """
    return _word_tags([text.lower().strip()])


def _shell_words(text: str) -> list[str]:
    words = [w.strip("'\"") for w in _WORD_SPLIT.split(text) if w]
    # printenv GITHUB_TOKEN names the variable without a $
    for before, word in itertools.pairwise(words):
        if before == "printenv":
            words.append("$" + word)
    return words


def _under_system_dir(path: str) -> bool:
    return any(path.startswith(d) or path == d.rstrip("/") for d in SYSTEM_DIRS)


def _expanded_names(source: str) -> list[str]:
    """The variables a word's source expands: ``"${TOKEN}"`` yes, ``'$TOKEN'`` no."""
    names: list[str] = []
    single = double = escaped = False
    for index, char in enumerate(source):
        if escaped:
            escaped = False
        elif char == "\\" and not single:
            escaped = True
        elif char == "'" and not double:
            single = not single
        elif char == '"' and not single:
            double = not double
        elif char == "$" and not single:
            names += _ENV_REFERENCE.findall(source[index:].lower())[:1]
    return names


def _is_env_dump(segment: Segment) -> bool:
    """``env``, ``printenv``, ``export -p``, ``declare -x``, ``set``: the whole environment."""
    head, *args = segment.argv or ("",)
    if head not in ENV_DUMPERS:
        return False
    if head == "env":  # env VAR=1 with no command prints the environment too
        return all(arg.startswith("-") or "=" in arg for arg in args)
    if head == "set":
        return not args
    return all(arg.startswith("-") for arg in args)


def _auth_header(segment: Segment, index: int) -> int | None:
    """The index of the word holding an ``Authorization`` header set at ``index``, if any."""
    words = segment.words
    value = words[index].value
    if value in _HEADER_OPTIONS:
        target, header = index + 1, words[index + 1].value if index + 1 < len(words) else ""
    elif value.startswith("--header="):
        target, header = index, value.partition("=")[2]
    elif value.startswith("-H"):
        target, header = index, value[2:]
    elif segment.command in ("http", "https", "xh"):  # HTTPie's Header:value items
        target, header = index, value
    else:
        return None
    return target if header.lower().lstrip().startswith(_AUTH_HEADERS) else None


def _presented(segment: Segment) -> frozenset[int]:
    """Indices of the words a client presents as its credential (see :data:`PRESENTING_OPTIONS`)."""
    options = PRESENTING_OPTIONS.get(segment.command)
    if options is None or not segment.command_positions:
        return frozenset()
    found: set[int] = set()
    words = segment.words
    for index in range(segment.command_positions[-1] + 1, len(words)):
        value = words[index].value
        header = _auth_header(segment, index)
        if header is not None:
            found.add(header)
        elif value in options and index + 1 < len(words):
            found.add(index + 1)
        elif value.partition("=")[0] in options or (
                not value.startswith("--") and value[:2] in options and len(value) > 2):
            found.add(index)
    return frozenset(found)


def _unpresented(segment: Segment) -> list[tuple[int, Word]]:
    """A segment's words but the credentials its client presents (:func:`_presented`)."""
    presented = _presented(segment)
    return [(index, word) for index, word in enumerate(segment.words) if index not in presented]


def _touched_tags(analysis: CommandAnalysis) -> frozenset[Tag]:
    """Content tags from what a command touches, not from what it mentions.

    Paths are the words of the code view (a grep pattern, an ``echo``'s arguments or a
    commit message are data) and the redirections; secrets are variables the shell expands
    (``$AWS_SECRET_ACCESS_KEY``, ``printenv GITHUB_TOKEN``) and whole-environment dumps.
    """
    _text, view = code_view(analysis)
    paths = [word.value.lower() for segment in view.segments
             for index, word in _unpresented(segment)]
    paths += [path.lower() for path in (*analysis.input_sources, *analysis.redirect_targets)]
    tags = _word_tags(paths, references=False)
    if tags:
        return tags
    for segment in analysis.segments:
        names = [name for _index, word in _unpresented(segment)
                 for name in _expanded_names(word.source)]
        if segment.command == "printenv":
            names += [arg.lower() for arg in segment.argv[1:] if not arg.startswith("-")]
        if (_is_env_dump(segment) or any(_SECRET_WORD.search(name) for name in names)
                or any(_PROC_ENVIRON.search(path) for path in paths)):
            return frozenset({Tag.CREDENTIAL_ACCESS})
    return frozenset()


def shell_tags(command: str, *, extra_wrappers: Iterable[str] = ()) -> frozenset[Tag]:
    """The tags of a shell command.

    A cheap look at the command's words finds candidates for the content tags (a sensitive
    path, a credential file, a secret variable, an environment dump); the shared analyzer then
    keeps those the command touches. What the analyzer cannot resolve keeps the candidates.

    :param command: the command as the agent sent it.
    :param extra_wrappers: operator-declared wrappers (``[tools.shell] extra_wrappers``).
    :returns: the tags, possibly none.
    """
    normalised = deobfuscate(command).lower()
    # the three spellings in one string; no marker contains the NUL that separates them
    text = "\0".join((command.lower(), normalised, normalised.translate(_UNQUOTE)))
    # each word once: the three spellings of a command without quotes or escapes are equal
    words = list(dict.fromkeys(_shell_words(text.replace("\0", " "))))
    candidates = set(_word_tags(words))
    if ENV_DUMPERS.intersection(words) or any(_PROC_ENVIRON.search(w) for w in words):
        candidates.add(Tag.CREDENTIAL_ACCESS)
    tags: set[Tag] = set()
    if _SYSTEM_REDIRECT.search(text):
        tags.add(Tag.SYSTEM_WRITE)
    if not candidates and not _ANALYSIS_TRIGGER.search(text):
        return frozenset(tags)
    analysis = shell_analysis(command, extra_wrappers=extra_wrappers)
    if candidates:
        resolved = not (analysis.opaque or analysis.refusal)
        tags |= _touched_tags(analysis) if resolved else candidates
    if analysis.network_redirects:
        tags.add(Tag.NETWORK_EGRESS)
    if any(_under_system_dir(target) for target in analysis.write_targets):
        tags.add(Tag.SYSTEM_WRITE)
    for segment in analysis.segments:
        names = {*segment.wrappers, segment.command}
        if names & EGRESS_COMMANDS:
            tags.add(Tag.NETWORK_EGRESS)
        if names & PROCESS_COMMANDS:
            tags.add(Tag.PROCESS_CONTROL)
    return frozenset(tags)
