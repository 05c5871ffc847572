r"""Static analysis of shell commands: segments, wrappers, blocklist and confirm matching.

One analyzer, on a real bash syntax tree (tree-sitter-bash), shared by every gate and by the
output-filter matcher. It never runs anything and never raises.

Decision flow (:func:`decide`)::

    analyze(command) ─► find_blocked ─► block        (unconditional floor)
                      └► opaque?      ─► ask          (never allow what cannot be seen)
                      └► find_confirm ─► ask
                      └►              ─► allow

Normalisations, all applied before any rule:

| what              | how                                                       | module    |
| ----------------- | --------------------------------------------------------- | --------- |
| segments          | every simple command, across operators and nesting (1)    | parse     |
| quotes, escapes   | ``s'u'do``, ``"su""do"``, ``\sudo``, ``$'\x73udo'`` (2)   | normalize |
| command word      | base name, lowercase: ``/usr/bin/SUDO`` → ``sudo``        | model     |
| ``VAR=v`` prefix  | removed; an ``IFS=`` assignment anywhere is opaque        | parse     |
| wrappers          | peeled, each one kept as a command position (3)           | wrappers  |
| code in arguments | parsed recursively, depth-capped (4)                      | carriers  |
| plain commands    | split without the parser, same result (5)                 | plain     |

1. ``&& || ; | & |&``, newlines, ``$(…)``, backticks, ``<(…)``, ``>(…)``, subshells,
   ``{ …; }``, if/for/while/case, function bodies.
2. Also ``su\<newline>do``, ``$'\163udo'``, ``$"sudo"``; ``$HOME`` becomes ``~``.
3. env, command, exec, builtin, nice, nohup, time, timeout, stdbuf, xargs, sudo, doas,
   setsid, ionice, chroot, busybox, and operator-declared ones.
4. ``bash/sh/zsh/dash/ksh… -c``, here-strings and heredocs fed to a shell, literal ``eval``,
   ``env -S``, ``trap``, ``watch``, ``su -c``, ``script -c``, ``alias``,
   ``find -exec/-execdir/-ok/-okdir``.
5. A cheap first look: plain words, simple quotes, list operators and trailing
   redirections (``pytest -q 2>&1 | tail``) are split by a regular expression; anything
   else is parsed. Differential tests hold both to the same analysis.

Opaque (→ ask, never allow):

| case                                          | example                                  |
| --------------------------------------------- | ---------------------------------------- |
| command word or wrapper argument not static   | ``$cmd rm``, ``${x}do``, ``su*o``        |
| code only known at run time                   | ``eval "$v"``, ``bash -c "$s"``          |
| command output piped into a shell/interpreter | ``curl … | sh``, ``base64 -d <<< … | sh`` |
| script file not static or from xargs input    | ``bash <(…)``, ``source $f``, ``xargs sh`` |
| ``IFS`` reassigned, ``hash -p``               | ``IFS=/; …``                             |
| parse error, NUL in nested code, too deep     | ``echo "abc``                            |
| over the analysis budget (:mod:`.budget`)     | a 40 KB pipeline ending in ``|``         |
| unknown option of a wrapper                   | ``timeout --frobnicate 5 sudo``          |
| analyzer failure (any exception)              | —                                        |

Refused (→ block): a NUL byte or a lone surrogate in the command itself; no shell could run
it as written (:attr:`.CommandAnalysis.refusal`).

Why opaque means ask: a static analyzer that cannot see the command cannot vouch for it, and
blocking everything dynamic would forbid ordinary scripts. A human decides; the blocklist
still applies to everything that *was* resolved.

Block rules (:mod:`.blocklist`, :mod:`.rm_rules`): blocklist patterns at every command
position, ``rm -r`` on ``/``, home, a sandbox root or above one, ``.git/worktrees``, and bash's
``/dev/tcp``/``/dev/udp`` sockets while network commands are blocked. Confirm patterns:
:mod:`.confirm` (the shell gate matches them on :func:`.data_args.code_view`). Paths:
:mod:`.paths`, :mod:`.outside_reads`. Links the command creates: :mod:`.links` finds them,
:mod:`.link_rules` judges them against a sandbox (the shell gate's ``link-*`` rules).
Filter matching: :func:`last_command`. The commands a launcher or a code option runs, for
rules that read commands rather than findings (the egress gate): :func:`launched_commands`.

Command classes (:func:`judge_classes`, :mod:`.judgement`): escalation, power and persistence
(:mod:`.escalation`, :mod:`.system_state`, :mod:`.containers`), launchers and code options
from GTFOBins (:mod:`.launchers`, :mod:`.gtfobins_table`), interpreter one-liners
(:mod:`.interpreters`), routine destructive commands (:mod:`.routine_destructive`), secret
reads (:mod:`.secret_reads`, :mod:`.secret_stores`), network clients' uploads and what
they bring in to run (:mod:`.uploads`, :mod:`.remote_code`), code loaded or left to run
later (:mod:`.loaded_code`), covert moves (:mod:`.covert`), tunnels and unreviewed agents
(:mod:`.unreviewed_access`); program text is no path (:mod:`.program_text`). Known limits:
code read from files (``make`` targets, ``python script.py``) is not analysed, nor are
commands an interactive program runs later.
"""

from __future__ import annotations

from tooldeck.shell_analysis.blocklist import (
    DEFAULT_BLOCKED,
    NETWORK_COMMANDS,
    effective_blocklist,
    find_blocked,
    pattern_matches,
)
from tooldeck.shell_analysis.carriers import SHELLS, effective_shell_command
from tooldeck.shell_analysis.confirm import DEFAULT_CONFIRM_PATTERNS, find_confirm
from tooldeck.shell_analysis.decide import Verdict, decide
from tooldeck.shell_analysis.deobfuscate import deobfuscate
from tooldeck.shell_analysis.findings import Finding
from tooldeck.shell_analysis.judgement import ClassContext, judge_classes
from tooldeck.shell_analysis.last_command import last_command
from tooldeck.shell_analysis.launchers import LAUNCHING_HEADS, launched_commands
from tooldeck.shell_analysis.model import BlockMatch, CommandAnalysis, Segment, Word
from tooldeck.shell_analysis.parse import analyze
from tooldeck.shell_analysis.paths import is_path_like, path_arguments
from tooldeck.shell_analysis.wrappers import WRAPPERS

__all__ = [
    "DEFAULT_BLOCKED",
    "DEFAULT_CONFIRM_PATTERNS",
    "LAUNCHING_HEADS",
    "NETWORK_COMMANDS",
    "SHELLS",
    "WRAPPERS",
    "BlockMatch",
    "ClassContext",
    "CommandAnalysis",
    "Finding",
    "Segment",
    "Verdict",
    "Word",
    "analyze",
    "decide",
    "deobfuscate",
    "effective_blocklist",
    "effective_shell_command",
    "find_blocked",
    "find_confirm",
    "is_path_like",
    "judge_classes",
    "last_command",
    "launched_commands",
    "path_arguments",
    "pattern_matches",
]
