"""Retry transient tool failures with full-jitter exponential backoff (``[tools.retry]``).

Only an executor that says so (``retryable = True`` on the executor object) is retried, and
only for the system-domain categories (``rate_limited``, ``server_error``, ``network_error``,
``timeout``): anything else — a denial, bad parameters, a missing file — would fail the same
way again. Before retry *k* (0-based) the pipeline waits a random time in
``[0, min(base_ms * 2^k, max_ms)]`` ("full jitter", so that clients that failed together do
not retry together); no retry starts whose wait would end past ``budget_secs`` after the first
attempt began. The schedule is tenacity's ``wait_random_exponential``: a maintained library,
not a hand loop. Only the first attempt counts against the call quota.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from tooldeck.config import RetryConfig
from tooldeck.errors import ToolError
from tooldeck.models import ToolOutput

if TYPE_CHECKING:
    import tenacity  # loaded by the first retry, not on every start

__all__ = ["backoff", "run_with_retries"]


def _transient(exc: BaseException) -> bool:
    return isinstance(exc, ToolError) and exc.category.retryable


def backoff(config: RetryConfig) -> tenacity.wait.wait_base:
    """The wait before each retry: random in ``[0, min(base * 2^k, max)]`` seconds."""
    import tenacity

    return tenacity.wait_random_exponential(multiplier=config.base_ms / 1000,
                                            max=config.max_ms / 1000)


async def run_with_retries(attempt: Callable[[], Awaitable[ToolOutput]],
                           config: RetryConfig, *, retryable: bool) -> ToolOutput:
    """Run ``attempt``, retrying transient :class:`ToolError` failures as configured.

    :param attempt: one execution of the call (a coroutine function: tenacity awaits it).
    :param config: ``[tools.retry]``.
    :param retryable: whether the executor declared itself retryable.
    :returns: the output of the attempt that succeeded.
    :raises ToolError: the last failure, when no attempt succeeded.
    """
    if not retryable or config.max_attempts <= 1:
        return await attempt()
    import tenacity

    stops: list[tenacity.stop.stop_base] = [tenacity.stop_after_attempt(config.max_attempts)]
    if config.budget_secs:
        stops.append(tenacity.stop_before_delay(config.budget_secs))
    retrying = tenacity.AsyncRetrying(
        retry=tenacity.retry_if_exception(_transient),
        stop=tenacity.stop_any(*stops),
        wait=backoff(config),
        reraise=True,
    )
    output: ToolOutput = await retrying(attempt)
    return output
