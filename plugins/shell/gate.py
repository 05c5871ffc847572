r"""The shell gate: every ``bash`` call is judged here, on the analyzer's view of the command.

Rules, in order; the first that fires decides this gate's vote (``Decision.rule`` names it):

=====================  =======  ===============================================================
rule                   vote     fires when
=====================  =======  ===============================================================
``command``            deny     the command is not a string, or holds a NUL byte or a lone
                                surrogate (no shell could run it as written)
``blocklist``          deny     a segment runs a blocked command at any command position (the
                                12 built-ins, ``blocked_commands``, overlays, network commands
                                when ``allow_network = false``; ``allowed_commands`` removes
                                built-ins only)
``git-worktrees``      deny     ``rm`` recursive and forced on a ``.git/worktrees`` path
``rm-protected-root``  deny     ``rm`` recursive on a sandbox root, the home directory, ``/``
                                or anything above them
``class``              deny     escalation, power, persistence, a launcher or code that runs
                                something denied (:mod:`tooldeck.shell_analysis.judgement`)
``sandbox-cwd``        deny     no sandbox root is a directory to run in
``sandbox-path``       deny     a static path argument or redirect target resolves (``~``
                                expanded, ``..`` normalised, symlinks followed) outside every
                                ``allowed_paths`` root and is not an exempt device path, a
                                non-secret path only read by read-only commands (a glob
                                matching a secret here is not one: ``cat /e??/sha*``), or a
                                program in the tree (``.venv/bin/python``, lexically) (a
                                symbolic link's target is judged by ``link-outside`` instead)
``link-outside``       deny     a link the command creates (``ln``, ``cp -s/-l``, ``link``)
                                points outside every root; its target is resolved from the
                                link's directory (:mod:`tooldeck.shell_analysis.link_rules`)
``link-secret``        deny     a link the command creates names a ``[tools.file] deny_read``
                                path (``ln .env notes``, ``ln -s ~/.ssh/id_rsa k``)
``overlay-rule``       deny     an overlay ``deny`` rule matches a segment or the command
``segment-rule``       deny     a ``[[tools.permissions.bash]]`` rule's first match on some
                                segment is ``deny``
``opaque``             ask      the analyzer cannot see the whole command (``$cmd``, ``eval
                                "$v"``, ``curl … | sh``, parse errors …): never allow
``link-unclear``       ask      a link creation that cannot be seen (run-time operands,
                                ``xargs ln``, unknown options, ``python -c "os.symlink(…)"``)
``link-cd``            ask      the command creates a link and changes directory
``link-through``       ask      a path goes through a link the command creates
                                (``ln -sf out cur && cat cur/x``)
``link-dotdot``        ask      a path climbs with ``..`` out of an existing symlink
``rollback-coverage``  ask      with ``transactional`` and ``auto_rollback``: a write the
                                snapshot cannot cover (an unknown command, ``xargs rm``,
                                ``rm "$f"``, ``cd`` …; see :mod:`.rollback_coverage`): the
                                rollback could not undo it
``outside-read``       ask      ``outside_reads = "ask"`` and a read-only command reads a
                                non-secret path outside the roots (default ``allow``)
``scratch-write``      ask      a path outside the roots written (not run) is an entry below
                                ``/tmp``, ``/var/tmp`` or ``~/.cache/<tool>``: a scratch file
                                (:mod:`tooldeck.shell_analysis.outside_work`)
``scratch-run``        ask      a script below ``/tmp``, ``/var/tmp`` or ``~/.cache/<tool>`` that an
                                interpreter runs (``python3 /tmp/repro.py``); run by its own
                                name, built or sourced it stays denied; written once from a
                                quoted here-document and run once by the same command, its
                                judged body decides (:func:`.scratch_scripts.judged_scratch_script`)
``outside-cd``         ask      ``cd DIR`` to a static directory outside the roots that is no
                                system tree, home (hidden) directory, secret or ancestor of a
                                root, followed by commands that are not read-only but change
                                no file by themselves (a test run, a build)
``outside-unknown``    ask      a non-secret, non-hidden path outside the roots that only programs
                                of unknown effect are given (``mdfind -onlyin ~/src``): it may
                                only be read, which must not be denied, or written, which must
                                not be allowed (:mod:`.unknown_effects`)
``sandbox-cd``         ask      ``cd``/``pushd``/``popd`` without one static directory (``cd``
                                alone, ``cd -``, ``cd "$d"``): later relative paths could
                                point anywhere. A change that ends the command (``… && cd
                                ..``) is judged by no path rule: it changes nothing
``class``              ask      code that spawns, decodes-then-runs or is built at run time;
                                a launcher's ``LD_PRELOAD``-like environment
``sandbox-dynamic``    ask      an argument built at run time looks like a path (``$d/x``,
                                ``"$(pwd)"/x``), or a file-changing command's operand or a
                                redirection's target or a path-like input redirection is
                                built at run time (``mkdir "$d"``, ``> "$out"``, ``<
                                /proc/$PPID/environ``): it cannot be checked against the roots.
                                A record, key or service name is no path (``dscl . -read
                                /Users/$USER``, ``launchctl print gui/$(id -u)``)
``confirm``            ask      a confirm pattern matches (base or overlay) the code: the
                                segments' resolved words without data arguments (``echo``
                                text, commit messages, grep patterns; shell-syntax patterns
                                such as ``$(`` are left out, what they run being segments)
                                and without removals of regenerable artefacts inside the
                                root (:mod:`tooldeck.shell_analysis.artefact_removal`); an
                                opaque command is matched as written
``routine-destructive`` ask     ``git reset --hard``, ``git clean``, force pushes, ``chmod -R
                                777``, ``kill -9 -1``, ``truncate``, ``dd of=``, ``: > f``…
``overlay-rule``       ask      an overlay ``ask`` rule matches
``segment-rule``       ask      with ``[[tools.permissions.bash]]`` rules, a segment whose
                                first matching rule is ``ask``, or that no rule matches
``clean``              allow    nothing above fired
=====================  =======  ===============================================================

A ``deny`` carries a safe-fix suggestion when :mod:`.suggestions` knows one (``… —
suggestion: use the fetch tool for HTTP requests``).

The floor (the first four rules) is unconditional: it is checked before any permission rule
and a confirmation never lifts a deny. With ``[agent] autonomy = "full"`` the ``ask`` rules
except ``opaque`` and ``rollback-coverage`` are skipped. A segment rule is matched against
each command position of a segment: ``env X=1 git push`` is matched as ``env X=1 git push``
and as ``git push``, and the segment is allowed only when every one of them is.

How this vote combines with the core ``permissions`` gate (which matches the same rules
against the whole command): the pipeline takes the strictest vote, deny > ask > allow. So a
chain is denied when the whole command or any segment is denied, and allowed only when the
whole command and every segment are allowed.
"""

