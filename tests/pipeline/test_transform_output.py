"""tooldeck_transform_output: outputs pass through every transformer, in turn."""

from __future__ import annotations

import attrs
import pydantic

from tooldeck import hookimpl
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall, ToolDef, ToolOutput


class Params(pydantic.BaseModel):
    text: str


class Echo:
    name = "echo"

    async def execute(self, call, ctx):  # type: ignore[no-untyped-def]
        return ToolOutput("echo", ctx.params.text, raw_response={"text": ctx.params.text})


class EchoPlugin:
    @hookimpl
    def tooldeck_register_executors(self, register):  # type: ignore[no-untyped-def]
        register(Echo())

    @hookimpl
    def tooldeck_register_tools(self, register):  # type: ignore[no-untyped-def]
        register(ToolDef(id="echo", description="d", params=Params, executor="echo",
                         input_param="text"))


class Upper:
    @hookimpl
    def tooldeck_transform_output(self, output: ToolOutput) -> ToolOutput:
        return attrs.evolve(output, summary=output.summary.upper())


class Suffix:
    @hookimpl
    def tooldeck_transform_output(self, output: ToolOutput) -> ToolOutput:
        return attrs.evolve(output, summary=output.summary + "!")


class Abstains:
    @hookimpl
    def tooldeck_transform_output(self, output: ToolOutput) -> None:
        return None


class Broken:
    @hookimpl
    def tooldeck_transform_output(self, output: ToolOutput) -> ToolOutput:
        raise RuntimeError("boom")


def deck(extra: str = "", **plugins: object) -> Deck:
    doc = parse_document('[tools.audit]\nenabled = false\n[[tools.permissions.echo]]\n'
                         f'pattern = "*"\naction = "allow"\n{extra}', None, "test")
    return Deck.from_config(doc, extra_plugins={"echo": EchoPlugin(), **plugins})


def test_transformers_compose_and_keep_the_raw_response() -> None:
    result = deck(a_upper=Upper(), b_suffix=Suffix(), c_none=Abstains()).call_sync(
        ToolCall("echo", {"text": "hi"}))
    assert result.text == "HI!"  # both ran, each on the other's result
    assert result.output is not None and result.output.raw_response == {"text": "hi"}


def test_a_failing_transformer_is_skipped_not_fatal(capsys) -> None:  # type: ignore[no-untyped-def]
    result = deck(bad=Broken(), upper=Upper()).call_sync(ToolCall("echo", {"text": "hi"}))
    assert result.ok and result.text == "HI"
    assert "output transform 'bad' failed" in capsys.readouterr().err


def test_a_failing_transformer_does_not_let_secrets_through(capsys) -> None:  # type: ignore[no-untyped-def]
    """The failing transformer may be the one that redacts: the core redacts in its place."""
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    result = deck(bad=Broken()).call_sync(ToolCall("echo", {"text": f"token={token} ok"}))
    assert result.ok and token not in result.text
    assert "[REDACTED:" in result.text and result.text.endswith(" ok")
    assert "secrets redacted" in capsys.readouterr().err
    plain = deck(bad=Broken()).call_sync(ToolCall("echo", {"text": "nothing secret"}))
    assert plain.text == "nothing secret"


def test_summarize_output_false_skips_transformers() -> None:
    result = deck("[tools]\nsummarize_output = false\n", upper=Upper()).call_sync(
        ToolCall("echo", {"text": "hi"}))
    assert result.text == "hi"
