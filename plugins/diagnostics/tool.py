"""The ``diagnostics`` tool as the model sees it."""

from __future__ import annotations

from typing import Literal

import pydantic
from pydantic import Field

from tooldeck.models import ToolDef

__all__ = ["DIAGNOSTICS", "EXECUTOR", "MAX_DIAGNOSTICS", "DiagnosticsParams"]

EXECUTOR = "diagnostics"

MAX_DIAGNOSTICS = 50
"""How many findings one call shows at most."""


class DiagnosticsParams(pydantic.BaseModel):
    """Parameters of ``diagnostics``."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    path: str = Field(".", description="Project directory or file to check (default: the "
                      "working directory).")
    level: Literal["check", "clippy", "ruff", "mypy", "pyright", "tsc", "eslint"] = Field(
        "check", description="Which checker: check/clippy (cargo, Rust), ruff or mypy or "
        "pyright (Python), tsc or eslint (TypeScript/JavaScript).")


DIAGNOSTICS = ToolDef(
    id="diagnostics",
    description="Run a compiler or linter on the project and get its findings as "
    f"file:line:col: level: message lines (at most {MAX_DIAGNOSTICS}).",
    params=DiagnosticsParams,
    executor=EXECUTOR,
    capabilities=frozenset({"execute"}),
    input_param="path",
)
"""The tool: it runs a program (cargo runs build scripts), so it is not read-only."""
