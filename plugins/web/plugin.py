"""The hooks of the built-in plugin ``web``: its settings, its executor and its two tools."""

from __future__ import annotations

from collections.abc import Callable

from tooldeck import hookimpl
from tooldeck.config import Settings
from tooldeck.egress.log import egress_log_from_settings
from tooldeck.plugins.web.executor import WebExecutor
from tooldeck.plugins.web.settings import ScrapeSettings
from tooldeck.plugins.web.tools import TOOLS
from tooldeck.plugins.web.url_examples import check_url_examples
from tooldeck.runtime import Runtime

__all__ = [
    "SECTION",
    "tooldeck_configure",
    "tooldeck_register_executors",
    "tooldeck_register_settings",
    "tooldeck_register_tools",
]

SECTION = "tools.scrape"
"""The configuration section the plugin owns (Zeph's name for it)."""


@hookimpl
def tooldeck_register_settings(register: Callable[..., None]) -> None:
    """Own ``[tools.scrape]``, validated by :class:`.settings.ScrapeSettings`."""
    register(SECTION, ScrapeSettings)


@hookimpl
def tooldeck_register_executors(register: Callable[..., None], settings: Settings) -> None:
    """Register this runtime's ``web`` executor; it logs its requests to ``[tools.egress]``."""
    register(WebExecutor(settings.get(ScrapeSettings), egress_log_from_settings(settings)))


@hookimpl
def tooldeck_register_tools(register: Callable[..., None]) -> None:
    """Register ``web_scrape`` and ``fetch``."""
    for tool in TOOLS:
        register(tool)


@hookimpl
def tooldeck_configure(runtime: Runtime) -> None:
    """Check the ``[[tools.scrape.examples]]`` against the egress rules (refuse on a failure)."""
    examples = runtime.settings.get(ScrapeSettings).examples
    runtime.count_examples("web URL examples", check_url_examples(runtime, examples))