from __future__ import annotations

import glob
import itertools
import os
from collections.abc import Iterable, Iterator, Sequence

import attrs

from tooldeck import hookimpl
from tooldeck.call_memo import shell_analysis
from tooldeck.errors import ToolError
from tooldeck.models import Decision, ToolCall, ToolDef, Verdict
from tooldeck.paths import lexical_normalize
from tooldeck.permission_rules import CompiledRule, first_match
from tooldeck.plugins.shell.policy import BUILT_IN, ShellPolicy
from tooldeck.plugins.shell.rollback_coverage import uncovered_writes
from tooldeck.plugins.shell.scratch_scripts import judged_scratch_script, known_body
from tooldeck.plugins.shell.suggestions import suggest
from tooldeck.runtime import Runtime
from tooldeck.shell_analysis import (
    ClassContext,
    CommandAnalysis,
    Finding,
    find_blocked,
    find_confirm,
    is_path_like,
    judge_classes,
    path_arguments,
)
from tooldeck.shell_analysis.artefact_removal import REMOVERS, without_artefact_removals
from tooldeck.shell_analysis.containers import container_paths
from tooldeck.shell_analysis.data_args import PRINTERS, code_view
from tooldeck.shell_analysis.harmless import is_harmless
from tooldeck.shell_analysis.link_rules import (
    LinkFinding,
    link_findings,
    symlink_target_values,
)
from tooldeck.shell_analysis.links import scan_links
from tooldeck.shell_analysis.outside_reads import (
    SCRIPT_DENIED_PREFIXES,
    glob_names_secret,
    interpreted_scripts,
    is_secret_path,
    metadata_paths,
    printed_paths,
    program_paths,
    read_only_paths,
    script_paths,
    toolchain_reads,
)
from tooldeck.shell_analysis.outside_work import (
    DIRECTORY_CHANGERS,
    copy_destinations,
    directory_changes,
    elsewhere,
    final_directory_change,
    inert_directories,
    moved_relative_paths,
    run_words,
    scratch,
)
from tooldeck.shell_analysis.paths import dynamic_targets
from tooldeck.shell_analysis.program_text import name_words
from tooldeck.shell_analysis.unknown_effects import unknown_effect_paths
from tooldeck.workdir import working_directory

