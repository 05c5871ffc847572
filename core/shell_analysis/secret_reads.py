"""Secrets read inside the project: private keys, ``.env`` files, credential files.

The sandbox-path rule keeps secrets outside the roots out; a secret can also sit inside the
project (``.env``, ``config/master.key``, ``certs/server.key.pem``). A command that reads or
loads such a file is denied (rule ``secret-read``): its content would reach the model.

A path is a secret here when an :data:`.outside_reads.SECRET_PATTERNS` entry matches it,
except:

| exempt                                  | example                                    |
| --------------------------------------- | ------------------------------------------ |
| a template of a secret file             | ``.env.example``, ``.env.sample``, ``*.dist`` |
| source code and docs                    | ``credentials.py``, ``secrets.md``         |
| a public certificate                    | ``cert.pem`` (no ``key``/``priv`` in the name) |

Readers: the read-only commands of :data:`.outside_reads.READ_ONLY` that show content (not
``ls``, ``stat``, ``test``, ``wc``, checksums…, which show metadata), ``source``/``.``
(which load the file into the shell), the dumpers ``base64``, ``xxd``, ``openssl``, ``gpg``,
``awk``, ``sed`` (without ``-i``), ``paste``, ``vim``/``view``, clipboard tools, and
copiers (``cp``, ``scp``, ``rsync``) given a secret as a source (not as the destination:
``cp .env.example .env`` writes a secret file, it does not read one). The shell's own history
(``history``, ``fc``) is read like ``~/.bash_history``, a secret. A grep pattern or an
awk/sed script is data, not a file (``grep -n id_rsa README.md`` reads README.md). GTFOBins'
``file-read`` binaries are readers too (``base32 .env``, ``xargs -a .env``, ``dd if=.env``),
except the few whose file operands are usually not shown (``docker --env-file``, ``git
add`` but ``git add -f``, which forces an ignored file into the index, ``ssh -i``, ``curl
--key``, interpreters). An input redirection of a secret (``tr a
b < .env``) is a read whatever the command. So is a content reader given a raw disk
(:data:`RAW_DISKS`, ``strings /dev/sda``): every file on it, past its permissions. An operand
built at run time whose static part is a secret's location is read too (``cat
${XDG_RUNTIME_DIR}/containers/auth.json``); ``git log`` without a patch option prints commits,
not content (``git log -- .env`` reads nothing).

Hunting reads secrets by searching for them (:func:`secret_hunt_finding`): a search of ``/``,
a home (``~``, ``/home/dev``), a volume, the web roots or the logs for a secret's name, a
wallet's files or a key format, its regular expressions read with their syntax dropped
(``api[_-]?key``); and :func:`listing_hunt_finding`: a recursive listing of such a tree
filtered for a secret's name (``ls -laR ~ | grep id_rsa``), git's history searched for keys
(``git log -p | grep -i token``, ``git log -G 'AKIA…'``, ``git grep password $(git rev-list
--all)``) or its configuration for ``extraheader``.
"""

from __future__ import annotations

import fnmatch
import functools
import itertools
import os
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.findings import ASK, DENY, Finding
from tooldeck.shell_analysis.git_options import without_git_options
from tooldeck.shell_analysis.gtfobins_table import FILE_READERS
from tooldeck.shell_analysis.model import CommandAnalysis, Segment, Word, command_name
from tooldeck.shell_analysis.outside_reads import READ_ONLY, SECRET_PATTERNS, is_secret_path
from tooldeck.shell_analysis.program_text import program_words
from tooldeck.shell_analysis.rm_rules import expand_braces

__all__ = [
    "CARRIER_HEADS", "HUNTERS", "LISTING_HEADS", "RAW_DISKS", "READ_HEADS", "SECRET_MARKERS",
    "SECRET_READERS", "SQL_HEADS", "URL_READERS", "carried_secret_finding",
    "input_secret_finding", "is_project_secret", "listing_hunt_finding", "local_url_finding",
    "secret_hunt_finding", "secret_read_finding", "sql_file_finding",
]

_METADATA_ONLY = frozenset({
    "ls", "stat", "file", "du", "df", "wc", "test", "[", "which", "type", "readlink",
    "realpath", "basename", "dirname", "lsattr", "getfacl", "namei", "getfattr", "find", "tree",
    "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", "cmp", "lsblk", "findmnt",
    "lsof", "whereis", "locate", "ldd", "modinfo", "sum",
})

_NOT_READERS = frozenset({
    # GTFOBins file readers whose file operands are usually not shown: a container's
    # --env-file, git add, an ssh or TLS client's key (ssh -i, curl --key), a program an
    # interpreter runs, a build's input (their code is judged elsewhere)
    "docker", "git", "ssh", "ssh-copy-id", "ssh-keyscan", "curl", "wget", "python", "node",
    "perl", "ruby", "php", "lua", "julia", "jshell", "jrunscript", "jjs", "octave", "bash",
    "zsh", "elvish", "make", "cmake", "dotnet", "go",
})

