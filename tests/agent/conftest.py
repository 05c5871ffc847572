"""Fixtures for the agent side: decks writing an audit log, and loopback model servers."""

from __future__ import annotations

import functools
import json
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tooldeck.deck import Deck

ALLOW_ECHO = """
[[tools.permissions.bash]]
pattern = "echo *"
action = "allow"
"""
"""bash may run echo without asking; anything else is asked about (and, with no
confirmation callback, refused), so no test can run a destructive command by accident."""

Script = Callable[[int, dict[str, Any]], "Mapping[str, Any] | tuple[int, Any]"]


class _QuietServer(ThreadingHTTPServer):
    """A server for which a client that hung up (a timeout under test) is no error to print."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class ModelServer:
    """A real HTTP server on 127.0.0.1 answering each POST from a script; records requests.

    :param script: ``script(n, body)`` for the n-th request (0-based): a JSON object to
        answer with status 200, or ``(status, body)``.
    """

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append({"path": self.path, "headers": dict(self.headers),
                                        "body": body})
                answer = server.script(len(server.requests) - 1, body)
                status, payload = answer if isinstance(answer, tuple) else (200, answer)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.01,),
                                        daemon=True)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def bodies(self) -> list[dict[str, Any]]:
        """The JSON body of every request, in order."""
        return [r["body"] for r in self.requests]

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


@pytest.fixture
def model_server() -> Iterator[Callable[[Script], ModelServer]]:
    """``model_server(script)``: a started :class:`ModelServer`, stopped after the test."""
    servers: list[ModelServer] = []

    def start(script: Script) -> ModelServer:
        server = ModelServer(script)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory, made the current directory."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def audit_path(tmp_path: Path) -> Path:
    return tmp_path / "audit.jsonl"


@pytest.fixture
async def make_deck(project: Path, tmp_path: Path,
                    audit_path: Path) -> AsyncIterator[Callable[..., Deck]]:
    """``make_deck(toml)``: a deck from the TOML, auditing to ``audit_path``; closed after."""
    decks: list[Deck] = []

    def make(body: str = ALLOW_ECHO, *, plugins: Mapping[str, object] | None = None) -> Deck:
        path = tmp_path / "conf" / "tooldeck.toml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f'[tools.audit]\npath = "{audit_path}"\n{body}', encoding="utf-8")
        deck = Deck.from_config(path, extra_plugins=dict(plugins or {}))
        decks.append(deck)
        return deck

    yield make
    for deck in decks:
        await deck.aclose()


@pytest.fixture
def audit(audit_path: Path) -> Callable[..., list[dict[str, Any]]]:
    """``audit(kind=None)``: the records written so far, oldest first."""
    def read(kind: str | None = None) -> list[dict[str, Any]]:
        if not audit_path.exists():
            return []
        records = [json.loads(line) for line in audit_path.read_text("utf-8").splitlines()]
        return [r for r in records if kind is None or r["kind"] == kind]
    return read


# ---------------------------------------------------------------------------- dialects


def _consume(value: Any) -> Any:
    """Walk a validated value, consuming pydantic's lazy iterators so their items validate."""
    if isinstance(value, dict):
        return {k: _consume(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ValidatorIterator":
        return [_consume(v) for v in value]
    return value


@functools.cache
def _validator(kind: Any) -> Callable[[Any], Any]:
    from pydantic import ConfigDict, TypeAdapter

    adapter: TypeAdapter[Any] = TypeAdapter(kind, config=ConfigDict(extra="forbid"))
    return lambda value: _consume(adapter.validate_python(value))


def _encode(args: Any) -> str:
    return args if isinstance(args, str) else json.dumps(args)


class OpenAIChatDialect:
    """Scripted OpenAI chat completions, and how to read what the model was sent."""

    name = "openai_chat"
    messages_key = "messages"

    def client(self, url: str) -> Any:
        from tooldeck.model_clients import openai_chat_client

        return openai_chat_client(url + "/v1", "scripted-model", api_key="sk-test")

    def tool_reply(self, calls: list[tuple[str, str, Any]], text: str | None = None
                   ) -> dict[str, Any]:
        from openai.types.chat import ChatCompletion

        reply = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1,
                 "model": "scripted-model",
                 "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": None,
                              "message": {"role": "assistant", "content": text,
                                          "refusal": None, "tool_calls": [
                                              {"id": cid, "type": "function",
                                               "function": {"name": name,
                                                            "arguments": _encode(args)}}
                                              for cid, name, args in calls]}}]}
        ChatCompletion.model_validate(reply)
        return reply

    def text_reply(self, text: str) -> dict[str, Any]:
        from openai.types.chat import ChatCompletion

        reply = {"id": "chatcmpl-2", "object": "chat.completion", "created": 1,
                 "model": "scripted-model",
                 "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                              "message": {"role": "assistant", "content": text,
                                          "refusal": None}}]}
        ChatCompletion.model_validate(reply)
        return reply

    def results(self, body: dict[str, Any]) -> list[tuple[str, str, bool | None]]:
        tail: list[tuple[str, str, bool | None]] = []
        for message in reversed(body["messages"]):
            if message["role"] != "tool":
                break
            tail.insert(0, (message["tool_call_id"], message["content"], None))
        return tail

    def last_user_text(self, body: dict[str, Any]) -> str:
        message = body["messages"][-1]
        assert message["role"] == "user"
        return str(message["content"])

    def validate(self, body: dict[str, Any]) -> None:
        from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam

        _validator(list[ChatCompletionMessageParam])(body["messages"])
        _validator(list[ChatCompletionToolParam])(body.get("tools", []))


