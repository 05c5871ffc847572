"""``search_code`` on real public source files (tests/files/code_data/README.md) and small cases."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.errors import ToolError
from tooldeck.models import ToolCall
from tooldeck.paths import PathSandbox
from tooldeck.plugins.files.code_search.search import CodeMatch, search_code

DATA = Path(__file__).parent / "code_data"

OWN = {
    # small cases of ours for the grammars without a vendored file
    "src/Shapes.java": "package shapes;\n\npublic class Circle {\n"
                       "    private final double radius;\n\n"
                       "    public Circle(double radius) { this.radius = radius; }\n\n"
                       "    public double area() {\n        return Math.PI * radius * radius;\n"
                       "    }\n}\n",
    "src/geometry.hpp": "namespace geo {\nclass Polygon {\n public:\n  int sides() const;\n};\n"
                        "}\nint geo::Polygon::sides() const { return 3; }\n",
    "scripts/deploy.sh": "#!/bin/bash\ndeploy_site() {\n  echo deploying\n}\n"
                         "deploy_site\n",
    "web/App.tsx": "export function AppShell(props: {title: string}) {\n"
                   "  return <main>{props.title}</main>;\n}\n",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("code") / "proj"
    shutil.copytree(DATA, root / "vendor")
    for rel, text in OWN.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / ".gitignore").write_text("build/\n")
    (root / "build").mkdir()
    (root / "build" / "textwrap.py").write_text("def dedent(text):\n    return text\n")
    (root / ".venv" / "lib").mkdir(parents=True)
    (root / ".venv" / "lib" / "copy.py").write_text("def dedent(text):\n    return text\n")
    return root


def find(root: Path, symbol: str | None = None, query: str | None = None, *,
         refs: bool = False, pattern: str | None = None, limit: int = 10,
         sandbox: PathSandbox | None = None) -> list[CodeMatch]:
    return search_code(sandbox or PathSandbox([root], cwd=root), query=query, symbol=symbol,
                       file_pattern=pattern, include_references=refs, max_results=limit,
                       max_file_bytes=10 * 1024 * 1024)


def top(root: Path, symbol: str) -> tuple[str, int, int, str]:
    best = find(root, symbol)[0]
    return best.shown, best.line_start, best.line_end, best.source


@pytest.mark.parametrize(("symbol", "expected"), [
    ("dedent", ("vendor/textwrap.py", 419, 467)),  # Python (CPython)
    ("WriteString", ("vendor/builder.go", 122, 126)),  # Go (Go standard library)
    ("Comparator", ("vendor/comparator.js", 5, 134)),  # JavaScript (node-semver)
    ("ReadonlyMap", ("vendor/lib.es2015.collection.d.ts", 56, 61)),  # TypeScript
    ("Cycle", ("vendor/cycle.rs", 15, 18)),  # Rust (core library)
    ("Py_TYPE", ("vendor/object.h", 132, 134)),  # C (CPython headers)
    ("area", ("src/Shapes.java", 8, 10)),  # Java
    ("Polygon", ("src/geometry.hpp", 2, 5)),  # C++
    ("deploy_site", ("scripts/deploy.sh", 2, 4)),  # Bash
    ("AppShell", ("web/App.tsx", 1, 3)),  # TSX
])
def test_finds_definitions_in_each_language(project: Path, symbol: str,
                                            expected: tuple[str, int, int]) -> None:
    assert top(project, symbol) == (*expected, "tree-sitter")


def test_symbol_is_a_case_insensitive_substring(project: Path) -> None:
    found = {(m.shown, m.line_start) for m in find(project, "writestr")}
    assert ("vendor/builder.go", 122) in found
    assert all(m.score == 0.98 for m in find(project, "writestr"))


def test_references_when_asked(project: Path) -> None:
    plain = find(project, "deploy_site")
    assert [(m.shown, m.line_start, m.source) for m in plain] == [
        ("scripts/deploy.sh", 2, "tree-sitter")]
    both = find(project, "deploy_site", refs=True)
    assert [(m.shown, m.line_start, m.source, m.score) for m in both] == [
        ("scripts/deploy.sh", 2, "tree-sitter", 0.98),
        ("scripts/deploy.sh", 5, "tree-sitter refs", 0.90)]


def test_grep_fallback_when_nothing_is_defined(project: Path) -> None:
    found = find(project, query="Removes all elements from the map")
    assert [(m.shown, m.source, m.score) for m in found] == [
        ("vendor/lib.es2015.collection.d.ts", "grep fallback", 0.45)]
    assert found[0].line_start == found[0].line_end


def test_ignored_and_tool_directories_are_not_searched(project: Path) -> None:
    assert {m.shown for m in find(project, "dedent")} == {"vendor/textwrap.py"}


def test_file_pattern_limits_the_files(project: Path) -> None:
    assert {m.shown for m in find(project, "new", pattern="**/*.rs")} == {"vendor/cycle.rs"}
    with pytest.raises(ToolError, match="invalid file_pattern"):
        find(project, "x", pattern="[")


def test_needs_a_query_or_a_symbol(project: Path) -> None:
    with pytest.raises(ToolError, match="at least one of `query` or `symbol` must be provided"):
        find(project, "  ", " ")


def test_max_results_is_clamped(project: Path) -> None:
    assert len(find(project, query="the", limit=0)) == 1
    assert len(find(project, query="the", limit=10_000)) == 50


def test_ranked_by_score_then_path_then_line(project: Path) -> None:
    found = find(project, "Builder", refs=True, limit=50)
    keys = [(-m.score, m.shown, m.line_start) for m in found]
    assert keys == sorted(keys) and found[0].source == "tree-sitter"


def test_read_denied_files_are_not_searched(project: Path) -> None:
    sandbox = PathSandbox([project], cwd=project, deny_read=["**/textwrap.py"])
    assert find(project, "dedent", sandbox=sandbox) == []


def test_through_a_deck_in_zephs_format(project: Path) -> None:
    doc = parse_document(
        f'[tools.file]\nallowed_paths = ["{project}"]\n'
        '[tools.audit]\nenabled = false\n'
        '[[tools.permissions.search_code]]\npattern = "*"\naction = "allow"\n', None, "test")
    deck = Deck.from_config(doc)
    result = deck.call_sync(ToolCall("search_code", {"symbol": "deploy_site",
                                                     "include_references": True}))
    assert result.ok
    assert result.text == (
        "[1] scripts/deploy.sh:2-4\n    deploy_site() { echo deploying }\n"
        "    source: tree-sitter\n    score: 0.98\n\n"
        "[2] scripts/deploy.sh:5-5\n    deploy_site\n"
        "    source: tree-sitter refs\n    score: 0.90")
    none = deck.call_sync(ToolCall("search_code", {"symbol": "no_such_thing_anywhere"}))
    assert none.text == "No code matches found."
    deck.close()
