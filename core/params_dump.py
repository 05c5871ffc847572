"""A call's validated parameters as a plain dict: what ``model_dump()`` gives, made cheaply.

Every call's parameters are validated by the tool's pydantic model and dumped back to a dict
(defaults filled in). Most parameter models are flat: each field holds a ``str``, ``int``,
``float``, ``bool`` or ``None``. For those the dump is the model's own field values in field
order, so the serializer is not run. Whether a model is flat is worked out once per model
class (a fact of the code, never of a call's values):

======================================  ==================================================
a model is flat when                    because otherwise ``model_dump()`` may differ
======================================  ==================================================
``extra`` is not ``"allow"``            extra values are dumped too
no computed fields                      they are dumped too
no field or model serializer            they change what is dumped
every field's type is one of ``str``,   a nested model, a list or a custom type is
``int``, ``float``, ``bool``, ``None``  converted by the serializer
or a union of them; no ``exclude``
======================================  ==================================================

A model that is not flat is dumped by pydantic, as before.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel

__all__ = ["dump_params", "is_flat"]

_SCALARS = frozenset({str, int, float, bool, type(None)})
_FLAT: dict[type[BaseModel], bool] = {}


def _scalar(annotation: Any) -> bool:
    if annotation in _SCALARS:
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return all(_scalar(member) for member in typing.get_args(annotation))
    return False


def is_flat(model: type[BaseModel]) -> bool:
    """Whether ``model_dump()`` of an instance of ``model`` is its field values as they are.

    :param model: a pydantic model class.
    :returns: ``True`` by the rules of the module table.
    """
    decorators = model.__pydantic_decorators__
    return (
        model.model_config.get("extra") != "allow"
        and not model.model_computed_fields
        and not decorators.field_serializers
        and not decorators.model_serializers
        and all(_scalar(field.annotation) and not field.exclude
                for field in model.model_fields.values())
    )


def dump_params(params: BaseModel) -> dict[str, Any]:
    """``params.model_dump()``, without running the serializer for a flat model.

    :param params: validated parameters.
    :returns: a new dict, field names to values.
    """
    model = type(params)
    flat = _FLAT.get(model)
    if flat is None:
        flat = _FLAT[model] = is_flat(model)
    if flat:
        return dict(params.__dict__)
    return params.model_dump()
