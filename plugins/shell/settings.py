"""``[tools.shell]``: the shell tool's configuration, validated (unknown keys are errors)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from tooldeck.config import PathSetting, StrictModel
from tooldeck.shell_analysis import DEFAULT_CONFIRM_PATTERNS

__all__ = [
    "DEFAULT_ENV_BLOCKLIST",
    "DEFAULT_ENV_SECRET_MARKERS",
    "DEFAULT_SANDBOX_DEVICES",
    "SECTION",
    "ShellSettings",
]

SECTION = "tools.shell"

DEFAULT_ENV_BLOCKLIST: tuple[str, ...] = (
    "ZEPH_", "AWS_", "AZURE_", "GCP_", "GOOGLE_", "OPENAI_", "ANTHROPIC_", "HF_", "HUGGING",
    "TOOLDECK_",
)
"""Name prefixes scrubbed from the child environment (Zeph's nine plus ``TOOLDECK_``)."""

DEFAULT_ENV_SECRET_MARKERS: tuple[str, ...] = ("KEY", "SECRET", "TOKEN", "PASSWORD")
"""Substrings that mark a variable name as a credential, compared case-insensitively."""

DEFAULT_SANDBOX_DEVICES: tuple[str, ...] = (
    "/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty",
    "/dev/urandom", "/dev/random",
)
"""Paths outside the roots that commands may name anyway (``2>/dev/null`` is everywhere)."""


class ShellSettings(StrictModel):
    """``[tools.shell]``: policy, sandbox, execution, transactions, checkpoints, background runs."""

    timeout: float = Field(
        120, gt=0,
        description="Seconds before a command's tree is killed, unless the call asks for another "
        "timeout (at most max_timeout).",
    )
    max_timeout: float = Field(
        600, gt=0, description="The longest timeout a call may ask for (its timeout parameter)."
    )
    blocked_commands: tuple[str, ...] = Field(
        (), description="Added to the 12 built-in blocked commands (an explicit block wins)."
    )
    allowed_commands: tuple[str, ...] = Field(
        (), description="Remove built-in blocked commands (never operator-blocked ones)."
    )
    allow_network: bool = Field(
        True, description="false blocks every network command whatever allowed_commands says."
    )
    network_commands: Literal["egress", "blocklist"] = Field(
        "egress", description="egress: curl and wget are judged by the egress gate and the "
        "upload/download classes, not blocked by name (nc, ncat, netcat stay blocked); "
        "blocklist: curl and wget stay on the built-in blocklist."
    )
    confirm_patterns: tuple[str, ...] = Field(
        DEFAULT_CONFIRM_PATTERNS, description="Substrings that make a command ask first."
    )
    extra_wrappers: tuple[str, ...] = Field(
        (), description="Commands that run their arguments as a command (like env, nohup)."
    )
    allowed_paths: tuple[PathSetting, ...] = Field(
        (), description="Sandbox roots for path arguments and the working directory; "
        "empty means the current directory."
    )
    sandbox_exempt_paths: tuple[PathSetting, ...] = Field(
        DEFAULT_SANDBOX_DEVICES,
        description="Exact paths outside the roots that path arguments may name.",
    )
    outside_reads: Literal["allow", "ask"] = Field(
        "allow", description="Verdict for a read-only command (ls, cat, grep…) given a "
        "non-secret path outside the roots; secrets and writes outside stay denied."
    )
    policy_dir: PathSetting | None = Field(
        None, description="Directory of *.toml overlays that may only tighten this policy."
    )
    env_blocklist: tuple[str, ...] = Field(
        DEFAULT_ENV_BLOCKLIST, description="Variable-name prefixes removed from the child env."
    )
    env_secret_markers: tuple[str, ...] = Field(
        DEFAULT_ENV_SECRET_MARKERS,
        description="Variables whose name contains one of these (any case) are removed.",
    )
    env_allowlist: tuple[str, ...] = Field(
        (), description="Exact variable names kept even when a blocklist rule matches them."
    )
    max_output_bytes: int = Field(
        1024 * 1024, ge=1, description="Captured output cap (stdout + stderr); more is cut."
    )
    transactional: bool = Field(False, description="Snapshot write targets before running.")
    transaction_scope: tuple[str, ...] = Field(
        (), description="Globs of paths to snapshot; empty means every write target."
    )
    auto_rollback: bool = Field(False, description="Restore the snapshot on a failing exit.")
    auto_rollback_exit_codes: tuple[int, ...] = Field(
        (), description="Exit codes that roll back; empty means any exit code >= 2."
    )
    snapshot_required: bool = Field(
        False, description="Refuse to run a write command whose snapshot failed."
    )
    max_snapshot_bytes: int = Field(0, ge=0, description="Snapshot size cap; 0 is unlimited.")
    checkpoints_enabled: bool = Field(
        False, description="Snapshot write commands and offer shell_undo, shell_redo and "
        "shell_checkpoints."
    )
    max_checkpoints: int = Field(20, ge=1, description="Undo stack size; the oldest is evicted.")
    max_background_runs: int = Field(8, ge=0, description="Background runs at once.")
    background_timeout_secs: float = Field(
        1800, gt=0, description="Seconds before a background run's tree is killed."
    )

    @model_validator(mode="after")
    def _timeout_within_its_maximum(self) -> ShellSettings:
        """A default timeout longer than the longest a call may ask for is a mistake."""
        if self.timeout > self.max_timeout:
            raise ValueError(f"timeout ({self.timeout:g}) is longer than max_timeout "
                             f"({self.max_timeout:g}): raise max_timeout too")
        return self
