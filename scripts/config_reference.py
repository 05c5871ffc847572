"""Generate ``docs/reference/configuration.md`` from the configuration models.

    python scripts/config_reference.py > docs/reference/configuration.md

Every section a deck with all built-in plugins validates (the core's and each plugin's) is
listed with its keys, types, defaults and descriptions. A key is documented by its field's
``description`` or by a ``:param <key>:`` line in its model's docstring; an undocumented key
makes :func:`render` raise, so ``tests/docs/test_reference_docs.py`` fails until it is
described. That test also fails when the page is not what this script prints.
"""

from __future__ import annotations

import re
import sys
import tempfile
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, RootModel
from pydantic_core import PydanticUndefined

_PARAM = re.compile(r"^\s*:param (\w+):\s*(.*(?:\n(?!\s*:)\s+\S.*)*)", re.M)


class UndocumentedError(Exception):
    """Raised with every configuration key (or hook) that has no documentation."""


def _param_docs(model: type[BaseModel]) -> dict[str, str]:
    docs: dict[str, str] = {}
    for cls in model.__mro__:
        for name, text in _PARAM.findall(cls.__doc__ or ""):
            docs.setdefault(name, " ".join(text.split()))
    return docs


def _type_name(annotation: Any) -> str:
    """A type as a reader wants it: no ``Annotated`` metadata, no module prefixes."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _type_name(args[0])
    if origin is Literal:
        return f"Literal[{', '.join(repr(a) for a in args)}]"
    if origin in (Union, types.UnionType):
        return " | ".join(_type_name(a) for a in args)
    if origin is None:
        if annotation is type(None):
            return "None"
        name = annotation.__name__ if isinstance(annotation, type) else repr(annotation)
        return re.sub(r"(?:\w+\.)+(\w+)", r"\1", name)
    inner = ", ".join("..." if a is Ellipsis else _type_name(a) for a in args)
    return f"{getattr(origin, '__name__', repr(origin))}[{inner}]"


def _default(field: Any) -> str:
    if field.default is PydanticUndefined:
        return "required" if field.default_factory is None else "(computed)"
    value = field.default
    if isinstance(value, BaseModel):
        return "(table)"
    if isinstance(value, tuple):
        value = list(value)
    return f"`{value!r}`".replace("|", "\\|")


def _cell(text: str) -> str:
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text).replace("``", "`")
    return " ".join(text.split()).replace("|", "\\|")


def _nested(annotation: Any) -> type[BaseModel] | None:
    """The model of a sub-table field, else ``None``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def expand(sections: Mapping[str, type[BaseModel]]) -> dict[str, type[BaseModel]]:
    """``sections`` with every sub-table field listed as a section of its own.

    :param sections: section name to model.
    :returns: the same, plus ``section.field`` for each field whose type is a model.
    """
    out: dict[str, type[BaseModel]] = {}
    todo = list(sections.items())
    while todo:
        name, model = todo.pop()
        out[name] = model
        if issubclass(model, RootModel):
            continue
        for key, field in model.model_fields.items():
            sub = _nested(field.annotation)
            if sub is not None:
                todo.append((f"{name}.{field.alias or key}", sub))
    return out


def section_rows(name: str, model: type[BaseModel]) -> tuple[list[str], list[str]]:
    """The table rows of one section, and its undocumented keys (``section.key``).

    :param name: the section's dotted name.
    :param model: its pydantic model.
    :returns: the rows and the undocumented keys.
    """
    params = _param_docs(model)
    rows: list[str] = []
    missing: list[str] = []
    if issubclass(model, RootModel):
        return rows, missing  # a table of tables: its items are documented by their model
    for key, field in model.model_fields.items():
        shown = field.alias or key
        if _nested(field.annotation) is not None:
            continue  # a sub-table, listed as a section of its own
        text = field.description or params.get(key) or params.get(shown)
        if not text:
            missing.append(f"{name}.{shown}")
            continue
        rows.append(f"| `{shown}` | `{_cell(_type_name(field.annotation))}` | "
                    f"{_default(field)} | {_cell(text)} |")
    return rows, missing


def render(sections: Mapping[str, type[BaseModel]] | None = None,
           owners: Mapping[str, str] | None = None) -> str:
    """The reference page for ``sections`` (default: a deck with every built-in plugin).

    :param sections: section name to model.
    :param owners: section name to the owning plugin.
    :returns: the Markdown page.
    :raises UndocumentedError: naming every key without a description.
    """
    if sections is None:
        sections, owners = builtin_sections()
    owners = owners or {}
    sections = expand(sections)
    out = ["# Configuration keys (generated)", "",
           "Generated by `scripts/config_reference.py` from the configuration models; do not",
           "edit. [configuration.md](../configuration.md) explains how the file is read.", ""]
    missing: list[str] = []
    for name in sorted(sections):
        model = sections[name]
        rows, undocumented = section_rows(name, model)
        missing.extend(undocumented)
        summary = (model.__doc__ or "").strip().split("\n\n")[0]
        owner = owners.get(name) or owners.get(name.rsplit(".", 1)[0], "core")
        out += [f"## `[{name}]`", "", f"Owner: `{owner}`. {_cell(summary)}", ""]
        if rows:
            out += ["| key | type | default | meaning |", "| --- | --- | --- | --- |", *rows]
        else:
            out.append("A table of tables keyed by name; see the owner's page.")
        out.append("")
    if missing:
        raise UndocumentedError("configuration keys without a description: "
                                + ", ".join(missing))
    return "\n".join(out)


def builtin_sections() -> tuple[dict[str, type[BaseModel]], dict[str, str]]:
    """Every section a deck with all built-in plugins validates, with its model and owner."""
    from tooldeck.deck import Deck

    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "tooldeck.toml"
        config.write_text("", encoding="utf-8")
        deck = Deck.from_config(config, environ={"TOOLDECK_TOOLS_AUDIT_ENABLED": "false"})
        try:
            runtime = deck.runtime
            models = {name: type(value) for name, value in runtime.settings.sections.items()}
            owners = dict(runtime.section_owners)
        finally:
            deck.close()
    return models, owners


if __name__ == "__main__":
    sys.stdout.write(render())