class AnthropicDialect:
    """Scripted Anthropic messages, and how to read what the model was sent."""

    name = "anthropic"
    messages_key = "messages"

    def client(self, url: str) -> Any:
        from tooldeck.model_clients import anthropic_messages_client

        return anthropic_messages_client(url, "scripted-model", api_key="sk-ant-test",
                                         system="You are a test.")

    def _message(self, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
        from anthropic.types import Message

        reply = {"id": "msg_1", "type": "message", "role": "assistant",
                 "model": "scripted-model", "content": content, "stop_reason": stop,
                 "stop_sequence": None,
                 "usage": {"input_tokens": 1, "output_tokens": 1}}
        Message.model_validate(reply)
        return reply

    def tool_reply(self, calls: list[tuple[str, str, Any]], text: str | None = None
                   ) -> dict[str, Any]:
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        content += [{"type": "tool_use", "id": cid, "name": name, "input": args}
                    for cid, name, args in calls]
        if any(isinstance(args, str) for _c, _n, args in calls):
            # a malformed input cannot pass the SDK's own type: built without the check
            return {"id": "msg_1", "type": "message", "role": "assistant",
                    "model": "scripted-model", "content": content, "stop_reason": "tool_use",
                    "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}
        return self._message(content, "tool_use")

    def text_reply(self, text: str) -> dict[str, Any]:
        return self._message([{"type": "text", "text": text}], "end_turn")

    def results(self, body: dict[str, Any]) -> list[tuple[str, str, bool | None]]:
        message = body["messages"][-1]
        if message["role"] != "user" or not isinstance(message["content"], list):
            return []
        return [(b["tool_use_id"], b["content"], b.get("is_error"))
                for b in message["content"] if b["type"] == "tool_result"]

    def last_user_text(self, body: dict[str, Any]) -> str:
        message = body["messages"][-1]
        assert message["role"] == "user"
        return str(message["content"])

    def validate(self, body: dict[str, Any]) -> None:
        from anthropic.types import MessageParam, ToolParam

        _validator(list[MessageParam])(body["messages"])
        _validator(list[ToolParam])(body.get("tools", []))


class OpenAIResponsesDialect:
    """Scripted OpenAI Responses API replies, and how to read what the model was sent."""

    name = "openai_responses"
    messages_key = "input"

    def client(self, url: str) -> Any:
        from tooldeck.model_clients import openai_responses_client

        return openai_responses_client(url + "/v1", "scripted-model", api_key="sk-test")

    def _response(self, output: list[dict[str, Any]]) -> dict[str, Any]:
        from openai.types.responses import Response

        reply = {"id": "resp_1", "object": "response", "created_at": 1, "model": "m",
                 "output": output, "parallel_tool_calls": True, "tool_choice": "auto",
                 "tools": [], "status": "completed"}
        Response.model_validate(reply)
        return reply

    def tool_reply(self, calls: list[tuple[str, str, Any]], text: str | None = None
                   ) -> dict[str, Any]:
        output: list[dict[str, Any]] = []
        if text:
            output.append(self._text_item(text))
        output += [{"type": "function_call", "id": f"fc_{cid}", "call_id": cid, "name": name,
                    "arguments": _encode(args), "status": "completed"}
                   for cid, name, args in calls]
        return self._response(output)

    @staticmethod
    def _text_item(text: str) -> dict[str, Any]:
        return {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}

    def text_reply(self, text: str) -> dict[str, Any]:
        return self._response([self._text_item(text)])

    def results(self, body: dict[str, Any]) -> list[tuple[str, str, bool | None]]:
        tail: list[tuple[str, str, bool | None]] = []
        for item in reversed(body["input"]):
            if item.get("type") != "function_call_output":
                break
            tail.insert(0, (item["call_id"], item["output"], None))
        return tail

    def last_user_text(self, body: dict[str, Any]) -> str:
        item = body["input"][-1]
        assert item["role"] == "user"
        return str(item["content"])

    def validate(self, body: dict[str, Any]) -> None:
        from openai.types.responses import FunctionToolParam, ResponseInputItemParam

        _validator(list[ResponseInputItemParam])(body["input"])
        _validator(list[FunctionToolParam])(body.get("tools", []))


DIALECTS = {d.name: d for d in (OpenAIChatDialect(), AnthropicDialect(),
                                OpenAIResponsesDialect())}


@pytest.fixture(params=sorted(DIALECTS))
def dialect(request: pytest.FixtureRequest) -> Any:
    """Each provider format in turn."""
    return DIALECTS[request.param]


@pytest.fixture(params=["anthropic", "openai_chat"])
def chat_dialect(request: pytest.FixtureRequest) -> Any:
    """The two formats the loop's limits are proven in (the Responses API shares the code)."""
    return DIALECTS[request.param]


@pytest.fixture
def openai_dialect() -> Any:
    """The OpenAI chat-completions format alone."""
    return DIALECTS["openai_chat"]