SECRET_READERS: frozenset[str] = (READ_ONLY - _METADATA_ONLY) | frozenset({
    "source", ".", "base64", "xxd", "openssl", "gpg", "awk", "gawk", "paste", "view",
    "vim", "vi", "nano", "sed", "xclip", "pbcopy", "cp", "scp", "rsync", "history", "fc",
    "hd",
    # compressors that write to standard output (-c) and editors in batch mode: each prints
    # or copies the file it is given (their manuals)
    "zstd", "unzstd", "lz4", "lzma", "unlzma", "lzip", "pigz", "ex", "install",
    # pagers, viewers and table tools that print the file they are given (their manuals)
    "sdiff", "most", "pg", "glow", "mlr", "jless", "fx", "vd", "visidata", "xsv", "qsv",
    "csvlook", "csvcut", "csvstat",
}) | (FILE_READERS - _NOT_READERS - _METADATA_ONLY)
"""Command names whose path operands are read (or loaded) by :func:`secret_read_finding`:
our own list plus GTFOBins' ``file-read`` binaries (:mod:`.gtfobins_table`)."""

READ_HEADS: frozenset[str] = SECRET_READERS | {"perl", "ruby", "git", "cmake", "cmp", "file",
                                               "wc"}
"""Command names :func:`secret_read_finding` looks at (``perl -n``/``-p``, ``git show``…)."""

_TEMPLATE_SUFFIXES = (".example", ".sample", ".template", ".dist", ".tmpl", ".defaults",
                      ".default", ".in", ".schema", ".test.example")
_CODE_SUFFIXES = (".py", ".js", ".ts", ".go", ".rs", ".rb", ".java", ".c", ".h", ".md",
                  ".rst", ".html", ".sh", ".txt", ".lock")
_PUBLIC_CERT_SUFFIXES = (".pem", ".crt", ".cer")
_COPIERS = frozenset({"cp", "scp", "rsync", "install"})
SECRET_MARKERS = re.compile(
    r"\.(?:env|ssh|aws|gnupg|kube|docker|netrc|npmrc|pypirc|pem|key|p12|pfx|jks|keystore|kdbx|"
    r"ppk|keytab|tfstate|git-credentials|vault-token|pgpass|my\.cnf|s3cfg|boto|terraform|config|"
    r"azure|password-store|cargo|local|mozilla|oci|databrickscfg|android|htpasswd)|"
    r"id_(?:rsa|ed25519|ecdsa|dsa)|credentials|shadow|sudoers|history|Keychains|secring|"
    r"ssh_host_|wallet\.dat|environ|/mem|/kmem|kcore|secrets|ssl/private|master\.passwd|mylogin|"
    r"debian\.cnf|pgadmin|tomcat-users|tfrc|kubeconfig|kubernetes|\.ovpn|access_?tokens|"
    r"accessTokens|application_default|msal_token|TokenCache|service_principal|bluemix|"
    r"doctl|firebase-tools|\.codex|\.claude|\.gemini|krb5cc|k5login|sssd|erlang\.cookie|"
    r"\.irssi|recentservers|filezilla|snowflake|private-keys|autologin|flyrc|cloudflared|msmtprc|"
    r"sslkeylog|\.psk|kcpassword|master\.key|hudson|wgetrc|system-connections|wpa_supplicant|"
    r"Login Data|logins\.json|key[34]\.db|cookies\.sqlite|Cookies|binarycookies|Web Data|"
    r"/sss/|sudo|client_secret|-key\.json|api_?key|\.token|dev\.vars|key\.properties|"
    r"vnc/|psk\.txt|hostapd|anaconda-ks|AzureRM|google_authenticator|ldaprc|sitemanager|"
    r"winscp|ws_ftp|ftpconfig|jetty-realm|KeePass|ddclient|opasswd|/dev/k?mem|auth\.json|"
    r"NuGet|settings-security|terraformrc|netlify|subversion|purple|remmina|dbeaver|"
    r"Local Storage|config\.v2|rancher|age/keys|vault[_-]pass|bitcoin|electrum|ethereum|"
    r"exodus|monero|solana|Ledger|service[-_]account|adminsdk|dockercfg|deploy_key|"
    r"\.fly/|ngrok|\.mc/|\.gradle/|\.m2/|snowsql|\.dbt/|ibmcloud|aliyun|linode|circleci|"
    r"\.travis/|\.tsh/|\.step/|viminfo|kaggle|sentryclirc|helm/repositories|atuin|"
    r"\.age/|vscdb|histfile|zsh_sessions|lesshst|wp-config|gitlab-runner|keyring|user\.MYD|"
    r"slapd|wrangler|railway|okta|copilot|codeium|cursor|doppler|jfrog|tdata|\.continue/|"
    r"opencode/|\.aider|group\.com\.apple\.notes|NoteStore|Library/Messages|Library/Mail|"
    r"credential-cache|yarnrc|authority|dbshell|Signal/config|/var/mail/|/var/spool/mail/|"
    r"appsettings\.(?:Production|Staging)|application-prod|confluence|samba/private|"
    r"Local State|Session Storage|Extension Settings|Application Support/(?:Google|Chromium|"
    r"BraveSoftware|Microsoft Edge|Vivaldi|com\.operasoftware|Firefox)|claws-mail|"
    r"accounts\.xml|sip-communicator|servlist|mbsyncrc|fetchmailrc|Signal/sql|wireguard|"
    r"openvpn|Tunnelblick|Viscosity|kwallet|\.kwl|SystemKey|\.keychain|dslocal|c\.pwd|"
    r"workbench_user_data|\.3T|TablePlus|Sequel (?:Ace|Pro)|\.rdm/|\.dbvis|sqldeveloper|"
    r"squirrel-sql|ApacheDirectoryStudio|MongoDB Compass|\.gftp|Termius|SecureCRT|\.rtsz|"
    r"Transmit/|helm/registry|pnpm/rc|pypoetry|Bitwarden|1password|gopass|walletwasabi|"
    r"\.sparrow|Monero/|\.shada|cloud/instance|waagent|etcd|microk8s|credstore|"
    r"pki/tls/private|grub|contexts/tls|securestorage|Exodus|Coinomi|@trezor",
)
"""A part every :data:`.outside_reads.SECRET_PATTERNS` match holds (a cheap first look)."""

