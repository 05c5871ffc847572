"""Built-in plugin ``openai_summarizer``: summaries from any OpenAI-compatible chat endpoint.

=================  ===========================================================================
module             job
=================  ===========================================================================
``settings``       ``[tools.summarizer]``, validated
``client``         the summariser: one chat completion per summary, no tools offered
=================  ===========================================================================

With ``[tools.summarizer] enabled``, it supplies the ``tooldeck_summarizer`` hook that
``compress_context`` writes its summaries with. The API key is read from the environment
variable ``api_key_env`` names, when the runtime is built; a named variable that is not set
refuses the configuration rather than sending unauthenticated requests.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from tooldeck import hookimpl
from tooldeck.context_compression import Summarize
from tooldeck.errors import ConfigError
from tooldeck.plugins.openai_summarizer.client import chat_summarizer
from tooldeck.plugins.openai_summarizer.settings import SECTION, SummarizerSettings
from tooldeck.runtime import Runtime, StashKey

SUMMARIZE = StashKey[Summarize | None]("openai_summarizer.summarize")


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[tools.summarizer]``."""
    register(SECTION, SummarizerSettings)


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Build the summariser of an enabled section, its key taken from the environment.

    :raises ConfigError: ``api_key_env`` names a variable that is not set.
    """
    settings = runtime.settings.get(SummarizerSettings)
    summarize: Summarize | None = None
    if settings.enabled:
        key: str | None = None
        if settings.api_key_env is not None:
            key = os.environ.get(settings.api_key_env)
            if not key:
                raise ConfigError(f"[{SECTION}] api_key_env: the environment variable "
                                  f"{settings.api_key_env} is not set")
        summarize = chat_summarizer(settings.base_url, settings.model, api_key=key,
                                    timeout_s=settings.timeout_s)
    runtime.stash_set(SUMMARIZE, summarize)


@hookimpl
def tooldeck_summarizer(runtime: Runtime) -> Summarize | None:
    """The configured summariser, or ``None`` when the section is disabled."""
    try:
        return runtime.stash_get(SUMMARIZE)
    except KeyError:
        return None
