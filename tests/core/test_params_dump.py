"""``dump_params`` is ``model_dump()``: for every built-in tool's model, and for models that are
not flat (which pydantic dumps)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pydantic
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, computed_field, field_serializer

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.params_dump import dump_params, is_flat

_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=False), st.text(max_size=20),
                    st.lists(st.text(max_size=5), max_size=3))


def _same(params: BaseModel) -> None:
    dumped, expected = dump_params(params), params.model_dump()
    assert dumped == expected
    assert list(dumped) == list(expected)
    assert [type(v) for v in dumped.values()] == [type(v) for v in expected.values()]


def test_every_builtin_tool_dumps_as_pydantic_does(tmp_path: Path) -> None:
    deck = Deck.from_config(parse_document(f'[tools.audit]\npath = "{tmp_path / "a.jsonl"}"\n',
                                           tmp_path / "tooldeck.toml", "test"))
    models = sorted({tool.params for tool in deck.tools()}, key=lambda model: model.__qualname__)
    deck.close()
    assert len(models) > 10
    assert any(is_flat(model) for model in models)  # bash's, read_file's …

    @settings(max_examples=300, deadline=None)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        model = data.draw(st.sampled_from(models))
        raw = {name: data.draw(_VALUES) for name in model.model_fields
               if data.draw(st.booleans())}
        try:
            params = model.model_validate(raw)
        except pydantic.ValidationError:
            return
        _same(params)

    check()


class Inner(BaseModel):
    x: int = 1


class Nested(BaseModel):
    inner: Inner = Inner()


class Listed(BaseModel):
    items: list[str] = ["a"]


class Extra(BaseModel):
    model_config = ConfigDict(extra="allow")
    a: str = "a"


class Serialized(BaseModel):
    a: str = "a"

    @field_serializer("a")
    def upper(self, value: str) -> str:
        return value.upper()


class Computed(BaseModel):
    a: int = 1

    @computed_field  # type: ignore[prop-decorator]
    @property
    def b(self) -> int:
        return self.a + 1


class Flat(BaseModel):
    a: str
    b: int | None = None
    c: float = 1.5
    d: bool = False


def test_models_that_are_not_flat_are_dumped_by_pydantic() -> None:
    cases: list[tuple[BaseModel, dict[str, Any]]] = [
        (Nested(), {"inner": {"x": 1}}), (Listed(), {"items": ["a"]}),
        (Extra.model_validate({"z": 2}), {"a": "a", "z": 2}), (Serialized(), {"a": "A"}),
        (Computed(), {"a": 1, "b": 2}),
    ]
    for params, expected in cases:
        assert not is_flat(type(params))
        assert dump_params(params) == expected


def test_a_flat_model_is_its_fields_in_order() -> None:
    assert is_flat(Flat)
    params = Flat.model_validate({"a": "x", "b": 3})
    _same(params)
    dumped = dump_params(params)
    dumped["a"] = "changed"  # a copy: the model is untouched
    assert params.a == "x"