RAW_DISKS = re.compile(r"/dev/(?:[shv]d[a-z]|xvd[a-z]|nvme\d|mmcblk\d|dm-\d|md\d|mapper/|"
                       r"disk/by-|root$)")
"""Block devices whose content is every file of a filesystem (MITRE T1006, direct volume
access): reading one bypasses the permissions of each file on it (``strings /dev/sda``)."""

_HISTORY_LISTERS = frozenset({"history", "fc"})
_OPTION_READS: dict[str, frozenset[str]] = {
    # metadata commands that print a file given to these options (GTFOBins file-read)
    "file": frozenset({"-f", "--files-from", "-m", "--magic-file"}),
    "wc": frozenset({"--files0-from"}),
}
_FILE_PREFIX = re.compile(r"^(?:@|(?i:file|open|gopen):(?://)?)")
_GIT_SHOWERS = frozenset({"show", "diff", "log", "blame", "annotate", "cat-file", "grep",
                          "difftool", "whatchanged"})


_GIT_HISTORIES = frozenset({"log", "whatchanged"})
_GIT_PATCHES = ("-p", "-u", "--patch", "--cc", "-L", "--word-diff", "--color-words")


def _git_shows_content(args: Sequence[str]) -> bool:
    """Tell whether a git command prints files' content (``show``, ``diff``, ``log -p``…).

    ``git log -- config/credentials.yml.enc`` without a patch option prints the commits that
    touched a file (hashes, authors, messages), never its content.
    """
    verbs = _GIT_SHOWERS.intersection(args[:3])
    if not verbs:
        return False
    return not verbs <= _GIT_HISTORIES or any(a.startswith(_GIT_PATCHES) for a in args)


def _forced_add(args: Sequence[str]) -> bool:
    """``git add -f``/``--force``, ``git hash-object -w``: a file copied into the repository.

    From there ``git diff --cached``, ``git show :.env``, ``git cat-file`` and a push print
    and carry it, so a secret forced in counts as read; ``git add .env.example`` and a plain
    ``git add`` (the ignore rules still apply) do not.
    """
    if args[:1] == ["hash-object"]:  # -w writes the file into the object store
        return "-w" in args
    return args[:1] == ["add"] and any(
        a == "--force" or (a.startswith("-") and not a.startswith("--") and "f" in a)
        for a in args[1:])


_URL_READERS = frozenset({"curl", "wget", "wget2", "aria2c", "lwp-download", "lwp-request",
                          "links", "lynx", "w3m", "http", "https", "xh", "xhs", "aws"})


def reader_operands(segment: Segment) -> list[Word]:
    """The words that may name files: a grep pattern or an awk/sed script is data."""
    start = segment.command_positions[-1] + 1
    program = program_words(segment)
    return [w for i, w in enumerate(segment.words[start:], start) if i not in program]


