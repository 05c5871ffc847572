"""A summariser over ``POST {base_url}/chat/completions``: instructions as system, text as user."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldeck.context_compression import Summarize
from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.model_clients import openai_chat_client

__all__ = ["chat_summarizer"]


def _status_category(status: int) -> ErrorCategory:
    """A refused summary request is the server's doing, never the model's parameters."""
    if status == 429:
        return ErrorCategory.RATE_LIMITED
    if 500 <= status <= 599:
        return ErrorCategory.SERVER_ERROR
    return ErrorCategory.PERMANENT_FAILURE


def _content(response: Mapping[str, Any]) -> str:
    """The text of the first choice, or ``ValueError``."""
    try:
        content = response["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ValueError("the answer has no choices[0].message.content") from None
    if not isinstance(content, str) or not content.strip():
        raise ValueError("the answer's content is empty")
    return content


def chat_summarizer(base_url: str, model: str, *, api_key: str | None,
                    timeout_s: float) -> Summarize:
    """A summariser asking an OpenAI-compatible chat endpoint, with no tools offered.

    :param base_url: the API root (``…/v1``).
    :param model: the model of every request.
    :param api_key: the bearer token, or ``None``.
    :param timeout_s: per request.
    :returns: ``await summarize(text, instructions)``; it raises :class:`ToolError`
        (``timeout``, ``network_error``, ``rate_limited``, ``server_error``,
        ``permanent_failure``) when no summary comes back.
    """
    client = openai_chat_client(base_url, model, api_key=api_key, timeout_s=timeout_s)
    where = base_url.rstrip("/") + "/chat/completions"

    async def summarize(text: str, instructions: str) -> str:
        import httpx  # the HTTP stack loads on the first summary, not at plugin import

        messages = [{"role": "system", "content": instructions},
                    {"role": "user", "content": text}]
        try:
            return _content(await client(messages, []))
        except httpx.TimeoutException:
            raise ToolError(ErrorCategory.TIMEOUT,
                            f"{where} did not answer within {timeout_s:g} s") from None
        except httpx.HTTPStatusError as exc:
            status = exc.response.status_code
            raise ToolError(_status_category(status), f"{where} answered HTTP {status}") from None
        except httpx.HTTPError as exc:
            raise ToolError(ErrorCategory.NETWORK_ERROR,
                            f"{where} could not be reached: {type(exc).__name__}") from None
        except ValueError as exc:
            raise ToolError(ErrorCategory.SERVER_ERROR,
                            f"{where} gave no usable summary: {exc}") from None

    return summarize
