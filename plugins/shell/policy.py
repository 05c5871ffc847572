"""The effective shell policy of one runtime: ``[tools.shell]`` merged with its overlays.

Built once per runtime (start-up and every reload) and never changed afterwards, so a running
command keeps the policy it was admitted under. Every list entry remembers the file it came
from, so a decision can name its source.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import attrs
import pydantic

from tooldeck.config import Settings
from tooldeck.errors import ConfigError
from tooldeck.models import BUILTIN
from tooldeck.paths import Glob, PathSandbox, compile_glob, is_within, lexical_normalize
from tooldeck.permission_rules import CompiledRule, PermissionRule, compile_rules
from tooldeck.plugins.shell.overlays import Overlay, load_overlays
from tooldeck.plugins.shell.settings import ShellSettings
from tooldeck.shell_analysis import DEFAULT_BLOCKED, DEFAULT_CONFIRM_PATTERNS, effective_blocklist
from tooldeck.shell_analysis.data_args import SHELL_SYNTAX_PATTERNS

__all__ = ["BUILT_IN", "JUDGED_BY_EGRESS", "ShellPolicy", "build_policy", "without_egress"]

BUILT_IN = BUILTIN
"""The source named for the built-in blocklist and the default confirm patterns."""

JUDGED_BY_EGRESS: tuple[str, ...] = ("curl", "wget")
"""Built-in blocklist entries lifted by ``network_commands = "egress"``: the egress gate
judges their destinations, and the command classes what they send and run."""


@attrs.frozen
class ShellPolicy:
    """Everything the shell gate and executor decide with, for one runtime.

    :param settings: the base ``[tools.shell]`` settings.
    :param blocklist: the effective blocklist (built-ins, operator blocks, overlays).
    :param block_sources: pattern → the file that blocked it (or ``built-in``).
    :param confirm_patterns: base and overlay confirm patterns, in order.
    :param confirm_sources: pattern → the file it came from.
    :param base_rules: compiled ``[[tools.permissions.bash]]`` rules, ``None`` when there are
        none (the permissions gate then uses the legacy rules, and so do we: blocklist and
        confirm patterns).
    :param overlay_rules: ``(rule, file)`` for every overlay ``deny``/``ask`` rule.
    :param sandbox: the path sandbox of ``allowed_paths``.
    :param link_sandbox: the same roots and working directory with the file tools' read rules
        (``[tools.file] deny_read``/``allow_read``): what a link the command creates may name.
    :param cwd: where commands run: the process directory when it lies in a root, else the
        first root that is a directory; ``None`` when there is none (every call is denied).
    :param protected_roots: the sandbox roots as strings (for the ``rm`` rule).
    :param exempt: canonical paths outside the roots that path arguments may name.
    :param transaction_scope: the compiled ``transaction_scope`` globs.
    :param policy_dir: the overlay directory, when one is configured.
    :param overlays: the overlays merged in.
    :param autonomy: ``[agent] autonomy``.
    :param source: the main configuration file, as a decision names it (``default`` for the
        embedded default).
    """

    settings: ShellSettings
    blocklist: tuple[str, ...]
    block_sources: Mapping[str, str]
    confirm_patterns: tuple[str, ...]
    confirm_sources: Mapping[str, str]
    base_rules: tuple[CompiledRule, ...] | None
    overlay_rules: tuple[tuple[CompiledRule, str], ...]
    sandbox: PathSandbox
    link_sandbox: PathSandbox
    cwd: str | None
    protected_roots: tuple[str, ...]
    exempt: frozenset[str]
    transaction_scope: tuple[Glob, ...]
    policy_dir: Path | None
    overlays: tuple[Overlay, ...]
    autonomy: str
    source: str
    code_confirm_patterns: tuple[str, ...] = attrs.field(init=False, default=attrs.Factory(
        lambda self: tuple(p for p in self.confirm_patterns
                           if p.strip() not in SHELL_SYNTAX_PATTERNS), takes_self=True))
    """The confirm patterns matched against a command's code view: those that are not shell
    syntax (what ``$(`` or a backtick runs is a segment of its own)."""

    def at(self, directory: str | None) -> ShellPolicy:
        """The policy for commands run in a caller's chosen working directory.

        :param directory: the directory ``set_working_directory`` recorded, or ``None``.
        :returns: this policy when ``directory`` is ``None``; else a copy whose sandboxes join
            relative paths to it and whose ``cwd`` is it — or ``None`` (every call denied by
            rule ``sandbox-cwd``) when it is not a directory inside the shell's roots.
        """
        if directory is None:
            return self
        inside = self.sandbox.contains(directory) and os.path.isdir(directory)
        return attrs.evolve(self, sandbox=self.sandbox.with_cwd(directory),
                            link_sandbox=self.link_sandbox.with_cwd(directory),
                            cwd=directory if inside else None)


def _policy_dir(settings: ShellSettings, config_path: Path | None) -> Path | None:
    if settings.policy_dir is None:
        return None
    path = Path(settings.policy_dir).expanduser()
    if not path.is_absolute():
        path = (config_path.parent if config_path is not None else Path.cwd()) / path
    return lexical_normalize(path)


def _base_rules(raw: object, source: str, text: str) -> tuple[CompiledRule, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise ConfigError(f"{source}: tools.permissions.bash: expected an array of tables",
                          path=source, key="tools.permissions.bash")
    try:
        rules = [PermissionRule.model_validate(item) for item in raw]
    except pydantic.ValidationError as exc:
        raise ConfigError(f"{source}: tools.permissions.bash: {exc}", path=source,
                          key="tools.permissions.bash") from None
    return tuple(compile_rules("bash", rules, source, text=text))


def _scope(patterns: tuple[str, ...], source: str) -> tuple[Glob, ...]:
    try:
        return tuple(compile_glob(pattern) for pattern in patterns)
    except ValueError as exc:
        raise ConfigError(f"{source}: tools.shell.transaction_scope: {exc}", path=source,
                          key="tools.shell.transaction_scope") from None


def _file_globs(settings: Settings, key: str, source: str) -> tuple[str, ...]:
    """A ``[tools.file]`` read-rule list (the file plugin owns and documents it)."""
    value = settings.table("tools.file").get(key, ())
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: tools.file.{key}: expected an array of strings",
                          path=source, key=f"tools.file.{key}")
    return tuple(value)


def _working_dir(sandbox: PathSandbox) -> str | None:
    here = os.getcwd()
    if any(is_within(here, root) for root in sandbox.roots):
        return here
    return next((str(root) for root in sandbox.roots if root.is_dir()), None)


def _sources(base: tuple[str, ...], base_source: str, overlays: tuple[Overlay, ...],
             attr: str, defaults: tuple[str, ...]) -> dict[str, str]:
    sources = {p.lower().strip(): (BUILT_IN if p in defaults else base_source) for p in base}
    for overlay in overlays:
        for pattern in getattr(overlay, attr):
            sources.setdefault(pattern.lower().strip(), str(overlay.path))
    return sources


def without_egress(policy: ShellPolicy) -> ShellPolicy:
    """The policy for a runtime whose egress gate does not run: curl and wget blocked again.

    ``network_commands = "egress"`` lifts them from the blocklist because the egress gate
    judges where they go; without that gate nothing would (fail closed).

    :param policy: the policy built from the settings.
    :returns: the same policy with :data:`JUDGED_BY_EGRESS` back on its blocklist.
    """
    missing = [c for c in JUDGED_BY_EGRESS if c not in policy.blocklist]
    if not missing:
        return policy
    return attrs.evolve(policy, blocklist=tuple(sorted({*policy.blocklist, *missing})))


def build_policy(settings: Settings, shell: ShellSettings) -> ShellPolicy:
    """Merge ``[tools.shell]``, its overlays and ``[tools.permissions.bash]`` into a policy.

    :param settings: the runtime's validated configuration.
    :param shell: its ``[tools.shell]`` section.
    :returns: the policy.
    :raises ConfigError: an overlay that would loosen the policy, or a rule that fails.
    """
    doc = settings.document
    source = doc.label
    policy_dir = _policy_dir(shell, doc.path)
    overlays = () if policy_dir is None else load_overlays(
        policy_dir, lambda path: settings.files.read_text(path, "overlay"))
    blocked = (*shell.blocked_commands, *(c for o in overlays for c in o.blocked_commands))
    allow_network = shell.allow_network and not any(o.network_off for o in overlays)
    allowed = shell.allowed_commands
    if shell.network_commands == "egress":
        allowed = (*allowed, *JUDGED_BY_EGRESS)
    blocklist = effective_blocklist(blocked, allowed, allow_network=allow_network)
    block_sources = _sources(shell.blocked_commands,
                             settings.origin("tools.shell.blocked_commands"), overlays,
                             "blocked_commands", ())
    for pattern in DEFAULT_BLOCKED:
        block_sources.setdefault(pattern, BUILT_IN)
    confirm = tuple(dict.fromkeys(
        (*shell.confirm_patterns, *(p for o in overlays for p in o.confirm_patterns))))
    probe = PathSandbox(shell.allowed_paths)
    cwd = _working_dir(probe)
    sandbox = PathSandbox(shell.allowed_paths, cwd=cwd) if cwd is not None else probe
    exempt = frozenset(str(lexical_normalize(p)) for p in shell.sandbox_exempt_paths)
    link_sandbox = PathSandbox(shell.allowed_paths, cwd=cwd,
                               deny_read=_file_globs(settings, "deny_read", source),
                               allow_read=_file_globs(settings, "allow_read", source))
    return ShellPolicy(
        settings=shell,
        blocklist=blocklist,
        block_sources=block_sources,
        confirm_patterns=confirm,
        confirm_sources=_sources(shell.confirm_patterns,
                                 settings.origin("tools.shell.confirm_patterns"), overlays,
                                 "confirm_patterns", DEFAULT_CONFIRM_PATTERNS),
        base_rules=_base_rules(settings.table("tools.permissions").get("bash"), source, doc.text),
        overlay_rules=tuple((r, str(o.path)) for o in overlays for r in o.rules),
        sandbox=sandbox,
        link_sandbox=link_sandbox,
        cwd=cwd,
        protected_roots=tuple(str(root) for root in sandbox.roots),
        exempt=exempt,
        transaction_scope=_scope(shell.transaction_scope, source),
        policy_dir=policy_dir,
        overlays=overlays,
        autonomy=settings.core.agent.autonomy,
        source=doc.provenance,
    )
