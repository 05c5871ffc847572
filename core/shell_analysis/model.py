"""Value types produced by the shell analyzer: words, segments, the analysis, a block match."""

from __future__ import annotations

import functools

import attrs

__all__ = ["BlockMatch", "CommandAnalysis", "Segment", "StagedRun", "Word"]


@attrs.frozen
class Word:
    """One shell word after quote and escape removal.

    :param value: the static value; the parts that only exist at run time (``$x``, ``$(…)``)
        contribute nothing, so ``"$d/"`` has the value ``/``. ``$HOME`` becomes ``~``.
    :param source: the word's text as written in the command.
    :param dynamic: true when part of the value is only known at run time.
    :param globbed: true when the word holds an unquoted glob (``*``, ``?``, ``[``) or a brace
        expansion, so the shell may turn it into other words.
    """

    value: str
    source: str
    dynamic: bool = False
    globbed: bool = False

    @property
    def stable(self) -> bool:
        """Whether the shell runs exactly :attr:`value` (no expansion, no globbing).

        :returns: true for a fully static, glob-free word.
        """
        return not (self.dynamic or self.globbed)


@attrs.frozen
class Segment:
    """One simple command the shell would run, wherever it was found.

    :param text: the segment's source text (for nested scripts, relative to that script; for
        ``find -exec`` commands, their words' source joined by spaces).
    :param origin: where it was found: ``top``, ``subshell``, ``group``, ``function``,
        ``substitution``, ``process substitution``, ``shell -c``, ``eval``, ``here-string``,
        ``heredoc``, ``find -exec``, ``env -S``, ``trap``, ``watch``, ``su -c``, ``script -c``,
        ``alias``.
    :param words: every word with ``VAR=value`` prefixes removed, wrappers included.
    :param command_positions: indices into :attr:`words` where a command word stands: each
        wrapper (``env``, ``sudo``, ``xargs``…) and, last, the command finally run.
    :param stdin: what the command reads on standard input: ``inherited``, ``pipe``,
        ``here-string``, ``heredoc`` or ``file``.
    :param stdin_file: for ``file``, the static path redirected to standard input (``sh <
        x.sh``); else empty.
    """

    text: str
    origin: str
    words: tuple[Word, ...]
    command_positions: tuple[int, ...]
    stdin: str = "inherited"
    stdin_file: str = ""

    @functools.cached_property
    def command(self) -> str:
        """The command finally run: lowercase base name of its word, after unwrapping.

        :returns: e.g. ``rm`` for ``env X=1 /usr/bin/RM -rf x``; empty for a bare redirection.
        """
        if not self.command_positions:
            return ""
        return command_name(self.words[self.command_positions[-1]].value)

    @functools.cached_property
    def argv(self) -> tuple[str, ...]:
        """The final command's argument vector: :attr:`command` then the argument values.

        :returns: normalised words, original case kept except for the command word.
        """
        if not self.command_positions:
            return ()
        start = self.command_positions[-1]
        return (self.command, *(w.value for w in self.words[start + 1 :]))

    @property
    def wrappers(self) -> tuple[str, ...]:
        """Command names of the wrappers that were unwrapped, outermost first.

        :returns: e.g. ``("env", "sudo")`` for ``env sudo rm x``.
        """
        return tuple(command_name(self.words[i].value) for i in self.command_positions[:-1])

    def invocation(self, position: int) -> tuple[str, ...]:
        """Lowercase tokens from one command position to the end, command word as base name.

        :param position: an index taken from :attr:`command_positions`.
        :returns: the tokens a blocklist pattern is matched against.
        """
        head = command_name(self.words[position].value)
        return (head, *(w.value.lower() for w in self.words[position + 1 :]))


@attrs.frozen
class StagedRun:
    """A file the command writes and then runs, whose text the walker judged (:mod:`.staged`).

    :param path: the file, as :func:`tooldeck.shell_analysis.staged.staged_key` names it.
    :param runner: the index of the segment that runs it (``python3 /tmp/t.py``).
    :param start: the index of the first segment the walker added for the file's text.
    :param stop: one past the last of them (the text's segments are ``start:stop``).
    :param sole_write: whether the command writes the file exactly once, by truncating it,
        with text known statically (``cat > f <<'EOF'``): the judged text is then all of it.
    """

    path: str
    runner: int
    start: int
    stop: int
    sole_write: bool


