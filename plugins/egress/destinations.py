"""Where a shell command would connect: destinations read from the shell analysis.

Only the analysis' public values are used (:func:`tooldeck.shell_analysis.analyze`): each
segment's final command and its argument words, and the ``/dev/tcp``/``/dev/udp``
redirections. Recognised commands:

==========================================  ================================================
command                                     destinations
==========================================  ================================================
``curl``, ``wget``, ``http``/``https``      every URL argument (a bare ``host[:port]/path``
(HTTPie), ``xh``, ``aria2c``, ``lynx``,     is an ``http://`` URL, as curl reads it); curl's
``links``, ``w3m``                          ``--url``, ``-x``/``--proxy``, ``--resolve`` and
                                            ``--connect-to`` targets
``git`` (clone, fetch, pull, push,          URL arguments (``https``, ``ssh``, ``git``) and
ls-remote, remote add/set-url, submodule    scp-style ``[user@]host:path``
add, archive --remote)
``pip``/``pip3``/``uv pip``/``pipx``,       URL arguments (``git+https://…`` too) and index
``python -m pip``, ``npm``/``pnpm``/        options (``-i``, ``--index-url``,
``yarn``, ``python -m http.client`` …       ``--extra-index-url``, ``-f``, ``--registry``)
``nc``/``ncat``/``netcat``, ``telnet``      ``HOST PORT``
``socat``                                   ``TCP:``/``UDP:``/``OPENSSL:``… addresses
``ssh``, ``sftp``, ``scp``, ``rsync``       ``[user@]host``, ``-p``/``-P`` port, ``-J`` jump
                                            hosts, ``-o ProxyJump=``, ``ssh://``/``rsync://``
                                            URLs, ``host:path`` operands
``/dev/tcp/HOST/PORT`` redirections         ``HOST PORT``
database and service clients: ``redis-cli``  ``-h``/``--host`` and ``-p``/``-P``/``--port``
``psql`` ``mysql``/``mariadb`` ``mongosh``  options, URL arguments (``postgres://``,
``mongo`` ``ldapsearch`` ``whois``          ``mongodb://``, ``ldap://``, ``-H URL``),
``cancel`` ``lp`` ``lpstat``                ``host:port`` values
``openssl s_client``, ``gnutls-cli``        ``-connect HOST:PORT``, ``HOST`` (``-p PORT``)
``finger``, ``rlogin``, ``ftp``, ``tftp``,  ``user@host``, ``HOST [PORT]``,
``lftp``, ``smbclient``, ``socket``,        ``//host/share`` (GTFOBins' ``upload`` and
``rcat``, ``nmap``, ``masscan``, ``nping``,  ``download`` clients; every scanner target)
``hping3``, ``zmap``, ``fping``; ``ping``,
``traceroute``, ``tracepath``, ``mtr``,
``arping`` (every host operand);
``rpcclient``, ``showmount``, ``snmpwalk``…,
``grpcurl``, ``websocat``
``docker -H``, ``podman --url``, Kafka's    the option's ``HOST[:PORT]`` or URL values
``--bootstrap-server``, ``kcat -b``,        (comma lists too); a ``unix:`` socket is local
``zkCli.sh -server``, ``memcstat
--servers``, ``etcdctl --endpoints``,
``vault|nomad -address``, ``consul
-http-addr``
``dig``/``drill`` ``@SERVER``,              the DNS server asked, port 53
``nslookup``/``host`` ``NAME SERVER``
proxy variables (``http_proxy``,            the proxy URL: every request of the command goes
``https_proxy``, ``all_proxy``, ``ftp_proxy``, there (``https_proxy=http://10.0.0.1:3128 curl
``rsync_proxy``, ``npm_config_*proxy``,      https://example.com`` reaches 10.0.0.1); set as a
``pip_proxy``, any case) and server           prefix, through ``env``, or by ``export``/a bare
variables (``DOCKER_HOST``,                   assignment
``CONTAINER_HOST``, ``VAULT_ADDR``,
``CONSUL_HTTP_ADDR``, ``NOMAD_ADDR``) set
before a command or for the session
==========================================  ================================================

An HTTP client's URL is judged as a URL whatever its scheme (``curl gopher://…``,
``dict://``, ``ldap://``): with ``https_only`` those are refused like ``http://``.

A word whose value is only known at run time (``$URL``, ``$(cat f)``) where a destination
stands is reported as :class:`Unknown`: the gate asks about it.

A command a launcher or a code option runs is read the same way, down to
:data:`MAX_LAUNCH_DEPTH` levels (:func:`tooldeck.shell_analysis.launched_commands`):
``strace -f curl URL``, ``gdb -batch -ex 'shell curl URL'``, ``tmux new -d 'wget URL'``
connect from this machine as ``curl URL`` does. The trailing words of a launcher that runs
them on another host or in a guest (:data:`REMOTE_RUNNERS`: ``ssh host 'curl URL'``, ``docker
exec web curl URL``) connect from there, and are not read.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from urllib.parse import unquote, urlsplit

import attrs

from tooldeck.egress.hosts import HostSyntaxError, ends_in_number, normalise_host_name
from tooldeck.shell_analysis import (
    LAUNCHING_HEADS,
    CommandAnalysis,
    Segment,
    Word,
    analyze,
    launched_commands,
)
from tooldeck.shell_analysis.escalation import is_init_script

__all__ = ["MAX_LAUNCH_DEPTH", "REMOTE_RUNNERS", "HostPort", "Unknown", "Url", "destinations",
           "names_nowhere"]

MAX_LAUNCH_DEPTH = 3
"""How deep commands run by launchers are read (the class rules' nesting limit)."""

REMOTE_RUNNERS = frozenset({"ssh", "autossh", "pdsh", "clush", "kubectl", "oc", "docker",
                            "podman", "nerdctl", "lxc", "incus", "multipass", "lxc-attach",
                            "distrobox", "limactl", "heroku", "railway", "vagrant"})
"""Launchers whose trailing words run on another host or in a guest, not here."""


@attrs.frozen
class Url:
    """A URL a command would fetch.

    :param url: the URL text.
    :param command: the command that names it.
    :param certain: false when the shell may still expand the word (an unquoted glob), so
        only a denial of the text as written is conclusive.
    :param relay: the URL relays or pins the command's traffic (curl's ``-x`` proxy) rather
        than being what it fetches.
    """

    url: str
    command: str
    certain: bool = True
    relay: bool = False


@attrs.frozen
class HostPort:
    """A host and TCP port a command would connect to.

    :param host: the host as written (IPv6 literals may be bracketed).
    :param port: the port.
    :param command: the command that names it.
    :param certain: false when the shell may still expand the word (an unquoted glob).
    :param relay: the address relays or pins the command's traffic (a proxy, curl's
        ``--resolve`` address) rather than being the service it talks to.
    """

    host: str
    port: int
    command: str
    certain: bool = True
    relay: bool = False


@attrs.frozen
class Unknown:
    """A destination only known at run time.

    :param text: the word as written.
    :param command: the command that names it.
    """

    text: str
    command: str


Destination = Url | HostPort | Unknown

def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>]*")
_SCP_LIKE = re.compile(r"^(?:[^@/:]+@)?(\[[^\]]*\]|[^@/:\[\]]+):(?!//)")
_PORT = re.compile(r"^[0-9]{1,5}")