__all__ = ["GATE", "ShellGate", "judge", "judge_analysis", "segment_views"]

GATE = "shell"
"""The gate name written into every decision."""

_RANK = {Verdict.ALLOW: 0, Verdict.ASK: 1, Verdict.DENY: 2}


def _vote(verdict: Verdict, rule: str, reason: str, source: str | None = None, *,
          pattern: str | None = None, line: int | None = None,
          segment: str | None = None) -> Decision:
    return Decision(verdict, f"shell rule '{rule}': {reason}", GATE, rule, source,
                    pattern=pattern, line=line, segment=segment)


def segment_views(analysis: CommandAnalysis) -> list[list[str]]:
    """The texts permission rules see, per segment: one per command position.

    :param analysis: the analysed command.
    :returns: for each segment with a command, the normalised words joined from each wrapper
        and from the final command (``["env X=1 git push", "git push"]``).
    """
    views: list[list[str]] = []
    for segment in analysis.segments:
        words = [w.value for w in segment.words]
        texts = [" ".join(words[p:]) for p in segment.command_positions]
        if texts:
            views.append(texts)
    return views


# ----------------------------------------------------------------------------- one per rule


def rule_command(analysis: CommandAnalysis) -> Decision | None:
    """Rule ``command``: text that no shell could run as written (NUL, lone surrogate)."""
    if analysis.refusal is None:
        return None
    return _vote(Verdict.DENY, "command", analysis.refusal)


def rule_floor(analysis: CommandAnalysis, policy: ShellPolicy) -> Decision | None:
    """Rules ``blocklist``, ``git-worktrees`` and ``rm-protected-root`` (the analyzer's floor)."""
    match = find_blocked(analysis, policy.blocklist, protected_roots=policy.protected_roots,
                         cwd=policy.cwd)
    if match is None:
        return None
    source = policy.block_sources.get(match.pattern, BUILT_IN)
    return _vote(Verdict.DENY, match.rule, match.message, source, pattern=match.pattern,
                 segment=match.segment.text)


def rule_sandbox_cwd(policy: ShellPolicy) -> Decision | None:
    """Rule ``sandbox-cwd``: there must be a sandbox directory to run in."""
    if policy.cwd is not None:
        return None
    roots = ", ".join(str(r) for r in policy.sandbox.roots)
    chosen = str(policy.sandbox.cwd)
    if os.path.isdir(chosen) and not policy.sandbox.contains(chosen):
        return _vote(Verdict.DENY, "sandbox-cwd", f"the working directory {chosen} set with "
                     f"set_working_directory is outside the shell's roots ({roots})",
                     policy.source)
    return _vote(Verdict.DENY, "sandbox-cwd",
                 f"no sandbox root is an existing directory ({roots})", policy.source)


def _lexical(raw: str, policy: ShellPolicy) -> str:
    expanded = os.path.expanduser(raw) if raw.startswith("~") else raw
    return str(lexical_normalize(policy.sandbox.cwd / expanded))


def _inside_lexically(raw: str, policy: ShellPolicy) -> bool:
    path = _lexical(raw, policy)
    return any(path == str(root) or path.startswith(str(root).rstrip("/") + "/")
               for root in policy.sandbox.roots)


