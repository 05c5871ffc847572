"""The shell tools as the model sees them: ``bash`` and ``bash_status``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from tooldeck.models import ToolDef

__all__ = ["BASH", "BASH_STATUS", "EXECUTOR", "BashParams", "BashStatusParams"]

# ToolDef's attrs converter (a bare ``frozenset``) is typed generically; mypy cannot bind it.

EXECUTOR = "shell"
"""The name of the executor that runs both tools."""


class BashParams(BaseModel):
    """Parameters of ``bash``."""

    model_config = ConfigDict(extra="forbid")

    command: str = Field(description="The shell command to run with bash -c.")
    background: bool = Field(
        False, description="Run in the background and return a run_id at once; read the "
        "result later with bash_status."
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
    capabilities={"exec"},
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