_GLOBBED_SECRETS = (".env", ".env.local", ".env.production", ".netrc", ".git-credentials",
                    ".pgpass", ".npmrc", ".pypirc", ".htpasswd", ".vault-token", ".dockercfg",
                    "id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "master.key", "credentials")
"""Secret files by their fixed names, for globs that spell them (``cat .en?``, ``.e*``)."""
_GLOB_CHARACTERS = frozenset("*?[]")


def _glob_names_secret(value: str) -> str | None:
    """The secret name a glob's last part matches, as bash would match it.

    A pattern needs a leading ``.`` to match a hidden name (bash without ``dotglob``), and
    three literal characters otherwise, so ``grep x *`` or ``cat c*`` name no secret.
    """
    pattern = value.rsplit("/", 1)[-1]
    literal = sum(c not in _GLOB_CHARACTERS for c in pattern)
    for name in _GLOBBED_SECRETS:
        if (name.startswith(".") == pattern.startswith(".")) and (
                pattern.startswith(".") or literal >= 3) and fnmatch.fnmatchcase(name, pattern):
            return name
    return None


@functools.cache
def _secret_pattern() -> re.Pattern[str]:
    """:data:`.outside_reads.SECRET_PATTERNS` as one regex, compiled on first use (~10 ms)."""
    return re.compile("|".join(fnmatch.translate(p) for p in SECRET_PATTERNS))


def is_project_secret(path: str) -> bool:
    """Tell whether an absolute path inside the project names a secret.

    :param path: an absolute, normalised path.
    :returns: true for a :data:`.outside_reads.SECRET_PATTERNS` match that is not a
        template, source code, or a public certificate.
    """
    name = path.rsplit("/", 1)[-1].lower()
    if name.endswith(_TEMPLATE_SUFFIXES) or name.endswith(_CODE_SUFFIXES):
        return False
    if name.endswith(_PUBLIC_CERT_SUFFIXES) and "key" not in name and "priv" not in name:
        return False
    return _secret_pattern().match(path) is not None


def _option_values(segment: Segment, options: frozenset[str]) -> list[Word]:
    args = segment.words[segment.command_positions[-1] + 1 :]
    found = []
    for index, word in enumerate(args):
        name, equals, value = word.value.partition("=")
        if word.value in options and index + 1 < len(args):
            found.append(args[index + 1])
        elif equals and name in options:
            found.append(Word(value, word.source, word.dynamic, word.globbed))
    return found


def _sed_edits(args: list[str]) -> bool:
    return any(a.startswith(("-i", "--in-place")) for a in args)


def _makes_links(args: list[str]) -> bool:
    """``cp -l``/``-s``: the link rules judge what the link names."""
    return any(a.startswith(("--li", "--sy")) or (
        a.startswith("-") and not a.startswith("--") and ("l" in a or "s" in a)) for a in args)


def _inside(path: str, roots: Sequence[str]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def secret_read_finding(segment: Segment, cwd: str | None,
                        roots: Sequence[str]) -> Finding | None:
    """Deny a segment whose reading command is given a secret file of the project.

    Paths outside the roots are left to the sandbox-path rule.

    :param segment: one analysed segment.
    :param cwd: where the command runs (relative paths start there); ``None`` skips.
    :param roots: the sandbox roots (absolute).
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    if head in _HISTORY_LISTERS:
        return Finding(DENY, "secret-read", f"{segment.text!r} reads or rewrites the shell history")
    if head in ("perl", "ruby") and any(a.startswith("-") and not a.startswith("--") and (
            "n" in a or "p" in a) for a in args):
        head = "cat"  # perl/ruby -n/-p read their operands line by line (GTFOBins file-read)
    if (head == "git" and (_git_shows_content(args) or _forced_add(args))) or (
            head == "cmake" and args[:2] == ["-E", "cat"]):
        head = "cat"  # git show REV:.env, git diff /dev/null .env, cmake -E cat .env
    if head == "cmp" and any(a in ("-b", "-l", "--print-bytes", "--verbose") or (
            a.startswith("-") and not a.startswith("--") and ("b" in a or "l" in a))
            for a in args):
        head = "cat"  # cmp -bl prints the bytes that differ
    option_reads = _OPTION_READS.get(head)
    if option_reads is not None:  # metadata commands read only these options' files
        words = _option_values(segment, option_reads)
        head = "cat"
    elif cwd is None or head not in SECRET_READERS or (head == "sed" and _sed_edits(
            args)) or (head == "cp" and _makes_links(args)):
        return None
    else:
        words = reader_operands(segment)
    if head == "man" and "-l" not in args and "--local-file" not in args:
        # man sudoers: a page's name, not a file (man .env, man ./x read the file)
        words = [w for w in words if "/" in w.value or w.value.startswith(".")]
    if cwd is None:
        return None
    operands = [(word, value) for word in words for value in (  # cat .{env,env.local}
        expand_braces(word.value) if word.globbed and "{" in word.value else [word.value])]
    if head in _COPIERS:
        operands = operands[:-1]  # the destination is written, not read: cp .env{,.bak}
    for word, value in operands:
        found = _secret_word(segment, word, value, head, cwd, roots)
        if found is not None:
            return found
    return None


def _secret_word(segment: Segment, word: Word, value: str, head: str, cwd: str,
                 roots: Sequence[str]) -> Finding | None:
    """Judge one operand value of a reader (a brace expansion gives several)."""
    if word.dynamic and "HISTFILE" in word.source:  # cat $HISTFILE (Atomic T1552.003)
        return Finding(DENY, "secret-read", f"{segment.text!r} reads the shell history "
                       f"file {word.source!r}")
    if word.dynamic and value and SECRET_MARKERS.search(value) and is_project_secret(
            "/x/" + value.lstrip("/")):  # ${XDG_RUNTIME_DIR}/containers/auth.json
        return Finding(DENY, "secret-read", f"{segment.text!r} reads {word.source!r}, a "
                       "secret's location whatever the variable holds")
    if word.dynamic or not value or (value.startswith("-") and "=" not in value):
        return None
    if value.startswith("-") or (head == "dd" and value.startswith("if=")):
        value = value.partition("=")[2]
    value = _FILE_PREFIX.sub("", value)  # @response-file, socat's FILE:path
    if segment.command == "git" and ":" in value:
        value = value.split(":", 1)[1]  # REV:path
    if value.startswith("/dev/") and RAW_DISKS.match(value):
        return Finding(DENY, "secret-read", f"{segment.text!r} reads the raw disk "
                       f"{value!r}: every file on it, past its permissions")
    if word.globbed:
        named = _glob_names_secret(value)
        if named is not None:
            return Finding(DENY, "secret-read", f"{segment.text!r} reads {value!r}, a "
                           f"glob that names the secret {named!r}")
    if SECRET_MARKERS.search(value) is None:
        return None  # cheap first look: the word holds no part any secret pattern needs
    path = os.path.normpath(os.path.join(cwd, os.path.expanduser(value)))
    if _inside(path, roots) and is_project_secret(path) and _inside(
            os.path.realpath(path), roots):  # a link out is the sandbox-path rule's
        return Finding(DENY, "secret-read", f"{segment.text!r} reads the secret {value!r}")
    return None


_HUNTERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "find", "locate", "fd",
                      "fdfind", "mlocate", "plocate", "mdfind", "log", "journalctl",
                      # the compressed-file greps (gzip's and xz's manuals), ugrep, tree -P
                      "zgrep", "zegrep", "zfgrep", "xzgrep", "bzgrep", "ugrep", "tree"})
_LOG_SEARCH_OPTIONS = {"log": frozenset({"--predicate"}),
                       "journalctl": frozenset({"-g", "--grep"})}
"""The system log's searches (macOS ``log show|stream --predicate``, ``journalctl --grep``):
their root is every service's log, where tokens printed by mistake end up."""
_INDEX_SEARCHES = frozenset({"locate", "mlocate", "plocate", "mdfind"})
"""Searches of a whole-disk index: their root is ``/`` (macOS's Spotlight ``mdfind`` unless
``-onlyin DIR`` narrows it: LOOBins' mdfind entry hunts for AWS keys and passwords)."""
_WIDE_ROOTS = frozenset({"/", "~", "~/", "/home", "/root", "/etc", "/var", "/opt", "/Users",
                         "/srv", "/mnt", "/media", "/usr", "/Volumes", "/private", "/run/media"})
_WIDE_TREES = re.compile(
    r"^(?:/home/[^/]+|/Users/[^/]+|/Volumes/[^/]+|/media/[^/]+|/mnt/[^/]+|/run/media/[^/]+"
    r"(?:/[^/]+)?|/var/www(?:/[^/]+)?|/var/log(?:/.*)?|/var/backups|"
    r"~/(?:Documents|Desktop|Downloads))/?$")
"""Trees as wide as a root for a hunt: one user's home by its path, a mounted volume (macOS'
``/Volumes``, udisks' ``/media`` and ``/run/media``), the web roots (``/var/www``: where
LaZagne's and LinPEAS' web-config modules look for database passwords), the system logs and
backups, and the folders of a home where people keep documents (seed phrases, exports)."""
_SECRET_TERMS = re.compile(r"passw|secret|token|api[_-]?key|credential|id_rsa|id_ed25519|"
                           r"id_ecdsa|\.pem|\.key\b|\.netrc|\.env\b|\.aws|private[ _-]?key|"
                           r"\.kdbx|\.git-credentials|\.pgpass|wallet|"
                           # key files by their name or extension (LinPEAS' and Atomic
                           # T1552.004's hunts): id_*, authorized_keys, VPN and PuTTY keys,
                           # keystores, Terraform state, shell histories
                           r"\bid_[*?\[]|authorized_keys|\.ovpn|\.ppk|\.p12|\.pfx|\.jks|"
                           r"\.keystore|\.tfstate|\.htpasswd|_history\b|\.gnupg|"
                           r"kubeconfig|\.vault-token|\.s3cfg|"
                           # credential names and directories (Elastic's "Kubernetes and
                           # Cloud Credential Path Access", "Private Key Searching Activity")
                           r"aws_(?:access_key_id|secret_access_key|session_token)|"
                           r"client_secret|\.kube\b|\.azure\b|\.docker\b|"
                           # password managers' stores and the other key and credential
                           # words of Splunk's linux_auditd_find_credentials_from_password_
                           # managers|_stores and _find_private_keys hunts
                           r"\.kdb\b|keepass|\.lpdb|\.opvault|\.agilekeychain|\.dashlane|"
                           r"\.rfx\b|passbolt|\.spdb|stickypassword|enpass|vault|\bcreds\b|"
                           r"\bpass\b|\.gpg\b|\.pgp\b|accesskeyid|"
                           # key and credential files LaZagne and HackBrowserData read: ssh
                           # and Kerberos keys, browser login and cookie stores
                           r"\.ssh\b|keytab|login ?data|local state|logins\.json|key[34]\.db|"
                           r"cookies\.sqlite|"
                           # crypto wallets by their documented files and folders (Bitcoin
                           # Core, geth's keystore UTC--*, Solana, Electrum, Exodus .seco,
                           # Coinomi, Ledger Live, Trezor Suite, Monero .keys), browser
                           # wallets' extension storage (a Chrome extension id is 32
                           # letters a-p: MetaMask nkbihf…, Phantom bfnael…), seed phrases
                           r"keystore|UTC--|solana|electrum|exodus|\.seco\b|coinomi|"
                           r"ledger ?live|trezor|monero|metamask|phantom|"
                           r"extension settings|local storage|\b[a-p]{32}\b|mnemonic|"
                           r"seed[ _-]?phrase|\bseed\b|recovery[ _-]?phrase|"
                           # database connection strings with their password (gitleaks'
                           # and detect-secrets' URI rules)
                           r"(?:postgres|postgresql|mysql|mongodb|redis|amqp)[^/\s]*://",
                           re.IGNORECASE)
_REGEX_SYNTAX = re.compile(r"\[[^\]]*\]|[\\()?{}^$]")
"""The syntax of a search's regular expression, dropped before its words are compared
(``api[_-]?key`` names ``apikey``, ``.*\\.\\(pem\\|key\\)`` names ``.pem``)."""


def _names_secret(term: str, words: re.Pattern[str]) -> bool:
    """Whether a search term (a glob, a name or a regular expression) names a secret."""
    plain = _REGEX_SYNTAX.sub("", term).replace("|", " ")
    return any(words.search(t) or _KEY_PREFIXES.search(t) for t in (term, plain))
_KEY_NAMES = re.compile(r"\bid_(?:rsa|dsa|ecdsa|ed25519)\b|authorized_keys|\.aws/credentials|"
                        r"accesskeyid|secretaccesskey|aws_(?:secret_access_key|session_token)|"
                        r"private[ _-]?key|wallet\.dat|UTC--|\.kdbx|\.ppk|\.p12|\.pfx|"
                        r"\.keytab",
                        re.IGNORECASE)
"""What Falco's "Search Private Keys or Passwords" and "Find AWS Credentials" look for with
``grep`` or ``find`` wherever they search: key files by name and AWS key words (the private
key headers are among :data:`_KEY_PREFIXES`)."""


_HOME_SETTINGS = re.compile(
    r"^(?:~|\$HOME|\$\{HOME\}|/root|/home/[^/]+|/Users/[^/]+)/(?:\.[^/]+|Library(?:/[^/]+)?)/?$")
"""A hidden directory of a home (``~/.config``, ``/home/alice/.local``) or macOS's
``~/Library`` and its folders (``~/Library/Preferences``, ``Application Support``): where every
tool keeps its settings and tokens, as wide a hunt as the home itself."""


_KEY_PREFIXES = re.compile(
    r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)|\bgh[pousr]_|github_pat_|glpat-|xox[abposr\[]|"
    r"\b[sr]k_live_|\bAIza|BEGIN [A-Z ]*PRIVATE|sk-ant-|sk-proj-|\bhf_[A-Za-z\[]|"
    r"npm_[A-Za-z0-9\[]|\beyJ")
"""The documented prefixes of cloud and platform keys (AWS access key ids, GitHub, GitLab,
Slack, Stripe, Google, Anthropic, OpenAI, Hugging Face and npm tokens, PEM private keys, a
JSON Web Token's ``eyJ``: the base64 of its ``{"``), as secret scanners (gitleaks,
trufflehog) look for them: a search for one hunts for keys."""


def secret_hunt_finding(segment: Segment, sandbox: Sequence[str] = ()) -> Finding | None:
    """Deny a search of the filesystem or a home for secrets (``grep -ri password /``).

    ``find / -name id_rsa``, ``locate .pem``: secret hunting, whatever it finds. A search of
    any other directory outside the roots hunts too when it looks for a private key or an AWS
    key (``grep -rl 'BEGIN OPENSSH PRIVATE' /data``, ``find /srv/app -name id_rsa``: Falco's
    rules), not when it looks for a word such as ``password`` in another tree's sources.

    :param segment: one analysed segment.
    :param sandbox: the sandbox roots (a search inside them is the project's own).
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions or segment.command not in _HUNTERS:
        return None
    if segment.command in _LOG_SEARCH_OPTIONS:
        return _log_hunt(segment)
    start = segment.command_positions[-1] + 1
    program = program_words(segment)
    words = segment.words[start:]
    roots = [root for i, w in enumerate(words, start)
             if i not in program and (root := _wide_root(w)) is not None]
    if segment.command in _INDEX_SEARCHES and not (
            segment.command == "mdfind" and "-onlyin" in [w.value for w in words]):
        roots = ["/"]
    elsewhere = [w.value for i, w in enumerate(words, start)
                 if i not in program and w.stable and _outside_roots(w.value, sandbox)]
    if not roots and not elsewhere:
        return None
    terms = [w.value for i, w in enumerate(words, start) if i in program or (
        i > start and words[i - start - 1].value in _NAME_TESTS.get(segment.command, ()))]
    terms += [w.value for w in words if not w.value.startswith("-") and (
        segment.command in _INDEX_SEARCHES or segment.command in ("fd", "fdfind"))]
    terms += [f".{b.value}" for a, b in itertools.pairwise(words)
              if segment.command in ("fd", "fdfind") and a.value in ("-e", "--extension")]
    if roots and any(_names_secret(t, _SECRET_TERMS) for t in terms):
        return Finding(DENY, "secret-read", f"{segment.text!r} hunts for secrets across "
                       f"{roots[0]!r}")
    if elsewhere and any(_names_secret(t, _KEY_NAMES) for t in terms):
        return Finding(DENY, "secret-read", f"{segment.text!r} hunts for keys in "
                       f"{elsewhere[0]!r}, outside the project")
    return None


_FIND_TESTS = ("-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename",
               "-iwholename", "-lname", "-ilname")
_NAME_TESTS: dict[str, tuple[str, ...]] = {"find": _FIND_TESTS, "tree": ("-P",)}
"""The options whose value is a name or path pattern a search looks for (find's tests,
tree's ``-P``); a grep's pattern is its program word."""


def _wide_root(word: Word) -> str | None:
    """The wide root a search's operand starts at (``~``, ``/home/dev``, ``/var/log/*.gz``)."""
    if word.dynamic:
        return None
    value = word.value
    if word.globbed:  # the fixed directory before the first glob character
        value = os.path.dirname(re.split(r"[*?\[]", value, maxsplit=1)[0])
        if not value:
            return None  # grep token *.py: the current directory's files
    value = value.rstrip("/") or "/"
    if value in _WIDE_ROOTS or _HOME_SETTINGS.match(value) or _WIDE_TREES.match(value):
        return value
    return None


_LISTERS = frozenset({"ls", "tree", "find", "rg", "fd", "fdfind", "du", "locate", "plocate",
                      "mlocate"})
_LISTING_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep"})
_PICKAXES = ("-G", "-S", "--pickaxe-regex")
_GIT_CONFIG_SECRETS = re.compile(r"extraheader|credential|token|passw|secret", re.IGNORECASE)

LISTING_HEADS: frozenset[str] = _LISTERS | frozenset({"git"})
"""Command names :func:`listing_hunt_finding` looks at."""


def listing_hunt_finding(analysis: CommandAnalysis) -> Finding | None:
    """Deny a listing of a wide tree or of the history filtered for secrets.

    The names a recursive listing prints, filtered by a later search for a secret's name, are
    a hunt like ``find ~ -name id_rsa`` (``ls -laR ~ | grep id_rsa``, ``tree -a ~ | grep
    credentials``, ``rg --files / | grep .ovpn``). So is git's history searched for keys: every
    patch filtered for secret words (``git log -p | grep -i token``), a pickaxe for a key
    (``git log -p -G 'AKIA…'``), every revision grepped (``git grep password $(git rev-list
    --all)``), and the configuration listed for the token ``actions/checkout`` stores (``git
    config --list | grep extraheader``). The project's own tree (``ls -R src | grep token``)
    and a history search for code (``git log -S parse_args``) are no hunt.

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    listed: str | None = None
    for segment in analysis.segments:
        if not segment.command_positions:
            continue
        head = segment.command
        args = [w.value for w in segment.words[segment.command_positions[-1] + 1:]]
        if head == "git":
            args = without_git_options(args)
            found = _history_hunt(segment, args, analysis)
            if found is not None:
                return found
            if args[:1] == ["log"] and not {"-p", "--patch", "-u"}.isdisjoint(args):
                listed = "git's history"
            elif args[:1] == ["config"] and not {"-l", "--list"}.isdisjoint(args):
                listed = "git's configuration"
        elif head in _LISTERS and (tree := _lists_a_tree(segment, head, args)) is not None:
            listed = tree
        elif listed is not None and head in _LISTING_FILTERS:
            program = program_words(segment)
            terms = [w.value for i, w in enumerate(segment.words) if i in program]
            secret = _GIT_CONFIG_SECRETS if listed == "git's configuration" else _SECRET_TERMS
            if any(_names_secret(t, secret) for t in terms):
                return Finding(DENY, "secret-read", f"{analysis.command!r} hunts for secrets "
                               f"in {listed}")
    return None


def _lists_a_tree(segment: Segment, head: str, args: Sequence[str]) -> str | None:
    """The wide root a recursive listing prints every name of (``ls -R ~``), or ``None``."""
    if head in _INDEX_SEARCHES:
        return "/"
    short = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    if (head == "ls" and "R" not in short and "--recursive" not in args) or (
            head == "rg" and "--files" not in args) or (head == "du" and "a" not in short):
        return None
    start = segment.command_positions[-1] + 1
    return next((root for w in segment.words[start:] if (root := _wide_root(w)) is not None),
                None)


def _history_hunt(segment: Segment, args: Sequence[str],
                  analysis: CommandAnalysis) -> Finding | None:
    """A pickaxe for a key, or every revision grepped for a secret word."""
    if args[:1] == ["log"]:
        terms = [b for a, b in itertools.pairwise(args) if a in _PICKAXES]
        terms += [a[2:] for a in args if a.startswith(("-G", "-S")) and len(a) > 2]
        if any(_names_secret(t, _KEY_NAMES) for t in terms):
            return Finding(DENY, "secret-read", f"{segment.text!r} searches git's history "
                           "for keys")
    if args[:1] == ["grep"] and "rev-list" in analysis.command and any(
            _names_secret(a, _SECRET_TERMS) for a in args[1:] if not a.startswith("-")):
        return Finding(DENY, "secret-read", f"{analysis.command!r} hunts for secrets in every "
                       "revision of git's history")
    return None


def _log_hunt(segment: Segment) -> Finding | None:
    """A search of the system log for a key or a token (``log show --predicate '… "eyJ"'``)."""
    options = _LOG_SEARCH_OPTIONS[segment.command]
    args = segment.argv[1:]
    terms = [b for a, b in itertools.pairwise(args) if a in options]
    terms += [a.partition("=")[2] for a in args if a.partition("=")[0] in options]
    if any(_SECRET_TERMS.search(t) or _KEY_PREFIXES.search(t) for t in terms):
        return Finding(DENY, "secret-read", f"{segment.text!r} hunts for secrets in the "
                       "system log")
    return None


def _outside_roots(value: str, roots: Sequence[str]) -> bool:
    """An absolute or home path outside every sandbox root (a search's starting point)."""
    if not value.startswith(("/", "~")):
        return False
    path = os.path.normpath(os.path.expanduser(value))
    return not any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def local_url_finding(segment: Segment, cwd: str | None,
                      roots: Sequence[str]) -> Finding | None:
    """Deny a URL client reading a secret through a ``file:`` URL (``curl file:///etc/shadow``).

    Such a read is no path argument (the sandbox-path rule does not see it), so secrets
    outside the project are denied here too.

    :param segment: one analysed segment.
    :param cwd: where the command runs (``None``: the current directory).
    :param roots: the sandbox roots (absolute).
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions or segment.command not in _URL_READERS:
        return None
    for word in segment.words[segment.command_positions[-1] + 1 :]:
        value = word.value.partition("=")[2] if word.value.startswith("-") else word.value
        if word.dynamic or not value.lower().startswith("file:"):
            continue
        path = os.path.normpath(os.path.join(cwd or os.getcwd(), os.path.expanduser(
            _FILE_PREFIX.sub("", value))))
        if is_secret_path(path) or (_inside(path, roots) and is_project_secret(path)):
            return Finding(DENY, "secret-read", f"{segment.text!r} reads the secret {value!r}")
    return None


_SQL_CLIENTS = frozenset({"psql", "mysql", "mariadb", "sqlite3"})
_SQL_READS = re.compile(r"(?:load_file|pg_read_file|pg_read_binary_file|lo_import)\s*\(\s*"
                        r"'([^']+)'", re.IGNORECASE)
_SQL_WRITES = re.compile(r"into\s+(?:outfile|dumpfile)\s+'([^']+)'|"
                         r"attach\s+(?:database\s+)?'(/[^']+)'", re.IGNORECASE)

SQL_HEADS: frozenset[str] = _SQL_CLIENTS
"""Command names :func:`sql_file_finding` looks at."""


def sql_file_finding(segment: Segment) -> Finding | None:
    """Judge SQL that reads or writes the server's files by path.

    ``SELECT LOAD_FILE('/etc/shadow')`` (MySQL), ``pg_read_file``/``lo_import``
    (PostgreSQL): a secret read through the database is denied like ``cat``; ``INTO
    OUTFILE '/var/www/x.php'`` or SQLite's ``ATTACH '/path'`` write where the path says: ask.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    for word in segment.words[segment.command_positions[-1] + 1 :]:
        for path in _SQL_READS.findall(word.value):
            if is_secret_path(os.path.expanduser(path)):
                return Finding(DENY, "secret-read", f"{segment.command} SQL reads the secret "
                               f"{path!r}")
        written = _SQL_WRITES.search(word.value)
        if written is not None:
            return Finding(ASK, "sandbox-dynamic", f"{segment.command} SQL writes "
                           f"{written.group(1) or written.group(2)!r}, a file it names")
    return None


URL_READERS: frozenset[str] = _URL_READERS
"""Command names :func:`local_url_finding` looks at."""

HUNTERS: frozenset[str] = _HUNTERS
"""Command names :func:`secret_hunt_finding` looks at."""


CARRIER_HEADS = frozenset({"xargs"})
"""Command names :func:`carried_secret_finding` looks at."""

_ARG_FILES = frozenset({"-a", "--arg-file"})


def _carried_files(segment: Segment) -> list[str]:
    """Files a carrier hands to what it runs: ``xargs -a .env echo`` prints the file's lines.

    A container given a host file (``docker run -v .env:/app/.env``) is the app's
    configuration, like ``--env-file``: not a read by the agent.
    """
    found: list[str] = []
    positions = (*segment.command_positions, len(segment.words))
    for start, end in itertools.pairwise(positions):
        if command_name(segment.words[start].value) == "xargs":
            words = [w.value for w in segment.words[start + 1 : end]]
            found += [b for a, b in itertools.pairwise(words) if a in _ARG_FILES]
            found += [a.partition("=")[2] for a in words if a.startswith("--arg-file=")]
    return found


def carried_secret_finding(segment: Segment, cwd: str | None,
                           roots: Sequence[str]) -> Finding | None:
    """Deny a project secret handed over as a carrier's input (:func:`_carried_files`).

    :param segment: one analysed segment.
    :param cwd: where the command runs; ``None`` skips.
    :param roots: the sandbox roots (absolute).
    :returns: the finding, or ``None``.
    """
    if cwd is None:
        return None
    for value in _carried_files(segment):
        if not value or SECRET_MARKERS.search(value) is None:
            continue
        path = os.path.normpath(os.path.join(cwd, os.path.expanduser(value)))
        if _inside(path, roots) and is_project_secret(path):
            return Finding(DENY, "secret-read", f"{segment.text!r} hands the secret "
                           f"{value!r} to the command it runs")
    return None


def input_secret_finding(analysis: CommandAnalysis, cwd: str | None,
                         roots: Sequence[str]) -> Finding | None:
    """Deny a command whose input redirection is a secret of the project (``tr a b < .env``).

    :param analysis: the analysed command.
    :param cwd: where the command runs; ``None`` skips.
    :param roots: the sandbox roots (absolute).
    :returns: the finding, or ``None``.
    """
    if cwd is None:
        return None
    for source in analysis.input_sources:
        if source.startswith("/dev/") and RAW_DISKS.match(source):
            return Finding(DENY, "secret-read", f"the command reads the raw disk {source!r} "
                           "as its input")
        if SECRET_MARKERS.search(source) is None:
            continue
        path = os.path.normpath(os.path.join(cwd, os.path.expanduser(source)))
        if _inside(path, roots) and is_project_secret(path):
            return Finding(DENY, "secret-read", f"the command reads the secret {source!r} "
                           "as its input")
    return None