def _outside_reads(analysis: CommandAnalysis, policy: ShellPolicy) -> list[str]:
    """Path words outside the roots that only read-only commands read (secrets excluded).

    None when the command makes links: a path may then go through one (the ``link-*`` rules).
    """
    scan = scan_links(analysis)
    if scan.creations or scan.unclear:
        return []
    readers = read_only_paths(analysis)
    programs = program_paths(analysis)
    looks = metadata_paths(analysis)
    scripts = script_paths(analysis)
    found = []
    for raw in path_arguments(analysis):
        if raw in programs and _inside_lexically(raw, policy):
            continue  # a program in the tree: judged as a command, not as a path
        if raw in looks and _one_file(raw, policy):  # a file's metadata reveals no secret
            found.append(raw)
            continue
        if raw in scripts:  # run, not read: an installed program's script or nothing
            if _script_outside(raw, policy):
                found.append(raw)
            continue
        if raw not in readers or _lexical(raw, policy) in policy.exempt:
            continue
        if not _secret(raw, policy):
            found.append(raw)
    return found


def _one_file(raw: str, policy: ShellPolicy) -> bool:
    """Tell whether a path names one file, not a directory or a glob.

    Listing ``~/.ssh`` or ``~/.ssh/id_*`` names the keys to take (a hunt); ``stat -c %a
    /etc/shadow`` does not.
    """
    lexical = _lexical(raw, policy)
    return not (any(c in raw for c in "*?[") or os.path.isdir(lexical)
                or lexical.rstrip("/").endswith(_SECRET_DIRECTORIES) or raw.endswith("/"))


_SECRET_DIRECTORIES = ("/.ssh", "/.aws", "/.gnupg", "/.kube", "/.docker", "/.azure",
                       "/.password-store", "/gcloud", "/keyrings", "/.vault-token",
                       # wallets' and browser wallets' folders (their listing names the keys)
                       "/Local Extension Settings", "/.bitcoin/wallets", "/.electrum/wallets",
                       "/.ethereum/keystore", "/Exodus", "/exodus.wallet", "/Coinomi",
                       "/Ledger Live")


def _secret(raw: str, policy: ShellPolicy) -> bool:
    lexical = _lexical(raw, policy)
    return (is_secret_path(lexical) or is_secret_path(os.path.realpath(lexical))
            or _glob_reaches_secret(lexical) or glob_names_secret(lexical))


def _script_outside(raw: str, policy: ShellPolicy) -> bool:
    """Tell whether a script outside the roots is an installed program's (``~/.nvm/nvm.sh``).

    It runs like the program it belongs to; a secret, a temporary file or a file of the
    system's own tree (:data:`SCRIPT_DENIED_PREFIXES`) is not one.
    """
    lexical = _lexical(raw, policy)
    real = os.path.realpath(lexical)
    return not (_secret(raw, policy) or lexical.startswith(SCRIPT_DENIED_PREFIXES)
                or real.startswith(SCRIPT_DENIED_PREFIXES))


_GLOB_LIMIT = 256
"""How many matches of one outside glob are looked at (``cat /e??/sha*``)."""


def _glob_reaches_secret(path: str) -> bool:
    """Whether a glob outside the roots matches a secret here (``/e??/sha*``: ``/etc/shadow``).

    The shell expands it on this machine when the command runs, so its matches now are what
    the command would read; a secret among the first :data:`_GLOB_LIMIT` is not exempt.
    """
    if not any(c in path for c in "*?["):
        return False
    return any(is_secret_path(m) or is_secret_path(os.path.realpath(m))
               for m in itertools.islice(glob.iglob(path), _GLOB_LIMIT))


def _outside_paths(analysis: CommandAnalysis, policy: ShellPolicy
                   ) -> Iterator[tuple[str, ToolError]]:
    """Each static path argument outside the roots that no read, program or container exempts.

    :returns: the word and why the sandbox refuses it, in order.
    """
    paths = path_arguments(analysis)
    if not paths:  # most commands: nothing to resolve, no exemption to work out
        return
    exempt_reads = set(_outside_reads(analysis, policy)) | container_paths(analysis)
    exempt_reads |= {raw for raw in printed_paths(analysis) if not _secret(raw, policy)}
    programs = program_paths(analysis)
    link_targets = symlink_target_values(analysis)
    inert = inert_directories(analysis)
    moved = moved_relative_paths(analysis, policy.cwd) if policy.cwd else {}
    for raw in paths:
        if raw in inert:  # cd … && make && cd ..: the last change of directory does nothing
            continue
        if raw in moved and _resolves_inside(moved[raw], policy):
            continue  # cd tests && pip install -e ..: the project itself
        if raw in link_targets or _lexical(raw, policy) in policy.exempt or raw in exempt_reads:
            continue
        if raw in programs and _inside_lexically(raw, policy):
            continue
        try:  # bash expands ~user (~root/.ssh): the sandbox reads only ~ and ~/ that way
            policy.sandbox.resolve_str(os.path.expanduser(raw) if raw.startswith("~") else raw,
                                       op="write")
        except ToolError as exc:
            yield raw, exc


