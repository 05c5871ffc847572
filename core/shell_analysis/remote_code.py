"""Code and shells that come over the network: downloaded then run, or served on a socket.

Network clients are allowed (the egress gate judges where they go); what they bring in must
not run unseen, and a shell must not be wired to a connection:

| rule            | fires when                                                   | verdict |
| --------------- | ------------------------------------------------------------ | ------- |
| download-exec   | a network client and code only known at run time in one     | deny    |
|                 | command (``curl … | sh``, ``sh -c "$(curl …)"``,             |         |
|                 | ``python3 <(curl …)``, ``eval "$(wget -O- …)"``)             |         |
| download-exec   | a file a network client saves is run later in the command   | deny    |
|                 | (``curl -o x.sh … && sh x.sh``, ``wget … && ./tool``,        |         |
|                 | ``aria2c URL``, ``scp h:x.sh .``, ``tftp -c get x.sh``,      |         |
|                 | ``tftp -g -r x.sh HOST``, ``atftp --get``), also once it is  |         |
|                 | compiled (``gcc x.c -o x && ./x``, ``go run x.go``,          |         |
|                 | ``osacompile -o p.app p.applescript && open p.app``), or     |         |
|                 | a file of an archive piped from one into an unpacker, or     |         |
|                 | saved by one and unpacked (``curl … | tar xz && ./install.sh``,|        |
|                 | ``wget x.tgz && tar xzf x.tgz && ./x/run``); the file named   |         |
|                 | by ``> f``, ``| tee f``, a local operand or a ``get`` command;|         |
|                 | a cloud storage copy counts as a download (``aws s3 cp       |         |
|                 | s3://b/x.sh . && sh x.sh``, ``gsutil``, ``gcloud storage``,   |         |
|                 | ``rclone``, ``s3cmd get``, ``az storage blob download -f``)  |         |
| remote-shell    | a network client told to run a program on its connection    | deny    |
|                 | (``nc -e sh``, ``ncat --sh-exec``, ``socat … EXEC:sh``,      |         |
|                 | ``socket -p 'sh -i'``, ``rcat -s sh``, ``telnetd -l sh``),   |         |
|                 | ``inetd``/``xinetd`` started by hand; ``xterm -display      |         |
|                 | HOST:1`` (a terminal on another machine's X server)          |         |
| remote-shell    | a network client and a shell without a script in one command| deny    |
|                 | (``sh -i < f | openssl s_client … > f``)                     |         |

The network clients are GTFOBins' ``upload``, ``download``, ``reverse-shell`` and
``bind-shell`` binaries (:mod:`.gtfobins_table`) that are not interpreters (whose code is
judged by :mod:`.interpreters`), plus the clients GTFOBins does not list there
(:data:`OTHER_CLIENTS`). A vendor installer piped into a shell is denied too: it runs code
nobody read and usually writes outside the project (into the home directory).
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from tooldeck.shell_analysis.carriers import SHELLS
from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.gtfobins_table import DOWNLOADERS, REMOTE_SHELLS, UPLOADERS
from tooldeck.shell_analysis.interpreters import INTERPRETER_CODE_OPTIONS, interpreter_code
from tooldeck.shell_analysis.launchers import bare_shell
from tooldeck.shell_analysis.model import CommandAnalysis, Segment, Word

__all__ = [
    "NETWORK_CLIENTS", "OTHER_CLIENTS", "REMOTE_SHELL_HEADS", "STORAGE_CLIENTS",
    "remote_code_finding", "remote_shell_finding",
]

_NOT_CLIENTS = frozenset({
    # interpreters and shells (their network use is judged in their code), a wrapper, and
    # programs whose GTFOBins network entry is a subcommand or a server configuration
    "bash", "zsh", "gawk", "go", "jjs", "jrunscript", "julia", "lua", "node", "perl", "php",
    "python", "ruby", "tclsh", "busybox", "code", "kubectl", "nginx", "tailscale", "tar", "yum",
})
OTHER_CLIENTS: frozenset[str] = frozenset({
    "wget2", "http", "https", "xh", "xhs", "lwp-request", "lynx", "links", "w3m", "ncat",
    "netcat", "rsync", "rcat", "pwncat", "sshpass", "autossh", "mosh", "lftp", "mail", "mailx",
    "sendmail", "mutt", "swaks", "websocat", "grpcurl", "aria2c", "axel",
    "fetch", "curlie", "nscurl",  # FreeBSD's fetch(1), curlie, macOS's nscurl (LOOBins)
    "atftp",  # the advanced TFTP client (Splunk's and Falco's downloader lists name it)
})
"""Network clients GTFOBins does not list among its upload, download or shell binaries."""

NETWORK_CLIENTS: frozenset[str] = (
    (UPLOADERS | DOWNLOADERS | REMOTE_SHELLS) - _NOT_CLIENTS) | OTHER_CLIENTS
"""Commands that fetch or send over the network (``openssl`` only with ``s_client``)."""

_PROGRAM_OPTIONS: dict[str, frozenset[str]] = {
    "nc": frozenset({"-e", "-c"}), "netcat": frozenset({"-e", "-c"}),
    "ncat": frozenset({"-e", "-c", "--exec", "--sh-exec", "--lua-exec"}),
    "socket": frozenset({"-p"}), "rcat": frozenset({"-s", "--shell"}),
    "pwncat": frozenset({"-e", "--exec"}),
    # telnetd -l PROG serves PROG on its port (Metasploit's bind_busybox_telnetd)
    "telnetd": frozenset({"-l"}), "utelnetd": frozenset({"-l"}),
}
_SERVICE_LAUNCHERS = frozenset({"inetd", "xinetd"})
_SOCAT_PROGRAM = ("exec:", "system:")
_SAVE_OPTIONS: dict[str, frozenset[str]] = {
    "curl": frozenset({"-o", "--output"}), "wget": frozenset({"-O", "--output-document"}),
    "wget2": frozenset({"-O", "--output-document"}), "aria2c": frozenset({"-o", "--out"}),
    # HTTPie and its kin (--download -o F), FreeBSD's fetch(1), axel(1) and macOS's nscurl
    # (-o F)
    **dict.fromkeys(("http", "https", "xh", "xhs", "curlie", "fetch", "axel", "nscurl"),
                    frozenset({"-o", "--output"})),
}
_REMOTE_NAME = {"curl": ("-O", "--remote-name", "--remote-name-all")}
_BASENAME_SAVERS = frozenset({"wget", "wget2", "aria2c", "axel", "lwp-download", "ftp",
                              "fetch", "lftp"})
"""Clients that save a URL under its own base name when no output is named (their manuals)."""
_COPY_CLIENTS = frozenset({"scp", "rsync", "sftp", "tftp", "lftp"})
"""Clients that copy a remote ``host:path`` (or ``get path``) to a local file of its name."""
_TFTP_GET_CLIENTS = frozenset({"tftp", "atftp"})
"""TFTP clients with busybox's and atftp's get options (:func:`_tftp_get`)."""
_POSITIONAL_SAVERS = frozenset({"lwp-download", "lwp-mirror", "axel", "tftp"})
"""Clients whose operand after the URL names the local file (their manuals)."""
_GET_COMMANDS = frozenset({"get", "mget", "reget", "pget"})
"""A file client's download commands in a ``-c`` script (smbclient, lftp, ftp, sftp)."""
_EXTRACTORS = frozenset({"tar", "bsdtar", "unzip", "cpio", "7z", "busybox", "toybox"})
_RUNNERS = SHELLS | frozenset({"source", "."}) | frozenset(INTERPRETER_CODE_OPTIONS)
_URL_SCHEMES = re.compile(r"\b(?:https?|ftps?)://", re.IGNORECASE)