_HTTP_CLIENTS = frozenset(
    {"curl", "wget", "wget2", "http", "https", "xh", "xhs", "aria2c", "lynx", "links", "w3m",
     "curlie"}
)
_URL_CLIENTS = frozenset({"lwp-request", "get", "head", "post", "lwp-download", "lwp-mirror",
                          "fetch", "elinks", "nscurl"})
"""Clients that fetch the URLs among their operands (libwww-perl's lwp-request and its GET,
HEAD and POST names, FreeBSD's fetch(1), elinks, macOS's nscurl): a word with a scheme is a
destination."""
_CURL_VALUE_OPTIONS = _words(
    "-o -d -H -X -u -A -e -b -c -F -T -K -m -w -E -r -Y -y -z -C -D -P -Q -t --output "
    "--data --data-raw --data-binary --data-urlencode --data-ascii --header --request "
    "--user --user-agent --referer --cookie --cookie-jar --form --upload-file --config "
    "--max-time --write-out --cert --range --continue-at --dump-header --ftp-port --quote "
    "--key --connect-timeout --retry --retry-delay --max-filesize --limit-rate --output-dir "
    "--cacert --capath --ciphers --interface --local-port --netrc-file --trace --trace-"
    "ascii --stderr --json --proxy-user --oauth2-bearer --variable"
)
_WGET_VALUE_OPTIONS = _words(
    "-O -o -a -e -i -t -T -w -P -U -l -A -R -D -I -X -B --output-document --output-file "
    "--append-output --execute --input-file --tries --timeout --wait --directory-prefix "
    "--user-agent --post-data --post-file --body-data --body-file --method --header --load-"
    "cookies --save-cookies --certificate --ca-certificate --user --password --referer "
    "--level --accept --reject --domains --base"
)
_VALUE_OPTIONS = {"curl": _CURL_VALUE_OPTIONS, "wget": _WGET_VALUE_OPTIONS,
                  "wget2": _WGET_VALUE_OPTIONS}
_CURL_TARGET_OPTIONS = frozenset({"--url", "-x", "--proxy", "--preproxy", "--socks4",
                                  "--socks4a", "--socks5", "--socks5-hostname"})
_HTTPIE = frozenset({"http", "https", "xh", "xhs", "curlie"})
_METHOD = re.compile(r"^[A-Z]+$")
_CURL_PIN_OPTIONS = frozenset({"--resolve", "--connect-to"})

_GIT_REMOTE_COMMANDS = frozenset({"clone", "fetch", "pull", "push", "ls-remote", "remote",
                                  "submodule", "archive", "request-pull"})
_INSTALLERS = frozenset({"pip", "pip3", "pipx", "uv", "npm", "pnpm", "yarn", "npx", "bun",
                         "gem", "cargo", "go", "poetry", "pdm", "conda", "mamba"})
_INDEX_OPTIONS = frozenset({"--index-url", "--extra-index-url", "--find-links",
                            "--registry", "--index", "--default-index", "--source"})
_PIPS = frozenset({"pip", "pip3", "uv"})
_PIP_SHORT_INDEX = frozenset({"-i", "-f"})
_PIP_INDEXED = frozenset({"install", "download", "wheel", "index", "lock", "sync", "compile"})
"""pip's ``-i``/``-f`` are ``--index-url``/``--find-links`` only for the subcommands that
fetch (``pip show -f`` lists files; ``npm -f`` forces, ``gem -i`` names a directory)."""
_PYTHONS = re.compile(r"^(?:python|pypy)[0-9.]*$")
_NETCATS = frozenset({"nc", "ncat", "netcat", "telnet"})
_NC_VALUE_OPTIONS = _words(
    "-p -s -w -i -x -X -e -c -q -I -O -T -V -W -g -G -P -m --source --source-port --wait "
    "--proxy --proxy-type --exec --sh-exec --lua-exec --idle-timeout"
)
_SSHES = frozenset({"ssh", "sftp", "scp", "rsync", "mosh", "autossh"})
_SSH_VALUE_OPTIONS = _words(
    "-b -c -D -E -e -F -I -i -L -l -m -O -o -p -P -Q -R -S -W -w -B -J -s"
)
_SOCAT_PREFIXES = re.compile(
    r"^(?:TCP|TCP4|TCP6|TCP-CONNECT|TCP4-CONNECT|TCP6-CONNECT|UDP|UDP4|UDP6|UDP-CONNECT|"
    r"UDP-SENDTO|OPENSSL|OPENSSL-CONNECT|SSL|SCTP|SCTP-CONNECT|SOCKS|SOCKS4|SOCKS4A|SOCKS5|"
    r"PROXY|PROXY-CONNECT):",
    re.IGNORECASE,
)
_DEFAULT_PORTS = {"http": 80, "https": 443, "ssh": 22, "git": 9418, "rsync": 873, "ftp": 21,
                  "ftps": 990, "telnet": 23, "sftp": 22, "scp": 22, "ws": 80, "wss": 443,
                  "postgres": 5432, "postgresql": 5432, "mongodb": 27017, "redis": 6379,
                  "rediss": 6380, "mysql": 3306, "ldap": 389, "ldaps": 636, "gopher": 70,
                  "dict": 2628, "smb": 445, "tftp": 69}