def rule_sandbox_path(analysis: CommandAnalysis, policy: ShellPolicy) -> Decision | None:
    """Rule ``sandbox-path``: every static path argument stays inside the roots.

    Exempt (see :mod:`tooldeck.shell_analysis.outside_reads`): a non-secret path that only
    read-only commands read (rule ``outside-read`` decides it), a non-secret name ``echo`` or
    ``printf`` only prints (``echo $HOME``), and a program word in the
    tree (``.venv/bin/python``), checked where the link is rather than where it points, and
    a container-side path (``docker run -w /wrk``, the target of ``-v host:/wrk``).
    Symbolic link targets are left to the ``link-*`` rules: they are relative to the link.
    Scratch files and directories changed to (:func:`rule_outside_work`) ask instead.
    """
    for raw, exc in _outside_paths(analysis, policy):
        if _outside_work(raw, analysis, policy) is None:
            return _vote(Verdict.DENY, "sandbox-path", f"path {raw!r}: {exc.message}",
                         policy.source)
    return None


def _outside_work(raw: str, analysis: CommandAnalysis, policy: ShellPolicy) -> str | None:
    """The ask rule an outside path falls under instead of a deny (:mod:`.outside_work`)."""
    roots = [str(root) for root in policy.sandbox.roots]
    lexical = _lexical(raw, policy)
    if raw in directory_changes(analysis):
        return "outside-cd" if elsewhere(lexical, roots, analysis) else None
    if raw in run_words(analysis):
        # a script an interpreter runs from a scratch directory asks; a program run by its
        # own name, a file handed to a builder or sourced stays denied (a staged payload)
        runs_script = raw in interpreted_scripts(analysis) and scratch(raw, lexical, roots)
        known = known_body(raw, analysis) or judged_scratch_script(raw, analysis)
        return "scratch-run" if runs_script and known else None
    into = raw in copy_destinations(analysis)
    if scratch(raw, lexical, roots, into=into):
        return "scratch-write"
    unknown = raw in unknown_effect_paths(analysis) and not _secret(raw, policy)
    return "outside-unknown" if unknown else None


def rule_outside_work(analysis: CommandAnalysis, policy: ShellPolicy) -> Decision | None:
    """Rules ``scratch-write``, ``scratch-run``, ``outside-cd`` and ``outside-unknown``: ask.

    A scratch file written below ``/tmp`` or a tool's cache, a script there an interpreter
    runs, and commands run after ``cd``
    into another checkout (:mod:`tooldeck.shell_analysis.outside_work`): the sandbox-path
    rule leaves them to this one.
    """
    for raw, _ in _outside_paths(analysis, policy):
        rule = _outside_work(raw, analysis, policy)
        if rule == "scratch-run" and judged_scratch_script(raw, analysis):
            continue  # its whole text was judged as code, as python3 -c would be
        if rule == "outside-cd":
            return _vote(Verdict.ASK, rule, f"the commands after 'cd {raw}' run outside the "
                         "project")
        if rule == "scratch-write":
            return _vote(Verdict.ASK, rule, f"{raw!r} is written outside the project")
        if rule == "scratch-run":
            return _vote(Verdict.ASK, rule, f"the script {raw!r} outside the project is run")
        if rule == "outside-unknown":
            return _vote(Verdict.ASK, rule, f"{raw!r} is outside the project, given to a "
                         "program not known to only read it")
    return None


def rule_outside_read(analysis: CommandAnalysis, policy: ShellPolicy) -> Decision | None:
    """Rule ``outside-read``: with ``outside_reads = "ask"``, reading outside the roots asks."""
    if policy.settings.outside_reads != "ask":
        return None
    found = [raw for raw in _outside_reads(analysis, policy)
             if not _resolves_inside(raw, policy)]
    if not found:
        return None
    return _vote(Verdict.ASK, "outside-read", f"{found[0]!r} is read outside the project",
                 policy.source)


