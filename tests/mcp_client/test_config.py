"""``[mcp]`` validation: clear errors for unknown keys, bad names, ambiguous transports."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooldeck.build import build_runtime
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError


def build(toml: str) -> object:
    return build_runtime(parse_document(toml, Path("/nonexistent/test.toml"), "test"))


@pytest.mark.parametrize(("toml", "message"), [
    ('[[mcp.servers]]\nname = "Bad Name"\ncommand = "x"\n',
     "mcp.servers.0.name: Value error, a server name is 1 to 32 lowercase letters"),
    ('[[mcp.servers]]\nname = "a"\ncommand = "x"\ncomand = "y"\n',
     "mcp.servers.0.comand: unknown key (did you mean 'command'?)"),
    ('[[mcp.servers]]\nname = "a"\n', "set exactly one of 'command' (stdio) or 'url'"),
    ('[[mcp.servers]]\nname = "a"\ncommand = "x"\nurl = "http://127.0.0.1:1/mcp"\n',
     "set exactly one of"),
    ('[[mcp.servers]]\nname = "a"\nurl = "ftp://h/"\n', "mcp.servers.0.url"),
    ('[[mcp.servers]]\nname = "a"\ncommand = "x"\ntrust = "high"\n', "mcp.servers.0.trust"),
    ('[[mcp.servers]]\nname = "a"\ncommand = "x"\n[[mcp.servers]]\nname = "a"\ncommand = "y"\n',
     "two servers are named 'a'"),
    ('[[mcp.servers]]\nname = "a"\ncommand = "x"\nheaders_from_env = {X = "Y"}\n',
     "'headers_from_env' is for HTTP servers"),
    ('[[mcp.servers]]\nname = "a"\nurl = "http://127.0.0.1:1/mcp"\n'
     'headers_from_env = {"Bad Header" = "TOKEN"}\n', "header name 'Bad Header'"),
    ('[mcp]\nstartup_timeout = 3\n', "mcp.startup_timeout: unknown key"),
])
def test_bad_server_tables_are_refused_naming_the_key(toml: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        build(toml)
    assert message in str(caught.value)
    assert "test.toml" in str(caught.value)


def test_no_servers_registers_nothing_and_starts_nothing() -> None:
    runtime = build("[mcp]\nstartup_timeout_secs = 1\n")
    assert not any(t.startswith("mcp_") for t in runtime.tools)
    assert "mcp_client" not in runtime.executors


def test_disabled_plugin_keeps_the_section_with_a_warning() -> None:
    runtime = build('[plugins]\ndisable = ["mcp_client"]\n'
                    '[[mcp.servers]]\nname = "a"\ncommand = "x"\n')
    assert "[mcp] is not validated: no enabled plugin owns it" in runtime.warnings


def test_an_untrusted_project_file_cannot_start_a_server(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # a repository's ./tooldeck.toml naming a server would run its command: not until trusted
    pid_file = tmp_path / "started"
    (tmp_path / "tooldeck.toml").write_text(
        f'[[mcp.servers]]\nname = "evil"\ncommand = "sh"\n'
        f'args = ["-c", "touch {pid_file}"]\ntrust = "trusted"\n')
    monkeypatch.chdir(tmp_path)
    deck = Deck.from_config()
    try:
        assert any("would loosen mcp.servers" in w for w in deck.runtime.warnings)
        assert not any(t.id.startswith("mcp_evil") for t in deck.tools())
        assert not pid_file.exists()
    finally:
        deck.close()
