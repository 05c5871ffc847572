"""``tooldeck.safe_json``: any value becomes bounded strict JSON in valid UTF-8, never raising."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tooldeck.safe_json import (
    MAX_DEPTH,
    fits_line,
    is_json_safe,
    json_line,
    json_safe,
    plain_json,
    safe_repr,
    safe_text,
)


def refuse_constant(name: str) -> None:
    raise ValueError(f"non-standard JSON constant {name}")


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def depth_of(value: Any) -> int:
    depth = 0
    while isinstance(value, list) and value:
        value, depth = value[0], depth + 1
    return depth


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(), st.binary(),
    st.integers(min_value=10**200, max_value=10**300),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(st.text(), st.integers(), st.none()), inner, max_size=5),
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(values, st.integers(min_value=8, max_value=400))
def test_any_value_becomes_one_bounded_line_of_strict_utf8_json(value: Any, budget: int) -> None:
    line = json_line(value, max_chars=budget)
    line.encode("utf-8")
    assert line.splitlines() == [line]
    json.loads(line, parse_constant=refuse_constant)
    assert len(line) <= 40 * budget + 200


def test_lone_surrogates_become_escapes() -> None:
    assert safe_text("a\udc80b\ud800") == "a\\udc80b\\ud800"
    assert safe_text("plain é") == "plain é"
    assert json.loads(json_line({"k\udcff": "v\udc80"}, max_chars=100)) == {
        "k\\udcff": "v\\udc80"}


def test_nesting_is_capped_without_recursion() -> None:
    out = json_safe(nested(100_000), max_chars=10_000)
    assert depth_of(out) == MAX_DEPTH
    inner = out
    for _ in range(MAX_DEPTH):
        inner = inner[0]
    assert inner == f"<nested deeper than {MAX_DEPTH} levels>"


def test_cycles_end_at_the_depth_cap() -> None:
    loop: list[Any] = []
    loop.append(loop)
    assert depth_of(json_safe(loop, max_chars=1000)) == MAX_DEPTH


def test_numbers() -> None:
    out = json_safe([2**64 - 1, 2**64, 10**5000, float("nan"), float("inf"), -float("inf"), 1.5],
                    max_chars=1000)
    assert out == [2**64 - 1, str(2**64), "<int with about 5001 digits>", "NaN", "Infinity",
                   "-Infinity", 1.5]


def test_size_is_capped() -> None:
    out = json_safe({"a": "x" * 10_000, "b": list(range(10_000))}, max_chars=300,
                    max_string=100)
    assert out["a"] == "x" * 99 + "…"
    assert out["b"][-1].endswith("more items cut>")
    assert len(json.dumps(out)) < 1000


def test_other_objects_are_described() -> None:
    class Broken:
        def __str__(self) -> str:
            raise RuntimeError("no")

    assert json_safe([b"a\xffb", Broken(), {1, 2}], max_chars=100) == ["a\\xffb", "<Broken>",
                                                                        [1, 2]]


def test_safe_repr_never_raises() -> None:
    assert safe_repr("x" * 500, 20) == repr("x" * 19 + "…")
    assert safe_repr(10**5000) == '"<int with about 5001 digits>"'
    assert safe_repr("a\udc80") == "'a\\udc80'"


def converted_line(value: Any, budget: int) -> str:
    """What ``json_line`` means by definition: the converted copy, encoded, breaks escaped."""
    line = json.dumps(json_safe(value, max_chars=budget), ensure_ascii=False, allow_nan=False)
    return line.translate({0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"})


@settings(max_examples=300, deadline=None, derandomize=True)
@given(values, st.sampled_from([16, 200, 5_000, 1 << 20]))
def test_a_line_is_the_converted_copy_encoded(value: Any, budget: int) -> None:
    # json_line encodes a record directly when the conversion would not change it; that
    # shortcut must give exactly the line of the converted copy, whatever the value
    assert json_line(value, max_chars=budget) == converted_line(value, budget)


def test_what_the_direct_encoding_would_get_wrong_is_converted() -> None:
    budget = 1 << 20
    for value in [
        {"big": 2**64}, {"neg": -(2**64)}, {2**70: "key"},  # over 64 bits: strings
        nested(MAX_DEPTH + 1),  # too deep: a marker
        {"s": "a\udc80"},  # a lone surrogate: escaped
        {"nan": float("nan")}, {"set": {1}}, {"bytes": b"\xff"},  # not JSON as it is
        {"long": "x" * 50_000},  # long enough for the budget to cut
        {"line": "a\u2028b\x85c"},  # line breaks: escaped after encoding
    ]:
        assert json_line(value, max_chars=budget) == converted_line(value, budget), value


@settings(max_examples=400, deadline=None, derandomize=True)
@given(values, st.integers(min_value=8, max_value=4000), st.integers(min_value=1, max_value=400))
def test_a_value_judged_safe_encodes_as_its_converted_copy(value: Any, budget: int,
                                                          longest: int) -> None:
    """``is_json_safe`` may keep a value only when the conversion would not change its JSON."""
    if not is_json_safe(value, max_chars=budget, max_string=longest):
        return
    as_is = json.dumps(value, ensure_ascii=False, allow_nan=False)
    converted = json_safe(value, max_chars=budget, max_string=longest)
    assert json.dumps(converted, ensure_ascii=False, allow_nan=False) == as_is


def test_what_is_json_safe_refuses() -> None:
    assert is_json_safe({"a": ["b", 1, None]}, max_chars=1000, max_string=100)
    assert not is_json_safe({"a": "x" * 101}, max_chars=10_000, max_string=100)  # a cut
    assert not is_json_safe({"a": "\udc80"}, max_chars=1000, max_string=100)  # a surrogate
    assert not is_json_safe({"a": float("nan")}, max_chars=1000, max_string=100)
    assert not is_json_safe({"a": 2**64}, max_chars=1000, max_string=100)  # past 64 bits
    assert not is_json_safe(nested(MAX_DEPTH + 1), max_chars=10_000, max_string=1000)
    assert not is_json_safe({"a": "b"}, max_chars=20, max_string=100)  # past the budget
    assert not is_json_safe({"a": object()}, max_chars=1000, max_string=100)


def test_keys_that_would_share_a_spelling_are_not_judged_safe() -> None:
    # written as they are, both keys would be "1"; the converted copy keeps one of them
    assert not is_json_safe({1: "a", "1": "b"}, max_chars=1000, max_string=100)
    assert not is_json_safe({None: "a", "null": "b"}, max_chars=1000, max_string=100)
    assert is_json_safe({1: "a", 2: "b"}, max_chars=1000, max_string=100)


string_keyed = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.text(), inner, max_size=5)),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.dictionaries(st.text(), string_keyed, max_size=6),
       st.integers(min_value=8, max_value=4000), st.integers(min_value=1, max_value=400))
def test_plain_json_is_the_line_of_a_value_judged_safe(value: dict[str, Any], budget: int,
                                                       longest: int) -> None:
    """One encoding answers both: the value is kept as it is, and this is its line."""
    line = plain_json(value, max_chars=budget, max_string=longest)
    assert (line is not None) == is_json_safe(value, max_chars=budget, max_string=longest)
    if line is not None:
        assert line == converted_line(value, budget) == json_line(value, max_chars=budget)
        assert fits_line(line, max_chars=budget)


def test_plain_json_refuses_what_must_be_converted_and_escapes_line_breaks() -> None:
    assert plain_json({"a": "x" * 101}, max_chars=10_000, max_string=100) is None
    assert plain_json({"a": "\udc80"}, max_chars=1000, max_string=100) is None
    assert plain_json({"a": 2**64}, max_chars=1000, max_string=100) is None
    assert plain_json({"a": "b\u2028"}, max_chars=1000, max_string=100) == '{"a": "b\\u2028"}'
    assert not fits_line("x" * 100, max_chars=100)
