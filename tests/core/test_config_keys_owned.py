"""Every key of the embedded default configuration is read by a registered settings model.

Issue 14: "every key in the default config does what its docs say". A key is only able to do
anything if some model validates it: the section must be owned by the core or by a plugin of
the default runtime (not merely tolerated as an unbuilt or disabled section), and each of
its keys must be a field of the owning model. Each owned section is also documented.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import tomllib
from pydantic import BaseModel, RootModel

from tooldeck.config import embedded_default_text
from tooldeck.deck import Deck

DOCS = Path(__file__).resolve().parents[2] / "docs"


def tables(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every table of a TOML document with its dotted name (arrays of tables included)."""
    for key, value in data.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            yield name, value
            yield from tables(value, name)
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            for item in value:
                yield name, item


@pytest.fixture(scope="module")
def deck() -> Iterator[Deck]:
    deck = Deck.from_config(None, environ={})
    yield deck
    deck.close()


def owner_of(deck: Deck, table: str) -> str | None:
    """The longest owned section that is ``table`` or contains it."""
    parts = table.split(".")
    for end in range(len(parts), 0, -1):
        name = ".".join(parts[:end])
        if name in deck.runtime.section_owners:
            return name
    return None


def test_every_table_of_the_default_is_owned_and_every_key_is_a_field(deck: Deck) -> None:
    data = tomllib.loads(embedded_default_text())
    problems = []
    for table, body in tables(data):
        section = owner_of(deck, table)
        if section is None:
            problems.append(f"[{table}]: no registered settings model owns it")
            continue
        model = type(deck.runtime.settings.sections[section])
        if section != table or issubclass(model, RootModel):
            continue  # nested tables are fields of the section (checked by validation)
        assert issubclass(model, BaseModel)
        for key, value in body.items():
            if isinstance(value, Mapping) or (isinstance(value, list) and value
                                              and isinstance(value[0], Mapping)):
                continue  # a sub-table: checked in its own right
            if key not in model.model_fields:
                problems.append(f"[{table}] {key}: not a field of {model.__name__}")
    assert problems == []


def test_every_owned_section_is_documented(deck: Deck) -> None:
    text = "\n".join(p.read_text("utf-8") for p in DOCS.rglob("*.md"))
    missing = [s for s in deck.runtime.section_owners if f"[{s}]" not in text]
    assert missing == []


def test_an_unowned_key_would_be_caught() -> None:
    """The check above is not vacuous: a stray key in the default is refused at load."""
    from tooldeck.config import parse_document
    from tooldeck.errors import ConfigError

    text = embedded_default_text().replace("[tools]\nenabled = true",
                                           "[tools]\nenabled = true\nnot_a_key = 1", 1)
    with pytest.raises(ConfigError, match="not_a_key: unknown key"):
        Deck.from_config(parse_document(text, None, "test"), environ={})
