"""docs/hooks.md documents every hook of tooldeck.hookspecs, with its exact signature.

Each hook has a section headed ``## `tooldeck_<name>``` whose first ``python`` block starts with
the signature line ``def tooldeck_<name>(arg: Type, ...) -> Return``, followed by the
paragraphs ``**When:**`` and ``**Returns:**`` and at least one more ``python`` block (the
example, which must be valid Python). Hooks declared ``firstresult`` must say so.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tooldeck import hookspecs

DOC = Path(__file__).resolve().parents[2] / "docs" / "hooks.md"
HEADING = re.compile(r"^## `(\w+)`[ \t]*$", re.M)
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def expected_signature(name: str) -> str:
    """The hookspec's signature as a ``def`` line, annotations as written in the source."""
    func = getattr(hookspecs, name)
    notes = func.__annotations__
    args = ", ".join(f"{arg}: {notes[arg]}" for arg in hookspecs.hook_signature(name))
    return f"def {name}({args}) -> {notes['return']}"


def normalise(signature: str) -> ast.FunctionDef:
    """Parse a ``def`` line (without body) into its AST node."""
    node = ast.parse(signature.strip() + ": ...").body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def sections(text: str) -> dict[str, str]:
    """Section bodies by the hook name in their heading."""
    found: dict[str, str] = {}
    heads = list(HEADING.finditer(text))
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[head.end():end].split("\n## ", 1)[0]
        found[head.group(1)] = body
    return found


def problems(text: str) -> list[str]:
    """Everything wrong with ``text`` as the hook reference; empty when it is in step."""
    out: list[str] = []
    documented = sections(text)
    for name in hookspecs.hook_names():
        body = documented.get(name)
        if body is None:
            out.append(f"{name}: not documented")
            continue
        blocks = PYTHON_BLOCK.findall(body)
        if not blocks or not blocks[0].startswith("def "):
            out.append(f"{name}: no signature block")
            continue
        try:
            got = normalise(blocks[0].splitlines()[0])
        except SyntaxError as exc:
            out.append(f"{name}: signature does not parse: {exc.msg}")
            continue
        want = normalise(expected_signature(name))
        got_args = [a.arg for a in got.args.args]
        if got.name != name or got_args != hookspecs.hook_signature(name):
            out.append(f"{name}: documented arguments {got_args}, "
                       f"the hook takes {hookspecs.hook_signature(name)}")
        elif ast.dump(got) != ast.dump(want):
            out.append(f"{name}: documented as {ast.unparse(got)!r}, "
                       f"the hook is {ast.unparse(want)!r}")
        for part in ("**When:**", "**Returns:**"):
            if part not in body:
                out.append(f"{name}: no {part} paragraph")
        if len(blocks) < 2:
            out.append(f"{name}: no example")
        for example in blocks[1:]:
            try:
                ast.parse(example)
            except SyntaxError as exc:
                out.append(f"{name}: example does not parse: {exc.msg} (line {exc.lineno})")
        if getattr(hookspecs, name).tooldeck_spec.get("firstresult") and (
            "firstresult" not in body
        ):
            out.append(f"{name}: is firstresult but the section does not say so")
    for name in documented:
        if name not in hookspecs.hook_names():
            out.append(f"{name}: documented but no such hook exists")
    return out


def test_hooks_md_matches_the_hookspecs() -> None:
    assert problems(DOC.read_text("utf-8")) == []


@pytest.fixture
def doc() -> str:
    return DOC.read_text("utf-8")


def new_problems(doc: str, changed: str) -> list[str]:
    """What ``changed`` adds to the problems of ``doc``, so that these checks of the checker
    do not depend on the real page being in step (the test above says whether it is)."""
    assert changed != doc
    before = set(problems(doc))
    return [p for p in problems(changed) if p not in before]


def section_of(doc: str, name: str) -> tuple[int, int]:
    start = doc.index(f"## `{name}`")
    end = doc.find("\n## ", start + 1)
    return start, len(doc) if end == -1 else end + 1


def test_a_missing_hook_is_reported(doc: str) -> None:
    name = hookspecs.hook_names()[-1]
    start, end = section_of(doc, name)
    assert new_problems(doc, doc[:start] + doc[end:]) == [f"{name}: not documented"]


def test_different_arguments_are_reported(doc: str) -> None:
    changed = doc.replace("def tooldeck_check_call(call: ToolCall, tool: ToolDef,",
                          "def tooldeck_check_call(tool: ToolDef, call: ToolCall,", 1)
    assert new_problems(doc, changed) == [
        "tooldeck_check_call: documented arguments ['tool', 'call', 'runtime'], "
        "the hook takes ['call', 'tool', 'runtime']"
    ]


def test_a_different_annotation_is_reported(doc: str) -> None:
    changed = doc.replace("-> Decision | None\n", "-> Decision\n", 1)
    (problem,) = new_problems(doc, changed)
    assert problem.startswith("tooldeck_check_call: documented as ")


def test_a_hook_that_no_longer_exists_is_reported(doc: str) -> None:
    gone = "\n## `tooldeck_gone`\n\n```python\ndef tooldeck_gone() -> None\n```\n"
    assert new_problems(doc, doc + gone) == ["tooldeck_gone: documented but no such hook exists"]


def test_firstresult_must_be_mentioned(doc: str) -> None:
    firstresult = [n for n in hookspecs.hook_names()
                   if getattr(hookspecs, n).tooldeck_spec.get("firstresult")]
    assert firstresult, "no firstresult hook left: drop this test"
    name = firstresult[0]
    start, end = section_of(doc, name)
    section = doc[start:end].replace("firstresult", "first result")
    assert new_problems(doc, doc[:start] + section + doc[end:]) == [
        f"{name}: is firstresult but the section does not say so"
    ]


def test_an_example_that_does_not_parse_is_reported(doc: str) -> None:
    changed = doc.replace("def tooldeck_tool_hidden(tool):", "def tooldeck_tool_hidden(tool)", 1)
    (problem,) = new_problems(doc, changed)
    assert problem.startswith("tooldeck_tool_hidden: example does not parse")