_STORAGE_COPIES: dict[str, tuple[tuple[str, ...], ...]] = {
    # cloud storage CLIs' copies (their manuals): a remote object to a local file
    "aws": (("s3", "cp"), ("s3", "sync"), ("s3", "mv")),
    "gsutil": (("cp",), ("rsync",), ("mv",)),
    "gcloud": (("storage", "cp"), ("storage", "rsync"), ("storage", "mv")),
    "rclone": (("copy",), ("copyto",), ("sync",), ("move",), ("moveto",), ("cat",)),
    "s3cmd": (("get",), ("sync",)),
    "az": (("storage", "blob", "download"), ("storage", "file", "download"),
           ("storage", "blob", "download-batch")),
}
STORAGE_CLIENTS: frozenset[str] = frozenset(_STORAGE_COPIES)
"""Cloud storage CLIs whose copies bring a remote object in (:func:`_storage_saves`)."""
_REMOTE_OBJECT = re.compile(r"^(?:s3|gs|az|r2|b2|oss|cos)://|^[A-Za-z][A-Za-z0-9_-]+:(?!//)")
"""A bucket URL, or an rclone ``remote:path``."""
_AZ_FILE_OPTIONS = frozenset({"-f", "--file", "-d", "--destination"})


def _storage_saves(segment: Segment) -> list[str] | None:
    """The local files a cloud storage copy writes (``None``: the segment is no such copy).

    ``aws s3 cp s3://b/x.sh .`` writes ``x.sh``; ``gsutil cp gs://b/x y`` writes ``y``;
    ``az storage blob download … -f x.sh`` writes ``x.sh``.
    """
    prefixes = _STORAGE_COPIES.get(segment.command)
    if prefixes is None:
        return None
    values = [w.value for w in _args(segment)]
    plain = [v for v in values if not v.startswith("-")]
    if not any(tuple(plain[: len(p)]) == p for p in prefixes):
        return None
    if segment.command == "az":
        return [b for a, b in itertools.pairwise(values) if a in _AZ_FILE_OPTIONS]
    sources = [i for i, v in enumerate(values) if _REMOTE_OBJECT.match(v)]
    if not sources:
        return None
    source = values[sources[0]]
    after = [v for v in values[sources[0] + 1 :] if not v.startswith("-")]
    if not after or after[0] == "-":
        return ["-"] if after else [os.path.basename(source.split(":", 1)[-1])]
    target = after[0]
    if target in (".", "./") or target.endswith("/"):
        return [os.path.join(target, os.path.basename(source.rstrip("/").split(":", 1)[-1]))]
    return [target]


