"""Parameter tables without pydantic: attrs validators, and building a class from a TOML table.

A parameter class is an ``@attrs.frozen(kw_only=True)`` class whose fields carry the validators
below; :func:`from_table` builds one from a table as written in TOML. Every problem is a
:class:`TableError` whose message starts with the dotted key it is about, e.g.
``max_lines: expected an integer >= 1, got 0`` or
``normalize_patterns.0.pattern: missing (required)``.

==========================  ======================================================================
validator                   accepts
==========================  ======================================================================
``integer(minimum=n)``      an ``int`` (not a ``bool``) of at least ``n``
``optional_integer``        an ``int`` (not a ``bool``) or ``None``
``string``                  a ``str``
``non_empty_string``        a ``str`` of at least one character
``optional_string``         a ``str`` or ``None``
``boolean``                 a ``bool``
``mapping``                 a table (a mapping with string keys)
``string_list(min_length)`` a list of ``str`` with at least ``min_length`` items
``nested(cls)``             an instance of the parameter class ``cls``; a table is built into one
                            (``optional=True``: or ``None``)
``nested_list(cls)``        a list of instances of ``cls``; tables are built into them
==========================  ======================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import attrs

__all__ = [
    "TableError",
    "boolean",
    "from_table",
    "integer",
    "mapping",
    "nested",
    "nested_list",
    "non_empty_string",
    "optional_integer",
    "optional_string",
    "string",
    "string_list",
]

_T = TypeVar("_T")

Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]
"""The signature attrs calls a field validator with: ``(instance, attribute, value)``."""


class TableError(ValueError):
    """A table that does not fit a parameter class; the message starts with the dotted key.

    :param problems: ``(dotted key, problem)`` pairs; an empty key for a problem of the whole
        table (a cross-field check).
    """

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{key}: {text}" if key else text for key, text in problems))

    def under(self, prefix: str) -> TableError:
        """The same problems, with their keys moved under ``prefix`` (a nested table's key).

        :param prefix: the dotted key of the nested table.
        :returns: the new error.
        """
        return TableError(
            [(f"{prefix}.{key}" if key else prefix, text) for key, text in self.problems]
        )


def _key(attribute: attrs.Attribute[Any]) -> str:
    """The table key of a field: its ``__init__`` argument name."""
    return attribute.alias or attribute.name


def _shown(value: object) -> str:
    """``value`` for a message: its repr (shortened), or its type for a list or a table."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        shown = repr(value)
        return shown if len(shown) <= 60 else f"{shown[:50]}… ({len(shown)} characters)"
    return f"a {type(value).__name__}"


def _fail(key: str, expected: str, value: object) -> TableError:
    return TableError([(key, f"expected {expected}, got {_shown(value)}")])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(*, minimum: int) -> Validator:
    """A validator for an ``int`` (``True``/``False`` are rejected) of at least ``minimum``.

    :param minimum: the smallest accepted value.
    :returns: the validator.
    """

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise _fail(_key(attribute), f"an integer >= {minimum}", value)

    return check


def optional_integer(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validate an ``int`` (not a ``bool``) or ``None``.

    :raises TableError: for anything else.
    """
    if value is not None and not _is_int(value):
        raise _fail(_key(attribute), "an integer", value)


def string(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validate a ``str``.

    :raises TableError: for anything else.
    """
    if not isinstance(value, str):
        raise _fail(_key(attribute), "a string", value)


def non_empty_string(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validate a ``str`` of at least one character.

    :raises TableError: for anything else.
    """
    if not isinstance(value, str) or not value:
        raise _fail(_key(attribute), "a non-empty string", value)


def optional_string(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validate a ``str`` or ``None``.

    :raises TableError: for anything else.
    """
    if value is not None and not isinstance(value, str):
        raise _fail(_key(attribute), "a string", value)


def boolean(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validate ``True`` or ``False``.

    :raises TableError: for anything else.
    """
    if not isinstance(value, bool):
        raise _fail(_key(attribute), "true or false", value)


def mapping(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validate a table: a mapping whose keys are strings.

    :raises TableError: for anything else.
    """
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise _fail(_key(attribute), "a table", value)


def string_list(*, min_length: int = 0) -> Validator:
    """A validator for a list of ``str`` with at least ``min_length`` items.

    :param min_length: the fewest accepted items.
    :returns: the validator.
    """

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, list):
            raise _fail(_key(attribute), "a list of strings", value)
        for position, item in enumerate(value):
            if not isinstance(item, str):
                raise _fail(f"{_key(attribute)}.{position}", "a string", item)
        if len(value) < min_length:
            raise TableError(
                [(_key(attribute), f"expected at least {min_length} item(s), got {len(value)}")]
            )

    return check


@attrs.frozen
class _Nested:
    """The validator of a field holding one parameter object; :func:`from_table` builds it."""

    item_type: type[Any]
    optional: bool

    def __call__(self, instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, self.item_type) and not (self.optional and value is None):
            raise _fail(_key(attribute), "a table", value)

    def build(self, key: str, value: object) -> object:
        """``value`` built into :attr:`item_type` when it is a table, else unchanged."""
        return _build_item(self.item_type, key, value)


@attrs.frozen
class _NestedList:
    """The validator of a field holding a list of parameter objects; tables are built first."""

    item_type: type[Any]

    def __call__(self, instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if not isinstance(value, list):
            raise _fail(_key(attribute), "a list of tables", value)
        for position, item in enumerate(value):
            if not isinstance(item, self.item_type):
                raise _fail(f"{_key(attribute)}.{position}", "a table", item)

    def build(self, key: str, value: object) -> object:
        """``value`` with its tables built into :attr:`item_type` when it is a list."""
        if not isinstance(value, list):
            return value
        built: list[object] = []
        problems: list[tuple[str, str]] = []
        for position, item in enumerate(value):
            try:
                built.append(_build_item(self.item_type, f"{key}.{position}", item))
            except TableError as exc:
                problems += exc.problems
        if problems:
            raise TableError(problems)
        return built


def _build_item(item_type: type[Any], key: str, value: object) -> object:
    if not isinstance(value, Mapping):
        return value
    try:
        return from_table(item_type, value)
    except TableError as exc:
        raise exc.under(key) from None


def nested(item_type: type[Any], *, optional: bool = False) -> Validator:
    """A validator for a field holding one ``item_type`` object, written as a table in TOML.

    :param item_type: an attrs parameter class.
    :param optional: also accept ``None``.
    :returns: the validator; :func:`from_table` builds the table with ``from_table(item_type,
        ...)`` first, prefixing the nested key's problems with the field's name.
    """
    return _Nested(item_type, optional)


def nested_list(item_type: type[Any]) -> Validator:
    """A validator for a list of ``item_type`` objects, written as a list of tables in TOML.

    :param item_type: an attrs parameter class.
    :returns: the validator; :func:`from_table` builds each table first, and a problem is
        reported as ``field.{position}.key: …``.
    """
    return _NestedList(item_type)


def _checked(field: attrs.Attribute[Any], value: object) -> object:
    """``value`` with its nested tables built, after the field's validator accepted it."""
    validator = field.validator
    if isinstance(validator, (_Nested, _NestedList)):
        value = validator.build(_key(field), value)
    if validator is not None and field.converter is None:
        try:
            validator(None, field, value)
        except TableError:
            raise
        except (TypeError, ValueError) as exc:  # e.g. one of ``attrs.validators``
            raise TableError([(_key(field), str(exc))]) from None
    return value


def from_table(cls: type[_T], values: object) -> _T:
    """Build the attrs parameter class ``cls`` from a table, validating every field.

    Every problem is reported, each naming its key: unknown keys, missing required keys,
    values the fields' validators reject (in nested tables too). Then the instance is built,
    running the class's ``__attrs_post_init__`` (cross-field checks, which raise
    :class:`ValueError`).

    :param cls: an attrs class whose fields carry validators (keys are the ``__init__``
        argument names).
    :param values: the table as parsed from TOML (anything else is reported).
    :returns: the instance.
    :raises TableError: for a value that is not a table, an unknown or missing key, or a value
        a validator or the class rejects; the message starts with the dotted key.
    """
    if not isinstance(values, Mapping):
        raise _fail("", "a table", values)
    fields: tuple[attrs.Attribute[Any], ...] = attrs.fields(cls)  # type: ignore[arg-type]
    known = {_key(field): field for field in fields}
    problems = [
        (str(key), f"unknown key (expected one of: {', '.join(sorted(known))})")
        for key in values
        if key not in known
    ]
    problems += [
        (_key(field), "missing (required)")
        for field in fields
        if field.default is attrs.NOTHING and _key(field) not in values
    ]
    arguments: dict[str, object] = {}
    for key, value in values.items():
        if key in known:
            try:
                arguments[key] = _checked(known[key], value)
            except TableError as exc:
                problems += exc.problems
    if problems:
        raise TableError(problems)
    try:
        return cls(**arguments)
    except TableError:
        raise
    except (TypeError, ValueError) as exc:  # a cross-field check, or a converter
        raise TableError([("", str(exc))]) from None
