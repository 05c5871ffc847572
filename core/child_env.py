"""The environment a tool's child process gets: the agent's, without its credentials.

The shell plugin owns the scrubbing rules (``[tools.shell]`` ``env_blocklist``,
``env_secret_markers``, ``env_allowlist``) and publishes its scrubber under
:data:`CHILD_ENVIRONMENT` when it configures a runtime; other plugins that start programs
(``diagnostics``) call :func:`child_environment` so a program never sees more than ``bash``
would. Without the shell plugin the answer fails closed: only :data:`MINIMAL_NAMES` pass.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from tooldeck.state import StashKey

if TYPE_CHECKING:
    from tooldeck.runtime import Runtime

__all__ = ["CHILD_ENVIRONMENT", "MINIMAL_NAMES", "Scrubber", "child_environment"]

Scrubber = Callable[[Mapping[str, str]], dict[str, str]]

CHILD_ENVIRONMENT = StashKey[Scrubber]("core.child_environment")
"""Where the shell plugin stores its scrubber (per runtime)."""

MINIMAL_NAMES = ("PATH", "HOME", "USER", "LANG", "LC_ALL", "TMPDIR", "TERM", "CARGO_HOME",
                 "RUSTUP_HOME", "VIRTUAL_ENV", "NODE_PATH")
"""What passes when no scrubber was published: enough to find and run a program."""


def child_environment(runtime: Runtime) -> dict[str, str]:
    """The environment for a child process started on ``runtime``.

    :param runtime: the runtime the call runs on.
    :returns: ``os.environ`` scrubbed by the shell's rules, or only :data:`MINIMAL_NAMES`
        when no scrubber was published.
    """
    try:
        scrub = runtime.stash_get(CHILD_ENVIRONMENT)
    except KeyError:
        return {name: os.environ[name] for name in MINIMAL_NAMES if name in os.environ}
    return scrub(os.environ)