def _args(segment: Segment) -> tuple[Word, ...]:
    return segment.words[segment.command_positions[-1] + 1 :]


def _is_client(segment: Segment) -> bool:
    name = segment.command
    if name == "openssl":
        return any(w.value == "s_client" for w in _args(segment))
    return name in NETWORK_CLIENTS or (name in STORAGE_CLIENTS
                                       and _storage_saves(segment) is not None)


def _short_cluster_value(value: str, letter: str) -> bool:
    """``-sLo`` ends with ``o``: the next word is the option's value."""
    return (value.startswith("-") and not value.startswith("--") and len(value) > 1
            and value.endswith(letter))


def _directory_prefix(args: Sequence[Word]) -> str:
    """The directory wget's ``-P DIR``/``--directory-prefix=DIR`` saves under the URL's name."""
    for option, value in itertools.pairwise(w.value for w in args):
        if option in ("-P", "--directory-prefix"):
            return value
    for word in args:
        if word.value.startswith("--directory-prefix="):
            return word.value.partition("=")[2]
        if word.value.startswith("-P") and len(word.value) > 2:
            return word.value[2:]
    return ""


def _saved_files(segment: Segment) -> list[str]:
    """The files a network client writes what it fetched to."""
    name = segment.command
    stored = _storage_saves(segment) if name in STORAGE_CLIENTS else None
    if stored is not None:
        return [f for f in stored if f and f != "-"]
    args = _args(segment)
    options = _SAVE_OPTIONS.get(name, frozenset())
    found: list[str] = []
    for index, word in enumerate(args):
        value = word.value
        following = args[index + 1].value if index + 1 < len(args) else None
        if following is not None and (value in options or any(
                len(o) == 2 and _short_cluster_value(value, o[1]) for o in options)):
            found.append(following)
        elif any(value.startswith(o + "=") for o in options if o.startswith("--")):
            found.append(value.partition("=")[2])
        elif any(len(o) == 2 and value.startswith(o) and len(value) > 2 for o in options):
            found.append(value[2:])  # curl -oi.sh: the value glued to the option
    remote_name = _REMOTE_NAME.get(name, ())
    urls = [w.value for w in args if "://" in w.value]
    if (name in _BASENAME_SAVERS and not found) or any(
            w.value in remote_name or _short_cluster_value(w.value, "O") for w in args):
        prefix = _directory_prefix(args) if name in ("wget", "wget2") else ""
        found.extend(os.path.join(prefix, os.path.basename(urlsplit(url).path))
                     for url in urls)
    operands = [w.value for w in args if not w.value.startswith("-")]
    if name in _POSITIONAL_SAVERS and len(operands) > 1 and "://" in operands[0]:
        found.append(operands[-1])  # lwp-download URL FILE
    if name in _COPY_CLIENTS:  # scp host:x.sh . / rsync host::m/x.sh . / tftp -c get x.sh
        remote = [os.path.basename(v.split(":")[-1]) for v in operands
                  if ":" in v and "://" not in v]
        found.extend(remote)
        if remote and ":" not in operands[-1]:  # scp host:x ./payload: the local target
            found.append(operands[-1])
        found.extend(w.value for a, w in itertools.pairwise(args) if a.value == "get")
    if name in _TFTP_GET_CLIENTS:
        found.extend(_tftp_get(args))
    for word in args:  # a script of client commands: smbclient -c 'get R L', lftp -c 'get R'
        for command in word.value.split(";"):
            got = command.split()
            if len(got) > 1 and got[0] in _GET_COMMANDS:
                found.extend([os.path.basename(got[1]), *got[2:3]])
    return [f for f in found if f and f != "-"]


