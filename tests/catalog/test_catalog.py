"""Catalog renderings are generated from the params models: one source of truth."""

from __future__ import annotations

import json
from typing import Literal

import pydantic
import pytest

from tooldeck.catalog import render, schema_complexity, tool_schema
from tooldeck.config import TafcConfig
from tooldeck.models import ToolDef


class CommandParams(pydantic.BaseModel):
    command: str = pydantic.Field(description="The shell command to run.")
    background: bool = pydantic.Field(False, description="Run it in the background.")


class Inner(pydantic.BaseModel):
    mode: Literal["a", "b", "c", "d", "e", "f", "g", "h", "i"]
    extra: dict[str, list[int]] | None = None


class ComplexParams(pydantic.BaseModel):
    target: Inner | str
    options: list[Inner]
    a: int
    b: int
    c: int
    d: int
    e: int
    f: int


BASH = ToolDef(id="bash", description="Run a shell command.", params=CommandParams,
               executor="shell", invocation="fenced:bash")
PLAN = ToolDef(id="plan", description="Plan.", params=ComplexParams, executor="x")


def test_prompt_block_for_fenced_and_structured_tools() -> None:
    text = render([BASH, PLAN], "prompt")
    assert text.startswith("<tools>\n## bash\nRun a shell command.\n"
                           "Invocation: use ```bash fenced block\nParameters:\n")
    assert "  - command: The shell command to run. (string, required)\n" in text
    assert "  - background: Run it in the background. (boolean, optional)\n" in text
    assert ('## plan\nPlan.\nInvocation: use tool_call with '
            '{"tool_id": "plan", "params": {...}}\n') in text
    assert text.endswith("\n</tools>")


def test_optional_union_reports_the_non_null_type() -> None:
    class P(pydantic.BaseModel):
        limit: int | None = None

    tool = ToolDef(id="t", description="d", params=P, executor="x")
    assert "  - limit:  (integer, optional)" in render([tool], "prompt")


def test_openai_and_anthropic_share_one_schema_without_titles() -> None:
    openai = json.loads(render([BASH], "openai"))
    anthropic = json.loads(render([BASH], "anthropic"))
    schema = openai[0]["function"]["parameters"]
    assert anthropic[0]["input_schema"] == schema
    assert "title" not in json.dumps(schema)
    assert schema["required"] == ["command"]
    assert set(schema["properties"]) == {"command", "background"}


def test_json_format_carries_routing_facts() -> None:
    (entry,) = json.loads(render([BASH], "json"))
    assert entry["invocation"] == "fenced:bash" and entry["executor"] == "shell"


def test_unknown_format_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        render([BASH], "yaml")


def test_tafc_field_only_for_complex_schemas_and_only_when_enabled() -> None:
    simple = tool_schema(BASH)
    complex_ = tool_schema(PLAN)
    assert schema_complexity(simple) < 0.6 <= schema_complexity(complex_)
    on = TafcConfig(enabled=True)
    assert "_tafc_think" not in tool_schema(BASH, on)["properties"]
    assert next(iter(tool_schema(PLAN, on)["properties"])) == "_tafc_think"
    assert "_tafc_think" not in tool_schema(PLAN, TafcConfig())["properties"]


def test_invalid_tool_ids_and_invocations_are_refused() -> None:
    with pytest.raises(ValueError, match="invalid tool id"):
        ToolDef(id="1bad", description="d", params=CommandParams, executor="x")
    with pytest.raises(ValueError, match="invalid invocation"):
        ToolDef(id="ok", description="d", params=CommandParams, executor="x",
                invocation="fenced:")


def test_params_docstrings_stay_out_of_the_schema() -> None:
    class Documented(pydantic.BaseModel):
        """Internal notes for programmers about ``Documented``."""

        path: str = pydantic.Field(description="The file.")

    tool = ToolDef(id="t", description="d", params=Documented, executor="x")
    schema = tool_schema(tool)
    assert "description" not in schema
    assert schema["properties"]["path"]["description"] == "The file."
