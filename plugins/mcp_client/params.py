"""Parameter models for MCP tools: the server's JSON Schema, checked by ``jsonschema``.

The deck validates every call with ``tool.params.model_validate`` and reads the schema the
model sees from ``tool.params.model_json_schema()``. For an MCP tool both come from the
server's input schema, unchanged: the call is checked against it before it leaves (a value of
the wrong type is ``type_mismatch``, anything else ``invalid_parameters``) and the arguments
reach the server exactly as the model sent them.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, model_validator
from pydantic_core import PydanticCustomError

__all__ = ["McpParams", "params_model"]

_MAX_PROBLEMS = 5


class McpParams(BaseModel):
    """Base of the generated models: any keys, checked against ``input_schema``."""

    model_config = ConfigDict(extra="allow", frozen=True)

    input_schema: ClassVar[dict[str, Any]] = {"type": "object"}
    validator: ClassVar[Any] = None

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The server's input schema (a copy), whatever the arguments."""
        return copy.deepcopy(cls.input_schema)

    @model_validator(mode="before")
    @classmethod
    def _check_schema(cls, data: Any) -> Any:
        if cls.validator is None:
            return data
        errors = sorted(cls.validator.iter_errors(data), key=lambda e: list(e.path))
        if not errors:
            return data
        parts = []
        for err in errors[:_MAX_PROBLEMS]:
            where = ".".join(str(p) for p in err.path) or "(parameters)"
            parts.append(f"{where}: {err.message[:200]}")
        if len(errors) > _MAX_PROBLEMS:
            parts.append(f"and {len(errors) - _MAX_PROBLEMS} more problems")
        kind = "mcp_schema_type" if all(e.validator == "type" for e in errors) else "mcp_schema"
        raise PydanticCustomError(kind, "{detail}", {"detail": "; ".join(parts)})


def params_model(tool_id: str, schema: Mapping[str, Any]) -> type[McpParams]:
    """A parameters model for one MCP tool.

    :param tool_id: the deck's id of the tool (names the class).
    :param schema: the tool's input schema from ``tools/list``.
    :returns: a :class:`McpParams` subclass validating against ``schema``.
    :raises ValueError: the schema is not a valid JSON Schema.
    """
    import jsonschema
    from jsonschema.exceptions import SchemaError

    document = copy.deepcopy(dict(schema))
    validator_cls = jsonschema.validators.validator_for(
        document, default=jsonschema.Draft202012Validator)
    try:
        validator_cls.check_schema(document)
    except SchemaError as exc:
        raise ValueError(f"invalid input schema: {exc.message}") from None
    namespace = {"input_schema": document, "validator": validator_cls(document),
                 "__module__": __name__}
    return type(f"Params_{tool_id}", (McpParams,), namespace)
