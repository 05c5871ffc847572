"""The ``web`` executor: runs ``web_scrape`` and ``fetch`` on one guarded client per runtime.

The :class:`~tooldeck.plugins.web.client.WebClient` is built on the first call, not with the
runtime: building its TLS context reads the whole trust store (a quarter of a second), and
importing the HTTP stack costs as much again, so runtimes that never fetch — ``tooldeck
tools``, a reload, most tests — pay nothing. The runtime closes it through :meth:`aclose`
once its calls have drained. It resolves through the deck's egress resolver
(:func:`tooldeck.egress.deck_resolver`), the system one unless another was installed.
Every failure is the client's classified
:class:`~tooldeck.errors.ToolError`, passed through unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tooldeck.egress import deck_resolver
from tooldeck.egress.log import EgressLog, HopRecorder
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall, ToolOutput
from tooldeck.plugins.web.settings import ScrapeSettings
from tooldeck.plugins.web.tools import EXECUTOR, FetchParams, ScrapeParams

if TYPE_CHECKING:
    from tooldeck.plugins.web.client import FetchResult, WebClient
    from tooldeck.runtime import CallContext

__all__ = ["WebExecutor"]


class WebExecutor:
    """Run the web tools with the settings of one runtime.

    :param settings: the validated ``[tools.scrape]`` section.
    :param egress_log: where each request is recorded (``[tools.egress]``), or ``None``.
    """

    name = EXECUTOR
    retryable = True
    """A fetch reads; running it again after a 429, a 5xx or a reset is harmless."""

    def __init__(self, settings: ScrapeSettings, egress_log: EgressLog | None = None) -> None:
        self._settings = settings
        self._egress_log = egress_log
        self._client: WebClient | None = None

    def _web(self, ctx: CallContext) -> WebClient:
        if self._client is None:
            from tooldeck.plugins.web.client import WebClient  # the HTTP stack, on first use

            self._client = WebClient(self._settings, deck_resolver(ctx.runtime.session))
        return self._client

    async def execute(self, call: ToolCall, ctx: CallContext) -> ToolOutput:
        """Fetch or scrape the page the validated parameters name.

        :param call: the call (its tool id names the output).
        :param ctx: the call context; ``ctx.params`` is a :class:`.tools.FetchParams` or a
            :class:`.tools.ScrapeParams`, which decides what runs.
        :returns: the page text (or the selected values) and, in ``raw_response``, the final
            ``url``, ``status``, ``content_type``, ``redirects`` and ``truncated``.
        :raises ToolError: as the client raises it; ``permanent_failure`` for parameters of
            another tool.
        """
        params = ctx.params
        page: FetchResult
        hops = HopRecorder(self._egress_log, call.tool_id, call.call_id, call.caller_id,
                           ctx.runtime.storage)
        if isinstance(params, ScrapeParams):
            page = await self._web(ctx).scrape(params.url, params.select, params.extract,
                                            params.limit, hops)
        elif isinstance(params, FetchParams):
            page = await self._web(ctx).fetch(params.url, hops)
        else:
            raise ToolError(ErrorCategory.PERMANENT_FAILURE,
                            f"the web executor cannot run {ctx.tool.id!r}")
        raw: dict[str, Any] = {"url": page.url, "status": page.status,
                               "content_type": page.content_type, "redirects": page.redirects,
                               "truncated": page.truncated}
        return ToolOutput(tool_name=call.tool_id, summary=page.text, raw_response=raw,
                          truncated=page.truncated)

    async def aclose(self) -> None:
        """Close the client, if a call ever built one."""
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()
