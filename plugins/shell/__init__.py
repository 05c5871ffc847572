"""Built-in plugin ``shell``: ``bash``, ``bash_status`` (and checkpoint tools) behind the gate.

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.shell]``, validated
``overlays``       ``policy_dir/*.toml`` overlays, tighten-only
``policy``         the effective policy of one runtime (settings + overlays + bash rules)
``gate``           the rule table every ``bash`` call is judged by (registered as a gate)
``suggestions``    safe-fix suggestions attached to denials
``process``        ``bash -c`` in its own session; capture; killing the whole tree
``env``            credential scrubbing of the child environment
``envelope``       the output envelope, the summary, exit classification
``transaction``    snapshot and rollback of write targets
``tree_state``     exact capture and restore of one entry, never through a symlink
``nofollow``       reaching a path below a sandbox root with ``O_NOFOLLOW`` and ``dir_fd``
rollback_coverage  which writes a transaction's snapshot cannot cover (gate rule
                   ``rollback-coverage``)
``checkpoints``    undo and redo of write commands (``checkpoints_enabled``)
``background``     background runs and their status
``executor``       the executor tying the above together
``tool``           the tool definitions
``fenced``         legacy ```` ```bash ```` blocks in model text
``cli``            ``tooldeck check bash`` and ``tooldeck run``
=================  ===========================================================================

Per runtime (start-up and every reload): settings are validated, the policy is built (an
overlay that would loosen it rejects the runtime, so a reload keeps the previous policy),
the gate and the executor are registered, and ``tooldeck_configure`` records ``policy_dir``
and each overlay with the core so the watcher reloads on changes and a deleted overlay
refuses the reload. A call captures its runtime, so a running command keeps the policy it
started under. Background runs and checkpoints are the deck's (``runtime.session``): a
reload keeps them. The plugin must be listed in the entry-point group ``tooldeck.gates``.

The hooks import their modules when called, so that importing this package (as the
``tooldeck check bash`` and ``tooldeck run`` commands do) stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck import hookimpl

if TYPE_CHECKING:
    from tooldeck.config import Settings
    from tooldeck.plugins.shell.gate import ShellGate
    from tooldeck.runtime import Runtime


@hookimpl
def tooldeck_register_settings(register: Any) -> None:
    """Own ``[tools.shell]``."""
    from tooldeck.plugins.shell.settings import SECTION, ShellSettings

    register(SECTION, ShellSettings)


@hookimpl
def tooldeck_register_tools(register: Any, settings: Settings) -> None:
    """Register ``bash`` and ``bash_status``; with ``checkpoints_enabled``, the undo tools.

    Without it the undo tools are declared unavailable: configuration may still name them
    (the default config has their permission rules), the catalog does not offer them.
    """
    from tooldeck.plugins.shell.settings import ShellSettings
    from tooldeck.plugins.shell.tool import (
        BASH,
        BASH_STATUS,
        SHELL_CHECKPOINTS,
        SHELL_REDO,
        SHELL_UNDO,
    )

    register(BASH)
    register(BASH_STATUS)
    checkpoints = settings.get(ShellSettings).checkpoints_enabled
    for tool in (SHELL_UNDO, SHELL_REDO, SHELL_CHECKPOINTS):
        register(tool, available=checkpoints)


@hookimpl
def tooldeck_register_executors(register: Any, settings: Settings) -> None:
    """Register this runtime's shell executor."""
    from tooldeck.plugins.shell.executor import ShellExecutor
    from tooldeck.plugins.shell.settings import ShellSettings

    register(ShellExecutor(settings.get(ShellSettings)))


@hookimpl
def tooldeck_register_gates(register: Any, settings: Settings) -> None:
    """Build the effective policy (overlays included) and register the shell gate.

    :raises ConfigError: an overlay would loosen the policy, or a rule fails its examples.
    """
    from tooldeck.plugins.shell.gate import ShellGate
    from tooldeck.plugins.shell.policy import build_policy
    from tooldeck.plugins.shell.settings import ShellSettings

    register(ShellGate(build_policy(settings, settings.get(ShellSettings))))


def _gate(runtime: Runtime) -> ShellGate:
    from tooldeck.errors import ConfigError
    from tooldeck.plugins.shell.gate import ShellGate

    gates = [p for p in runtime.pm.get_plugins() if isinstance(p, ShellGate)]
    if len(gates) != 1:
        raise ConfigError(f"shell: expected one shell gate in the runtime, found {len(gates)}")
    return gates[0]


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Stash the policy for the executor; have the core watch ``policy_dir`` and overlays.

    The scrubbing rules are published for other plugins' child processes
    (:mod:`tooldeck.child_env`).
    """
    from tooldeck.child_env import CHILD_ENVIRONMENT, Scrubber
    from tooldeck.plugins.shell.env import EnvironmentScrubber
    from tooldeck.plugins.shell.executor import POLICY
    from tooldeck.plugins.shell.policy import without_egress

    gate = _gate(runtime)
    if not any(name.split(".", 1)[0] == "egress" for name in runtime.hooks.gate_names):
        gate.policy = without_egress(gate.policy)  # nothing else would judge curl and wget
    policy = gate.policy
    runtime.stash_set(POLICY, policy)
    shell = policy.settings
    scrubber: Scrubber = EnvironmentScrubber(
        prefixes=shell.env_blocklist, markers=shell.env_secret_markers,
        allow=shell.env_allowlist)
    runtime.stash_set(CHILD_ENVIRONMENT, scrubber)
    if policy.policy_dir is not None:
        runtime.add_watch_path(policy.policy_dir)
    for overlay in policy.overlays:
        runtime.add_policy_file(overlay.path)
