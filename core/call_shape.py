"""Refuse calls whose shape no tool accepts, before any step of the pipeline looks inside.

A model's tool call is untrusted text turned into Python values; the pipeline (TAFC
stripping, lookups, gates, the audit record) assumes a string tool id and a mapping of named
parameters. These rules make every other shape a classified error instead of a traceback.

======================  ====================  ==============================================
rule                    category              refuses
======================  ====================  ==============================================
``tool-id-string``      tool_not_found        a tool id that is not a string
``params-object``       invalid_parameters    parameters that are not an object (``null``, a
                                              list, a string, a number)
``param-names``         invalid_parameters    a parameter name that is not a string
``params-depth``        invalid_parameters    parameters nested deeper than
                                              :data:`MAX_PARAMS_DEPTH` levels
======================  ====================  ==============================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooldeck.errors import ErrorCategory, ToolError
from tooldeck.models import ToolCall
from tooldeck.safe_json import safe_repr

__all__ = ["MAX_PARAMS_DEPTH", "shape_error"]

MAX_PARAMS_DEPTH = 64
"""The deepest nesting of objects and arrays accepted in a call's parameters."""

_KINDS = {type(None): "null", list: "an array", tuple: "an array", str: "a string",
          bytes: "bytes", bool: "a boolean", int: "a number", float: "a number"}


def _kind(value: Any) -> str:
    return _KINDS.get(type(value), type(value).__name__)


def _rule_tool_id_string(call: ToolCall) -> ToolError | None:
    if isinstance(call.tool_id, str):
        return None
    return ToolError(ErrorCategory.TOOL_NOT_FOUND,
                     f"rule 'tool-id-string': the tool name must be a string, found "
                     f"{_kind(call.tool_id)}")


def _rule_params_object(call: ToolCall) -> ToolError | None:
    if isinstance(call.params, Mapping):
        return None
    return ToolError(ErrorCategory.INVALID_PARAMETERS,
                     f"rule 'params-object': the parameters of {safe_repr(call.tool_id)} must be "
                     f"a JSON object such as {{\"name\": value}}, found {_kind(call.params)}")


def _rule_param_names(call: ToolCall) -> ToolError | None:
    for name in call.params:
        if not isinstance(name, str):
            return ToolError(ErrorCategory.INVALID_PARAMETERS,
                             f"rule 'param-names': parameter names must be strings, found "
                             f"{_kind(name)} {safe_repr(name, 40)}")
    return None


_LEAVES = frozenset({str, int, float, bool, type(None)})


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests containers more than ``limit`` deep (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if type(node) in _LEAVES:  # most parameters: no abstract-class check needed
            continue
        if isinstance(node, Mapping):
            children: Any = node.values()
        elif isinstance(node, (list, tuple)):
            children = node
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _rule_params_depth(call: ToolCall) -> ToolError | None:
    if not _depth_exceeds(call.params, MAX_PARAMS_DEPTH):
        return None
    return ToolError(ErrorCategory.INVALID_PARAMETERS,
                     f"rule 'params-depth': the parameters are nested deeper than "
                     f"{MAX_PARAMS_DEPTH} levels")


def shape_error(call: ToolCall) -> ToolError | None:
    """The error for a call of impossible shape, or ``None`` when the pipeline may look inside.

    :param call: the call as the model sent it.
    :returns: the first rule's error (rules run in the order of the table above).
    """
    params = call.params
    if type(call.tool_id) is str and type(params) is dict:
        # the usual call, a flat object of named scalars, passes every rule: said at once
        for name, value in params.items():
            if type(name) is not str or type(value) not in _LEAVES:
                return _table_error(call)
        return None
    return _table_error(call)


_RULES = (_rule_tool_id_string, _rule_params_object, _rule_param_names, _rule_params_depth)


def _table_error(call: ToolCall) -> ToolError | None:
    """The first rule of the table that refuses ``call``, in order; ``None`` when none does."""
    for rule in _RULES:
        error = rule(call)
        if error is not None:
            return error
    return None