def _tftp_get(args: Sequence[Word]) -> list[str]:
    """The local file of a busybox ``tftp``/``atftp`` get: ``-g -r REMOTE [-l LOCAL] HOST``.

    Both manuals: ``-l`` names the local file, which defaults to the remote one's name.
    """
    values = [w.value for w in args]
    if not {"-g", "--get"} & set(values):
        return []
    named = {option: value for option, value in itertools.pairwise(values)}
    local = named.get("-l") or named.get("--local-file")
    remote = named.get("-r") or named.get("--remote-file")
    if local is not None:
        return [local]
    return [os.path.basename(remote)] if remote else []


def _same_file(a: str, b: str) -> bool:
    if a == "\0makefile" or b == "\0makefile":  # make with no -f: any of its default names
        other = b if a == "\0makefile" else a
        return os.path.normpath(other) in _MAKEFILES
    return os.path.normpath(a) == os.path.normpath(b)


def _runs_relative(segment: Segment) -> bool:
    """Whether a segment runs a file of the tree (``./install.sh``, ``sh setup.sh``)."""
    word = segment.words[segment.command_positions[-1]]
    if word.stable and "/" in word.value and not word.value.startswith("/"):
        return True
    if _runner(segment.command) not in _RUNNERS and segment.command not in _OPENERS:
        return False
    program = next((w for w in _args(segment) if not w.value.startswith("-")), None)
    return program is not None and program.stable and not program.value.startswith("/")


def _runner(command: str) -> str:
    """A runner's name without its version (``python3.12`` → ``python``; ``.`` stays)."""
    return command if command == "." else command.rstrip("0123456789.")


_JAR_RUNNERS = frozenset({"java", "javaw"})
_OPENERS = frozenset({"open"})
"""macOS open(1): an application bundle or script it is given is started."""
_COMPILERS = frozenset({"gcc", "cc", "clang", "g++", "c++", "clang++", "tcc", "gccgo", "rustc",
                        "osacompile", "go"})
"""Compilers whose ``-o FILE`` is a program built from the source operands (``go build``)."""
_MAKEFILES = ("Makefile", "makefile", "GNUmakefile")


def _run_target(segment: Segment) -> str | None:
    """The file a segment runs (its command word with a ``/``, or a shell's program).

    ``java -jar FILE`` runs FILE; ``make`` runs the recipes of ``-f FILE`` or of the
    directory's ``Makefile`` (make(1)).
    """
    if not segment.command_positions:
        return None
    word = segment.words[segment.command_positions[-1]]
    if word.stable and "/" in word.value:
        return word.value
    values = [w.value for w in _args(segment)]
    if segment.command in _JAR_RUNNERS and "-jar" in values[:-1]:
        return values[values.index("-jar") + 1]
    operands = [v for v in values if not v.startswith("-")]
    if segment.command == "go" and operands[:1] == ["run"] and len(operands) > 1:
        return operands[1]  # go run x.go: compiled and run in one step
    if segment.command in _OPENERS and operands:
        return operands[0]  # open payload.app: macOS starts the application
    if segment.command in ("make", "gmake"):
        named = [b for a, b in itertools.pairwise(values) if a in ("-f", "--file", "--makefile")]
        return named[0] if named else "\0makefile"
    if _runner(segment.command) not in _RUNNERS:
        return None
    program = next((w for w in _args(segment) if not w.value.startswith("-")), None)
    return program.value if program is not None and program.stable else None