_LOCAL_SCHEMES = frozenset({"file", "data"})


def _arguments(segment: Segment) -> tuple[Word, ...]:
    if not segment.command_positions:
        return ()
    return segment.words[segment.command_positions[-1] + 1 :]


def _url_or_host(text: str, command: str, default_scheme: str = "http") -> Destination | None:
    """A URL argument: a URL for http(s) and any scheme HTTP clients fetch, else a host."""
    if not _SCHEME.match(text):
        text = f"{default_scheme}://{text}"
    scheme = text.split(":", 1)[0].lower()
    for prefix in ("git+", "hg+", "svn+", "bzr+"):
        if scheme.startswith(prefix):
            scheme = scheme[len(prefix) :]
            text = text[len(prefix) :]
    if scheme in ("http", "https") or (command in _HTTP_CLIENTS and scheme not in
                                        _LOCAL_SCHEMES):
        return Url(text, command)
    if scheme in _LOCAL_SCHEMES:
        return None
    try:
        parts = urlsplit(text)
        host, port = parts.hostname, parts.port
    except ValueError:
        return Unknown(text, command)
    if not host:
        return Unknown(text, command)
    bracketed = f"[{host}]" if ":" in host else host
    return HostPort(bracketed, port or _DEFAULT_PORTS.get(scheme, 0) or 443, command)


def _host_port(text: str, command: str, port: int) -> Destination:
    """``[user@]host[:port]``: the host, with the port when written."""
    text = text.rsplit("@", 1)[-1]
    if text.startswith("["):
        host, _, rest = text.partition("]")
        host += "]"
        match = _PORT.match(rest[1:]) if rest.startswith(":") else None
    elif text.count(":") == 1:
        host, _, rest = text.partition(":")
        match = _PORT.match(rest)
    else:
        host, match = text, None
    return HostPort(host, int(match.group()) if match else port, command)


def _static(word: Word) -> bool:
    return not word.dynamic and "~" not in word.source[:1]


def _as_written(found: Destination, word: Word) -> Destination:
    if word.globbed and isinstance(found, (Url, HostPort)):
        return attrs.evolve(found, certain=False)
    return found


def _takes_next(option: str, value_options: frozenset[str]) -> bool:
    """Whether an option word leaves its value to the next word.

    ``--opt=value`` and ``-ovalue`` carry it; in a cluster of short flags (``-sSLo``) the
    first letter that takes a value takes the rest of the word, or the next word when it is
    the last letter.
    """
    if option.startswith("--") or "=" in option:
        return "=" not in option and option in value_options
    for index, letter in enumerate(option[1:], start=1):
        if f"-{letter}" in value_options:
            return index == len(option) - 1
    return False


def _positional(words: Sequence[Word], value_options: frozenset[str]) -> Iterator[Word]:
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word.value.startswith("-") and len(word.value) > 1 and word.stable:
            skip = _takes_next(word.value, value_options)
            continue
        yield word


def _option_values(words: Sequence[Word], options: frozenset[str]) -> Iterator[Word]:
    for index, word in enumerate(words):
        name, equals, value = word.value.partition("=")
        if name in options:
            if equals:
                yield Word(value, word.source, word.dynamic, word.globbed)
            elif index + 1 < len(words):
                yield words[index + 1]


def _relayed(found: Destination) -> Destination:
    return attrs.evolve(found, relay=True) if isinstance(found, (Url, HostPort)) else found


def _http_client(command: str, words: Sequence[Word]) -> Iterator[Destination]:
    for word in _option_values(words, frozenset({"--url"})):
        yield _judge_word(word, command, lambda text: _url_or_host(text, command))
    for word in _option_values(words, _CURL_TARGET_OPTIONS - {"--url"}):
        yield _relayed(_judge_word(word, command, lambda text: _url_or_host(text, command)))
    for option in _CURL_PIN_OPTIONS:
        for word in _option_values(words, frozenset({option})):
            if _static(word):
                yield from (_relayed(_as_written(found, word))
                            for found in _pinned(option, word.value, command))
            else:
                yield Unknown(word.source, command)
    options = _VALUE_OPTIONS.get(command, frozenset()) | _CURL_TARGET_OPTIONS | _CURL_PIN_OPTIONS
    positional = list(_positional(words, options))
    scheme = "http"
    if command in _HTTPIE:
        # HTTPie: [METHOD] URL [items]; only the URL is a destination
        if positional and positional[0].stable and _METHOD.match(positional[0].value):
            positional = positional[1:]
        positional = positional[:1]
        scheme = "https" if command in ("https", "xhs") else "http"
    follows = _follows_redirects(command, words)
    for word in positional:
        yield _judge_word(word, command, lambda text: _url_or_host(text, command, scheme))
        if follows and _static(word):
            yield from _carried_urls(word, command)


