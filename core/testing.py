"""Pytest fixtures for testing tooldeck plugins.

This module is a pytest plugin that nothing loads on its own. Opt in with one of:

* ``pytest_plugins = ["tooldeck.testing"]`` in the ``conftest.py`` at your rootdir, or at
  module level in a test module;
* ``-p tooldeck.testing`` on the command line or in ``addopts``.

Fixtures:

``tooldeck_config``
    :class:`ConfigFactory`: write a ``tooldeck.toml`` into the test's ``tmp_path``.
``make_deck``
    :class:`DeckFactory`: build a :class:`~tooldeck.deck.Deck` from TOML text and plugin
    objects, with its audit log in ``tmp_path``; closed when the test ends.
``audit_log``
    :class:`AuditReader`: the audit records a deck built by ``make_deck`` has written.
``tool_effects``
    :class:`ToolEffects`: run a tool's executor in a sandbox directory (the test's working
    directory) and report what it did that its capabilities do not declare
    (:mod:`tooldeck.effects`): ``tool_effects(deck, "my_tool", {...}).assert_declared()``.

Decks built by ``make_deck`` never read ``TOOLDECK_*`` variables of the process
environment (pass ``environ`` to test overrides) and never write the user's audit log.
pytest is a test dependency only: importing :mod:`tooldeck` never imports this module.
"""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

import pytest

from tooldeck.deck import Deck
from tooldeck.dirs import CONFIG_NAME, data_dir
from tooldeck.effects import EffectReport, record_call
from tooldeck.models import ToolCall

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

__all__ = [
    "AUDIT_PATH_ENV",
    "AuditReader",
    "ConfigFactory",
    "DeckFactory",
    "ToolEffects",
    "audit_log",
    "make_deck",
    "tool_effects",
    "tooldeck_config",
]

AUDIT_PATH_ENV = "TOOLDECK_TOOLS_AUDIT_PATH"
"""The override ``make_deck`` uses to put a deck's audit log in ``tmp_path``."""


class ConfigFactory(Protocol):
    """The type of the ``tooldeck_config`` fixture, for annotating test parameters."""

    def __call__(self, toml_text: str = "", *, name: str = CONFIG_NAME) -> Path:
        """Write ``toml_text`` (dedented) to ``tmp_path / name`` and return that path.

        :param toml_text: the configuration; indentation common to all lines is removed, so
            a triple-quoted string can be indented with the test code.
        :param name: the file name, relative to ``tmp_path``; missing parent directories are
            created.
        :returns: the absolute path of the written file.
        """
        ...


class DeckFactory(Protocol):
    """The type of the ``make_deck`` fixture, for annotating test parameters."""

    def __call__(
        self,
        toml_text: str = "",
        *,
        plugins: Mapping[str, object] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> Deck:
        """Build a deck from ``toml_text`` and embedded ``plugins``.

        :param toml_text: the configuration, dedented and written to
            ``tmp_path/deck-<n>/tooldeck.toml`` (``deck.runtime.settings.document.path``), so
            a test can rewrite it and call ``await deck.reload()``.
        :param plugins: plugin objects (modules or instances with ``@hookimpl`` methods) by
            plugin name; they run unless ``[plugins] disable`` names them. A name must not be
            the entry-point name of an installed plugin: enable an installed plugin with
            ``[plugins] enable`` instead.
        :param environ: the ``TOOLDECK_*`` overrides the deck sees, in place of the process
            environment.
        :returns: the deck; the fixture closes it when the test ends.
        :raises tooldeck.errors.ConfigError: the configuration is refused.
        """
        ...


class AuditReader(Protocol):
    """The type of the ``audit_log`` fixture, for annotating test parameters."""

    def __call__(
        self, deck: Deck | None = None, *, kind: str | None = None
    ) -> list[dict[str, Any]]:
        """Read back the JSON-lines audit records of ``deck``, oldest first.

        :param deck: the deck; by default the one ``make_deck`` built last in this test.
        :param kind: keep only records of this kind (``tool_call``, ``policy.reloaded``…).
        :returns: one dict per record; empty when the deck has written no audit file.
        :raises LookupError: ``deck`` is omitted and ``make_deck`` has built none.
        """
        ...


@pytest.fixture
def tooldeck_config(tmp_path: Path) -> ConfigFactory:
    """Factory fixture: write a ``tooldeck.toml`` into ``tmp_path`` and return its path.

    The text is written as given (after dedenting), even when it is not valid TOML, so a test
    can check how a broken file is reported::

        def test_check_accepts_it(tooldeck_config):
            path = tooldeck_config('''
                [agent]
                autonomy = "readonly"
            ''')
            assert tooldeck.cli.main(["config", "check", str(path)]) == 0

    :param tmp_path: pytest's per-test temporary directory.
    :returns: a :class:`ConfigFactory`.
    """

    def write(toml_text: str = "", *, name: str = CONFIG_NAME) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(toml_text), encoding="utf-8")
        return path

    return write


@pytest.fixture
def _tooldeck_decks() -> Iterator[list[Deck]]:
    """The decks ``make_deck`` built in this test; each is closed at teardown."""
    decks: list[Deck] = []
    yield decks
    # A loop of our own: asyncio.run() would also reset the thread's current event loop,
    # which async test frameworks may still own at this point.
    loop = asyncio.new_event_loop()
    try:
        for deck in decks:
            loop.run_until_complete(deck.aclose())
    finally:
        loop.close()


