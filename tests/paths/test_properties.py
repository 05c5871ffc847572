"""Property tests: whatever the sandbox allows canonicalises inside a root."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.errors import ToolError
from tooldeck.paths import PathSandbox, is_within, lexical_normalize

COMPONENTS = [
    "real",
    "sub",
    "file.txt",
    "escape",
    "link_in",
    "link_in_abs",
    "link_out",
    "link_out_abs",
    "chain1",
    "chain2",
    "chain_in1",
    "chain_in2",
    "dangle_out",
    "dangle_out_abs",
    "dangle_in",
    "loop_a",
    "etc",
    "up",
    "dotdot_out",
    "outside",
    "sb",
    "secret.txt",
    "..",
    ".",
    "",
    "new",
    "\uff0f",
    "\uff25\uff34\uff23",
    "~",
]

PREFIXES = ["", "./", "../", "/", "{root}/", "{base}/", "~/", "{out}/"]


path_strings = st.builds(
    lambda prefix, parts: prefix + "/".join(parts),
    st.sampled_from(PREFIXES),
    st.lists(st.sampled_from(COMPONENTS), min_size=0, max_size=8),
)


@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(template=path_strings, op=st.sampled_from(["read", "write", "delete"]))
def test_every_allowed_path_canonicalises_inside_a_root(
    module_farm: Any, monkeypatch: pytest.MonkeyPatch, template: str, op: str
) -> None:
    monkeypatch.setenv("HOME", str(module_farm.base))
    raw = template.format(root=module_farm.root, base=module_farm.base, out=module_farm.outside)
    sandbox = PathSandbox([module_farm.root], cwd=module_farm.root)
    try:
        resolved = sandbox.resolve(raw, op=op)  # type: ignore[arg-type]
    except ToolError:
        return
    assert is_within(resolved, module_farm.root)
    text = str(resolved)
    if op == "delete":
        # the entry itself: its parent is canonical and inside
        parent = posixpath.dirname(text)
        assert os.path.realpath(parent) == parent
    else:
        # fully canonical: the kernel's own resolution agrees and stays inside
        assert os.path.realpath(text) == text
        assert is_within(os.path.realpath(text), module_farm.root)


@settings(max_examples=400, deadline=None)
@given(raw=st.text(alphabet=st.sampled_from("ab./~\\\x00\uff0f\uff0e\n"), max_size=40))
def test_any_string_either_resolves_inside_or_raises_tool_error(raw: str) -> None:
    root = Path("/nonexistent-tooldeck-root")
    sandbox = PathSandbox([root], cwd=root)
    try:
        resolved = sandbox.resolve(raw)
    except ToolError:
        return
    assert is_within(resolved, root)
    assert ".." not in resolved.parts


@given(parts=st.lists(st.sampled_from(["a", "b", ".", "..", ""]), max_size=12))
def test_lexical_normalize_never_escapes_slash_and_drops_dots(parts: list[str]) -> None:
    result = lexical_normalize("/" + "/".join(parts))
    assert result.is_absolute()
    assert "." not in result.parts and ".." not in result.parts
    assert str(result) == posixpath.normpath("/" + "/".join(parts)).replace("//", "/")
