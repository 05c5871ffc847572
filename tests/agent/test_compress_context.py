"""compress_context end to end: a real loop, a real deck, real loopback model and summariser.

The model server scripts the agent's replies; a second loopback server is the
OpenAI-compatible summariser of ``[tools.summarizer]``. Each test asserts what the model
was sent after the call, so a compression that loses content, or a failure that drops
messages, shows in the requests themselves.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tooldeck import hookimpl
from tooldeck.adapters import adapter_for
from tooldeck.context_compression import KNOWLEDGE_HEADER, knowledge_text
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.loop import StopReason, ToolLoop
from tooldeck.models import ToolCall
from tooldeck.plugins.compress_context.tool import COMPRESS_CONTEXT_TOOL
from tooldeck.plugins.result_cache.cacheable import cacheable

from .conftest import ALLOW_ECHO

pytestmark = pytest.mark.timeout(60)

KEY_ENV = "TOOLDECK_TEST_SUMMARY_KEY"
SYSTEM = {"role": "system", "content": "You are a test agent."}
USER = {"role": "user", "content": "please work"}


def summary_reply(text: str) -> dict[str, Any]:
    return {"id": "chatcmpl-s", "object": "chat.completion", "created": 1, "model": "sum",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}]}


ALLOW_COMPRESS = """
[[tools.permissions.compress_context]]
pattern = "*"
action = "allow"
"""


def summarizer_toml(url: str, *, timeout_s: float = 10.0) -> str:
    return (f'{ALLOW_ECHO}{ALLOW_COMPRESS}\n[tools.summarizer]\nenabled = true\n'
            f'base_url = "{url}/v1"\nmodel = "sum-model"\napi_key_env = "{KEY_ENV}"\n'
            f'timeout_s = {timeout_s}\n')


@pytest.fixture(autouse=True)
def summary_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(KEY_ENV, "sk-summary")
    return "sk-summary"


def opening(dialect: Any) -> list[dict[str, Any]]:
    return [SYSTEM, USER] if dialect.name == "openai_chat" else [USER]


def head(dialect: Any) -> list[dict[str, Any]]:
    return [SYSTEM] if dialect.name == "openai_chat" else []


def loop_for(dialect: Any, deck: Deck, server: Any) -> ToolLoop:
    return ToolLoop(deck, adapter_for(dialect.name), dialect.client(server.url),
                    caller_id="agent-c")


async def test_compression_replaces_the_older_messages_with_the_knowledge_block(
        dialect: Any, make_deck: Any, model_server: Any, audit: Any) -> None:
    summarizer = model_server(lambda n, body: summary_reply("  user wanted work; echo one ran "))
    replies = [dialect.tool_reply([("c1", "bash", {"command": "echo one"})]),
               dialect.tool_reply([("c2", "compress_context", {"focus": "the echo"})]),
               dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    loop = loop_for(dialect, make_deck(summarizer_toml(summarizer.url)), server)
    outcome = await loop.run(opening(dialect))

    assert outcome.reason is StopReason.FINISHED
    assert loop.knowledge == ["user wanted work; echo one ran"]
    first, _second, third = server.bodies()
    assert "compress_context" in {t.get("name") or t["function"]["name"]
                                  for t in first["tools"]}
    sent = third[dialect.messages_key]
    block = {"role": "user", "content": knowledge_text(loop.knowledge)}
    assert sent[:len(head(dialect)) + 1] == [*head(dialect), block]
    assert block["content"].startswith(KNOWLEDGE_HEADER)
    # the calling reply and its result stay; everything between the head and it is gone
    reply, _result = sent[len(head(dialect)) + 1:]
    assert "compress_context" in str(reply) and "c2" in str(reply)
    assert "please work" not in str(sent) and "c1" not in str(sent)
    ((call_id, result, _error),) = dialect.results(third)
    assert call_id == "c2" and "compressed" in result and "knowledge block" in result
    dialect.validate(third)

    (request,) = summarizer.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer sk-summary"
    body = request["body"]
    assert "tools" not in body and body["model"] == "sum-model"
    system, user = body["messages"]
    assert system["role"] == "system" and "Keep above all: the echo" in system["content"]
    assert "please work" in user["content"] and "echo one" in user["content"]
    assert "You are a test agent." not in user["content"]
    (record,) = audit("loop.compressed")
    assert record["knowledge_sections"] == 1 and record["caller_id"] == "agent-c"


async def test_summaries_are_appended_and_never_cached(
        openai_dialect: Any, make_deck: Any, model_server: Any) -> None:
    dialect = openai_dialect
    summaries = ["first summary", "second summary"]
    summarizer = model_server(lambda n, body: summary_reply(summaries[n]))
    replies = [dialect.tool_reply([("c1", "compress_context", {})]),
               dialect.tool_reply([("c2", "compress_context", {})]),
               dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    loop = loop_for(dialect, make_deck(summarizer_toml(summarizer.url)), server)
    outcome = await loop.run(opening(dialect))

    assert outcome.reason is StopReason.FINISHED
    assert len(summarizer.requests) == 2  # identical calls, both run: not cached
    assert loop.knowledge == summaries
    sent = server.bodies()[2]["messages"]
    assert sent[1] == {"role": "user", "content": knowledge_text(summaries)}
    # the second summary covered the first call and its result, not the knowledge block
    second_text = summarizer.bodies()[1]["messages"][1]["content"]
    assert "first summary" not in second_text and "c1" in second_text
    assert not cacheable(COMPRESS_CONTEXT_TOOL)
    dialect.validate(server.bodies()[2])


def failing_cases() -> list[Any]:
    return [pytest.param(lambda n, body: (500, {"error": "overloaded"}), "server_error",
                         id="http-500"),
            pytest.param(lambda n, body: summary_reply("   "), "no usable summary",
                         id="empty-summary"),
            pytest.param(lambda n, body: {"choices": []}, "no usable summary",
                         id="malformed")]


@pytest.mark.parametrize(("script", "expected"), failing_cases())
async def test_a_failing_summariser_leaves_the_history_whole(
        openai_dialect: Any, make_deck: Any, model_server: Any, script: Any,
        expected: str, audit: Any) -> None:
    dialect = openai_dialect
    summarizer = model_server(script)
    replies = [dialect.tool_reply([("c1", "bash", {"command": "echo one"})]),
               dialect.tool_reply([("c2", "compress_context", {})]),
               dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    loop = loop_for(dialect, make_deck(summarizer_toml(summarizer.url)), server)
    outcome = await loop.run(opening(dialect))

    assert outcome.reason is StopReason.FINISHED and loop.knowledge == []
    second, third = server.bodies()[1:]
    sent = third["messages"]
    assert sent[:len(second["messages"])] == second["messages"]
    assert len(sent) == len(second["messages"]) + 2  # the call and its error, nothing lost
    ((call_id, result, _),) = dialect.results(third)
    assert call_id == "c2" and expected in result and "unchanged" in result
    assert audit("loop.compressed") == []


async def test_a_summariser_that_does_not_answer_times_out(
        openai_dialect: Any, make_deck: Any, model_server: Any) -> None:
    dialect = openai_dialect
    release = threading.Event()

    def hang(n: int, body: dict[str, Any]) -> dict[str, Any]:
        release.wait(30)
        return summary_reply("too late")

    summarizer = model_server(hang)
    replies = [dialect.tool_reply([("c1", "compress_context", {})]),
               dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    try:
        loop = loop_for(dialect, make_deck(summarizer_toml(summarizer.url, timeout_s=0.3)),
                        server)
        outcome = await loop.run(opening(dialect))
    finally:
        release.set()
    assert outcome.reason is StopReason.FINISHED and loop.knowledge == []
    ((_, result, _),) = dialect.results(server.bodies()[1])
    assert "timeout" in result and "unchanged" in result
    assert server.bodies()[1]["messages"][:2] == opening(dialect)


class ReentrantSummarizer:
    """A summariser plugin that tries to compress from inside its own summary."""

    def __init__(self) -> None:
        self.deck: Deck | None = None
        self.inner: list[str] = []

    @hookimpl
    def tooldeck_summarizer(self, runtime: Any) -> Any:
        async def summarize(text: str, instructions: str) -> str:
            assert self.deck is not None
            result = await self.deck.call(ToolCall("compress_context", {}))
            self.inner.append(result.text)
            return "outer summary"
        return summarize


async def test_compress_context_cannot_run_inside_a_summary(
        openai_dialect: Any, make_deck: Any, model_server: Any) -> None:
    dialect = openai_dialect
    plugin = ReentrantSummarizer()
    replies = [dialect.tool_reply([("c1", "compress_context", {})]),
               dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    deck = make_deck(ALLOW_ECHO + ALLOW_COMPRESS, plugins={"reentrant": plugin})
    plugin.deck = deck
    loop = loop_for(dialect, deck, server)
    await loop.run(opening(dialect))

    (inner,) = plugin.inner
    assert "cannot run while a summary is being written" in inner
    assert loop.knowledge == ["outer summary"]


async def test_outside_a_loop_it_fails_and_without_a_summariser_it_is_hidden(
        make_deck: Any, model_server: Any) -> None:
    plain = make_deck()
    assert "compress_context" not in {t.id for t in plain.tools()}
    summarizer = model_server(lambda n, body: summary_reply("never asked"))
    deck = make_deck(summarizer_toml(summarizer.url))
    assert "compress_context" in {t.id for t in deck.tools()}
    result = await deck.call(ToolCall("compress_context", {}))
    assert not result.ok and "only inside a tooldeck tool loop" in result.text
    assert summarizer.requests == []


async def test_a_first_call_has_nothing_to_compress(
        openai_dialect: Any, make_deck: Any, model_server: Any) -> None:
    dialect = openai_dialect
    summarizer = model_server(lambda n, body: summary_reply("never asked"))
    replies = [dialect.tool_reply([("c1", "compress_context", {}),
                                   ("c2", "compress_context", {})]),
               dialect.text_reply("done")]
    server = model_server(lambda n, body: replies[n])
    loop = loop_for(dialect, make_deck(summarizer_toml(summarizer.url)), server)
    await loop.run([SYSTEM])
    results = dialect.results(server.bodies()[1])
    assert all("nothing to compress" in text for _id, text, _ in results)
    assert summarizer.requests == [] and loop.knowledge == []


def test_the_key_comes_only_from_the_environment(
        make_deck: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV)
    with pytest.raises(ConfigError, match=KEY_ENV):
        make_deck(summarizer_toml("http://127.0.0.1:9"))
    with pytest.raises(ConfigError, match="api_key"):
        make_deck('[tools.summarizer]\nenabled = true\nbase_url = "http://127.0.0.1:9/v1"\n'
                  'model = "m"\napi_key = "sk-in-the-file"\n')
    with pytest.raises(ConfigError, match="base_url and model"):
        make_deck("[tools.summarizer]\nenabled = true\n")