def _follows_redirects(command: str, words: Sequence[Word]) -> bool:
    """Whether the client follows HTTP redirects (their manuals).

    wget by default (not with ``--max-redirect=0``), curl with ``-L``, HTTPie and xh with
    ``--follow``/``-F``.
    """
    values = [w.value for w in words]
    if command in ("wget", "wget2"):
        return "--max-redirect=0" not in values and ("--max-redirect", "0") not in set(
            itertools.pairwise(values))
    if command == "curl":
        return any(v in ("--location", "--location-trusted") or (
            v.startswith("-") and not v.startswith("--") and _cluster_has_l(v[1:]))
            for v in values)
    return command in _HTTPIE and any(v in ("--follow", "-F") for v in values)


_CURL_VALUE_LETTERS = frozenset(o[1] for o in _CURL_VALUE_OPTIONS if len(o) == 2)


def _cluster_has_l(cluster: str) -> bool:
    """Whether a curl short-option cluster holds ``-L``.

    ``-fsSL`` does; ``-XDELETE`` does not (``X`` takes the rest of the cluster as its value).
    """
    for letter in cluster:
        if letter == "L":
            return True
        if letter in _CURL_VALUE_LETTERS:
            return False
    return False


def _carried_urls(word: Word, command: str) -> Iterator[Destination]:
    """The addresses of the URLs a URL carries in its query or fragment, percent-decoded.

    An open redirect (``https://host/r?u=http://169.254.169.254/``) sends a client that
    follows redirects to the carried URL, which the first request never names. A carried URL
    whose host is an address (any spelling the static rules read: ``169.254.169.254``,
    ``0xa9fea9fe``, ``[::1]``) or a loopback name is judged as a destination of its own, as a
    relay (a loopback one is refused, not asked as a developer's own service). Carried names
    are not resolved, and their scheme is not judged: a query that names
    ``http://example.com`` is not a request the client makes.
    """
    parts = urlsplit(word.value)
    for text in (parts.query, parts.fragment):
        for _ in range(3):  # %2568ttp%253A… takes two rounds
            decoded = unquote(text)
            if decoded == text:
                break
            text = decoded
        for match in _URL_IN_TEXT.finditer(text):
            found = _carried_address(match.group().split("&", 1)[0], command)
            if found is not None:
                yield _relayed(_as_written(found, word))


def _carried_address(url: str, command: str) -> HostPort | None:
    """A carried URL's host and port when its host is an address or a loopback name."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host:
        return None
    default = 443 if parts.scheme.lower() in ("https", "wss") else 80
    found = HostPort(f"[{host}]" if ":" in host else host, port or default, command)
    if ":" in host or host == "localhost" or host.endswith(".localhost"):
        return found
    try:
        return found if ends_in_number(normalise_host_name(host)) else None
    except HostSyntaxError:
        return None


def _split_host_port(text: str) -> tuple[str, str]:
    """``host:port`` or ``[v6]:port`` into its two parts (the port may be empty)."""
    if text.startswith("["):
        host, _, rest = text.partition("]")
        return host + "]", rest[1:] if rest.startswith(":") else ""
    host, _, port = text.partition(":")
    return host, port


def _pinned(option: str, text: str, command: str) -> Iterator[Destination]:
    """The addresses ``--resolve host:port:addr[,addr…]`` and ``--connect-to`` pin."""
    fields = text.lstrip("+").split(":", 2)
    if len(fields) < 3:
        yield Unknown(text, command)
        return
    port = int(fields[1]) if fields[1].isdigit() else 443  # empty: any port
    if option == "--resolve":
        for address in fields[2].split(","):
            yield HostPort(address, port, command)
        return
    host, target_port = _split_host_port(fields[2])
    if host or fields[0]:
        yield HostPort(host or fields[0], int(target_port) if target_port.isdigit() else port,
                       command)


def _judge_word(
    word: Word, command: str, read: Callable[[str], Destination | None]
) -> Destination:
    if not _static(word):
        return Unknown(word.source, command)
    found = read(word.value)
    return _as_written(found, word) if found is not None else Unknown(word.source, command)


def _urls_in(words: Sequence[Word], command: str) -> Iterator[Destination]:
    """URLs anywhere in the words: ``--index-url=URL``, ``pkg @ URL``, ``git+ssh://…``."""
    for word in words:
        if word.dynamic and "://" in word.source:
            yield Unknown(word.source, command)
            continue
        for match in _URL_IN_TEXT.finditer(word.value):
            found = _url_or_host(match.group(), command)
            if found is not None:
                yield _as_written(found, word)


def _host_like(text: str) -> bool:
    """Whether a ``[user@]host:path`` word names a host, not a refspec (``HEAD:main``)."""
    head = text.split(":", 1)[0]
    return "@" in head or "." in head or text.startswith("[")


def _git(words: Sequence[Word]) -> Iterator[Destination]:
    values = [w.value for w in words]
    if not _GIT_REMOTE_COMMANDS.intersection(values):
        return
    yield from _urls_in(words, "git")
    for word in words:
        if word.dynamic and "://" not in word.source:
            yield Unknown(word.source, "git")  # a remote only known at run time
    for word in words:
        remote = _SCP_LIKE.match(word.value)
        if remote and not word.dynamic and not _SCHEME.match(word.value) and _host_like(
            word.value
        ):
            yield _as_written(_host_port(word.value[: remote.end() - 1], "git", 22), word)


def _installer(command: str, words: Sequence[Word]) -> Iterator[Destination]:
    yield from _urls_in(words, command)
    options = _INDEX_OPTIONS
    if command in _PIPS and _PIP_INDEXED.intersection(w.value for w in words):
        options = options | _PIP_SHORT_INDEX
    for word in _option_values(words, options):
        if not _SCHEME.match(word.value):
            yield _judge_word(word, command, lambda text: _url_or_host(text, command, "https"))


