"""One chat-completions request to the judge, bounded by a strict total timeout.

The gate hook is synchronous and may run on the caller's event loop, so the request runs on
this module's own loop, on a daemon thread started on first use (the egress gate resolves
host names the same way). :func:`ask_judge` waits for it at most the timeout: connection,
sending and the whole answer together, not per phase.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import ssl
import threading
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_ANSWER_BYTES", "JudgeError", "ask_judge", "chat_url"]

MAX_ANSWER_BYTES = 256 * 1024
"""A longer answer is an error: a one-word verdict needs a few hundred bytes."""


class JudgeError(Exception):
    """The judge gave no usable answer: a timeout, a transport or HTTP error, a bad shape."""


_LOOP: list[asyncio.AbstractEventLoop] = []
_LOCK = threading.Lock()
_TLS: list[ssl.SSLContext] = []


def _judge_loop() -> asyncio.AbstractEventLoop:
    with _LOCK:
        if not _LOOP:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="tooldeck-adversarial-judge",
                             daemon=True).start()
            _LOOP.append(loop)
        return _LOOP[0]


def _verify(url: str) -> ssl.SSLContext | bool:
    if not url.startswith("https://"):
        return False  # plain http: no certificate to check, and no CA bundle to load
    import httpx  # the HTTP stack loads on the first request, not at plugin import

    with _LOCK:
        if not _TLS:
            _TLS.append(httpx.create_ssl_context())
        return _TLS[0]


def chat_url(base_url: str) -> str:
    """The chat-completions endpoint under ``base_url``.

    :param base_url: the API root (``https://api.openai.com/v1``).
    :returns: ``<base_url>/chat/completions``.
    """
    return base_url.rstrip("/") + "/chat/completions"


def _content(data: Any) -> str:
    try:
        content = data["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise JudgeError("policy LLM error: the answer has no choices[0].message") from None
    if not isinstance(content, str):
        raise JudgeError("policy LLM error: the answer's message content is not text")
    return content


async def _post(url: str, payload: Mapping[str, Any], headers: Mapping[str, str],
                timeout_s: float) -> str:
    import httpx

    body = bytearray()
    async with httpx.AsyncClient(verify=_verify(url), timeout=timeout_s,
                                 follow_redirects=False) as client, \
            client.stream("POST", url, json=dict(payload), headers=dict(headers)) as response:
        if not response.is_success:
            raise JudgeError(f"policy LLM error: HTTP {response.status_code}")
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > MAX_ANSWER_BYTES:
                raise JudgeError(f"policy LLM error: the answer exceeds {MAX_ANSWER_BYTES} "
                                 "bytes")
    try:
        data = json.loads(bytes(body))
    except ValueError:
        raise JudgeError("policy LLM error: the answer is not JSON") from None
    return _content(data)


async def _bounded(url: str, payload: Mapping[str, Any], headers: Mapping[str, str],
                   timeout_ms: int) -> str:
    import httpx

    try:
        return await asyncio.wait_for(_post(url, payload, headers, timeout_ms / 1000),
                                      timeout_ms / 1000)
    except asyncio.TimeoutError:
        raise JudgeError(f"policy LLM timeout after {timeout_ms}ms") from None
    except httpx.TimeoutException:
        raise JudgeError(f"policy LLM timeout after {timeout_ms}ms") from None
    except httpx.HTTPError as exc:
        raise JudgeError(f"policy LLM error: {type(exc).__name__}: {exc}") from None


def ask_judge(url: str, payload: Mapping[str, Any], headers: Mapping[str, str],
              timeout_ms: int) -> str:
    """POST ``payload`` to ``url`` and return the assistant message's text.

    :param url: the chat-completions endpoint.
    :param payload: the request body (model and messages).
    :param headers: extra headers (the ``Authorization`` header, when there is a key).
    :param timeout_ms: the most the whole request may take.
    :returns: ``choices[0].message.content``.
    :raises JudgeError: ``policy LLM timeout after {ms}ms`` or ``policy LLM error: …``.
    """
    future = asyncio.run_coroutine_threadsafe(_bounded(url, payload, headers, timeout_ms),
                                              _judge_loop())
    try:
        # the loop enforces the timeout; this margin only guards against a stuck loop
        return future.result(timeout_ms / 1000 + 1.0)
    except concurrent.futures.TimeoutError:
        future.cancel()
        raise JudgeError(f"policy LLM timeout after {timeout_ms}ms") from None
    except JudgeError:
        raise
    except Exception as exc:  # anything unforeseen is an error too, under the same failure mode
        raise JudgeError(f"policy LLM error: {type(exc).__name__}: {exc}") from None
