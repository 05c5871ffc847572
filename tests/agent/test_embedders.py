"""Embedders for the schema filter: the tooldeck_embedder hook and the /v1/embeddings client."""

from __future__ import annotations

from typing import Any

import pytest

from tooldeck import hookimpl
from tooldeck.adapters import adapter_for
from tooldeck.loop import ToolLoop
from tooldeck.model_clients import openai_embeddings

FILTER = "[agent.tool_filter]\nenabled = true\nalways_on = []\ntop_k = 1\n"


def axis_embed(word: str, seen: list[list[str]]) -> Any:
    """Vectors that make the tool whose document holds ``word`` the only match."""
    async def embed(texts: Any) -> list[list[float]]:
        seen.append(list(texts))
        return [[1.0, 0.0] if word in t else [0.0, 1.0] for t in texts]
    return embed


class EmbedderPlugin:
    def __init__(self, embed: Any) -> None:
        self.embed = embed

    @hookimpl
    def tooldeck_embedder(self) -> Any:
        return self.embed


async def run_once(deck: Any, dialect: Any, model_server: Any, text: str) -> list[str]:
    server = model_server(lambda n, body: dialect.text_reply("ok"))
    loop = ToolLoop(deck, adapter_for(dialect.name), dialect.client(server.url))
    await loop.run([{"role": "user", "content": text}])
    return [t["function"]["name"] for t in server.bodies()[0]["tools"]]


async def test_a_plugin_embedder_ranks_the_tools(make_deck: Any, openai_dialect: Any,
                                                 model_server: Any) -> None:
    seen: list[list[str]] = []
    # the query "Markdown" vector is [1, 0]: only a document containing "Markdown" matches
    plugin = EmbedderPlugin(axis_embed("Markdown", seen))
    deck = make_deck(FILTER, plugins={"embedder": plugin})
    names = await run_once(deck, openai_dialect, model_server, "page as Markdown please")
    assert names == ["fetch"]
    assert len(seen[0]) == len(deck.tools()) and seen[1] == ["page as Markdown please"]


async def test_a_failing_embedder_sends_every_tool(make_deck: Any, openai_dialect: Any,
                                                   model_server: Any,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    async def broken(texts: Any) -> list[list[float]]:
        raise ConnectionError("embedding server down")

    deck = make_deck(FILTER, plugins={"embedder": EmbedderPlugin(broken)})
    names = await run_once(deck, openai_dialect, model_server, "anything")
    assert sorted(names) == sorted(t.id for t in deck.tools())
    assert "the schema filter failed, sending every tool: ConnectionError" in (
        capsys.readouterr().err)


async def test_a_hook_answer_that_is_not_callable_is_skipped(
        make_deck: Any, openai_dialect: Any, model_server: Any,
        capsys: pytest.CaptureFixture[str]) -> None:
    deck = make_deck(FILTER, plugins={"embedder": EmbedderPlugin("not an embedder")})
    names = await run_once(deck, openai_dialect, model_server, "get the text of a web page")
    assert len(names) == 1  # the lexical index ranked them instead
    assert "embedder hook 'embedder' failed: TypeError" in capsys.readouterr().err


async def test_openai_embeddings_client(model_server: Any) -> None:
    def answer(n: int, body: dict[str, Any]) -> dict[str, Any]:
        data = [{"object": "embedding", "index": i, "embedding": [float(i), 1.0]}
                for i in range(len(body["input"]))]
        return {"object": "list", "model": body["model"], "data": data[::-1],
                "usage": {"prompt_tokens": 1, "total_tokens": 1}}

    server = model_server(answer)
    embed = openai_embeddings(server.url + "/v1", "embed-model", api_key="sk-e")
    assert await embed(["a", "b", "c"]) == [[0.0, 1.0], [1.0, 1.0], [2.0, 1.0]]
    (request,) = server.requests
    assert request["path"] == "/v1/embeddings"
    assert request["headers"]["Authorization"] == "Bearer sk-e"
    assert request["body"] == {"model": "embed-model", "input": ["a", "b", "c"]}

    from openai.types import CreateEmbeddingResponse

    CreateEmbeddingResponse.model_validate(answer(0, request["body"]))


async def test_openai_embeddings_refuses_a_short_answer(model_server: Any) -> None:
    server = model_server(lambda n, body: {"data": []})
    embed = openai_embeddings(server.url + "/v1", "m")
    with pytest.raises(ValueError, match="one vector per text"):
        await embed(["a"])
