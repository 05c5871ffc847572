"""Every TOML example in README.md and docs/ is a configuration tooldeck accepts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tooldeck import hookimpl
from tooldeck.build import build_runtime
from tooldeck.config import StorageConfig, parse_document
from tooldeck.storage import EmbeddedStorage

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"```toml\n(.*?)```", re.S)


def examples() -> list[tuple[str, str]]:
    found = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for i, block in enumerate(FENCE.findall(doc.read_text())):
            if "[[rules]]" in block:  # filters.toml rule files, not tooldeck.toml
                continue
            if "[mcp_servers." in block:  # an MCP client's config (Codex), in docs/mcp.md
                continue
            found.append((f"{doc.name}#{i}", block))
    return found


class _NoServer:
    """Answers for the examples' storage URLs, which name servers that do not exist here: the
    keys are validated all the same; reaching a real server is tests/fleet's business."""

    @hookimpl
    def tooldeck_open_storage(self, config: StorageConfig) -> EmbeddedStorage:
        return EmbeddedStorage()


@pytest.mark.parametrize(("where", "text"), examples(), ids=[w for w, _ in examples()])
def test_toml_example_is_a_valid_configuration(where: str, text: str) -> None:
    doc = parse_document(text, Path(where), "docs")
    runtime = build_runtime(doc, environ={"TOOLDECK_TOOLS_AUDIT_ENABLED": "false"},
                            extra_plugins={"no_server": _NoServer()})
    runtime.hooks.unconfigure(runtime)