def _resolves_inside(raw: str, policy: ShellPolicy) -> bool:
    try:
        policy.sandbox.resolve_str(raw, op="write")
    except ToolError:
        return False
    return True




def rule_links(findings: Sequence[LinkFinding], verdict: Verdict,
               policy: ShellPolicy) -> Decision | None:
    """Rules ``link-*``: the first link finding of ``verdict`` (deny or ask) votes it."""
    wanted = "deny" if verdict is Verdict.DENY else "ask"
    for finding in findings:
        if finding.decision == wanted:
            source = policy.source if verdict is Verdict.DENY else None
            return _vote(verdict, finding.rule, finding.detail, source)
    return None


def rule_sandbox_cd(analysis: CommandAnalysis) -> Decision | None:
    """Rule ``sandbox-cd``: a directory change must name one static directory."""
    final = final_directory_change(analysis)
    for segment in analysis.segments:
        if segment.command not in DIRECTORY_CHANGERS or segment is final:
            continue
        args = segment.words[segment.command_positions[-1] + 1 :]
        targets = [w for w in args if w.value != "--"]
        if len(targets) != 1 or not targets[0].stable or targets[0].value == "-":
            return _vote(Verdict.ASK, "sandbox-cd",
                         f"{segment.text!r} does not name one static directory")
    return None


def rule_sandbox_dynamic(analysis: CommandAnalysis) -> Decision | None:
    """Rule ``sandbox-dynamic``: a path-like argument known only at run time asks.

    So does any operand a file-changing command writes that is only known at run time
    (``mkdir -p "$d"``): where it lands cannot be checked against the roots.
    """
    targets = dynamic_targets(analysis)
    if targets:
        return _vote(Verdict.ASK, "sandbox-dynamic",
                     f"{targets[0].source!r} is written and only known at run time")
    if analysis.dynamic_redirects:  # echo x > "$out": written wherever $out points
        return _vote(Verdict.ASK, "sandbox-dynamic", f"the redirection target "
                     f"{analysis.dynamic_redirects[0]!r} is only known at run time")
    built = [s for s in analysis.dynamic_inputs if is_path_like(s)]
    if built:  # tr '\0' '\n' < /proc/$PPID/environ: read wherever it points
        return _vote(Verdict.ASK, "sandbox-dynamic", f"the input {built[0]!r} is a path "
                     "built at run time")
    printed_only = all(s.stdin != "pipe" for s in analysis.segments)
    for segment in analysis.segments:
        if segment.command_positions and toolchain_reads(segment):
            continue  # ls $(go env GOROOT)/src: a toolchain's directory, read
        if printed_only and segment.command in PRINTERS and segment.origin != "substitution":
            continue  # echo "$PWD/staged": a name printed, no file opened (nothing reads it)
        skipped = set(segment.command_positions) | name_words(segment)
        for index, word in enumerate(segment.words):
            if index not in skipped and word.dynamic and is_path_like(word.value):
                return _vote(Verdict.ASK, "sandbox-dynamic",
                             f"argument {word.source!r} is a path built at run time")
    return None


def _overlay_hits(texts: Iterable[str], policy: ShellPolicy, verdict: Verdict) -> Decision | None:
    for text in texts:
        for rule, source in policy.overlay_rules:
            if rule.verdict is verdict and rule.matches(text):
                return _vote(verdict, "overlay-rule",
                             f"overlay rule {rule.pattern!r} ({rule.verdict.value}) matches "
                             f"{text!r}", source, pattern=rule.pattern, line=rule.line,
                             segment=text)
    return None


def _all_texts(command: str, views: Sequence[Sequence[str]]) -> list[str]:
    return [command, *(text for texts in views for text in texts)]


def rule_overlay(command: str, views: Sequence[Sequence[str]], policy: ShellPolicy,
                 verdict: Verdict) -> Decision | None:
    """Rule ``overlay-rule``: any overlay rule of ``verdict`` matching any text votes it."""
    if not policy.overlay_rules:
        return None
    return _overlay_hits(_all_texts(command, views), policy, verdict)


