"""Small httpx model clients for :class:`tooldeck.loop.ToolLoop`: one POST per request.

Each factory returns ``await client(messages, tools, *, tool_choice=None) -> response
dict`` (``tool_choice``, when given, is sent as the request's ``tool_choice``: the loop's
``allowed_tools`` mode uses it). They do what the tool loop needs and nothing more (no
streaming, no retries); use a provider SDK instead by wrapping its call in the same
signature. An HTTP error status raises
:class:`httpx.HTTPStatusError`, which ends the loop's run with ``model_error``.
"""

from __future__ import annotations

import ssl
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tooldeck.loop import ModelClient
from tooldeck.schema_filter import Embed

if TYPE_CHECKING:
    import httpx  # the HTTP stack loads on the first request, not at import

__all__ = [
    "anthropic_messages_client",
    "openai_chat_client",
    "openai_embeddings",
    "openai_responses_client",
]

DEFAULT_TIMEOUT_S = 120.0
"""How long one model request may take."""


PostJSON = Callable[[Mapping[str, Any]], Awaitable[Mapping[str, Any]]]


def _json_poster(url: str, headers: Mapping[str, str], timeout_s: float,
                 http: httpx.AsyncClient | None) -> PostJSON:
    """``await post(payload)``: POST JSON to ``url``, the answer's JSON object back."""
    tls: list[ssl.SSLContext] = []  # loading the CA bundle is slow: once per factory

    async def send(client: httpx.AsyncClient, payload: Mapping[str, Any]) -> Mapping[str, Any]:
        response = await client.post(url, json=payload, headers=dict(headers),
                                     timeout=timeout_s)
        response.raise_for_status()
        data = response.json()
        if not isinstance(data, Mapping):
            raise ValueError(f"the server answered {type(data).__name__}, not an object")
        return data

    async def post(payload: Mapping[str, Any]) -> Mapping[str, Any]:
        if http is not None:
            return await send(http, payload)
        import httpx

        if not tls:
            tls.append(httpx.create_ssl_context())
        async with httpx.AsyncClient(verify=tls[0]) as client:
            return await send(client, payload)

    return post


def _poster(url: str, headers: Mapping[str, str], body: Mapping[str, Any],
            messages_key: str, timeout_s: float,
            http: httpx.AsyncClient | None) -> ModelClient:
    post = _json_poster(url, headers, timeout_s, http)

    async def request(messages: list[dict[str, Any]], tools: list[dict[str, Any]], *,
                      tool_choice: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        payload: dict[str, Any] = {**body, messages_key: messages}
        if tools:
            payload["tools"] = tools
        if tool_choice is not None:
            payload["tool_choice"] = dict(tool_choice)
        return await post(payload)

    return request


def openai_chat_client(base_url: str, model: str, *, api_key: str | None = None,
                       extra: Mapping[str, Any] | None = None,
                       timeout_s: float = DEFAULT_TIMEOUT_S,
                       http: httpx.AsyncClient | None = None) -> ModelClient:
    """A client of ``POST {base_url}/chat/completions`` (OpenAI and compatible servers).

    :param base_url: e.g. ``https://api.openai.com/v1`` or ``http://127.0.0.1:8080/v1``.
    :param model: the ``model`` of every request.
    :param api_key: sent as ``Authorization: Bearer …`` when given.
    :param extra: more request fields (``temperature``, ``tool_choice``…).
    :param timeout_s: per request.
    :param http: a client to reuse (its connection pool); by default one per request.
    """
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return _poster(base_url.rstrip("/") + "/chat/completions", headers,
                   {"model": model, **(extra or {})}, "messages", timeout_s, http)


def openai_responses_client(base_url: str, model: str, *, api_key: str | None = None,
                            extra: Mapping[str, Any] | None = None,
                            timeout_s: float = DEFAULT_TIMEOUT_S,
                            http: httpx.AsyncClient | None = None) -> ModelClient:
    """A client of ``POST {base_url}/responses`` (the conversation goes in ``input``).

    :param base_url: e.g. ``https://api.openai.com/v1``.
    :param model: the ``model`` of every request.
    :param api_key: sent as ``Authorization: Bearer …`` when given.
    :param extra: more request fields (``instructions``, ``store``…).
    :param timeout_s: per request.
    :param http: a client to reuse; by default one per request.
    """
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    return _poster(base_url.rstrip("/") + "/responses", headers,
                   {"model": model, **(extra or {})}, "input", timeout_s, http)


def anthropic_messages_client(base_url: str, model: str, *, api_key: str | None = None,
                              max_tokens: int = 4096, system: str | None = None,
                              extra: Mapping[str, Any] | None = None,
                              timeout_s: float = DEFAULT_TIMEOUT_S,
                              http: httpx.AsyncClient | None = None) -> ModelClient:
    """A client of ``POST {base_url}/v1/messages`` (Anthropic's messages API).

    :param base_url: e.g. ``https://api.anthropic.com``.
    :param model: the ``model`` of every request.
    :param api_key: sent as ``x-api-key`` when given.
    :param max_tokens: the ``max_tokens`` of every request (the API requires one).
    :param system: the system prompt, when there is one.
    :param extra: more request fields.
    :param timeout_s: per request.
    :param http: a client to reuse; by default one per request.
    """
    headers = {"anthropic-version": "2023-06-01"}
    if api_key:
        headers["x-api-key"] = api_key
    body: dict[str, Any] = {"model": model, "max_tokens": max_tokens, **(extra or {})}
    if system is not None:
        body["system"] = system
    return _poster(base_url.rstrip("/") + "/v1/messages", headers, body, "messages",
                   timeout_s, http)


def openai_embeddings(base_url: str, model: str, *, api_key: str | None = None,
                      timeout_s: float = DEFAULT_TIMEOUT_S,
                      http: httpx.AsyncClient | None = None) -> Embed:
    """An embedder for the schema filter: ``POST {base_url}/embeddings`` (OpenAI-compatible).

    Pass it as ``ToolLoop(..., embed=...)`` or return it from a ``tooldeck_embedder`` hook.

    :param base_url: e.g. ``https://api.openai.com/v1`` or a local server's ``/v1``.
    :param model: the embedding model.
    :param api_key: sent as ``Authorization: Bearer …`` when given.
    :param timeout_s: per request.
    :param http: a client to reuse; by default one per request.
    :raises ValueError: from the embedder, when the answer has not one vector per text.
    """
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    post = _json_poster(base_url.rstrip("/") + "/embeddings", headers, timeout_s, http)

    async def embed(texts: Sequence[str]) -> list[list[float]]:
        answer = await post({"model": model, "input": list(texts)})
        data = answer.get("data")
        if not isinstance(data, list) or len(data) != len(texts):
            raise ValueError("the embeddings answer does not hold one vector per text")
        ordered = sorted(data, key=lambda item: item.get("index", 0))
        return [[float(x) for x in item["embedding"]] for item in ordered]

    return embed