def _netcat(command: str, words: Sequence[Word]) -> Iterator[Destination]:
    positional = list(_positional(words, _NC_VALUE_OPTIONS))
    if any(w.value in ("-l", "--listen") for w in words) or not positional:
        return
    host = positional[0]
    if not _static(host) or (len(positional) > 1 and not _static(positional[1])):
        yield Unknown(" ".join(w.source for w in positional[:2]), command)
        return
    port_text = positional[1].value if len(positional) > 1 else ""
    match = _PORT.match(port_text)
    default = 23 if command == "telnet" else 0
    yield HostPort(host.value, int(match.group()) if match else default, command)


def _socat(words: Sequence[Word]) -> Iterator[Destination]:
    for word in words:
        if not _SOCAT_PREFIXES.match(word.value):
            continue
        if not _static(word):
            yield Unknown(word.source, "socat")
            continue
        address = word.value.split(":", 1)[1].split(",", 1)[0]
        host, _, port = address.rpartition(":")
        if host:
            yield HostPort(host, int(port) if port.isdigit() else 0, "socat")


def _ssh_port(words: Sequence[Word], command: str) -> int:
    flag = "-P" if command in ("scp", "sftp") else "-p"
    for word in _option_values(words, frozenset({flag})):
        if word.value.isdigit():
            return int(word.value)
    return 22


def _ssh(command: str, words: Sequence[Word]) -> Iterator[Destination]:
    port = _ssh_port(words, command)
    for word in _option_values(words, frozenset({"-J"})):
        for hop in word.value.split(","):
            yield _host_port(hop, command, 22) if _static(word) else Unknown(word.source, command)
    for word in _option_values(words, frozenset({"-o"})):
        key, _, value = word.value.replace(" ", "=", 1).partition("=")
        if key.lower() in ("proxyjump", "hostname"):
            for hop in value.split(","):
                yield (_host_port(hop, command, 22) if _static(word)
                       else Unknown(word.source, command))
    positional = list(_positional(words, _SSH_VALUE_OPTIONS))
    if command in ("ssh", "mosh", "autossh", "sftp"):
        positional = positional[:1]
    for word in positional:
        if _SCHEME.match(word.value):
            found = _url_or_host(word.value, command)
            if found is not None:
                yield found
            continue
        if command in ("scp", "rsync") and not _SCP_LIKE.match(word.value):
            if not word.stable and ":" in word.source:
                yield Unknown(word.source, command)
            continue  # a local path
        if not _static(word):
            yield Unknown(word.source, command)
            continue
        text = word.value
        if command in ("scp", "rsync", "sftp"):
            text = text.split("]", 1)[0] + "]" if text.startswith("[") else text.split(":", 1)[0]
            if "@" in word.value.split(":", 1)[0]:
                text = word.value.split(":", 1)[0]
        yield _host_port(text, command, port)


def _python(words: Sequence[Word]) -> Iterator[Destination]:
    values = [w.value for w in words]
    if "-m" in values:
        module = values[values.index("-m") + 1] if values.index("-m") + 1 < len(values) else ""
        rest = words[values.index("-m") + 2 :]
        if module == "pip":
            yield from _installer("pip", rest)
        else:
            yield from _urls_in(rest, f"python -m {module}")


_SERVICES: dict[str, tuple[frozenset[str], frozenset[str], int]] = {
    # client: (host options, port options, default port)
    "redis-cli": (frozenset({"-h", "--host"}), frozenset({"-p", "--port"}), 6379),
    "psql": (frozenset({"-h", "--host"}), frozenset({"-p", "--port"}), 5432),
    "pg_dump": (frozenset({"-h", "--host"}), frozenset({"-p", "--port"}), 5432),
    "mysql": (frozenset({"-h", "--host"}), frozenset({"-P", "--port"}), 3306),
    "mariadb": (frozenset({"-h", "--host"}), frozenset({"-P", "--port"}), 3306),
    "mysqldump": (frozenset({"-h", "--host"}), frozenset({"-P", "--port"}), 3306),
    "mongosh": (frozenset({"--host"}), frozenset({"--port"}), 27017),
    "mongo": (frozenset({"--host"}), frozenset({"--port"}), 27017),
    "whois": (frozenset({"-h", "--host"}), frozenset({"-p", "--port"}), 43),
    "cancel": (frozenset({"-h"}), frozenset(), 631),
    "lp": (frozenset({"-h"}), frozenset(), 631),
    "lpstat": (frozenset({"-h"}), frozenset(), 631),
    "ldapsearch": (frozenset({"-h"}), frozenset({"-p"}), 389),
    "gnutls-cli": (frozenset(), frozenset({"-p", "--port"}), 443),
    "rlogin": (frozenset(), frozenset({"-p"}), 513),
}
_SERVICE_URL_OPTIONS = frozenset({"-u", "--url", "-H", "--uri"})
# probes that reach a host without a port: ICMP echo and route tracing (each tool's manual)
_PROBES = frozenset({"ping", "ping6", "arping", "traceroute", "traceroute6", "tracepath",
                     "tracepath6", "mtr", "tcptraceroute"})
