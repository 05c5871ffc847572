"""``tooldeck filter --command CMD [--exit-code N] < output`` and ``tooldeck filter verify``.

``filter`` prints what the model would see for that output: the filtered text and, when lines
were removed, the stats line; on stderr, the rules that matched and the command as they saw it
(:func:`~tooldeck.filters.command.normalized_command`), and secret warnings. With ``--json``:
``output`` (the filtered text, without the stats line), ``rule`` (the names of the rules that
matched, or ``null``), ``normalized_command`` (the command as rules see it: wrappers,
launchers and paths peeled), ``confidence`` (``full``/``partial``/``fallback``, or ``null``
when the output was shown whole),
``lines_in``, ``lines_out``, ``chars_in``, ``chars_out``, ``warnings`` (messages).

``verify`` runs the inline tests of the rules a deck applies (the built-ins as the configured
user file extends, overrides or replaces them), prints each failure (and each rule that does
not load), and exits 1 if there is any. JSON: ``{"rules": N, "origins": {source: N},
"tests": N, "failures": [{rule, test, reason, expected, actual}], "warnings": [...]}``.

Starting fast matters for the one-shot filter: only ``[tools.filters]`` of the configuration
is read and validated (same lookup order as the deck, ``$TOOLDECK_TOOLS_FILTERS_*``
overrides are not applied); when that table is absent or empty the engine takes the defaults
without building the pydantic settings model, so pydantic is not even imported. Only the rules
that may match the command are built. A configuration that enables or disables plugins
(``[plugins]``) makes the command use the full deck's engine instead, as ``verify`` always
does, so third-party strategy types, the rules plugins ship with them and disabled built-in
types are seen in both. A rule that does not load is reported once per run.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

if TYPE_CHECKING:
    from tooldeck.filters.engine import FilterEngine, FilterResult
    from tooldeck.filters.settings import FilterSettings
    from tooldeck.filters.strategy import StrategyRegistry

__all__ = [
    "FilterCommand",
    "changes_plugins",
    "filter_command",
    "filter_json",
    "read_filter_settings",
]

EXIT_OK, EXIT_FAILED, EXIT_CONFIG = 0, 1, 2


def _config_data(explicit: str | None) -> tuple[Path, dict[str, Any]] | None:
    """The configuration file the deck would read, parsed; ``None`` when there is none.

    :raises tooldeck.errors.ConfigError: a named file is missing, or the file is unreadable.
    """
    from tooldeck.dirs import config_candidates
    from tooldeck.errors import ConfigError

    for path, origin in config_candidates(explicit):
        if path.is_file():
            break
        if origin in ("--config", "$TOOLDECK_CONFIG"):
            raise ConfigError(f"{path}: config file not found (given by {origin})", path=str(path))
    else:
        return None
    try:
        return path, tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}", path=str(path)) from None


def changes_plugins(explicit: str | None) -> bool:
    """Whether the configuration changes the set of plugins the built-in rules assume.

    ``[plugins] enable`` or ``disable`` of the file (or ``$TOOLDECK_PLUGINS_ENABLE``,
    ``$TOOLDECK_PLUGINS_DISABLE``) names any plugin: a third-party plugin may ship rules and
    types, and a disabled built-in type takes its rules away.

    :param explicit: the ``--config`` argument.
    :returns: ``True`` when the one-shot filter must open the deck to know every rule.
    :raises tooldeck.errors.ConfigError: as :func:`read_filter_settings`.
    """
    for key in ("ENABLE", "DISABLE"):
        if os.environ.get(f"TOOLDECK_PLUGINS_{key}", "").strip() not in ("", "[]"):
            return True
    found = _config_data(explicit)
    plugins = found[1].get("plugins") if found is not None else None
    return isinstance(plugins, dict) and bool(plugins.get("enable") or plugins.get("disable"))


def read_filter_settings(explicit: str | None) -> FilterSettings | None:
    """``[tools.filters]`` of the configuration, without building a deck.

    :param explicit: the ``--config`` argument.
    :returns: the validated settings (a relative ``filters_path`` made absolute), or ``None``
        when no configuration file is found or it has no (or an empty) ``[tools.filters]``
        table: the defaults apply, and pydantic is not imported.
    :raises tooldeck.errors.ConfigError: a named file is missing, or the file or the table is
        invalid (the message names the file and the dotted key).
    """
    from tooldeck.errors import ConfigError

    found = _config_data(explicit)
    if found is None:
        return None
    path, data = found
    table = data.get("tools", {}).get("filters", {}) if isinstance(data.get("tools"), dict) else {}
    if table == {}:
        return None
    import pydantic

    from tooldeck.filters.settings import FilterSettings, resolve_filters_path

    try:
        settings = FilterSettings.model_validate(table)
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(["tools.filters", *(str(part) for part in err["loc"])])
        raise ConfigError(f"{path}: {key}: {err['msg']}", path=str(path), key=key) from None
    return resolve_filters_path(settings, path)


def filter_json(result: FilterResult) -> dict[str, Any]:
    """The ``--json`` output of ``tooldeck filter``.

    :param result: the engine's result.
    :returns: the JSON-ready mapping.
    """
    return {
        "output": result.output,
        "rule": list(result.rules) or None,
        "normalized_command": result.normalized_command,
        "confidence": None if result.confidence is None else result.confidence.value,
        "lines_in": result.lines_in,
        "lines_out": result.lines_out,
        "chars_in": result.chars_in,
        "chars_out": result.chars_out,
        "warnings": [warning.message for warning in result.warnings],
    }


def _print(text: str, *, stream: Any = None) -> None:
    out = sys.stdout if stream is None else stream
    out.write(text if text.endswith("\n") else text + "\n")


class FilterCommand:
    """The ``tooldeck filter`` subcommand (entry point group ``tooldeck.commands``).

    :param extra_plugins: plugins passed in by code (tests, embedding) for the decks this
        command opens, as for :meth:`tooldeck.deck.Deck.from_config`.
    """

    help = "filter a command's output (stdin) as the model sees it; 'verify' tests the rules"

    def __init__(self, extra_plugins: Mapping[str, object] | None = None) -> None:
        self.extra_plugins = dict(extra_plugins or {})

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Declare ``[verify]``, ``--command`` and ``--exit-code``.

        :param parser: the subcommand's parser.
        """
        parser.add_argument(
            "action",
            nargs="?",
            choices=["verify"],
            help="run every rule's inline tests instead of filtering",
        )
        parser.add_argument(
            "--command",
            dest="shell_command",
            metavar="CMD",
            help="the command that produced the output on stdin",
        )
        parser.add_argument(
            "--noise",
            action="append",
            metavar="RE",
            help="stream stdin through strip_noise with these patterns (repeatable): bounded"
            " memory, no rules, no fallback, no redaction",
        )
        parser.add_argument(
            "--exit-code",
            dest="exit_code",
            type=int,
            default=None,
            metavar="N",
            help="its exit code (default: unknown)",
        )

    def run(self, args: argparse.Namespace) -> int:
        """Filter stdin, or verify the rules.

        :param args: the parsed arguments.
        :returns: 0, 1 (a rule test failed) or 2 (usage or configuration error).
        """
        as_json = bool(getattr(args, "json", False))
        config = getattr(args, "config", None)
        if args.action == "verify":
            return self._verify(config, as_json)
        if getattr(args, "noise", None):
            return self._stream_noise(args.noise, as_json=as_json)
        if args.shell_command is None:
            print(
                "tooldeck filter: --command is required (or use: tooldeck filter verify)",
                file=sys.stderr,
            )
            return EXIT_CONFIG
        raw = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
        result = self._engine(config, args.shell_command).apply(
            args.shell_command, raw, args.exit_code
        )
        if as_json:
            import json

            _print(json.dumps(filter_json(result), indent=2, ensure_ascii=False))
            return EXIT_OK
        text = result.output
        if result.stats_line is not None:
            text = f"{text}\n{result.stats_line}"
        _print(text)
        matched = ", ".join(result.rules) or "none (generic fallback)"
        print(
            f"tooldeck filter: rule {matched}; command as matched: {result.normalized_command!r}",
            file=sys.stderr,
        )
        for warning in result.warnings:
            if warning.kind.value == "secret":
                print(f"tooldeck filter: {warning.message}", file=sys.stderr)
        return EXIT_OK

    def _stream_noise(self, patterns: list[str], *, as_json: bool) -> int:
        """Strip the noise of stdin as it arrives (:meth:`StripNoise.stream`), to stdout."""
        if as_json:
            print("tooldeck filter: --noise streams text; --json is not available with it",
                  file=sys.stderr)
            return EXIT_CONFIG
        from tooldeck.filters.builtin_types import lazy_strategy_registry
        from tooldeck.filters.strategy import StrategyConfigError
        from tooldeck.filters.strip_noise import StripNoise

        try:
            strategy = lazy_strategy_registry().build({"type": "strip_noise", "patterns": patterns})
        except StrategyConfigError as exc:
            print(f"tooldeck filter: --noise: {exc}", file=sys.stderr)
            return EXIT_CONFIG
        assert isinstance(strategy, StripNoise)
        out = sys.stdout.buffer
        ended = [b""]

        def write(piece: bytes) -> None:
            if piece:
                out.write(piece)
                ended[0] = piece[-1:]

        strategy.stream(_sanitized_stdin(), write)
        if ended[0] != b"\n":
            out.write(b"\n")
        out.flush()
        return EXIT_OK

    def _engine(self, config: str | None, command: str) -> FilterEngine:
        """The engine for ``command``; a rule that does not load is reported once, on stderr.

        The rule loader logs each skipped rule (Python's last-resort handler prints it): the
        one-shot engine builds once, and the deck's engine once, so nothing is repeated.
        """
        if self.extra_plugins or changes_plugins(config):
            # plugins may add or take away rules and types: only the deck knows them all
            return self._deck_engine(config)
        from tooldeck.filters.builtin_types import lazy_strategy_registry
        from tooldeck.filters.engine import FilterEngine

        settings = read_filter_settings(config)
        return FilterEngine.from_settings(settings, lazy_strategy_registry(), command=command)

    def _deck_engine(self, config: str | None) -> FilterEngine:
        from tooldeck.deck import Deck
        from tooldeck.filters.plugin import ENGINE

        deck = Deck.from_config(config, extra_plugins=self.extra_plugins)
        try:
            return deck.runtime.stash_get(ENGINE)
        finally:
            deck.close()

    def _deck_registry(self, config: str | None) -> StrategyRegistry:
        import os
        import tempfile

        from tooldeck.deck import Deck
        from tooldeck.filters.plugin import strategy_registry

        # the strategy types only: the deck is built without the user's rule file, whose
        # failing inline tests would refuse it (reporting them is this command's job)
        with tempfile.TemporaryDirectory() as no_rules:
            environ = {**os.environ, "TOOLDECK_TOOLS_FILTERS_FILTERS_PATH": no_rules}
            deck = Deck.from_config(config, extra_plugins=self.extra_plugins, environ=environ)
        try:
            return strategy_registry(deck.runtime)[0]
        finally:
            deck.close()

    def _verify(self, config: str | None, as_json: bool) -> int:
        from tooldeck.filters.rules import load_rules
        from tooldeck.filters.verify import verify_rules

        settings = read_filter_settings(config)
        registry = self._deck_registry(config)
        # exactly the rules a deck applies: the built-ins and the plugins' rules as the
        # user's file extends, overrides or replaces them
        loaded = load_rules(None if settings is None else settings.filters_path, registry)
        rules = list(loaded.rules)
        warnings = list(loaded.warnings)
        failures = verify_rules(rules)
        tests = sum(len(rule.tests) for rule in rules)
        if as_json:
            import json

            _print(
                json.dumps(
                    {
                        "rules": len(rules),
                        "origins": {source: sum(1 for r in rules if r.source == source)
                                    for source in dict.fromkeys(r.source for r in rules)},
                        "tests": tests,
                        "failures": [
                            {
                                "rule": f.rule,
                                "test": f.index + 1,
                                "reason": f.reason,
                                "expected": f.expected,
                                "actual": f.actual,
                            }
                            for f in failures
                        ],
                        "warnings": warnings,
                    },
                    indent=2,
                    ensure_ascii=False,
                )
            )
        else:
            for warning in warnings:
                _print(f"rule not loaded: {warning}")
            for failure in failures:
                _print(failure.describe())
            _print(
                f"{len(rules)} rules, {tests} tests: {len(failures)} failed, "
                f"{len(warnings)} rule(s) not loaded"
            )
        return EXIT_FAILED if failures or warnings else EXIT_OK


_READ_SIZE = 1 << 20
"""Bytes read from stdin at a time by the streaming path."""


def _sanitized_stdin() -> Iterator[bytes]:
    """The bytes of stdin as they arrive, sanitized (``SanitizeStream``)."""
    from tooldeck.filters.sanitize import sanitized_pieces

    source = sys.stdin.buffer
    if hasattr(source, "read1"):
        return sanitized_pieces(lambda: source.read1(_READ_SIZE))
    return sanitized_pieces(lambda: source.read(_READ_SIZE))


filter_command = FilterCommand()
"""The object the ``filter`` entry point names."""