def _segment_verdict(texts: Sequence[str],
                     policy: ShellPolicy) -> tuple[Verdict, str, CompiledRule | None]:
    rules = policy.base_rules or ()
    worst: tuple[Verdict, str, CompiledRule | None] = (Verdict.ALLOW, "", None)
    for text in texts:
        rule = first_match(rules, text)
        verdict = Verdict.ASK if rule is None else rule.verdict
        if _RANK[verdict] > _RANK[worst[0]]:
            worst = (verdict, text, rule)
    return worst


def rule_segments(views: Sequence[Sequence[str]], policy: ShellPolicy,
                  verdict: Verdict) -> Decision | None:
    """Rule ``segment-rule``: ``[[tools.permissions.bash]]`` on every segment.

    A ``deny`` on any segment denies the chain; the chain is allowed only when every command
    position of every segment is allowed; otherwise it asks.
    """
    if policy.base_rules is None:
        return None
    for texts in views:
        found, text, rule = _segment_verdict(texts, policy)
        if found is verdict:
            by = "no rule" if rule is None else repr(rule.pattern)
            return _vote(verdict, "segment-rule",
                         f"segment {text!r} is decided by {by} → {found.value}",
                         policy.source if rule is not None else None,
                         pattern=None if rule is None else rule.pattern,
                         line=None if rule is None else rule.line, segment=text)
    return None


def rule_opaque(analysis: CommandAnalysis) -> Decision | None:
    """Rule ``opaque``: what the analyzer cannot see is asked about, never allowed."""
    if not analysis.opaque:
        return None
    return _vote(Verdict.ASK, "opaque", "; ".join(analysis.opaque_reasons))


def rule_rollback_coverage(analysis: CommandAnalysis, policy: ShellPolicy) -> Decision | None:
    """Rule ``rollback-coverage``: a transactional run whose writes a snapshot cannot cover."""
    settings = policy.settings
    if not (settings.transactional and settings.auto_rollback):
        return None
    reasons = uncovered_writes(analysis)
    if not reasons:
        return None
    return _vote(Verdict.ASK, "rollback-coverage",
                 f"the rollback could not undo this: {'; '.join(reasons)}")


def rule_confirm(command: str, analysis: CommandAnalysis, policy: ShellPolicy) -> Decision | None:
    """Rule ``confirm``: a confirm pattern asks for a human yes.

    Matched on the code view: data arguments and removals of regenerable artefacts inside the
    roots (``rm -rf __pycache__``) left out; an opaque command as written.
    """
    if analysis.opaque:  # what cannot be seen is matched as written (fail closed)
        pattern = find_confirm(command, analysis, policy.confirm_patterns)
    else:  # data is not code, nor is a removal of regenerable artefacts in the project
        view = analysis
        if any(s.command in REMOVERS for s in analysis.segments):
            roots = [str(root) for root in policy.sandbox.roots]
            view = without_artefact_removals(analysis, roots, policy.cwd)
        text, code = code_view(view)
        pattern = find_confirm(text, code, policy.code_confirm_patterns)
    if pattern is None:
        return None
    source = policy.confirm_sources.get(pattern.lower().strip(), policy.source)
    return _vote(Verdict.ASK, "confirm", f"confirm pattern {pattern!r} matched", source,
                 pattern=pattern)


def class_finding(analysis: CommandAnalysis, policy: ShellPolicy) -> Finding | None:
    """The command-class rules' finding (:mod:`tooldeck.shell_analysis.judgement`)."""
    context = ClassContext(policy.blocklist, policy.protected_roots, policy.cwd)
    return judge_classes(analysis, context)


def rule_class(finding: Finding | None, verdict: Verdict, *, routine: bool) -> Decision | None:
    """Rule ``class``: a command class (escalation, launcher, embedded code…) votes.

    :param finding: the class finding, if any.
    :param verdict: the verdict this stage handles.
    :param routine: for ``ask``, whether this stage handles routine-destructive findings
        (skipped under full autonomy) or the others (never skipped).
    """
    if finding is None or finding.verdict != verdict.value:
        return None
    if verdict is Verdict.ASK and (finding.rule == "routine-destructive") != routine:
        return None
    return _vote(verdict, finding.rule, finding.detail)


# ----------------------------------------------------------------------------- the judge