_POSITIONAL_HOSTS: dict[str, int] = {"ftp": 21, "tftp": 69, "atftp": 69, "lftp": 21,
                                     "rlogin": 513,
                                     "gnutls-cli": 443, "socket": 0, "nmap": 0, "masscan": 0,
                                     "nping": 0, "hping3": 0, "zmap": 0, "naabu": 0,
                                     "rustscan": 0, "fping": 0, **dict.fromkeys(_PROBES, 7),
                                     # Samba's rpcclient, NFS showmount, net-snmp's tools,
                                     # grpcurl HOST:PORT, websocat ws:// (their manuals)
                                     "rpcclient": 445, "showmount": 2049, "snmpwalk": 161,
                                     "snmpget": 161, "snmpbulkwalk": 161, "snmpset": 161,
                                     "grpcurl": 443, "websocat": 80,
                                     # remote desktop and VNC viewers (auditd's
                                     # susp_activity key watches rdesktop)
                                     "rdesktop": 3389, "vncviewer": 5900,
                                     "xtightvncviewer": 5900, "xvnc4viewer": 5900}
_SCANNERS = frozenset({"nmap", "masscan", "nping", "hping3", "zmap", "naabu", "rustscan",
                       "fping"}) | _PROBES
_LOOPBACK_LITERAL = re.compile(r"^(?:127\.[0-9.]+|::1|localhost)$")
_RESOLVER_CLIENTS = frozenset({"dig", "drill", "kdig", "nslookup", "host"})
_SERVICE_VALUE_OPTIONS = _words(
    "-l -p -P -u -U -d -D -c -f -o -e -i -n -s -t -T -w -W -b -x -X -g -G -m -M -E -F -I -J "
    "-H -R -S --port --user --username --dbname --database --file --output --command")
_TRANSFER_VALUE_OPTIONS = {  # their own manuals: ``ftp -n HOST`` has no value after ``-n``
    "ftp": _words("-N -P -o -r -s -T -q -u"),
    # tftp-hpa's -m -R -c; busybox tftp's and atftp's -l LOCAL -r REMOTE -b SIZE
    "tftp": _words("-m -R -c -l -r -b"),
    "atftp": _words("-l -r -b -m -P --local-file --remote-file --option --mode --port"),
    "lftp": _words("-p -u -e -c -f --user --password"),
    "fping": _words("-b -B -c -C -H -I -i -O -p -Q -r -S -t"),  # -g (a range) is a flag
    "showmount": frozenset(),  # -a -d -e are flags
    "snmpwalk": _words("-v -c -u -l -a -A -x -X -r -t -m -M -O -C"),
    "snmpget": _words("-v -c -u -l -a -A -x -X -r -t -m -M -O -C"),
    "snmpbulkwalk": _words("-v -c -u -l -a -A -x -X -r -t -m -M -O -C"),
    "snmpset": _words("-v -c -u -l -a -A -x -X -r -t -m -M -O -C"),
    "rpcclient": _words("-U -W -c -s -d -p -I -A --user --command --workgroup"),
    "grpcurl": _words("-d -H -rpc-header -import-path -proto -protoset -cert -key -cacert "
                      "-authority -servername -connect-timeout -max-time -format"),
    "websocat": _words("-H --header --protocol --origin"),
    "rdesktop": _words("-u -d -s -c -p -n -k -g -a -r -x -t -T -N -X -5"),
    "vncviewer": _words("-passwd -passwordfile -geometry -encodings -via -display"),
}
_HOST_OPTIONS: dict[str, tuple[frozenset[str], int]] = {
    # clients whose server is an option's value, HOST[:PORT] or a URL, comma lists too (each
    # client's manual: docker -H, Kafka's --bootstrap-server, kcat -b, ZooKeeper's -server,
    # libmemcached's --servers, etcdctl --endpoints, Vault's -address, Consul's -http-addr)
    "docker": (_words("-H --host"), 2375), "podman": (_words("--url"), 0),
    "kafka-console-consumer": (_words("--bootstrap-server --broker-list"), 9092),
    "kafka-console-consumer.sh": (_words("--bootstrap-server --broker-list"), 9092),
    "kafka-console-producer": (_words("--bootstrap-server --broker-list"), 9092),
    "kafka-console-producer.sh": (_words("--bootstrap-server --broker-list"), 9092),
    "kafka-topics": (_words("--bootstrap-server"), 9092),
    "kafka-topics.sh": (_words("--bootstrap-server"), 9092),
    "kcat": (_words("-b"), 9092), "kafkacat": (_words("-b"), 9092),
    "zkcli.sh": (_words("-server"), 2181), "zkcli": (_words("-server"), 2181),
    "memcstat": (_words("--servers"), 11211), "memccat": (_words("--servers"), 11211),
    "memcdump": (_words("--servers"), 11211), "memcflush": (_words("--servers"), 11211),
    "etcdctl": (_words("--endpoints"), 2379),
    "vault": (_words("-address --address"), 8200),
    "consul": (_words("-http-addr --http-addr"), 8500),
    "nomad": (_words("-address --address"), 4646),
    # the Kubernetes API server (kubectl -s|--server, HOST:PORT or a URL: kubectl(1)), and
    # Helm's: Helm 3's --kube-apiserver, Helm 2's Tiller at --host (the Kubernetes threat
    # matrix's "Access tiller endpoint")
    "kubectl": (_words("-s --server"), 6443),
    "helm": (_words("--host --kube-apiserver"), 44134),
}


def _host_options(command: str, words: Sequence[Word]) -> Iterator[Destination]:
    """A client's server named in an option (``docker -H tcp://10.0.0.5:2375``)."""
    options, port = _HOST_OPTIONS[command]
    for word in _option_values(words, options):
        if not _static(word):
            yield Unknown(word.source, command)
            continue
        for value in word.value.split(","):
            if value.startswith("unix:"):
                continue  # a local socket
            found = (_url_or_host(value, command) if _SCHEME.match(value)
                     else _host_port(value, command, port))
            if found is not None:
                yield found


