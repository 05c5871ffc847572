"""The tool catalog in the shapes models consume, all generated from the params models.

- ``prompt``: the ``<tools>`` system-prompt block, with per-tool invocation instructions;
- ``openai``: ``[{"type": "function", "function": {"name", "description", "parameters"}}]``;
- ``anthropic``: ``[{"name", "description", "input_schema"}]``;
- ``json``: tooldeck's own description (id, description, invocation, capabilities, schema).

With ``[tools.tafc] enabled``, a tool whose schema is complex enough gets an extra
``_tafc_think`` string parameter inviting the model to reason first; the pipeline strips it
before validation.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tooldeck.config import TafcConfig
    from tooldeck.models import ToolDef

__all__ = ["FORMATS", "render", "schema_complexity", "tool_schema"]

FORMATS = ("prompt", "openai", "anthropic", "json")
TAFC_FIELD = "_tafc_think"
_TAFC_DESCRIPTION = (
    "Think step by step about which values the parameters need before filling them in. "
    "This field is removed before the tool runs."
)


def _strip_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_titles(v) for k, v in node.items() if k != "title"}
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node


def _depth(node: Any) -> int:
    if isinstance(node, dict):
        return 1 + max((_depth(v) for v in node.values()), default=0)
    if isinstance(node, list):
        return 1 + max((_depth(v) for v in node), default=0)
    return 1


def _walk(node: Any) -> Iterable[Mapping[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def schema_complexity(schema: Mapping[str, Any]) -> float:
    """Zeph's TAFC score in [0, 1]: nesting depth, combinators, enum size and breadth."""
    nodes = list(_walk(schema))
    depth = min(_depth(schema), 8) / 8
    combinator = 1.0 if any(k in n for n in nodes for k in ("anyOf", "oneOf", "allOf")) else 0.0
    enum = min(max((len(n["enum"]) for n in nodes if isinstance(n.get("enum"), list)),
                   default=0), 10) / 10
    flat = min(len(schema.get("properties", {})), 8) / 8
    return min(1.0, 0.3 * depth + 0.4 * combinator + 0.3 * enum + 0.2 * flat)


def tool_schema(tool: ToolDef, tafc: TafcConfig | None = None) -> dict[str, Any]:
    """The parameters' JSON Schema as sent to models.

    Titles are removed, and so are model-level descriptions (pydantic copies the params
    class's docstring there; it is written for programmers, and the tool's own description
    already tells the model what the tool does). Field descriptions stay. The TAFC field is
    added when due.
    """
    schema: dict[str, Any] = _strip_titles(tool.json_schema())
    schema.pop("description", None)
    for definition in schema.get("$defs", {}).values():
        definition.pop("description", None)
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    if tafc is not None and tafc.enabled and schema_complexity(schema) >= tafc.complexity_threshold:
        schema["properties"] = {
            TAFC_FIELD: {"type": "string", "description": _TAFC_DESCRIPTION},
            **schema["properties"],
        }
    return schema


def _type_name(prop: Mapping[str, Any]) -> str:
    if "type" in prop:
        return str(prop["type"])
    for option in prop.get("anyOf", ()):
        if option.get("type") not in (None, "null"):
            return str(option["type"])
    return "string"


def _prompt(tools: list[ToolDef], tafc: TafcConfig | None) -> str:
    lines = ["<tools>"]
    for tool in tools:
        schema = tool_schema(tool, tafc)
        lines += [f"## {tool.id}", tool.description]
        if tool.fenced_tag:
            lines.append(f"Invocation: use ```{tool.fenced_tag} fenced block")
        else:
            lines.append(
                f'Invocation: use tool_call with {{"tool_id": "{tool.id}", "params": {{...}}}}'
            )
        lines.append("Parameters:")
        required = set(schema.get("required", ()))
        for name, prop in schema["properties"].items():
            need = "required" if name in required else "optional"
            lines.append(f"  - {name}: {prop.get('description', '')} ({_type_name(prop)}, {need})")
        lines.append("")
    lines.append("</tools>")
    return "\n".join(lines)


def render(tools: list[ToolDef], fmt: str, tafc: TafcConfig | None = None) -> str:
    """Render ``tools`` in format ``fmt`` (one of :data:`FORMATS`).

    :raises ValueError: an unknown format.
    """
    if fmt == "prompt":
        return _prompt(tools, tafc)
    if fmt == "openai":
        data: list[dict[str, Any]] = [
            {"type": "function", "function": {"name": t.id, "description": t.description,
                                              "parameters": tool_schema(t, tafc)}}
            for t in tools
        ]
    elif fmt == "anthropic":
        data = [{"name": t.id, "description": t.description,
                 "input_schema": tool_schema(t, tafc)} for t in tools]
    elif fmt == "json":
        data = [{"id": t.id, "description": t.description, "invocation": t.invocation,
                 "capabilities": sorted(t.capabilities), "executor": t.executor,
                 "schema": tool_schema(t, tafc)} for t in tools]
    else:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    return json.dumps(data, indent=2, ensure_ascii=False)