_PYTHONS = frozenset({"python", "python3", "pypy3", "pytest", "py.test", "pip", "pip3"})
_NODE_RUNNERS = frozenset({"npm", "yarn", "pnpm", "bun", "npx"})
_LOADED_BY: dict[str, frozenset[str]] = {
    # files a tool loads and runs by their name alone (each tool's documentation)
    "conftest.py": frozenset({"pytest", "py.test", "python", "python3", "tox", "nox"}),
    "setup.py": _PYTHONS, "sitecustomize.py": _PYTHONS, "usercustomize.py": _PYTHONS,
    "package.json": _NODE_RUNNERS, ".npmrc": _NODE_RUNNERS, "noxfile.py": frozenset({"nox"}),
    "rakefile": frozenset({"rake"}), "gemfile": frozenset({"bundle", "bundler"}),
    "build.gradle": frozenset({"gradle", "gradlew"}), "gradlew": frozenset({"gradle"}),
    "justfile": frozenset({"just"}), "taskfile.yml": frozenset({"task"}),
}


def _loads_file(segment: Segment, path: str) -> bool:
    """Whether a segment's tool loads ``path``, a file of the tree, by its conventional name.

    ``pytest`` and a ``conftest.py``, ``npm install`` and a ``package.json``, ``npx X`` and
    ``node_modules/.bin/X``.
    """
    if path.startswith(("/", "~", "..")):
        return False
    name = os.path.basename(os.path.normpath(path)).lower()
    if segment.command in _LOADED_BY.get(name, frozenset()):
        return True
    parts = os.path.normpath(path).split("/")
    return (segment.command in ("npx", "pnpx", "bunx") and parts[-2:-1] == [".bin"]
            and [a for a in segment.argv[1:] if not a.startswith("-")][:1] == [parts[-1]])


def _runs_file(segment: Segment, path: str) -> bool:
    """Whether a segment runs ``path`` (as its command, or as a shell's program)."""
    if _loads_file(segment, path):
        return True
    target = _run_target(segment)
    if target is not None and _same_file(target, path):
        return True
    word = segment.words[segment.command_positions[-1]] if segment.command_positions else None
    return word is not None and word.stable and _same_file(word.value, path) and (
        "/" in word.value)


def _fetching_code(segment: Segment) -> str | None:
    """One-liner code that names a URL (``julia -e 'download("http://…", "x")'``)."""
    found = interpreter_code(segment)
    if found is None:
        return None
    text = " ".join(w.value for w in found[1])
    return text if _URL_SCHEMES.search(text) else None


def _code_fetch_finding(analysis: CommandAnalysis) -> Finding | None:
    """Deny a file run after one-liner code that names a URL and that file.

    GTFOBins' ``download`` of julia, jrunscript, node, php, ruby: the code saves what it
    fetches under a name the command then runs.
    """
    fetched: list[tuple[str, str]] = []
    for segment in analysis.segments:
        target = _run_target(segment)
        if target is not None:
            name = os.path.basename(target)
            for text, by in fetched:
                if name and name in text:
                    return Finding(DENY, "download-exec", f"{segment.text!r} runs {target!r}, "
                                   f"which {by!r} code fetched from a URL names")
        code = _fetching_code(segment)
        if code is not None:
            fetched.append((code, segment.command))
    return None


