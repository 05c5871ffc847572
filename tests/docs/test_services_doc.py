"""docs/services.md is what scripts/services_doc.py generates from the docstrings now."""

from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_services_reference_is_current() -> None:
    render = runpy.run_path(str(ROOT / "scripts" / "services_doc.py"))["render"]
    page = (ROOT / "docs" / "services.md").read_text("utf-8")
    assert page == render(), (
        "docs/services.md is stale: python scripts/services_doc.py > docs/services.md")


def test_every_public_service_name_is_documented() -> None:
    import tooldeck.services as services

    page = (ROOT / "docs" / "services.md").read_text("utf-8")
    missing = [name for name in services.__all__
               if name != "OVERFLOW_SECTION" and f"`tooldeck.services.{name}`" not in page]
    assert missing == []


def test_every_error_category_is_explained_for_plugin_authors() -> None:
    from tooldeck.errors import ErrorCategory

    page = (ROOT / "docs" / "plugins.md").read_text("utf-8")
    table = page[page.index("## Error categories"):]
    missing = [c.label for c in ErrorCategory if f"| `{c.label}` |" not in table]
    assert missing == []
