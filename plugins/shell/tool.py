"""The shell tools as the model sees them: ``bash``, ``bash_status`` and the checkpoint tools."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from tooldeck.models import ToolDef

__all__ = [
    "BASH",
    "BASH_STATUS",
    "EXECUTOR",
    "MAX_UNDO_COUNT",
    "SHELL_CHECKPOINTS",
    "SHELL_REDO",
    "SHELL_UNDO",
    "BashParams",
    "BashStatusParams",
    "NoParams",
    "UndoParams",
]

# ToolDef's attrs converter (a bare ``frozenset``) is typed generically; mypy cannot bind it.

EXECUTOR = "shell"
"""The name of the executor that runs every shell tool."""

MAX_UNDO_COUNT = 1_000_000
"""The largest ``count`` of ``shell_undo`` (it is clamped to the checkpoints kept anyway)."""


class BashParams(BaseModel):
    """Parameters of ``bash``."""

    model_config = ConfigDict(extra="forbid")

    command: str = Field(description="The shell command to run with bash -c.")
    background: bool = Field(
        False, description="Run in the background and return a run_id at once; read the "
        "result later with bash_status."
    )
    timeout: float | None = Field(
        None, gt=0, description="Seconds before the command is killed (default: the "
        "configured timeout; more than the configured maximum is refused)."
    )


class BashStatusParams(BaseModel):
    """Parameters of ``bash_status``."""

    model_config = ConfigDict(extra="forbid")

    run_id: str = Field(min_length=1, description="The run_id a background bash call returned.")


BASH = ToolDef(
    id="bash",
    description=(
        "Execute a shell command (bash -c) in the project directory and return its stdout "
        "and stderr (stderr lines are prefixed [stderr]). Fails with policy_blocked when a "
        "command or a path is not allowed, timeout when it runs too long. "
        'Example: {"command": "ls -la"}'
    ),
    params=BashParams,
    executor=EXECUTOR,
    invocation="fenced:bash",
    capabilities={"execute"},
    input_param="command",
)
"""The ``bash`` tool; legacy fenced ```` ```bash ```` blocks invoke it too."""

BASH_STATUS = ToolDef(
    id="bash_status",
    description=(
        "Read the status of a background bash run: running, or finished with its exit code "
        'and output. Example: {"run_id": "<the run_id bash returned>"}'
    ),
    params=BashStatusParams,
    executor=EXECUTOR,
    capabilities={"read"},
    input_param="run_id",
)
"""The ``bash_status`` tool."""


class UndoParams(BaseModel):
    """Parameters of ``shell_undo``."""

    model_config = ConfigDict(extra="forbid")

    count: int = Field(1, le=MAX_UNDO_COUNT,
                       description="How many of the latest write commands to undo.")


class NoParams(BaseModel):
    """Parameters of ``shell_redo`` and ``shell_checkpoints``: none."""

    model_config = ConfigDict(extra="forbid")


SHELL_UNDO = ToolDef(
    id="shell_undo",
    description=(
        "Undo the latest write commands run with bash (most recent first): the files they "
        "wrote, created or deleted are put back as they were. "
        'Example: {"count": 1}'
    ),
    params=UndoParams,
    executor=EXECUTOR,
    capabilities={"write"},
    input_param="count",
)
"""The ``shell_undo`` tool (only with ``checkpoints_enabled``)."""

SHELL_REDO = ToolDef(
    id="shell_redo",
    description=(
        "Redo the latest command undone with shell_undo: its files are put back as the "
        "command left them (nothing is run again). Example: {}"
    ),
    params=NoParams,
    executor=EXECUTOR,
    capabilities={"write"},
)
"""The ``shell_redo`` tool (only with ``checkpoints_enabled``)."""

SHELL_CHECKPOINTS = ToolDef(
    id="shell_checkpoints",
    description="List the write commands shell_undo can undo, most recent first. Example: {}",
    params=NoParams,
    executor=EXECUTOR,
    capabilities={"read"},
)
"""The ``shell_checkpoints`` tool (only with ``checkpoints_enabled``)."""
