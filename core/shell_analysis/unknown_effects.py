"""Paths given to a program whose effect on them is not known: asked, not denied.

The sandbox-path rule denies a path outside the roots unless it knows the path is only read
(:mod:`.outside_reads`). A program nobody modelled — ``mdfind -onlyin ~/src``, ``defaults
read /Library/Preferences/x``, a vendor's inspection tool — may only read the path, and a
denial of a read is what issue 12 forbids ("allowed or asked, never denied"); that it writes
is not known either, so a person decides (rule ``outside-unknown``, ask). Unknown is asked,
not allowed.

A path word falls here only when every segment it appears in runs a program of unknown
effect, none of :data:`KNOWN_EFFECTS`: the programs whose reading, writing or running of their
operands the analysis models (they keep their own verdicts: ``cp x /etc/`` stays denied),
and it is no redirection's or write's target. These stay denied whatever is given them: a
secret path; a path in a hidden entry (``~/.bashrc``: startup and settings files); the
system's and the user's startup and service locations (:data:`_STARTUP`: cron, init, systemd,
launchd, the boot and PAM configuration); a program in a system directory of programs
(``msgfilter -P /bin/sh``, ``dtruss -f /bin/sh -c …``: an operand that is a program is run);
and a whole tree (``/``, the home, ``/etc``…: ``trufflehog filesystem /`` reads every secret
there).
"""

from __future__ import annotations

from tooldeck.shell_analysis.interpreters import INTERPRETER_CODE_OPTIONS
from tooldeck.shell_analysis.launchers import LAUNCHING_HEADS
from tooldeck.shell_analysis.model import CommandAnalysis, Segment
from tooldeck.shell_analysis.outside_reads import FORM_READERS, READ_ONLY
from tooldeck.shell_analysis.paths import is_path_like, path_value
from tooldeck.shell_analysis.program_installs import INSTALLER_HEADS
from tooldeck.shell_analysis.tree_copies import TREE_COPIERS

__all__ = ["KNOWN_EFFECTS", "unknown_effect_paths"]

_CHANGERS = frozenset({
    # the file-changing commands of the path rules (:mod:`.paths`) and their kin (each
    # program's manual): they create, move, delete, change or link what they are given
    "rm", "rmdir", "mv", "cp", "ln", "link", "unlink", "touch", "mkdir", "tee", "truncate",
    "install", "chmod", "chown", "chgrp", "dd", "sed", "patch", "shred", "srm", "wipe",
    "wipefs", "mkfifo", "mknod", "split", "csplit", "chattr", "chflags", "setfacl",
    "setfattr", "xattr", "logrotate", "dos2unix", "unix2dos", "ex", "ed", "perl",
    "sort", "uniq", "tac", "shuf", "mktemp", "mount", "umount", "losetup", "fallocate", "debugfs",
    "hdiutil", "diskutil", "newfs_apfs", "plutil", "plistbuddy", "defaults", "ditto",
    "sqlite3", "ssh-keygen", "openssl", "gpg", "gpg2", "age", "sops", "crontab", "at",
    # editors (an operand is the file they save)
    "vim", "vi", "nvim", "nano", "pico", "emacs", "code", "subl", "mate", "micro", "kak",
    "hx", "joe", "jed",
    # archivers and compressors (an operand is an archive written or a member replaced)
    "tar", "bsdtar", "gtar", "zip", "unzip", "7z", "7za", "7zz", "7zr", "gzip", "gunzip",
    "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "lz4", "cpio", "ar", "rar", "unrar",
    # copy and sync clients, version control, builds and containers
    "rsync", "scp", "sftp", "rclone", "git", "hg", "svn", "make", "gmake", "cmake", "ninja",
    "docker", "podman", "kubectl", "npm", "pnpm", "yarn", "pip", "pip3", "cargo", "go",
    # settings databases and buses whose keys look like paths (:mod:`.program_text`), their
    # writes judged by :mod:`.home_config`
    "dconf", "gsettings", "xfconf-query", "busctl", "gdbus", "dscl", "launchctl",
    # shells: an operand is a script they run; directory changes (:mod:`.outside_work`)
    "sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "source", ".", "cd", "pushd",
    "popd",
})
"""Programs whose effect on their operands the analysis models, besides the read-only ones."""

KNOWN_EFFECTS: frozenset[str] = (
    READ_ONLY | FORM_READERS | _CHANGERS | TREE_COPIERS | INSTALLER_HEADS | LAUNCHING_HEADS
    | frozenset(INTERPRETER_CODE_OPTIONS)
)
"""Programs whose paths keep the path rules' verdicts (see the module text)."""


def _path_words(segment: Segment) -> set[str]:
    """The path-like words, each read as the path rules read it (:func:`.paths.path_value`)."""
    return {value for word in segment.words if is_path_like(value := path_value(word.value))}


_STARTUP = ("/etc/cron", "/etc/anacron", "/etc/init", "/etc/rc", "/etc/systemd", "/etc/profile",
            "/etc/ld.so", "/etc/pam", "/etc/sudoers", "/etc/ssh", "/etc/security", "/etc/xdg",
            "/etc/environment", "/etc/bash", "/etc/zsh", "/lib/systemd", "/usr/lib/systemd",
            "/var/spool/cron", "/boot", "/System", "/Library/LaunchAgents",
            "/Library/LaunchDaemons", "/Library/StartupItems")
"""Where the system and the user start programs at boot, login or on a schedule (MITRE
T1053, T1037, T1543, T1547; cron(8), systemd.unit(5), launchd(8), pam(8))."""


_PROGRAM_DIRECTORIES = ("/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/local/bin/",
                        "/usr/local/sbin/", "/usr/libexec/", "/opt/homebrew/bin/", "/lib/",
                        "/lib64/", "/usr/lib/", "/usr/lib64/")
"""Where the system's programs and loaders live (FHS 3.0, Homebrew's prefix)."""
_WHOLE_TREES = frozenset({"/", "~", "~/", "/etc", "/etc/", "/root", "/home", "/var", "/Users",
                          "/usr", "/opt", "/Library", "/private", "/Volumes", "/mnt", "/media"})
"""Trees that hold the system's or the users' data whole."""


def _kept_denied(path: str) -> bool:
    """A hidden entry, a startup location, a system program or a whole tree (module text)."""
    if any(part.startswith(".") and part not in (".", "..") for part in path.split("/")):
        return True
    if path.rstrip("/") in _WHOLE_TREES or path in _WHOLE_TREES or (
            path.rstrip("/") + "/").startswith(_PROGRAM_DIRECTORIES):
        return True
    home_relative = path.split("/", 1)[1] if path.startswith("~/") else ""
    return path.startswith(_STARTUP) or ("/" + home_relative).startswith(_STARTUP) or any(
        f"/{marker}" in path for marker in ("Library/LaunchAgents", "Library/LaunchDaemons"))


def _known(segment: Segment) -> bool:
    name = segment.command.rstrip("0123456789.-") if segment.command else ""
    return not segment.command_positions or segment.command in KNOWN_EFFECTS or (
        name in KNOWN_EFFECTS)


def unknown_effect_paths(analysis: CommandAnalysis) -> frozenset[str]:
    """The path words only programs of unknown effect are given.

    :param analysis: the analysed command.
    :returns: those words, hidden entries and startup locations excepted (secrets are the
        caller's check).
    """
    found: set[str] = set()
    others: set[str] = set(analysis.redirect_targets) | set(analysis.write_targets)
    for segment in analysis.segments:
        words = _path_words(segment)
        if _known(segment):
            others |= words
        else:
            found |= words
    return frozenset(p for p in found - others if not _kept_denied(p))
