"""``[storage]``: embedded by default, a clear refusal for every way a shared backend can fail."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tooldeck import hookimpl
from tooldeck.config import parse_document
from tooldeck.deck import Deck
from tooldeck.errors import ConfigError
from tooldeck.pg_server import TemporaryPostgres

TOOLDECK = Path(sys.executable).parent / "tooldeck"


def deck_from(text: str, tmp_path: Path) -> Deck:
    return Deck.from_config(parse_document(text, tmp_path / "tooldeck.toml", "test"))


def run_cli(tmp_path: Path, text: str, *args: str,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "tooldeck.toml"
    config.write_text(text)
    return subprocess.run([str(TOOLDECK), "--config", str(config), *args], capture_output=True,
                          text=True, timeout=120, env=env, cwd=tmp_path)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_without_storage_the_deck_is_embedded(tmp_path: Path) -> None:
    deck = deck_from("[tools]\n", tmp_path)
    try:
        assert deck.runtime.storage.name == "embedded"
        assert not deck.runtime.storage.shared
    finally:
        deck.close()


@pytest.mark.parametrize("url", [
    "postgresql://tooldeck:s3cret@db.example/tooldeck",
    "postgresql://tooldeck@db.example/tooldeck?password=s3cret",
])
def test_a_password_in_the_url_is_a_configuration_error_naming_file_and_key(
        tmp_path: Path, url: str) -> None:
    with pytest.raises(ConfigError) as caught:
        deck_from(f'[storage]\nurl = "{url}"\n', tmp_path)
    message = str(caught.value)
    assert f"{tmp_path / 'tooldeck.toml'}: storage.url: " in message
    assert "password" in message and "s3cret" not in message
    assert caught.value.key == "storage.url"


def test_a_url_that_is_not_postgresql_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"storage\.url: .*postgresql://"):
        deck_from('[storage]\nurl = "mysql://db/tooldeck"\n', tmp_path)


def test_an_unreachable_server_stops_the_cli_with_exit_2_and_the_reason(tmp_path: Path) -> None:
    url = f"postgresql://tooldeck@127.0.0.1:{closed_port()}/tooldeck"
    proc = run_cli(tmp_path, f'[storage]\nurl = "{url}"\nconnect_timeout_secs = 2\n', "tools")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "storage.url: cannot open the shared state: cannot connect to" in proc.stderr
    assert "refused" in proc.stderr.lower()


def test_a_wrong_password_stops_the_cli_with_exit_2_and_the_reason(
        tmp_path: Path, pg_server: TemporaryPostgres) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "TOOLDECK_PG_PASSWORD": "wrong"}
    proc = run_cli(tmp_path, f'[storage]\nurl = "{pg_server.url()}"\n', "tools", env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "password authentication failed" in proc.stderr


def test_the_password_comes_from_the_variable_password_env_names(
        tmp_path: Path, pg_server: TemporaryPostgres, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLEET_DB_SECRET", pg_server.password)
    deck = deck_from(f'[storage]\nurl = "{pg_server.url()}"\npassword_env = "FLEET_DB_SECRET"\n',
                     tmp_path)
    try:
        assert deck.runtime.storage.name == "postgresql"
    finally:
        deck.close()


def test_no_backend_for_the_url_is_an_error_never_an_embedded_fallback(tmp_path: Path) -> None:
    text = '[plugins]\ndisable = ["postgres"]\n[storage]\nurl = "postgresql://db/tooldeck"\n'
    with pytest.raises(ConfigError, match=r"storage\.url: no enabled plugin provides"):
        deck_from(text, tmp_path)


def test_without_psycopg_the_error_names_the_extra(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m.startswith(("psycopg", "tooldeck.plugins.postgres."))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as on a machine without the extra
    with pytest.raises(ConfigError, match=r"tooldeck\[postgres\]"):
        deck_from('[storage]\nurl = "postgresql://db/tooldeck"\n', tmp_path)


async def test_a_reload_that_changes_storage_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "tooldeck.toml"
    config.write_text("[tools]\n")
    deck = Deck.from_config(config, settle_wait=_no_wait)
    try:
        config.write_text('[tools]\n[storage]\nurl = "postgresql://db/tooldeck"\n')
        assert not await deck.reload()
        assert deck.last_reload_error is not None
        assert "[storage] cannot change while the deck runs" in deck.last_reload_error
        assert deck.runtime.storage.name == "embedded"
    finally:
        await deck.aclose()


async def _no_wait() -> None:
    return None


# the cold paths never load psycopg: listing modules from inside the installed script
_LIST_MODULES = """
import runpy, sys
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit:
    pass
finally:
    print("loaded:", *sorted(sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize("args", [["--version"], ["filter", "--command", "git status"],
                                  ["tools", "--format", "json"]])
def test_cold_paths_without_storage_never_import_psycopg(tmp_path: Path, args: list[str]) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "XDG_DATA_HOME": str(tmp_path / "data")}
    proc = subprocess.run([sys.executable, "-c", _LIST_MODULES, str(TOOLDECK), *args],
                          input="On branch main\n", capture_output=True, text=True, cwd=tmp_path,
                          env=env, timeout=120)
    last = proc.stderr.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("loaded: "), proc.stderr
    modules = set(last.split()[1:])
    assert "tooldeck" in modules
    assert not {m for m in modules if m.split(".")[0] in ("psycopg", "psycopg_pool")}


class _BrokenConfigure:
    @hookimpl
    def tooldeck_configure(self) -> None:
        raise RuntimeError("broken on purpose")


def test_a_build_that_fails_after_opening_the_backend_closes_it(
        tmp_path: Path, pg_server: TemporaryPostgres, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLDECK_PG_PASSWORD", pg_server.password)

    def listeners() -> set[int | None]:
        return {t.ident for t in threading.enumerate() if t.name == "tooldeck-pg-listener"}

    before = listeners()
    doc = parse_document(f'[storage]\nurl = "{pg_server.url()}"\n', tmp_path / "t.toml", "test")
    with pytest.raises(ConfigError, match="broken on purpose"):
        Deck.from_config(doc, extra_plugins={"broken": _BrokenConfigure()})
    assert listeners() <= before  # no deck will ever close it: the build did
