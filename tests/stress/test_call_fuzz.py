"""Fuzz ``Deck.call`` with arbitrary JSON-ish input against a real deck of the built-in plugins.

Whatever the tool id and the parameters, the call must return (no exception escapes), end in
a well-formed ``[tool_error]`` block or an output, and add exactly one line of strict JSON to
the real JSONL audit file.

Nothing dangerous can run: autonomy is ``readonly`` (``bash`` and every writing tool are
denied), the web tools and ``bash`` are also denied by rule, and the file sandbox is an empty
temporary directory.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.deck import Deck, ToolResult
from tooldeck.models import ToolCall

DENY = 'pattern = "*"\naction = "deny"\n'


def nested(depth: int) -> list[Any]:
    """A list nested ``depth`` levels deep, built without recursion."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


class AuditTail:
    """Reads the lines appended to an audit file since the last read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = path.stat().st_size if path.exists() else 0

    def new_lines(self) -> list[str]:
        with self.path.open("rb") as handle:
            handle.seek(self.offset)
            data = handle.read()
        self.offset += len(data)
        return data.decode("utf-8").splitlines()  # strict: the file must be valid UTF-8


class FuzzDeck:
    """A real deck plus the tail of its audit file."""

    def __init__(self, root: Path) -> None:
        sandbox = root / "sandbox"
        sandbox.mkdir()
        (sandbox / "a.txt").write_text("alpha\nbeta\n")
        config = root / "tooldeck.toml"
        config.write_text(
            f'[agent]\nautonomy = "readonly"\n'
            f'[tools.file]\nallowed_paths = ["{sandbox}"]\n'
            f'[tools.shell]\nallowed_paths = ["{sandbox}"]\n'
            f'[tools.audit]\npath = "{root / "audit.jsonl"}"\n'
            + "".join(f"[[tools.permissions.{t}]]\n{DENY}" for t in ("bash", "fetch",
                                                                      "web_scrape")),
            encoding="utf-8")
        self.deck = Deck.from_config(config, environ={})
        self.tail = AuditTail(root / "audit.jsonl")
        self.outputs = 0
        self.tool_ids = sorted(self.deck.runtime.tools)
        self.param_names = sorted({name for t in self.deck.runtime.tools.values()
                                   for name in t.params.model_fields})

    def check(self, call: ToolCall) -> ToolResult:
        """Run ``call`` and assert everything the pipeline promises about it."""
        result = self.deck.call_sync(call)  # any exception fails the test
        assert isinstance(result, ToolResult)
        text = result.text
        text.encode("utf-8")
        if result.error is not None:
            lines = text.split("\n")
            assert len(lines) == 5, text
            assert lines[0] == "[tool_error]"
            assert lines[1] == f"category: {result.error.category.label}"
            assert lines[2].startswith("error: ")
            assert lines[4] in ("retryable: true", "retryable: false")
        else:
            assert result.output is not None and isinstance(result.output.summary, str)
            self.outputs += 1
        (line,) = self.tail.new_lines()  # exactly one new audit line
        record = json.loads(line, parse_constant=_refuse_constant)
        assert record["kind"] == "tool_call"
        assert record["call_id"] == call.call_id
        return result


def _refuse_constant(name: str) -> None:
    raise ValueError(f"non-standard JSON constant {name}")


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FuzzDeck]:
    fuzz = FuzzDeck(tmp_path_factory.mktemp("fuzz"))
    yield fuzz
    fuzz.deck.close()


any_text = st.text(st.characters(codec=None, categories=None), max_size=40)
"""Any code points: lone surrogates and NUL included."""

NASTY: list[Any] = [
    nested(10_000), 10**100, -(10**5000), float("nan"), float("inf"), -float("inf"),
    "\udc80", "a\x00b", "x" * 1_000_000, "\ud800" * 1000, {"": {"": None}},
]



def nasty(index: int) -> Any:
    """One of :data:`NASTY` (drawn by index: hypothesis cannot describe a 10,000-deep list)."""
    return NASTY[index]


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), any_text,
    st.integers(0, len(NASTY) - 1).map(nasty),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(any_text, inner, max_size=4),
    ),
    max_leaves=12,
)


@st.composite
def calls(draw: st.DrawFn, fuzz: FuzzDeck) -> ToolCall:
    tool_id = draw(st.one_of(
        st.sampled_from(fuzz.tool_ids),
        any_text,
        st.sampled_from(["read\udc80", "BASH", "", "x" * 100_000]),
        st.none(), st.integers(), st.lists(st.integers(), max_size=2),
    ))
    keys = st.one_of(st.sampled_from(fuzz.param_names), any_text, st.integers(), st.none(),
                     st.tuples(st.integers()))
    params = draw(st.one_of(
        st.dictionaries(keys, json_values, max_size=5),
        st.dictionaries(st.sampled_from(fuzz.param_names), json_values, max_size=4),
        json_values,
    ))
    return ToolCall(tool_id, params)


paths = st.one_of(
    st.sampled_from(["a.txt", ".", "..", "/etc/passwd", "a.txt\x00", "\udc80", "~"]), any_text)
near_valid = st.one_of(
    st.builds(lambda p: ToolCall("read", {"path": p}), paths),
    st.builds(lambda p, o: ToolCall("read", {"path": p, "offset": o}), paths, st.integers()),
    st.builds(lambda pat, p: ToolCall("grep", {"pattern": pat, "path": p}), any_text, paths),
    st.builds(lambda pat: ToolCall("find_path", {"pattern": pat}), any_text),
    st.builds(lambda p: ToolCall("list_directory", {"path": p}), paths),
    st.builds(lambda r: ToolCall("bash_status", {"run_id": r}), any_text),
)
"""Calls that pass validation often, so that executors and gates see odd input too."""


@settings(max_examples=1000, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_calls_return_a_structured_result_and_one_audit_line(
    fuzz: FuzzDeck, data: st.DataObject
) -> None:
    fuzz.check(data.draw(st.one_of(calls(fuzz), near_valid)))


@pytest.mark.parametrize("value", NASTY, ids=lambda v: type(v).__name__)
@pytest.mark.parametrize("tool_id", ["read", "grep", "bash", "bash_status", "fetch", "nope"])
def test_each_nasty_value_in_each_place(fuzz: FuzzDeck, tool_id: str, value: Any) -> None:
    fuzz.check(ToolCall(tool_id, value))
    fuzz.check(ToolCall(tool_id, {"path": value, "command": value, "pattern": value}))
    fuzz.check(ToolCall(tool_id, {"x": value}))


def test_the_shell_cannot_run(fuzz: FuzzDeck) -> None:
    result = fuzz.check(ToolCall("bash", {"command": "echo ran"}))
    assert result.error is not None and result.error.category.label == "policy_blocked"