def _service(command: str, words: Sequence[Word]) -> Iterator[Destination]:
    """Database, printing and directory clients: host and port options, URL arguments."""
    hosts, ports, default = _SERVICES.get(
        command, (frozenset(), frozenset(), _POSITIONAL_HOSTS.get(command, 0)))
    port = default
    for word in _option_values(words, ports):
        if word.value.isdigit():
            port = int(word.value)
    for word in _option_values(words, hosts):
        if not _static(word):
            yield Unknown(word.source, command)
        else:
            yield _host_port(word.value, command, port)
    for word in _option_values(words, _SERVICE_URL_OPTIONS):
        if _SCHEME.match(word.value) or not _static(word):
            yield _judge_word(word, command, lambda text: _url_or_host(text, command))
    for word in words:
        if _SCHEME.match(word.value) and not word.value.startswith("-"):
            found = _url_or_host(word.value, command)
            if found is not None:
                yield _as_written(found, word)
    if command in _POSITIONAL_HOSTS:
        value_options = _TRANSFER_VALUE_OPTIONS.get(command, _SERVICE_VALUE_OPTIONS)
        operands = [w for w in _positional(words, value_options) if not _SCHEME.match(w.value)]
        if command in _SCANNERS:  # targets name a host: ports and ranges do not
            operands = [w for w in operands if not w.stable or "." in w.value or ":" in w.value
                        or any(c.isalpha() for c in w.value)]  # a name: nmap localhost
        if command in _PROBES:  # an echo to this machine reaches no service
            operands = [w for w in operands if not _LOOPBACK_LITERAL.match(w.value)]
        for word in operands if command in _SCANNERS else operands[:1]:
            if not _static(word):
                yield Unknown(word.source, command)
                continue
            port_word = operands[1].value if len(operands) > 1 else ""
            target_port = (int(port_word) if port_word.isdigit() and command not in _SCANNERS
                           else port)
            yield _host_port(word.value.split("/", 1)[0], command, target_port)


def _openssl(words: Sequence[Word]) -> Iterator[Destination]:
    if not any(w.value == "s_client" for w in words):
        return
    for word in _option_values(words, frozenset({"-connect"})):
        yield _host_port(word.value, "openssl", 443) if _static(word) else Unknown(
            word.source, "openssl")


def _user_at_host(command: str, words: Sequence[Word], port: int) -> Iterator[Destination]:
    """``finger user@host``: the host after the last ``@``."""
    for word in words:
        if "@" in word.value and not word.value.startswith("-"):
            if not _static(word):
                yield Unknown(word.source, command)
            else:
                yield HostPort(word.value.rsplit("@", 1)[1], port, command)


def _smbclient(words: Sequence[Word]) -> Iterator[Destination]:
    for word in words:
        value = word.value.replace("\\", "/")
        if value.startswith("//"):
            host = value[2:].split("/", 1)[0]
            yield HostPort(host, 445, "smbclient") if _static(word) else Unknown(
                word.source, "smbclient")


def _dns_server(command: str, words: Sequence[Word]) -> Iterator[Destination]:
    """``dig @SERVER name``, ``nslookup name SERVER``, ``host name SERVER``: the server asked."""
    if command in ("dig", "drill", "kdig"):
        servers = [w for w in words if w.value.startswith("@")]
        for word in servers:
            yield (HostPort(word.value[1:], 53, command) if _static(word)
                   else Unknown(word.source, command))
        return
    operands = [w for w in _positional(words, _words("-t -c -W -R -N -m -class -type -port"))
                if not w.value.startswith("-")]
    for word in operands[1:2]:
        yield HostPort(word.value, 53, command) if _static(word) else Unknown(word.source,
                                                                              command)


def _segment_destinations(segment: Segment) -> Iterator[Destination]:
    command = segment.command
    if segment.command_positions and is_init_script(
            segment.words[segment.command_positions[-1]].value):
        return  # /etc/init.d/ssh status: the service's script, not the client
    words = _arguments(segment)
    if command in _RESOLVER_CLIENTS:
        yield from _dns_server(command, words)
        return
    if command in _SERVICES or command in _POSITIONAL_HOSTS:
        yield from _service(command, words)
        return
    if command == "openssl":
        yield from _openssl(words)
        return
    if command == "finger":
        yield from _user_at_host(command, words, 79)
        return
    if command == "smbclient":
        yield from _smbclient(words)
        return
    if command in _HOST_OPTIONS:
        yield from _host_options(command, words)
    if command in _ENDPOINT_CLIENTS:
        yield from _urls_in(list(_option_values(words, _ENDPOINT_OPTIONS)), command)
    if command in _HTTP_CLIENTS:
        yield from _http_client(command, words)
    elif command in _URL_CLIENTS:
        yield from _urls_in([w for w in words if not w.value.startswith("-")], command)
    elif command == "git":
        yield from _git(words)
    elif command in _INSTALLERS:
        yield from _installer(command, words)
    elif _PYTHONS.match(command):
        yield from _python(words)
    elif command in _NETCATS:
        yield from _netcat(command, words)
    elif command == "socat":
        yield from _socat(words)
    elif command in _SSHES:
        yield from _ssh(command, words)


_ENDPOINT_CLIENTS = frozenset({"aws", "s3cmd", "rclone", "gsutil", "az", "gcloud", "doctl",
                               "terraform", "vault", "consul", "nomad", "mc"})
_ENDPOINT_OPTIONS = frozenset({"--endpoint-url", "--endpoint", "--host", "--host-bucket",
                               "--address", "--server", "-s"})
"""Cloud and service CLIs that send their requests to the URL these options name (``aws
--endpoint-url http://169.254.169.254``, ``vault -address``, ``kubectl --server``)."""


