r"""What one call is tagged with: the risky kinds of action the risk chain adds up.

=================  ======  ===================================================================
tag                weight  when
=================  ======  ===================================================================
network_egress     0.4     an egress tool (``fetch``, ``web_scrape``), or a shell command with
                           curl, wget, nc, ncat, netcat, socat, telnet, ftp, ssh, scp, sftp or
                           rsync at a command position (wrappers peeled, quotes undone), or a
                           redirection to ``/dev/tcp`` / ``/dev/udp``
sensitive_read     0.3     a path to ``/etc/passwd``, ``/etc/shadow``, ``.ssh/`` or a ``.env``
                           file (``.env``, ``.env.local``; not ``.env.example``, not ``os.environ``)
credential_access  0.3     only without sensitive_read: a path to a credential file — keys and
                           stores (``.pem``, ``.key``, ``.p12``, ``id_rsa``…), ``credentials``,
                           ``.netrc``, ``.pgpass``, ``.git-credentials``, or a data file named
                           for a secret (``api_token.txt``, ``secrets.yaml``; source code such
                           as ``test_password.py`` is not) — or a reference to an environment
                           variable named for one (``$AWS_SECRET_ACCESS_KEY``, ``printenv
                           GITHUB_TOKEN``). A word in a search pattern (``grep -n secret_key
                           app.py``) is code vocabulary, not an access
system_write       0.4     a shell command writing under ``/etc``, ``/usr``, ``/sys`` or ``/boot``
                           (redirections, ``tee``, ``cp``/``mv`` targets, ``sed -i``…)
process_control    0.2     kill, pkill or killall at a command position
=================  ======  ===================================================================

The input is the call's main text (the command, the path), matched lowercase; for shell
commands also after Zeph's de-obfuscation (``c'a't /etc/pass""wd``) and with every quote and
backslash removed. Command positions come from the shared shell analyzer, which runs only when
one of those texts mentions a command name or system directory above: a command that names none
of them, however quoted or escaped, cannot run one. What the analyzer cannot resolve (``$cmd``,
globbed command words) is not tagged; the shell gate asks about such commands anyway.
"""

from __future__ import annotations

import enum
import itertools
import re
from collections.abc import Iterable

from tooldeck.call_memo import shell_analysis
from tooldeck.shell_analysis import deobfuscate

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
    r"credentials(?:\.[a-z]+)?|[^/]*\.(?:pem|key|p12|pfx|jks|keystore|kdbx|ppk|asc))$"
)
"""File names that are credentials whatever their directory."""

SECRET_WORDS = (
    "secret", "password", "passwd", "token", "api_key", "apikey", "api-key", "private_key",
    "access_key", "credential",
)
"""Words that name a secret in a data file's name or an environment variable's."""

CODE_EXTENSIONS = frozenset({
    "py", "pyi", "js", "mjs", "cjs", "ts", "tsx", "jsx", "go", "rs", "java", "kt", "scala",
    "rb", "php", "c", "h", "cc", "cpp", "hpp", "cs", "swift", "m", "sh", "bash", "zsh", "lua",
    "pl", "ex", "exs", "erl", "hs", "ml", "clj", "dart", "vue", "svelte", "md", "rst", "txt.in",
    "html", "css", "scss", "sql", "ipynb", "pyc", "o", "so", "snap", "lock",
})
"""Extensions of source code and documentation: ``test_password.py`` is not a credential."""

SYSTEM_DIRS = ("/etc/", "/usr/", "/sys/", "/boot/")
"""Directories a write into is a system write."""


def _any_of(markers: Iterable[str]) -> re.Pattern[str]:
    """One search for several literal markers (fixed, escaped: linear in the input)."""
    return re.compile("|".join(re.escape(marker) for marker in markers))


_SENSITIVE = re.compile(SENSITIVE_PATTERN)
_CREDENTIAL_FILE = re.compile(CREDENTIAL_FILE_PATTERN)
_SECRET_WORD = _any_of(SECRET_WORDS)
_ENV_REFERENCE = re.compile(r"\$\{?([a-z_][a-z0-9_]*)")
_WORD_SPLIT = re.compile(r"[\s;|&()<>`=,]+")
_SYSTEM_REDIRECT = re.compile(r">>?[ \t]*/(?:etc|usr|sys|boot)/")
_ANALYSIS_TRIGGER = _any_of(
    (*EGRESS_COMMANDS, *PROCESS_COMMANDS, "/dev/tcp", "/dev/udp", *SYSTEM_DIRS)
)
_UNQUOTE = str.maketrans("", "", "\\'\"")


def _is_credential_path(word: str) -> bool:
    if _CREDENTIAL_FILE.search(word):
        return True
    name = word.rsplit("/", 1)[-1]
    if "." not in name.strip(".") or not _SECRET_WORD.search(name):
        return False  # a bare word is a search pattern or a name, not a file
    extension = name.rsplit(".", 1)[-1]
    return extension not in CODE_EXTENSIONS


def _references_secret_variable(word: str) -> bool:
    return any(_SECRET_WORD.search(name) for name in _ENV_REFERENCE.findall(word))


def _word_tags(words: Iterable[str]) -> frozenset[Tag]:
    credential = False
    for word in words:
        if _SENSITIVE.search(word):
            return frozenset({Tag.SENSITIVE_READ})
        credential = credential or _is_credential_path(word) or _references_secret_variable(word)
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


def shell_tags(command: str, *, extra_wrappers: Iterable[str] = ()) -> frozenset[Tag]:
    """The tags of a shell command.

    :param command: the command as the agent sent it.
    :param extra_wrappers: operator-declared wrappers (``[tools.shell] extra_wrappers``).
    :returns: the tags, possibly none.
    """
    normalised = deobfuscate(command).lower()
    # the three spellings in one string; no marker contains the NUL that separates them
    text = "\0".join((command.lower(), normalised, normalised.translate(_UNQUOTE)))
    tags: set[Tag] = set(_word_tags(_shell_words(text.replace("\0", " "))))
    if _SYSTEM_REDIRECT.search(text):
        tags.add(Tag.SYSTEM_WRITE)
    if not _ANALYSIS_TRIGGER.search(text):
        return frozenset(tags)
    analysis = shell_analysis(command, extra_wrappers=extra_wrappers)
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