def _sets_audit_path(toml_text: str) -> bool:
    """Whether the TOML sets ``[tools.audit] path``; text that does not parse sets nothing."""
    try:
        data = tomllib.loads(toml_text)
    except tomllib.TOMLDecodeError:
        return False
    tools = data.get("tools")
    audit = tools.get("audit") if isinstance(tools, Mapping) else None
    return isinstance(audit, Mapping) and "path" in audit


@pytest.fixture
def make_deck(tooldeck_config: ConfigFactory, _tooldeck_decks: list[Deck]) -> DeckFactory:
    """Factory fixture: build a :class:`~tooldeck.deck.Deck` for a test and close it after.

    Each deck gets its own directory ``tmp_path/deck-<n>/`` holding its ``tooldeck.toml`` and,
    unless the TOML sets ``[tools.audit] path``, its ``audit.jsonl`` (set through the
    ``TOOLDECK_TOOLS_AUDIT_PATH`` override)::

        def test_hello(make_deck):
            deck = make_deck('''
                [[tools.permissions.hello]]
                pattern = "*"
                action = "allow"
            ''', plugins={"hello": HelloPlugin()})
            result = deck.call_sync(ToolCall("hello", {"name": "Ada"}))
            assert result.text == "Hello, Ada!"

    Installed plugins are discovered as usual: built-ins run, third-party plugins run when
    the TOML's ``[plugins] enable`` names them. Teardown runs ``aclose()`` on every deck
    built (in an event loop of its own), so do not close them yourself.

    :param tooldeck_config: writes the configuration files.
    :param _tooldeck_decks: where built decks are kept until teardown.
    :returns: a :class:`DeckFactory`.
    """

    def make(
        toml_text: str = "",
        *,
        plugins: Mapping[str, object] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> Deck:
        directory = f"deck-{len(_tooldeck_decks) + 1}"
        path = tooldeck_config(toml_text, name=f"{directory}/{CONFIG_NAME}")
        env = dict(environ or {})
        if not _sets_audit_path(path.read_text(encoding="utf-8")):
            # A JSON string is also a TOML string, so the override is never misread.
            env.setdefault(AUDIT_PATH_ENV, json.dumps(str(path.parent / "audit.jsonl")))
        deck = Deck.from_config(path, extra_plugins=plugins, environ=env)
        _tooldeck_decks.append(deck)
        return deck

    return make


@pytest.fixture
def audit_log(_tooldeck_decks: list[Deck]) -> AuditReader:
    """Factory fixture: the audit records a deck has written, parsed, oldest first.

    The built-in ``audit`` sink writes each record before the call's result is returned, so
    the records of a finished call are there to read::

        def test_audited(make_deck, audit_log):
            deck = make_deck(plugins={"hello": HelloPlugin()})
            deck.call_sync(ToolCall("hello", {"name": "Ada"}), confirm=True)
            (record,) = audit_log(kind="tool_call")
            assert record["approved_by"] == "pre-approved"

    :param _tooldeck_decks: the decks ``make_deck`` built in this test.
    :returns: an :class:`AuditReader`.
    """

    def read(deck: Deck | None = None, *, kind: str | None = None) -> list[dict[str, Any]]:
        if deck is None:
            if not _tooldeck_decks:
                raise LookupError("audit_log: make_deck has not built a deck in this test")
            deck = _tooldeck_decks[-1]
        settings = deck.runtime.settings
        path = settings.core.audit.resolved_path(settings.document.directory)
        if not path.exists():
            return []
        records = [
            json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line
        ]
        return [r for r in records if kind is None or r.get("kind") == kind]

    return read


class ToolEffects:
    """The ``tool_effects`` fixture: run tool executors in a sandbox and report their effects.

    :param sandbox: the directory the calls work in (also the test's working directory).
    """

    def __init__(self, sandbox: Path) -> None:
        self.sandbox = sandbox

    def __call__(self, deck: Deck, tool_id: str, params: Mapping[str, Any] | None = None, *,
                 state_dirs: tuple[Path, ...] = ()) -> EffectReport:
        """Run one call of ``tool_id``'s executor (no gates) and report what it did.

        :param deck: the deck holding the tool (built after the fixture, so its working
            directory is the sandbox).
        :param tool_id: the tool to call.
        :param params: the call's parameters.
        :param state_dirs: directories besides tooldeck's data directory whose writes count
            as ``state``.
        :returns: the report; ``report.assert_declared()`` fails the test on an undeclared
            effect.
        """
        call = ToolCall(tool_id, dict(params or {}))
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(record_call(
                deck.runtime, call, sandbox=self.sandbox,
                state_dirs=(data_dir(), *state_dirs)))
        finally:
            loop.close()


@pytest.fixture
def tool_effects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ToolEffects:
    """Fixture: catch a tool doing what it did not declare.

    The test's working directory becomes ``tmp_path / "sandbox"`` (empty); build decks after
    requesting this fixture so their working directory is that sandbox::

        def test_my_tool_is_honest(make_deck, tool_effects):
            deck = make_deck(plugins={"mine": MyPlugin()})
            tool_effects(deck, "my_tool", {"path": "notes.txt"}).assert_declared()

    :param tmp_path: the test's temporary directory.
    :param monkeypatch: used to change the working directory for the test.
    :returns: a :class:`ToolEffects`.
    """
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    monkeypatch.chdir(sandbox)
    return ToolEffects(sandbox)