_PROXY_VARIABLES = frozenset({"http_proxy", "https_proxy", "all_proxy", "ftp_proxy",
                              "socks_proxy", "rsync_proxy", "npm_config_proxy",
                              "npm_config_https_proxy", "pip_proxy", "yarn_proxy",
                              "yarn_https_proxy",
                              # the server a client's every request goes to (each client's
                              # manual): Docker's and Podman's daemon, Vault, Consul, Nomad
                              "docker_host", "container_host", "vault_addr",
                              "consul_http_addr", "nomad_addr"})
_PREFIX = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)=('[^']*'|\"[^\"\\]*\"|[^\s'\"]*)(?=\s|$)")


def _proxy(name: str, value: str, dynamic: bool) -> Destination | None:
    """Where a proxy variable sends the traffic: its host and port.

    The scheme is how the command talks to the proxy, not what it fetches, so
    ``https_only`` does not apply.
    """
    if name.lower() not in _PROXY_VARIABLES or not value or value.startswith("unix:"):
        return None
    if dynamic:
        return Unknown(value, name)
    text = value if _SCHEME.match(value) else f"http://{value}"
    try:
        parts = urlsplit(text)
        host, port = parts.hostname, parts.port
    except ValueError:
        return Unknown(value, name)
    if not host:
        return Unknown(value, name)
    default = 1080 if parts.scheme.lower().startswith("socks") else 3128
    return HostPort(f"[{host}]" if ":" in host else host, port or default, name, relay=True)


def _proxy_destinations(segment: Segment) -> Iterator[Destination]:
    """Proxies a segment sets for its command: ``NAME=url cmd`` and ``env NAME=url cmd``."""
    index = 0
    text = segment.text
    while (match := _PREFIX.match(text, index)) is not None:  # prefixes are not words
        index = match.end()
        value = match.group(2)
        quoted = value[:1] in ("'", '"')
        found = _proxy(match.group(1), value[1:-1] if quoted else value,
                       value[:1] != "'" and ("$" in value or "`" in value))
        if found is not None:
            yield found
    last = segment.command_positions[-1] if segment.command_positions else 0
    for word in segment.words[:last]:  # env NAME=url cmd
        name, equals, value = word.value.partition("=")
        if equals:
            found = _proxy(name, value, word.dynamic)
            if found is not None:
                yield found


def _redirect_destination(target: str) -> Destination:
    parts = target.split("/")  # ['', 'dev', 'tcp', host, port]
    if len(parts) != 5 or not parts[3] or not parts[4].isdigit():
        return Unknown(target, "/dev/" + (parts[2] if len(parts) > 2 else "tcp"))
    return HostPort(parts[3], int(parts[4]), f"/dev/{parts[2]}")


def _launched(segment: Segment, depth: int) -> list[CommandAnalysis]:
    """The analyses of what a segment's launcher or code options run (none past the depth)."""
    if depth >= MAX_LAUNCH_DEPTH or segment.command not in LAUNCHING_HEADS:
        return []  # a launcher is never peeled: it is the segment's command
    texts = launched_commands(segment, tails=segment.command not in REMOTE_RUNNERS)
    return [analyze(text) for text in dict.fromkeys(texts)]


def destinations(analysis: CommandAnalysis, depth: int = 0) -> tuple[Destination, ...]:
    """Every network destination a command names, in order, duplicates removed.

    :param analysis: the shell analysis of the command.
    :param depth: how deep in launched commands this analysis is (0 for the command itself).
    :returns: the destinations; :class:`Unknown` for those only known at run time.
    """
    found: list[Destination] = []
    for name, word in analysis.assignments:  # export https_proxy=…, for the whole command
        proxy = _proxy(name, word.value, word.dynamic)
        if proxy is not None:
            found.append(proxy)
    for segment in analysis.segments:
        text = segment.text
        if "roxy" in text or "ROXY" in text or "_HOST=" in text or "_ADDR=" in text:
            found.extend(_proxy_destinations(segment))
        found.extend(_segment_destinations(segment))
        for launched in _launched(segment, depth):
            found.extend(destinations(launched, depth + 1))
    found.extend(_redirect_destination(target) for target in analysis.network_redirects)
    return tuple(dict.fromkeys(found))


_READ_PROGRAMS = frozenset({
    *_RESOLVER_CLIENTS, *_SERVICES, *_POSITIONAL_HOSTS, "openssl", "finger", "smbclient",
    *_HOST_OPTIONS, *_ENDPOINT_CLIENTS, *_HTTP_CLIENTS, *_URL_CLIENTS, "git", *_INSTALLERS,
    *_NETCATS, "socat", *_SSHES,
})
"""Every program :func:`_segment_destinations` reads destinations from (with :data:`_PYTHONS`).
Derived from the same tables it dispatches on; a new branch there adds its name here."""


def names_nowhere(analysis: CommandAnalysis, depth: int = 0) -> bool:
    """Whether :func:`destinations` is surely empty, decided without reading any argument.

    It is when no segment runs a program destinations are read from, no segment sets a proxy
    or server variable, no assignment sets one for the session and no redirection opens a
    ``/dev/tcp`` or ``/dev/udp`` socket, and the same holds for what each launcher runs.
    Anything else (a URL client, an unknown proxy prefix, a Python that may run ``-m pip``)
    is left to :func:`destinations`.

    :param analysis: the shell analysis of the command.
    :param depth: how deep in launched commands this analysis is (0 for the command itself).
    :returns: ``True`` only when :func:`destinations` would return nothing.
    """
    if analysis.network_redirects:
        return False
    for name, _ in analysis.assignments:
        if name.lower() in _PROXY_VARIABLES:
            return False
    for segment in analysis.segments:
        command = segment.command
        text = segment.text
        if (command in _READ_PROGRAMS or _PYTHONS.match(command) or "roxy" in text
                or "ROXY" in text or "_HOST=" in text or "_ADDR=" in text):
            return False
        if any(not names_nowhere(launched, depth + 1) for launched in _launched(segment, depth)):
            return False
    return True
