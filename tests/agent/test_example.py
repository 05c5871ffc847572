"""examples/agent_in_40_lines.py (the tutorial of docs/agent_loop.md) against a loopback server."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "agent_in_40_lines.py"


@pytest.fixture
def example_config(tmp_path: Path, audit_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "agent.toml"
    path.write_text(f'[tools.audit]\npath = "{audit_path}"\n'
                    '[[tools.permissions.bash]]\npattern = "echo *"\naction = "allow"\n')
    monkeypatch.setenv("TOOLDECK_CONFIG", str(path))
    return path


async def test_the_tutorial_agent_runs_against_an_openai_compatible_server(
        project: Path, example_config: Path, model_server: Any, audit: Any,
        openai_dialect: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    dialect = openai_dialect
    replies = [dialect.tool_reply([("c1", "bash", {"command": "echo hello from the deck"}),
                                   ("c2", "bash", {"command": "ls"})]),
               dialect.text_reply("The deck said hello.")]
    server = model_server(lambda n, body: replies[n])
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    monkeypatch.setenv("MODEL", "local-model")
    asked: list[str] = []

    def refuse(call: Any, decision: Any) -> bool:
        asked.append(call.params["command"])
        return False

    main = runpy.run_path(str(EXAMPLE))["main"]
    text = await main("say hello", confirm=refuse)

    assert text == "The deck said hello."
    assert asked == ["ls"]  # echo is allowed by the rule; ls is asked about, and refused
    first, second = server.bodies()
    assert first["model"] == "local-model"
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    results = dialect.results(second)
    assert results[0] == ("c1", "hello from the deck", None)
    assert "category: cancelled" in results[1][1]
    assert [r["caller_id"] for r in audit("tool_call")] == ["example", "example"]
    assert "[finished after 1 tool rounds]" in capsys.readouterr().err
