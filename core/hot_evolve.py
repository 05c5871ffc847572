"""``attrs.evolve`` for the call pipeline: a copy of a frozen value with some fields changed.

:func:`attrs.evolve` looks the class's fields up and checks them on every copy; the pipeline
copies a call, its output and its result on every call. :func:`evolve` does the same copy
with the class's ``__init__`` fields looked up once per class.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs
from attrs import AttrsInstance

__all__ = ["evolve"]

T = TypeVar("T", bound=AttrsInstance)

_INIT_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}


def evolve(inst: T, **changes: Any) -> T:
    """A copy of the attrs instance ``inst`` with ``changes`` applied, as :func:`attrs.evolve`.

    :param inst: an instance of an attrs class.
    :param changes: new values, by ``__init__`` argument name.
    :returns: a new instance, built through the class's ``__init__`` (validators and
        converters run as they do for :func:`attrs.evolve`).
    :raises TypeError: an unknown argument name, as the class's ``__init__`` raises it.
    """
    cls = type(inst)
    fields = _INIT_FIELDS.get(cls)
    if fields is None:
        fields = _INIT_FIELDS[cls] = tuple(
            (field.name, field.alias) for field in attrs.fields(cls) if field.init)
    for name, alias in fields:
        if alias not in changes:
            changes[alias] = getattr(inst, name)
    return cls(**changes)