@attrs.frozen
class CommandAnalysis:
    """Everything the gates need to know about one command string.

    :param command: the command as given.
    :param segments: every simple command found, in source order, nested ones included.
    :param opaque_reasons: why parts of the command cannot be resolved statically; any reason
        makes the command *opaque*, which callers must treat as "ask", never "allow".
    :param redirect_targets: static targets of writing redirections (``>``, ``>>``, ``>|``,
        ``&>``, ``&>>``, ``<>``, ``N>``…).
    :param write_targets: redirect targets plus the path arguments of file-changing commands.
    :param writes: whether any segment may change files (write redirection or write command).
    :param network_redirects: redirections to bash's ``/dev/tcp/…`` or ``/dev/udp/…`` sockets
        (run-time parts count as empty).
    :param refusal: why the text cannot be a shell command at all (a NUL byte, a lone
        surrogate); gates deny such a command. The reason is also an opaque reason.
    :param input_sources: static sources of reading redirections (``< f``): the shell reads
        them for the command, so they are paths the command reads.
    :param runtime_code: the commands that run code only known at run time (``sh`` in
        ``curl … | sh``, ``python3`` in ``python3 <(…)``, ``eval`` in ``eval "$(…)"``).
    :param assignments: ``NAME=value`` statements that set a shell variable (no command
        follows them; ``export``/``declare`` ones too), with the value as a word.
    :param functions: the names of the shell functions the command defines.
    :param dynamic_redirects: writing redirections whose target is only known at run time,
        as written (``> "$out"``, ``>> ~/$f``): where they write cannot be checked.
    :param dynamic_inputs: reading redirections whose source is only known at run time, as
        written (``< /proc/$PPID/environ``).
    :param staged_runs: the files the command writes and then runs, with the segments their
        text became (:class:`StagedRun`).
    """

    command: str
    segments: tuple[Segment, ...]
    opaque_reasons: tuple[str, ...]
    redirect_targets: tuple[str, ...]
    write_targets: tuple[str, ...]
    writes: bool
    network_redirects: tuple[str, ...] = ()
    refusal: str | None = None
    input_sources: tuple[str, ...] = ()
    runtime_code: tuple[str, ...] = ()
    assignments: tuple[tuple[str, Word], ...] = ()
    functions: tuple[str, ...] = ()
    dynamic_redirects: tuple[str, ...] = ()
    dynamic_inputs: tuple[str, ...] = ()
    staged_runs: tuple[StagedRun, ...] = ()

    @property
    def opaque(self) -> bool:
        """Whether anything could not be resolved statically (the caller must ask).

        :returns: true when :attr:`opaque_reasons` is not empty.
        """
        return bool(self.opaque_reasons)

    @property
    def commands(self) -> tuple[str, ...]:
        """The final command name of every segment, in order.

        :returns: e.g. ``("cd", "cargo", "tail")``.
        """
        return tuple(s.command for s in self.segments)


@attrs.frozen
class BlockMatch:
    """Why a command is blocked: the rule, the pattern and the offending segment.

    :param rule: ``blocklist``, ``rm-protected-root`` or ``git-worktrees``.
    :param pattern: the blocklist pattern, or the rule's canonical spelling.
    :param segment: the segment that fired.
    :param detail: one sentence for the audit log.
    """

    rule: str
    pattern: str
    segment: Segment
    detail: str

    @property
    def message(self) -> str:
        """Human-readable rejection naming the rule.

        :returns: e.g. ``blocked by rule blocklist (pattern 'sudo'): …``.
        """
        return f"blocked by rule {self.rule} (pattern {self.pattern!r}): {self.detail}"


_GNU_PREFIXED = frozenset({
    # GNU coreutils (every program of its manual), findutils, sed, tar, grep and make: Homebrew
    # installs them on macOS as gNAME (gtimeout, gsed, gxargs, gtar…) beside the BSD tools
    "b2sum", "base32", "base64", "basename", "basenc", "cat", "chcon", "chgrp", "chmod",
    "chown", "chroot", "cksum", "comm", "cp", "csplit", "cut", "date", "dd", "df", "dir",
    "dircolors", "dirname", "du", "echo", "env", "expand", "expr", "factor", "fmt", "fold",
    "groups", "head", "hostid", "id", "install", "join", "kill", "link", "ln", "logname", "ls",
    "md5sum", "mkdir", "mkfifo", "mknod", "mktemp", "mv", "nice", "nl", "nohup", "nproc",
    "numfmt", "od", "paste", "pathchk", "pinky", "pr", "printenv", "printf", "ptx", "pwd",
    "readlink", "realpath", "rm", "rmdir", "runcon", "seq", "sha1sum", "sha224sum",
    "sha256sum", "sha384sum", "sha512sum", "shred", "shuf", "sleep", "sort", "split", "stat",
    "stdbuf", "stty", "sum", "tac", "tail", "tee", "timeout", "touch", "tr", "truncate",
    "tsort", "tty", "uname", "unexpand", "uniq", "unlink", "uptime", "users", "vdir", "wc",
    "who", "whoami", "yes", "find", "xargs", "locate", "updatedb", "sed", "tar", "egrep",
    "fgrep", "make",
})
"""Base names whose ``g``-prefixed spelling is the same GNU program (``ggrep`` too)."""


def command_name(word: str) -> str:
    """Reduce a command word to its lowercase base name.

    A GNU tool under Homebrew's ``g`` prefix is its base name (``gtimeout`` → ``timeout``,
    ``gsed`` → ``sed``): the same program, judged alike.

    :param word: the command word's value, e.g. ``/usr/bin/SUDO``.
    :returns: ``sudo``.
    """
    name = word.rstrip("/").rsplit("/", 1)[-1].lower() if "/" in word else word.lower()
    if name[:1] == "g" and (name[1:] in _GNU_PREFIXED or name == "ggrep"):
        return name[1:]
    return name