def judge(command: str, policy: ShellPolicy) -> tuple[Decision, CommandAnalysis]:
    """Apply the rule table to one command.

    :param command: the command text.
    :param policy: the effective shell policy.
    :returns: the first rule's vote (or ``clean``) and the analysis it was made on.
    """
    analysis = shell_analysis(command, extra_wrappers=policy.settings.extra_wrappers)
    return judge_analysis(command, analysis, policy, families=not is_harmless(analysis)), analysis


def judge_analysis(command: str, analysis: CommandAnalysis, policy: ShellPolicy, *,
                   families: bool = True) -> Decision:
    """Apply the rule table to an analysed command.

    :param command: the command text.
    :param analysis: its analysis.
    :param policy: the effective shell policy.
    :param families: whether to run the rule families that judge what the command does
        (classes, links, sandbox paths, outside work, run-time paths, rollback coverage);
        :func:`judge` skips them for a command none of them can fire on
        (:func:`tooldeck.shell_analysis.harmless.is_harmless`). The operator's rules
        (blocklist, overlays, permission rules, confirm patterns) always run.
    :returns: the first rule's vote, or ``clean``.
    """
    # only the operator's overlay and segment rules read the views: none, nothing to build
    views = (segment_views(analysis)
             if policy.overlay_rules or policy.base_rules is not None else [])
    if families:
        links = link_findings(analysis, policy.link_sandbox, policy.exempt)
        found = class_finding(analysis, policy)
        # the table's order; ``or`` stops at the first vote (a Decision is always true)
        decision = (
            rule_command(analysis)
            or rule_floor(analysis, policy)
            or rule_class(found, Verdict.DENY, routine=False)
            or rule_sandbox_cwd(policy)
            or rule_sandbox_path(analysis, policy)
            or rule_links(links, Verdict.DENY, policy)
            or rule_overlay(command, views, policy, Verdict.DENY)
            or rule_segments(views, policy, Verdict.DENY)
            or rule_opaque(analysis)
            or rule_links(links, Verdict.ASK, policy)
            or rule_rollback_coverage(analysis, policy)
            or rule_class(found, Verdict.ASK, routine=False)
            or rule_outside_read(analysis, policy)
            or rule_outside_work(analysis, policy)
            or rule_sandbox_cd(analysis)
            or rule_sandbox_dynamic(analysis)
        )
    else:  # the same table without the families (a harmless command is never opaque)
        found = None
        decision = (
            rule_floor(analysis, policy)
            or rule_sandbox_cwd(policy)
            or rule_overlay(command, views, policy, Verdict.DENY)
            or rule_segments(views, policy, Verdict.DENY)
        )
    if decision is None and policy.autonomy != "full":
        decision = (
            rule_confirm(command, analysis, policy)
            or rule_class(found, Verdict.ASK, routine=True)
            or rule_overlay(command, views, policy, Verdict.ASK)
            or rule_segments(views, policy, Verdict.ASK)
        )
    if decision is not None:
        return _with_suggestion(decision, analysis)
    return _CLEAN


_CLEAN = _vote(Verdict.ALLOW, "clean", "no shell rule fired")


def _with_suggestion(decision: Decision, analysis: CommandAnalysis) -> Decision:
    if decision.verdict is not Verdict.DENY:
        return decision
    suggestion = suggest(analysis)
    if suggestion is None:
        return decision
    return attrs.evolve(decision, reason=f"{decision.reason} — suggestion: {suggestion}")


class ShellGate:
    """The shell gate of one runtime; votes on ``bash`` calls and abstains on other tools.

    :param policy: the runtime's effective shell policy.
    """

    name = "policy"

    def __init__(self, policy: ShellPolicy) -> None:
        self.policy = policy

    @hookimpl
    def tooldeck_check_call(self, call: ToolCall, tool: ToolDef,
                            runtime: Runtime) -> Decision | None:
        """Judge a ``bash`` call's command; ``None`` (abstain) for every other tool.

        The command is judged where it will run: the caller's working directory when it set
        one (:mod:`tooldeck.workdir`).
        """
        if tool.id != "bash":
            return None
        command = call.params.get("command")
        if not isinstance(command, str):
            return _vote(Verdict.DENY, "command", "the command is not a string")
        policy = self.policy.at(working_directory(runtime, call.caller_id))
        return judge(command, policy)[0]
