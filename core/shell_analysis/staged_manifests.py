"""A package manifest written and run by the same command: its scripts run before anyone reads them.

A manifest names code its tool runs by itself: npm's lifecycle scripts (``preinstall``,
``install``, ``postinstall``, ``prepare``) and ``npm test|run|start``, setuptools' ``setup.py``
and a ``pyproject.toml`` build backend, Cargo's ``build.rs``, Composer's and Bundler's
scripts. Writing one and running the tool in the same command
(``echo '{"scripts":{"preinstall":"…"}}' > package.json && npm install``) runs code nobody
saw as a file: ask (rule ``staged-manifest``). Writing it in one call and installing in the
next stays allowed (the file is there to read); so is a manifest edited without a run
(``jq … > package.json.tmp && mv package.json.tmp package.json``).

| manifest written                               | run by                                    |
| ---------------------------------------------- | ----------------------------------------- |
| ``package.json``, ``binding.gyp``              | ``npm|pnpm|bun install|i|ci|add|rebuild|  |
|                                                | test|run|start``, ``yarn`` (any)           |
| ``setup.py``, ``setup.cfg``, ``pyproject.toml`` | ``pip|uv pip install``, ``python setup.py``,|
|                                                | ``python -m build``, ``uv sync|run``       |
| ``build.rs``, ``Cargo.toml``                   | ``cargo build|run|test|install|check``    |
| ``composer.json``                              | ``composer install|update|run-script``    |
| ``Gemfile``, ``*.gemspec``                     | ``bundle install|exec``, ``gem build``    |
"""

from __future__ import annotations

from tooldeck.shell_analysis.findings import ASK, Finding
from tooldeck.shell_analysis.model import CommandAnalysis, Segment

__all__ = ["MANIFEST_RUNNERS", "staged_manifest_finding"]

_NODE = ("package.json", "binding.gyp")
_PYTHON = ("setup.py", "setup.cfg", "pyproject.toml")
_RUST = ("build.rs", "Cargo.toml")
_RUNS: dict[str, tuple[tuple[str, ...], frozenset[str] | None]] = {
    "npm": (_NODE, frozenset({"install", "i", "ci", "add", "rebuild", "test", "t", "run",
                              "run-script", "start", "pack"})),
    "pnpm": (_NODE, frozenset({"install", "i", "add", "rebuild", "test", "run", "start"})),
    "bun": (_NODE, frozenset({"install", "i", "add", "test", "run"})),
    "yarn": (_NODE, None),
    "pip": (_PYTHON, frozenset({"install"})), "pip3": (_PYTHON, frozenset({"install"})),
    "uv": (_PYTHON, frozenset({"pip", "sync", "run"})),
    "cargo": (_RUST, frozenset({"build", "run", "test", "install", "check"})),
    "composer": (("composer.json",), frozenset({"install", "update", "run-script"})),
    "bundle": (("Gemfile",), frozenset({"install", "exec"})),
    "gem": ((".gemspec",), frozenset({"build"})),
}
MANIFEST_RUNNERS: frozenset[str] = frozenset(_RUNS) | {"python", "python3"}
"""Command names that run what a manifest names (``python setup.py`` and ``-m build`` too)."""


def _runs(segment: Segment) -> tuple[str, ...]:
    """The manifest names this segment's tool runs, or none."""
    argv = segment.argv
    if not argv:
        return ()
    head, args = argv[0], argv[1:]
    if head.startswith("python"):
        return _PYTHON if args[:1] == ("setup.py",) or args[:2] == ("-m", "build") or (
            args[:2] == ("-m", "pip") and "install" in args) else ()
    entry = _RUNS.get(head)
    if entry is None:
        return ()
    manifests, verbs = entry
    verb = next((a for a in args if not a.startswith("-")), None)
    if verbs is None or (verb is not None and verb in verbs):
        return manifests
    return ()


def staged_manifest_finding(analysis: CommandAnalysis) -> Finding | None:
    """Ask when a command writes a manifest and runs the tool that runs its code.

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    written = [t for t in analysis.write_targets if t]
    if not written:
        return None
    for segment in analysis.segments:
        manifests = _runs(segment)
        target = next((t for t in written if t.rsplit("/", 1)[-1].endswith(manifests)), None)
        if manifests and target is not None:
            return Finding(ASK, "staged-manifest", f"{segment.text!r} runs the scripts of "
                           f"{target!r}, which the same command writes (unread)")
    return None
