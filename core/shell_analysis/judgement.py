r"""The command-class rules on one analysis: escalation, power, launchers, code, routine harm.

Each segment is judged, the strictest finding wins (deny over ask). Code that a command
carries (a launcher's trailing words, an interpreter's one-liner, a code option, a
command-valued environment variable) is judged with the same rules, recursively, down to
:data:`MAX_NESTING` levels; deeper code asks.

| order | class               | module                    | verdict                      |
| ----- | ------------------- | ------------------------- | ---------------------------- |
| 1     | escalation, power   | :mod:`.escalation`,       | deny                         |
|       |                     | :mod:`.system_state`      |                              |
| 1     | unreviewed access   | :mod:`.unreviewed_access` | deny                         |
| 1     | secret read         | :mod:`.secret_reads`,     | deny                         |
|       |                     | :mod:`.tree_copies`       |                              |
| 1     | attack tool, miner  | :mod:`.attack_tools`      | deny                         |
| 2     | launcher            | :mod:`.launchers`         | what the launched command gets; |
|       |                     |                           | a bare shell: deny           |
| 3     | embedded code       | :mod:`.interpreters`      | deny / ask                   |
| 4     | environment prefix  | :mod:`.launchers`         | deny / ask                   |
| 5     | built word          | here                      | ask: ``$(a)etc$(b)shadow``,  |
|       |                     |                           | ``${x//a/b}`` as an argument |
| 5     | hidden spelling     | here                      | ask: ``c''at``, ``/e'tc'/x``,|
|       |                     |                           | ``$'\x63at'`` (a command word|
|       |                     |                           | or a path)                   |
| 6     | routine destructive | :mod:`.routine_destructive` | ask                        |
| 6     | process attach      | :mod:`.process_attach`    | ask                          |
| 6     | program install     | :mod:`.program_installs`  | ask                          |

Before the segments, the rules that read several segments together: code a network client
brings in and the command runs, a shell wired to a connection (:mod:`.remote_code`), the
environment or a secret fed to a sender, ``git push`` to a remote the command names itself
(:mod:`.uploads`). Per segment also: a network client running a program on its connection
(``nc -e``, ``socat … EXEC:``; deny, order 1), uploads (:mod:`.uploads`; a secret or an
outside file denied, others ask, order 2) and package installs from a URL (ask).

Shell text found inside code is denied when the blocklist or ``rm`` rules fire on it, when
it writes outside the roots, or when a class above denies it.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from collections.abc import Callable, Sequence

import attrs

from tooldeck.shell_analysis.archive_paths import ARCHIVE_HEADS, archive_paths_finding
from tooldeck.shell_analysis.attack_tools import (
    ATTACK_TOOL_HEADS,
    DIRECTORY_CLIENTS,
    MINER_MARKERS,
    SCRIPT_HOSTS,
    attack_tool_finding,
)
from tooldeck.shell_analysis.blocklist import find_blocked
from tooldeck.shell_analysis.changed_directory import (
    CHANGER_HEADS,
    changed_directory_secret_finding,
)
from tooldeck.shell_analysis.cloud_access import (
    CLOUD_ACCESS_HEADS,
    CLOUD_CHANGE_HEADS,
    cloud_access_finding,
    cloud_change_finding,
)
from tooldeck.shell_analysis.containers import (
    ENGINES,
    NODE_HEADS,
    node_escape,
    privileged_container,
    runtime_socket,
)
from tooldeck.shell_analysis.covert import (
    COVERT_HEADS,
    DECODERS,
    TEMP_DIRS,
    assignments_finding,
    covert_finding,
    decoded_script_finding,
    decoded_word_finding,
    hijack_finding,
    masquerade_finding,
)
from tooldeck.shell_analysis.data_args import PRINTERS, is_data_word
from tooldeck.shell_analysis.escalation import (
    CLASS_HEADS,
    agent_removal_finding,
    credential_store_finding,
    escalation_finding,
    init_script_finding,
    persistence_finding,
    power_finding,
    service_start_finding,
)
from tooldeck.shell_analysis.evasion import (
    TERMINAL_CONTROLS,
    TIMESTOMP_HEADS,
    hidden_text_finding,
    invisible_finding,
    timestomp_finding,
)
from tooldeck.shell_analysis.findings import ASK, DENY, Finding
from tooldeck.shell_analysis.guest_shells import GUEST_HEADS, guest_shell_finding
from tooldeck.shell_analysis.home_config import (
    COMPLETION_INSTALL,
    HOME_CONFIG_HEADS,
    completion_install_finding,
    home_config_finding,
)
from tooldeck.shell_analysis.interpreters import interpreter_code, judge_interpreter
from tooldeck.shell_analysis.launchers import (
    ALL_ARGV_LAUNCHERS,
    OPTION_HEADS,
    bare_shell,
    build_program_finding,
    environment_finding,
    jvm_agent_finding,
    launcher_tails,
    option_finding,
)
from tooldeck.shell_analysis.loaded_code import (
    HOOK_MARKERS,
    LOADER_HEADS,
    SHELL_HEADS,
    code_secret_finding,
    hook_finding,
    library_finding,
    shell_finding,
)
from tooldeck.shell_analysis.macos_state import MACOS_HEADS, macos_state_finding
from tooldeck.shell_analysis.model import CommandAnalysis, Segment, Word, command_name
from tooldeck.shell_analysis.outside_reads import is_secret_path
from tooldeck.shell_analysis.password_checks import PASSWORD_CHECK_HEADS, password_check_finding
from tooldeck.shell_analysis.paths import is_path_like, path_arguments
from tooldeck.shell_analysis.process_attach import ATTACH_HEADS, attach_finding
from tooldeck.shell_analysis.program_installs import INSTALLER_HEADS, program_install_finding
from tooldeck.shell_analysis.program_text import program_words
from tooldeck.shell_analysis.remote_code import (
    NETWORK_CLIENTS,
    REMOTE_SHELL_HEADS,
    STORAGE_CLIENTS,
    remote_code_finding,
    remote_shell_finding,
)
from tooldeck.shell_analysis.routine_destructive import ROUTINE_HEADS, routine_finding
from tooldeck.shell_analysis.secret_fields import FIELD_HEADS, secret_field_finding
from tooldeck.shell_analysis.secret_reads import (
    CARRIER_HEADS,
    HUNTERS,
    LISTING_HEADS,
    READ_HEADS,
    SECRET_MARKERS,
    SQL_HEADS,
    URL_READERS,
    carried_secret_finding,
    input_secret_finding,
    listing_hunt_finding,
    local_url_finding,
    secret_hunt_finding,
    secret_read_finding,
    sql_file_finding,
)
from tooldeck.shell_analysis.secret_stores import (
    ENVIRONMENT_HEADS,
    SCREEN_HEADS,
    STORE_HEADS,
    environment_secret_finding,
    screen_capture_finding,
    secret_store_finding,
)
from tooldeck.shell_analysis.staged_manifests import MANIFEST_RUNNERS, staged_manifest_finding
from tooldeck.shell_analysis.system_state import (
    SYSTEM_STATE_HEADS,
    fork_bomb_finding,
    system_state_finding,
)
from tooldeck.shell_analysis.toolchain_dirs import changed_toolchain_finding
from tooldeck.shell_analysis.tree_copies import TREE_COPIERS, tree_copy_finding
from tooldeck.shell_analysis.unreviewed_access import UNREVIEWED_HEADS, unreviewed_finding
from tooldeck.shell_analysis.uploads import (
    INSTALL_HEADS,
    SENDERS,
    UPLOAD_HEADS,
    addressed_secret_finding,
    install_url_finding,
    push_finding,
    sending_finding,
    upload_finding,
)

__all__ = ["MAX_NESTING", "ClassContext", "judge_classes"]

MAX_NESTING = 3
"""How deep code inside code is followed; deeper asks."""

_BARE_REDIRECT_COMMANDS = frozenset({":", "true", ""})
_SINKS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
"""Redirection targets no redirection can empty: ``ls 2>/dev/null || true`` destroys
nothing (the analysis does not say which segment a redirection belongs to, so without this
the ``true`` there read as ``true > /dev/null``)."""
_EMPTY_OUTPUTS = frozenset({("cat", "/dev/null"), ("echo", "-n"), ("printf", ""),
                            ("echo", "-n", ""), ("false",), ("echo",), ("echo", ""),
                            ("true",), ("printf", "%s", "")})
"""Commands that print nothing (or one newline, ``echo``): redirected, they empty the file
(``cat /dev/null > f``, ``echo > f``)."""


def _prints_nothing(segment: Segment) -> bool:
    """An :data:`_EMPTY_OUTPUTS` command whose words are static (``echo "$x"`` prints $x)."""
    return segment.argv in _EMPTY_OUTPUTS and all(
        w.stable for w in segment.words[segment.command_positions[-1] + 1 :])


@attrs.frozen
class ClassContext:
    """What the class rules need to know about the policy.

    :param blocklist: the effective blocklist (for shell text found inside code).
    :param roots: the sandbox roots (absolute).
    :param cwd: where the command runs.
    :param depth: the current nesting level.
    """

    blocklist: tuple[str, ...]
    roots: tuple[str, ...] = ()
    cwd: str | None = None
    depth: int = 0

    def deeper(self) -> ClassContext:
        """The same context one nesting level down.

        :returns: a copy with ``depth + 1``.
        """
        return attrs.evolve(self, depth=self.depth + 1)


def _outside(target: str, context: ClassContext) -> bool:
    if not target.startswith(("/", "~")) or target.startswith("/dev/null"):
        return False
    path = os.path.normpath(os.path.expanduser(target))
    return not any(path == root or path.startswith(root.rstrip("/") + "/")
                   for root in context.roots)


def _installed_program(segment: Segment, context: ClassContext) -> bool:
    """Whether a program under a temporary directory is not a dropped one after all.

    It is the project's own (inside a sandbox root: the agent's ordinary work, as ``./build.sh``
    is), or a link to an installed program of the same name outside the temporary directories
    (a virtualenv's ``bin/python3`` -> ``/usr/bin/python3.11`` in a checkout under ``/tmp``),
    which the rules already judge by that name. A link named unlike its target
    (``/tmp/x`` -> ``/bin/sh``) still asks: the rules would judge ``x``, not the shell.
    """
    program = segment.words[segment.command_positions[-1]].value
    if not _outside(program, context):
        return True
    if not os.path.islink(program):
        return False
    target = os.path.realpath(program)
    # the same name, give or take a version: python3 -> python3.11
    same_name = re.fullmatch(re.escape(os.path.basename(program)) + r"[\d.]*",
                             os.path.basename(target))
    return bool(same_name) and not target.startswith(TEMP_DIRS) and os.access(target, os.X_OK)


def _outside_secret(target: str, context: ClassContext) -> bool:
    if not target.startswith(("/", "~")) or SECRET_MARKERS.search(target) is None:
        return False
    return _outside(target, context) and is_secret_path(
        os.path.normpath(os.path.expanduser(target)))


def _judge_analysis(analysis: CommandAnalysis, context: ClassContext) -> Finding | None:
    match = find_blocked(analysis, context.blocklist, protected_roots=context.roots,
                         cwd=context.cwd)
    if match is not None:
        return Finding(DENY, match.rule, match.message)
    outside = [t for t in analysis.write_targets if _outside(t, context)]
    if outside:
        return Finding(DENY, "write-outside", f"writes {outside[0]!r} outside the project")
    secret = next((p for p in path_arguments(analysis) if _outside_secret(p, context)), None)
    if secret is not None:  # nested code: no sandbox-path rule looks at its paths
        return Finding(DENY, "secret-read", f"reads the secret {secret!r}")
    shell = next((s for s in analysis.segments if s.command_positions
                  and bare_shell(s.words[s.command_positions[-1] :])), None)
    if shell is not None:  # sh -c '/bin/sh 0<&2' handed to a launcher: still a shell
        return Finding(DENY, "launcher", f"{shell.text!r} starts an interactive shell")
    found = judge_classes(analysis, context)
    if found is not None:
        return found
    if analysis.opaque:
        return Finding(ASK, "opaque", "; ".join(analysis.opaque_reasons))
    return None


def _shell_judge(context: ClassContext) -> Callable[[str], Finding | None]:
    from tooldeck.shell_analysis.parse import analyze  # the parser imports nothing of ours

    def judge(text: str) -> Finding | None:
        if context.depth >= MAX_NESTING:
            return Finding(ASK, "nesting", "code nested too deep to follow")
        if not text.strip():
            return None
        return _judge_analysis(analyze(text), context.deeper())

    return judge


def _judge_tail(words: Sequence[Word], segment: Segment, context: ClassContext) -> Finding | None:
    if bare_shell(words):
        return Finding(DENY, "launcher", f"{segment.text!r} starts an interactive shell")
    if context.depth >= MAX_NESTING:
        return None
    if any(c.isspace() for c in words[0].value):  # tmux new 'cmd', watch 'cmd', ssh h 'cmd'
        found = _shell_judge(context)(words[0].value)
        if found is None or found.rule == "opaque":
            return None
        return Finding(found.verdict, found.rule,
                       f"launched by {segment.command!r}: {found.detail}")
    from tooldeck.shell_analysis.parse import analyze  # the parser imports nothing of ours

    # the tail as the shell would run it: nested -c scripts and substitutions walked too
    found = _judge_analysis(analyze(" ".join(w.source for w in words)), context.deeper())
    if found is None or found.rule == "opaque":
        return None
    return Finding(found.verdict, found.rule, f"launched by {segment.command!r}: {found.detail}")


_REWRITTEN_VARIABLE = re.compile(r"\$\{(?:!\w|#?\w+(?:/|:[-0-9 ]|\^|,|@[A-Za-z]))")


def _built_word(segment: Segment) -> Finding | None:
    """A word pieced together at run time: several substitutions, or a rewritten variable."""
    if segment.command in PRINTERS:
        return None
    for word in segment.words:
        if not word.dynamic or ("$" not in word.source and "`" not in word.source):
            continue
        source = word.source
        if (source.count("$(") + source.count("`") // 2 >= 2 or _REWRITTEN_VARIABLE.search(
                source)) and not is_data_word(segment, word):  # what $(…) runs is judged
            return Finding(ASK, "built-word", f"{source!r} is pieced together at run time")
    return None


_MAKES = frozenset({"make", "gmake", "bmake"})
_STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def _makefile_from_stdin(segment: Segment) -> Finding | None:
    """``make -f -`` (or ``/dev/stdin``): recipes nobody sees before they run."""
    args = segment.argv[1:]
    for option, value in itertools.pairwise(args):
        if option in ("-f", "--file", "--makefile") and value in _STDIN_FILES:
            return Finding(ASK, "opaque", f"{segment.text!r} reads its makefile from stdin")
    if any(a.partition("=")[2] in _STDIN_FILES for a in args
           if a.startswith(("--file=", "--makefile=", "-f"))):
        return Finding(ASK, "opaque", f"{segment.text!r} reads its makefile from stdin")
    return None


_WHOLE_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_ANSI_ESCAPE = re.compile(r"\$'[^']*\\(?:x[0-9a-fA-F]|[0-7]|u[0-9a-fA-F])")
_INNER_ESCAPE = re.compile(r"[^\s\\'\"]\\[A-Za-z]")


def _spelled_to_hide(word: Word) -> bool:
    r"""``c''at``, ``/e'tc'/pa""sswd``, ``$'\x63at'``: quotes or escapes inside one word."""
    source = word.source
    if word.dynamic or source.startswith("-") or _WHOLE_QUOTED.fullmatch(source):
        return False
    if _ANSI_ESCAPE.search(source):
        return True
    if "$" in source:  # "$HOME"/x: quoting an expansion is ordinary
        return False
    quoted = "'" in source or '"' in source
    if not quoted and _INNER_ESCAPE.search(source):  # w\ho\am\i (a leading \ls is ordinary)
        return True
    return quoted and not _WHOLE_QUOTED.fullmatch(source.lstrip("\\"))


def _hidden_spelling(segment: Segment) -> Finding | None:
    """A command word or a path spelled so that no plain reading finds it: ask."""
    text = segment.text
    if ("'" not in text and '"' not in text and "\\" not in text) or (
            segment.command in PRINTERS):
        return None
    positions = segment.command_positions
    program = program_words(segment)
    for index, word in enumerate(segment.words):
        source = word.source
        if ("'" not in source and '"' not in source and "\\" not in source) or (
                "/" not in word.value and index not in positions) or index in program:
            continue
        if _spelled_to_hide(word) and not is_data_word(segment, word):
            return Finding(ASK, "obfuscated", f"{word.source!r} is spelled to hide "
                           f"{word.value!r}")
    return None


def _fixed_findings(segment: Segment, names: frozenset[str]) -> Finding | None:
    if not ENGINES.isdisjoint(names):
        found = privileged_container(segment)
        if found is not None:
            return found
    if not NODE_HEADS.isdisjoint(names):
        found = node_escape(segment)
        if found is not None:
            return found
    if ".sock" in segment.text:
        found = runtime_socket(segment)
        if found is not None:
            return found
    if not ATTACK_TOOL_HEADS.isdisjoint(names) or segment.command in SCRIPT_HOSTS or (
            segment.command in DIRECTORY_CLIENTS) or (
            "stratum" in segment.text and any(m in segment.text for m in MINER_MARKERS)) or (
            "--" in segment.text and any(m in segment.text for m in MINER_MARKERS)):
        found = attack_tool_finding(segment)
        if found is not None:
            return found
    if not SYSTEM_STATE_HEADS.isdisjoint(names):
        found = system_state_finding(segment)
        if found is not None:
            return found
    if not MACOS_HEADS.isdisjoint(names):
        found = macos_state_finding(segment)
        if found is not None:
            return found
    if not UNREVIEWED_HEADS.isdisjoint(names):
        found = unreviewed_finding(segment)
        if found is not None:
            return found
    if not REMOTE_SHELL_HEADS.isdisjoint(names):
        found = remote_shell_finding(segment)
        if found is not None:
            return found
    if segment.command in STORE_HEADS:
        found = secret_store_finding(segment)
        if found is not None:
            return found
    if not PASSWORD_CHECK_HEADS.isdisjoint(names):
        found = password_check_finding(segment)
        if found is not None:
            return found
    if segment.command in SCREEN_HEADS:
        found = screen_capture_finding(segment)
        if found is not None:
            return found
    if segment.command in ARCHIVE_HEADS:
        found = archive_paths_finding(segment)
        if found is not None:
            return found
    if ".d/" in segment.text:  # /etc/init.d/ssh stop
        found = init_script_finding(segment)
        if found is not None:
            return found
    if "uninst" in segment.text.lower():  # /usr/local/qcloud/stargate/admin/uninstall.sh
        found = agent_removal_finding(segment)
        if found is not None:
            return found
    if CLASS_HEADS.isdisjoint(names):
        return None
    return (escalation_finding(segment) or power_finding(segment)
            or persistence_finding(segment) or credential_store_finding(segment)
            or service_start_finding(segment))


def _segment_findings(segment: Segment, context: ClassContext) -> list[Finding]:
    if not segment.command_positions:
        return []
    names = frozenset(command_name(segment.words[p].value) for p in segment.command_positions)
    name = segment.command
    fixed = _fixed_findings(segment, names)
    if fixed is not None and fixed.verdict == DENY:
        return [fixed]
    findings: list[Finding] = [fixed] if fixed is not None else []
    if name in READ_HEADS:
        secret = secret_read_finding(segment, context.cwd, context.roots)
        if secret is not None:
            return [secret]
    if not CARRIER_HEADS.isdisjoint(names):
        carried = carried_secret_finding(segment, context.cwd, context.roots)
        if carried is not None:
            return [carried]
    if name in URL_READERS:
        local = local_url_finding(segment, context.cwd, context.roots)
        if local is not None:
            return [local]
    if name in HUNTERS:
        hunt = secret_hunt_finding(segment, context.roots)
        if hunt is not None:
            return [hunt]
    if name in TREE_COPIERS:
        tree = tree_copy_finding(segment, context.cwd)
        if tree is not None:
            return [tree]
    if name in SQL_HEADS:
        sql = sql_file_finding(segment)
        if sql is not None:
            if sql.verdict == DENY:
                return [sql]
            findings.append(sql)
    if name in ("cargo", "mvn", "mvnw", "mvnd"):
        program = build_program_finding(segment)
        if program is not None:
            findings.append(program)
    if "agent" in segment.text:
        agent = jvm_agent_finding(segment)
        if agent is not None:
            if agent.verdict == DENY:
                return [agent]
            findings.append(agent)
    if ":" in segment.text and SECRET_MARKERS.search(segment.text):
        addressed = addressed_secret_finding(segment, context.cwd, context.roots)
        if addressed is not None:
            findings.append(addressed)
    if name in UPLOAD_HEADS:
        upload = upload_finding(segment, context.cwd, context.roots)
        if upload is not None:
            if upload.verdict == DENY:
                return [upload]
            findings.append(upload)
    if name in INSTALL_HEADS or name.startswith("python"):
        install = install_url_finding(segment)
        if install is not None:
            findings.append(install)
    if (len(names) > 1 and "xargs" not in names
            and bare_shell(segment.words[segment.command_positions[-1]:])):
        return [Finding(DENY, "launcher", f"{segment.text!r} starts an interactive shell")]
    if not names.isdisjoint(ALL_ARGV_LAUNCHERS):
        for tail in launcher_tails(segment):
            found = _judge_tail(tail, segment, context)
            if found is not None:
                findings.append(found)
                if found.verdict == DENY:
                    return findings
    interpreter = interpreter_code(segment)
    if interpreter is not None:
        secret = code_secret_finding(segment, context.cwd, context.roots)
        if secret is not None:
            return [secret]
    if interpreter is not None or name in LOADER_HEADS:
        loads = library_finding(segment)
        if loads is not None:
            findings.append(loads)
    if name in SHELL_HEADS or (" pty" in segment.text and name.startswith(("python", "pypy"))):
        interactive = shell_finding(segment)  # python3 -m pty: $SHELL on a pseudo-terminal
        if interactive is not None:
            findings.append(interactive)
    rules = [judge_interpreter] if interpreter is not None else []
    if name in OPTION_HEADS:
        rules.append(option_finding)
    if "=" in segment.text:
        rules.append(environment_finding)
    if rules:
        judge = _shell_judge(context)
        for rule in rules:
            found = rule(segment, judge)
            if found is not None:
                findings.append(found)
    if name in COVERT_HEADS or segment.words[segment.command_positions[-1]].value.startswith(
            (*TEMP_DIRS, "/dev/")):
        covert = covert_finding(segment)
        if covert is not None and not (covert.rule == "temp-program"
                                       and _installed_program(segment, context)):
            findings.append(covert)
    built = _built_word(segment) or _hidden_spelling(segment) or invisible_finding(segment)
    if built is not None:
        findings.append(built)
    if name in _MAKES:
        stdin_makefile = _makefile_from_stdin(segment)
        if stdin_makefile is not None:
            findings.append(stdin_makefile)
    if COMPLETION_INSTALL in segment.text:
        completion = completion_install_finding(segment)
        if completion is not None:
            findings.append(completion)
    for heads, find in _HEADED_RULES:
        if name in heads:
            headed = find(segment)
            if headed is not None:
                findings.append(headed)
    return findings


def _routine_in_segment(segment: Segment) -> Finding | None:
    """:func:`routine_finding` of one segment (a redirect alone is judged with the paths)."""
    return routine_finding(segment, bare_redirect=False)


_HEADED_RULES: tuple[tuple[frozenset[str], Callable[[Segment], Finding | None]], ...] = (
    (HOME_CONFIG_HEADS, home_config_finding),
    (ROUTINE_HEADS, _routine_in_segment),
    (CLOUD_ACCESS_HEADS, cloud_access_finding),
    (CLOUD_CHANGE_HEADS, cloud_change_finding),
    (ATTACH_HEADS, attach_finding),
    (INSTALLER_HEADS, program_install_finding),
    (GUEST_HEADS, guest_shell_finding),
    (TIMESTOMP_HEADS, timestomp_finding),
    (FIELD_HEADS, secret_field_finding),
)
"""Rules that look at one segment of a known command: the command words each one reads, and
the rule, run in this order."""


_MASQUERADE_HEADS = frozenset({"cp", "ln", "install", "rsync"})


def _command_findings(analysis: CommandAnalysis, context: ClassContext) -> Finding | None:
    """The rules that look at several segments together (what one feeds another)."""
    asked: Finding | None = None
    names = {s.command for s in analysis.segments}
    if analysis.assignments:
        found = assignments_finding(analysis, _shell_judge(context))
        if found is not None and found.verdict == DENY:
            return found
        if found is not None:
            asked = found
    if any(s.origin in ("substitution", "process substitution") for s in analysis.segments):
        found = decoded_word_finding(analysis)
        asked = asked or found
    if not TERMINAL_CONTROLS.isdisjoint(names):
        asked = asked or hidden_text_finding(analysis)
    if analysis.redirect_targets and not DECODERS.isdisjoint(names):
        asked = asked or decoded_script_finding(analysis)
    if "$(" in analysis.command or "`" in analysis.command:
        asked = asked or changed_toolchain_finding(analysis)
    if analysis.functions:
        found = fork_bomb_finding(analysis)
        if found is not None:
            return found
    if analysis.functions or "alias" in names:
        found = hijack_finding(analysis, NETWORK_CLIENTS | SENDERS)
        if found is not None and found.verdict == DENY:
            return found
        asked = asked or found
    if not ENVIRONMENT_HEADS.isdisjoint({n.rstrip("0123456789.-") for n in names} | names):
        asked = asked or environment_secret_finding(analysis)  # python3.12: an interpreter
    if not LISTING_HEADS.isdisjoint(names):
        found = listing_hunt_finding(analysis)
        if found is not None:
            return found
    if analysis.input_sources:
        found = input_secret_finding(analysis, context.cwd, context.roots)
        if found is not None:
            return found
    if not CHANGER_HEADS.isdisjoint(names):
        found = changed_directory_secret_finding(analysis, context.cwd, context.roots)
        if found is not None:
            return found
    if not NETWORK_CLIENTS.isdisjoint(names) or "openssl" in names or (
            "://" in analysis.command) or not STORAGE_CLIENTS.isdisjoint(names):
        found = remote_code_finding(analysis)
        if found is not None:
            return found
    if not SENDERS.isdisjoint(names):
        found = sending_finding(analysis, context.cwd, context.roots)
        if found is not None and found.verdict == DENY:
            return found
        asked = asked or found
    if "git" in names:
        found = push_finding(analysis)
        if found is not None:
            return found
    if not _MASQUERADE_HEADS.isdisjoint(names) or (
            "exec " in analysis.command and any("exec" in s.wrappers for s in analysis.segments)):
        asked = asked or masquerade_finding(analysis)
    if analysis.write_targets and not MANIFEST_RUNNERS.isdisjoint(names):
        asked = asked or staged_manifest_finding(analysis)
    if any(m in t for t in analysis.write_targets for m in HOOK_MARKERS):
        found = hook_finding(analysis, context.cwd)
        if found is not None:
            return found
    return asked



def _expands(source: str) -> str | None:
    """The variable a whole word expands (``$f``, ``${f}``, ``"$f"``), or ``None``."""
    inner = source[1:-1] if len(source) > 1 and source[0] == source[-1] == '"' else source
    match = _WHOLE_VARIABLE.fullmatch(inner)
    return match.group(1) or match.group(2) if match else None


_WHOLE_VARIABLE = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")


_DECLARERS = frozenset({"declare", "typeset", "local"})

_BLIND_TO_VALUES = PRINTERS | frozenset({"ls", "stat", "test", "[", "namei", "realpath",
                                         "readlink", "basename", "dirname", ":", "true"})
"""Commands that print or look at a path's name or metadata, not its content."""


def _bound_segments(analysis: CommandAnalysis) -> list[tuple[Segment, Word]]:
    """Segments with each variable a loop or assignment binds replaced by its value.

    ``for f in ~/.ssh/*; do cat $f; done`` and ``k=~/.ssh/id_rsa; cat "$k"`` are judged as
    ``cat ~/.ssh/*`` and ``cat ~/.ssh/id_rsa``: the word list feeds the body's judgement.
    """
    bound = _bindings(analysis)
    if not bound:
        return []
    found: list[tuple[Segment, Word]] = []
    for segment in analysis.segments:
        expanded = {index: _expands(w.source) for index, w in enumerate(segment.words)
                    if "$" in w.source}
        for index, variable in expanded.items():
            values = bound.get(variable or "", ()) if variable else _spliced(
                segment.words[index], bound)
            for value in values:
                words = (*segment.words[:index], value, *segment.words[index + 1 :])
                found.append((attrs.evolve(segment, words=words), value))
    return found


def _bindings(analysis: CommandAnalysis) -> dict[str, list[Word]]:
    """The static values each variable is bound to by a loop, an assignment or ``declare -n``."""
    if not analysis.assignments:
        return {}
    bound: dict[str, list[Word]] = {}
    for name, word in analysis.assignments:
        if word.value and not word.dynamic:
            bound.setdefault(name, []).append(word)
        elif word.dynamic:  # p="$dir/$file": joined from variables bound before it
            bound.setdefault(name, []).extend(_spliced(word, bound))
    for segment in analysis.segments:  # declare -n r=x: $r is $x (a name reference)
        argv = segment.argv
        if argv[:1] and argv[0] in _DECLARERS and any(
                a.startswith("-") and "n" in a for a in argv[1:]):
            for arg in argv[1:]:
                name, eq, target = arg.partition("=")
                if eq and target in bound:
                    bound.setdefault(name, []).extend(bound[target])
    return bound


def _bound_inputs(analysis: CommandAnalysis) -> list[str]:
    r"""Reading redirections built from bound variables, as bash expands them.

    ``for p in /proc/[0-9]*; do tr '\0' '\n' < "$p/environ"; done`` reads
    ``/proc/[0-9]*/environ``.
    """
    if not analysis.dynamic_inputs:
        return []
    bound = _bindings(analysis)
    found: list[str] = []
    for source in analysis.dynamic_inputs:
        variable = _expands(source)
        values = bound.get(variable, []) if variable else _spliced(Word(source, source), bound)
        found.extend(v.value for v in values)
    return found


_MAX_SPLICES = 32
"""Most values one spliced word is given (one per combination of its variables' values)."""


def _spliced(word: Word, bound: dict[str, list[Word]]) -> list[Word]:
    """A word joining bound variables with text (``${f}ow``, ``"$a/$b"``), as bash joins it.

    One word per combination of the values its variables are bound to (a loop binds several:
    ``for i in .key .pem; do find /etc -name "*$i"; done`` gives ``*.key`` and ``*.pem``), at
    most :data:`_MAX_SPLICES`; none when a variable it names is unbound or anything else in
    it expands.
    """
    inner = word.source[1:-1] if len(word.source) > 1 and word.source[0] == word.source[
        -1] == '"' else word.source
    names = list(dict.fromkeys(m.group(1) or m.group(2)
                               for m in _WHOLE_VARIABLE.finditer(inner)))
    if not names or any(not bound.get(n) for n in names):
        return []
    choices = [list(dict.fromkeys(v.value for v in bound[n])) for n in names]
    if math.prod(len(c) for c in choices) > _MAX_SPLICES:
        return []
    found: list[Word] = []
    for combination in itertools.product(*choices):
        value = _substituted(inner, dict(zip(names, combination, strict=True)))
        if not any(c in value for c in "$`'\"\\"):
            found.append(Word(value, word.source))
    return found


_ADJACENT = re.compile(r"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})(?=\$[A-Za-z_{])")
"""A variable expanded right before another (``$a$b``, ``${a}${b}``)."""


def _cut_path(analysis: CommandAnalysis) -> Finding | None:
    """A path joined from variables whose values cut its names in the middle: ask.

    ``a=/et; b=c/pas; c=swd; cat $a$b$c`` reads ``/etc/passwd``, spelled so that no word of
    the command holds it (ATT&CK T1027's split strings); ``"$dir/$file"`` and ``$base$ext``
    (``.tar``) join at a separator and are ordinary.
    """
    bound = _bindings(analysis)
    if len(bound) < 2:
        return None
    for segment in analysis.segments:
        for word in segment.words:
            for match in _ADJACENT.finditer(word.source):
                left = bound.get(match.group(1) or match.group(2) or "", [])
                rest = word.source[match.end():]
                after = _WHOLE_VARIABLE.match(rest)
                right = bound.get((after.group(1) or after.group(2)) if after else "", [])
                if any(a.value[-1:].isalnum() and b.value[:1].isalnum()
                       for a in left for b in right) and any(
                        is_path_like(v.value) for v in _spliced(word, bound)):
                    return Finding(ASK, "obfuscated", f"{word.source!r} joins a path from "
                                   "pieces cut in the middle of its names")
    return None


def _substituted(text: str, values: dict[str, str]) -> str:
    """``text`` with each ``$name``/``${name}`` replaced by its value."""
    return _WHOLE_VARIABLE.sub(lambda m: values[m.group(1) or m.group(2)], text)


def judge_classes(analysis: CommandAnalysis, context: ClassContext) -> Finding | None:
    """Apply every command-class rule to an analysis.

    :param analysis: the analysed command.
    :param context: the policy facts the rules need.
    :returns: the strictest finding (the first deny, else the first ask), or ``None``.
    """
    findings: list[Finding] = []
    whole = _command_findings(analysis, context)
    if whole is not None:
        if whole.verdict == DENY:
            return whole
        findings.append(whole)
    for segment in analysis.segments:
        for found in _segment_findings(segment, context):
            if found.verdict == DENY:
                return found
            findings.append(found)
    for segment, value in _bound_segments(analysis):
        if segment.command not in _BLIND_TO_VALUES and _outside_secret(value.value, context):
            return Finding(DENY, "secret-read", f"{segment.text!r} reads the secret "
                           f"{value.value!r} (a variable's value)")
        for found in _segment_findings(segment, context):
            if found.verdict == DENY:
                return attrs.evolve(found, detail=f"{found.detail} (a variable's value)")
    secret = next((v for v in _bound_inputs(analysis) if _outside_secret(v, context)), None)
    if secret is not None:
        return Finding(DENY, "secret-read", f"the command reads the secret {secret!r} "
                       "(a variable's value, fed on input)")
    cut = _cut_path(analysis) if analysis.assignments else None
    if cut is not None:
        findings.append(cut)
    emptied = [t for t in analysis.redirect_targets if t not in _SINKS]
    if emptied and (
            not analysis.segments
            or any(s.command in _BARE_REDIRECT_COMMANDS or _prints_nothing(s)
                   for s in analysis.segments)):
        findings.append(Finding(ASK, "routine-destructive",
                                f"a bare redirection empties {emptied[0]!r}"))
    return findings[0] if findings else None
