"""The defaults of ``[tools.filters]``, without pydantic.

:class:`~tooldeck.filters.settings.FilterSettings` takes its defaults from here, and so does an
engine built without settings (``FilterEngine.from_settings(None)``, as ``tooldeck filter``
does when the configuration has no ``[tools.filters]`` table), so a one-shot filter does not
import pydantic.
"""

from __future__ import annotations

import enum
from typing import Final

__all__ = [
    "DEFAULT_ENABLED",
    "DEFAULT_ON_FAILURE",
    "DEFAULT_REDACT_SECRETS",
    "DEFAULT_SECURITY_ENABLED",
    "DEFAULT_TOOL_NAME",
    "FailureMode",
]


class FailureMode(str, enum.Enum):
    """What a failed command (exit code not 0) does to a stage that is not fully confident."""

    KEEP_INPUT = "keep_input"
    """Discard that stage's output and keep its input: more text, nothing guessed away."""

    FILTER = "filter"
    """Use the stage's output anyway."""


DEFAULT_ENABLED: Final = True
"""``enabled``: rule filtering is on."""

DEFAULT_ON_FAILURE: Final = FailureMode.KEEP_INPUT
"""``on_failure``: a failed command keeps the input of a stage that is not fully confident."""

DEFAULT_TOOL_NAME: Final = "shell"
"""``tool_name``: the name shown in the stats line."""

DEFAULT_SECURITY_ENABLED: Final = True
"""``security.enabled``: the preserved security diagnostics are appended."""

DEFAULT_REDACT_SECRETS: Final = True
"""``security.redact_secrets``: secrets are detected, warned about and redacted."""
