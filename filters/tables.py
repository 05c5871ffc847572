"""TOML tables validated by pydantic, every problem reported under its dotted key.

A rule's tables (:mod:`tooldeck.filters.rules`) and a strategy's parameters are declared
once, in pydantic's terms: either a pydantic model, or a frozen standard-library dataclass
whose constraints are :mod:`annotated_types` annotations (``Annotated[int, Ge(1)]``, with
:func:`Ge` and :func:`MinLen` from this module, which build them only when the annotation is
evaluated), which pydantic validates natively. Cross-field checks go in
``__post_init__`` (dataclass) or a model validator and raise :class:`ValueError`.

:func:`validate_table` validates with pydantic, imported on first use. :func:`build_table`
builds the same objects without validating the field types (``__post_init__`` checks still
run): only for tables shipped with tooldeck itself, which the test suite validates, so that
the one-shot ``tooldeck filter`` never imports pydantic for the built-in rules.

Messages name the dotted key: ``max_lines: Input should be greater than or equal to 1, got
0``, ``normalize_patterns.0.pattern: missing (required)``, ``sufix: unknown key (expected one
of: max_lines, suffix)``.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import typing
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

__all__ = ["Ge", "MinLen", "TableError", "build_table", "table_fields", "validate_table"]

_T = TypeVar("_T")


def Ge(value: int) -> Any:
    """``annotated_types.Ge(value)``, built when pydantic evaluates the annotation.

    Annotations are strings until validation (``from __future__ import annotations``), so a
    module declaring ``Annotated[int, Ge(1)]`` imports neither pydantic nor annotated_types.

    :param value: the smallest accepted value.
    :returns: the constraint.
    """
    import annotated_types

    return annotated_types.Ge(value)


def MinLen(value: int) -> Any:
    """``annotated_types.MinLen(value)``, built when pydantic evaluates the annotation.

    :param value: the fewest accepted items (or characters).
    :returns: the constraint.
    """
    import annotated_types

    return annotated_types.MinLen(value)


class TableError(ValueError):
    """A table that does not fit its class; the message starts with the dotted key.

    :param problems: ``(dotted key, problem)`` pairs; an empty key for a problem of the whole
        table (a cross-field check).
    """

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{key}: {text}" if key else text for key, text in problems))


def _shown(value: object) -> str:
    """``value`` for a message: its repr (shortened), or its type for a list or a table."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        shown = repr(value)
        return shown if len(shown) <= 60 else f"{shown[:50]}… ({len(shown)} characters)"
    return f"a {type(value).__name__}"


_HINTS: dict[type[Any], dict[str, Any]] = {}
_ADAPTERS: dict[type[Any], Any] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def table_fields(cls: type[Any]) -> list[str]:
    """The keys a table for ``cls`` (a dataclass or a pydantic model) accepts.

    :param cls: the class.
    :returns: the field names, in declaration order.
    """
    if dataclasses.is_dataclass(cls):
        return [field.name for field in dataclasses.fields(cls)]
    return list(getattr(cls, "model_fields", {}))


def _item_class(annotation: Any) -> type[Any] | None:
    """The table class inside ``X``, ``list[X]`` or ``X | None``, if there is one."""
    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type) and (dataclasses.is_dataclass(candidate)
                                            or hasattr(candidate, "model_fields")):
            return candidate
    return None


def _class_at(cls: type[Any], loc: Sequence[int | str]) -> type[Any] | None:
    """The table class at ``loc`` inside ``cls`` (list positions skipped)."""
    current: type[Any] | None = cls
    for part in loc:
        if current is None:
            return None
        if isinstance(part, int):
            continue
        annotation = (_hints(current).get(part) if dataclasses.is_dataclass(current)
                      else getattr(current.model_fields.get(part), "annotation", None))
        current = _item_class(annotation)
    return current


_MISSING = frozenset({"missing", "missing_argument", "missing_keyword_only_argument"})
_UNKNOWN = frozenset({"extra_forbidden", "unexpected_keyword_argument"})


def _problem(cls: type[Any], error: Mapping[str, Any]) -> tuple[str, str]:
    loc = tuple(error["loc"])
    key = ".".join(str(part) for part in loc)
    if error["type"] in _MISSING:
        return key, "missing (required)"
    if error["type"] in _UNKNOWN:
        owner = _class_at(cls, loc[:-1])
        known = ", ".join(sorted(table_fields(owner))) if owner is not None else ""
        return key, f"unknown key (expected one of: {known})" if known else "unknown key"
    message = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] == "value_error" or "input" not in error:
        return key, message
    return key, f"{message}, got {_shown(error['input'])}"


def _adapter(cls: type[Any]) -> Any:
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        import pydantic

        adapter = _ADAPTERS[cls] = pydantic.TypeAdapter(cls)
    return adapter


def validate_table(cls: type[_T], values: object) -> _T:
    """Validate a table into ``cls`` with pydantic (imported on first use).

    :param cls: a pydantic model, or a dataclass with ``__pydantic_config__ =
        {"extra": "forbid"}`` so unknown keys are refused.
    :param values: the table as parsed from TOML.
    :returns: the instance.
    :raises TableError: every problem, each under its dotted key.
    """
    if not isinstance(values, Mapping):
        raise TableError([("", f"expected a table, got {_shown(values)}")])
    import pydantic

    try:
        result: _T = _adapter(cls).validate_python(dict(values))
    except pydantic.ValidationError as exc:
        raise TableError([_problem(cls, error) for error in exc.errors()]) from None
    return result


_NAME = re.compile(r"[A-Za-z_]\w*")


def _nested_classes(cls: type[Any]) -> dict[str, type[Any]]:
    """The dataclass each field of ``cls`` holds (``X``, ``list[X]``, ``X | None``).

    Read from the annotation text without evaluating it (that would build the constraints).
    """
    namespace = vars(sys.modules[cls.__module__])
    nested: dict[str, type[Any]] = {}
    for field in dataclasses.fields(cls):
        text = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", "")
        for name in _NAME.findall(str(text)):
            candidate = namespace.get(name)
            if isinstance(candidate, type) and dataclasses.is_dataclass(candidate):
                nested[field.name] = candidate
                break
    return nested


def build_table(cls: type[_T], values: Mapping[str, Any]) -> _T:
    """Build ``cls`` from a trusted table without validating field types (no pydantic).

    Nested tables and lists of tables are built into their dataclasses; ``__post_init__``
    checks run. Only for tables tooldeck ships, which the test suite validates.

    :param cls: a dataclass.
    :param values: the table.
    :returns: the instance.
    :raises ValueError: a cross-field check failed.
    :raises TypeError: an unknown or missing key.
    """
    nested = _nested_classes(cls)
    arguments: dict[str, Any] = {}
    for key, value in values.items():
        item = nested.get(key)
        if item is not None and isinstance(value, Mapping):
            value = build_table(item, value)
        elif item is not None and isinstance(value, list):
            value = [build_table(item, v) if isinstance(v, Mapping) else v for v in value]
        arguments[key] = value
    return cls(**arguments)