def remote_code_finding(analysis: CommandAnalysis) -> Finding | None:
    """Deny code a network client brings in that the command then runs.

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    clients = [s for s in analysis.segments if s.command_positions and _is_client(s)]
    if not clients:
        return _code_fetch_finding(analysis) if "://" in analysis.command else None
    client = clients[0].command
    if analysis.runtime_code:
        return Finding(DENY, "download-exec", f"{analysis.runtime_code[0]!r} runs code only "
                       f"known at run time in a command that fetches with {client!r}")
    # what a client prints may be redirected to a file (curl URL > x.sh, nc h 80 > x.sh)
    saved: list[tuple[str, str]] = [(path, client) for path in analysis.redirect_targets]
    extracted = False
    for segment in analysis.segments:
        if not segment.command_positions:
            continue
        for path, by in saved:
            if _runs_file(segment, path):
                return Finding(DENY, "download-exec",
                               f"{segment.text!r} runs {path!r}, which {by!r} downloads")
        if extracted and _runs_relative(segment):
            return Finding(DENY, "download-exec", f"{segment.text!r} runs a file of an "
                           f"archive {client!r} fetched and the command unpacked")
        if _is_client(segment):
            saved.extend((path, segment.command) for path in _saved_files(segment))
        elif segment.command in _EXTRACTORS and (segment.stdin == "pipe" or any(
                _same_file(w.value, path) for w in _args(segment) for path, _ in saved)):
            extracted = True  # curl … | tar xz && ./install.sh; wget x.tgz && tar xzf x.tgz
        elif segment.command == "tee" and segment.stdin == "pipe":  # curl … | tee x.sh
            saved.extend((w.value, client) for w in _args(segment)
                         if not w.value.startswith("-"))
        elif segment.command in _RENAMERS:  # curl -o t … && mv t run && sh run
            saved.extend(_copied_to(segment, saved))
        elif segment.command in _COMPILERS:  # curl -o x.c … && gcc x.c -o x && ./x
            saved.extend(_compiled_to(segment, saved))
    if any(bare_shell(s.words[s.command_positions[-1]:]) for s in analysis.segments
           if s.command_positions):
        return Finding(DENY, "remote-shell", f"a shell without a script runs in a command "
                       f"that connects with {client!r}")
    return None


_RENAMERS = frozenset({"cp", "mv", "install", "ln", "rsync", "ditto"})
"""Commands that give a file another name: a download copied or moved is still one."""


def _copied_to(segment: Segment, saved: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The names a copy, move or install of a downloaded file gives it.

    ``cp t t2``, ``mv t run``, ``install -m 755 t bin/t``: the last operand, or the
    source's name inside it when it is written as a directory (``cp t bin/``, ``mv t .``).
    """
    operands = [w.value for w in _args(segment) if not w.value.startswith("-")]
    if segment.command == "install" and "-m" in segment.argv:
        mode = segment.argv.index("-m") + 1  # install -m MODE SRC DST: MODE is no file
        if mode < len(segment.argv):
            operands = [o for o in operands if o != segment.argv[mode]]
    if len(operands) < 2:
        return []
    found = []
    target = operands[-1]
    for source in operands[:-1]:
        for path, by in saved:
            if _same_file(source, path):
                inside = target.endswith("/") or target in (".", "..")
                found.append((os.path.join(target, os.path.basename(source)) if inside
                              else target, by))
    return found


def _compiled_to(segment: Segment, saved: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The program a compiler builds from a downloaded source (its ``-o`` value)."""
    values = [w.value for w in _args(segment)]
    if segment.command == "go" and values[:1] != ["build"]:
        return []
    built = [b for a, b in itertools.pairwise(values) if a == "-o"]
    built += [v[2:] for v in values if v.startswith("-o") and len(v) > 2]
    if not built:
        return []
    by = next((by for value in values for path, by in saved if _same_file(value, path)), None)
    return [] if by is None else [(built[0], by)]


def _program_option(segment: Segment) -> str | None:
    options = _PROGRAM_OPTIONS.get(segment.command)
    if options is None:
        return None
    for word in _args(segment):
        value = word.value
        name = value.partition("=")[0]
        if name in options or (not value.startswith("--") and value.startswith("-") and any(
                len(o) == 2 and o[1] in value[1:] for o in options)):
            return value
    return None


def _xterm_display(segment: Segment) -> str | None:
    """``xterm -display HOST:1``: the host, when it is not this machine."""
    args = [w.value for w in _args(segment)]
    for option, value in itertools.pairwise(args):
        if option in ("-display", "-d"):
            host = value.rpartition(":")[0]
            if host and host not in ("localhost", "127.0.0.1", "unix", "::1"):
                return host
    return None


def remote_shell_finding(segment: Segment) -> Finding | None:
    """Deny a network client told to run a program on its connection.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    name = segment.command
    if name == "socat":
        addresses = [w.value.lower() for w in _args(segment)]
        if any(a.startswith(_SOCAT_PROGRAM) for a in addresses) and len(addresses) > 1:
            return Finding(DENY, "remote-shell", f"{segment.text!r} wires a program to a "
                           "socket")
        return None
    if name == "xterm":
        display = _xterm_display(segment)
        if display is not None:
            return Finding(DENY, "remote-shell", f"{segment.text!r} opens a shell on the X "
                           f"display of {display!r}, another machine")
        return None
    if name in _SERVICE_LAUNCHERS:
        return Finding(DENY, "remote-shell", f"{segment.text!r} starts network services "
                       "(a bind shell in Metasploit's bind_inetd)")
    option = _program_option(segment)
    if option is not None:
        return Finding(DENY, "remote-shell",
                       f"{segment.text!r} runs a program on its connection ({option})")
    return None


REMOTE_SHELL_HEADS: frozenset[str] = (frozenset(_PROGRAM_OPTIONS) | {"socat", "xterm"}
                                      | _SERVICE_LAUNCHERS)
"""Command names :func:`remote_shell_finding` looks at."""
