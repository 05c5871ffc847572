"""Catch a tool doing what its capabilities do not declare: run its executor and watch.

:func:`record_call` runs one call's executor directly (no gates: the question is what the
code does, not whether policy lets it) while two witnesses watch:

* a process-wide audit hook (:func:`sys.addaudithook`) that notes, only while a recording is
  on, files opened for writing and other file changes (``write``, or ``state`` under a state
  directory), processes started (``execute``) and IPv4/IPv6 sockets connected, bound or sent
  to (``network``);
* a snapshot of the sandbox tree before and after, which also catches what a child process
  wrote there.

An audit hook cannot be removed, so it is installed once, on first use, and does nothing
while no recording is on. What a child process does beyond the sandbox tree (its own network
use, writes elsewhere) is not seen: a tool that starts processes must declare ``execute``,
and that is where the harness stops. Effects from other threads of the process during the
recording are attributed to the call; keep the test single-purpose.
"""

from __future__ import annotations

import hashlib
import os
import socket
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

from tooldeck.errors import ToolError
from tooldeck.models import Decision, ToolCall, ToolDef, ToolOutput, Verdict
from tooldeck.runtime import CallContext, Runtime

__all__ = ["Effect", "EffectReport", "record_call", "recording"]

_WRITE_EVENTS = frozenset({
    "os.remove", "os.rename", "os.mkdir", "os.rmdir", "os.truncate", "os.symlink", "os.link",
    "os.chmod", "os.chown", "os.utime", "os.chflags", "os.lchmod", "os.mkfifo", "os.mknod",
    "shutil.rmtree", "shutil.copyfile", "shutil.copymode", "shutil.copystat", "shutil.move",
})
_EXECUTE_EVENTS = frozenset({
    "subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
    "os.forkpty", "pty.spawn", "os.startfile",
})
_NETWORK_EVENTS = frozenset({"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_IGNORED_PATHS = frozenset({os.devnull})


@attrs.frozen
class Effect:
    """One thing a call did that needs a capability.

    :param capability: ``write``, ``state``, ``execute`` or ``network``.
    :param detail: what was seen (the event and its path, command or address).
    :param witness: ``audit`` (this process did it) or ``tree`` (the sandbox changed: this
        process or a child did it).
    """

    capability: str
    detail: str
    witness: str = "audit"


@attrs.frozen
class EffectReport:
    """What a call did, and which of it its tool did not declare.

    :param tool: the tool called.
    :param effects: every effect seen, in order, without repeats.
    :param output: the executor's output, or ``None`` when it raised.
    :param error: the tool error the executor raised, or ``None``.
    """

    tool: ToolDef
    effects: tuple[Effect, ...]
    output: ToolOutput | None
    error: ToolError | None

    @property
    def undeclared(self) -> tuple[Effect, ...]:
        """The effects the tool's capabilities do not cover.

        ``write`` covers ``state``; ``execute`` covers the sandbox changes the started
        programs may have made (a shell command writing a file is the command's effect, judged
        by the shell policy), but not writes of the tool's own process.
        """
        caps = self.tool.effective_capabilities
        return tuple(e for e in self.effects if e.capability not in caps
                     and not (e.capability == "state" and "write" in caps)
                     and not (e.witness == "tree" and "execute" in caps))

    def assert_declared(self) -> None:
        """Raise :class:`AssertionError` naming every undeclared effect, if there is one."""
        if self.undeclared:
            lines = "\n".join(f"  {e.capability}: {e.detail}" for e in self.undeclared)
            raise AssertionError(
                f"tool {self.tool.id!r} declares {sorted(self.tool.capabilities)} but did:\n"
                f"{lines}")


def _kind(full: str, state_prefixes: tuple[str, ...]) -> str:
    """``state`` for a path in (or an ancestor created for) a state directory, else ``write``."""
    mine = full + os.sep
    if any(mine.startswith(p) or p.startswith(mine) for p in state_prefixes):
        return "state"
    return "write"


class _Recorder:
    """Effects noted by the audit hook while active."""

    def __init__(self, state_dirs: Sequence[Path]) -> None:
        self.state_dirs = tuple(str(d) + os.sep for d in state_dirs)
        self.effects: list[Effect] = []

    def note_path(self, event: str, path: object) -> None:
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str):
            return  # a file descriptor: its open was seen already
        full = os.path.abspath(path)
        if full in _IGNORED_PATHS or f"{os.sep}__pycache__{os.sep}" in full:
            return
        self.add(Effect(_kind(full, self.state_dirs), f"{event} {full}"))

    def add(self, effect: Effect) -> None:
        if effect not in self.effects:
            self.effects.append(effect)


_active: list[_Recorder] = []
_lock = threading.Lock()
_installed = False


def _opens_for_writing(args: tuple[Any, ...]) -> bool:
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 else 0
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if not _active:
        return
    recorder = _active[-1]
    if event == "open":
        if args and _opens_for_writing(args):
            recorder.note_path(event, args[0])
    elif event in _WRITE_EVENTS:
        if args:
            recorder.note_path(event, args[0])
    elif event in _EXECUTE_EVENTS:
        what = args[0] if args else ""
        recorder.add(Effect("execute", f"{event} {what!r}"))
    elif (event in _NETWORK_EVENTS and args and isinstance(args[0], socket.socket)
          and args[0].family in (socket.AF_INET, socket.AF_INET6)):
        address = args[1] if len(args) > 1 else ""
        recorder.add(Effect("network", f"{event} {address!r}"))


@contextmanager
def recording(state_dirs: Iterable[Path] = ()) -> Iterator[list[Effect]]:
    """Note the effects of the code run inside the ``with`` block.

    :param state_dirs: directories whose writes count as ``state``, not ``write``.
    :returns: (as the ``with`` target) the list the effects are appended to.
    """
    global _installed
    recorder = _Recorder([Path(d).resolve() for d in state_dirs])
    with _lock:
        if not _installed:
            sys.addaudithook(_hook)
            _installed = True
        _active.append(recorder)
    try:
        yield recorder.effects
    finally:
        with _lock:
            _active.remove(recorder)


def _snapshot(root: Path) -> dict[str, tuple[str, str]]:
    """Each entry below ``root`` (relative path) with its type and content fingerprint."""
    out: dict[str, tuple[str, str]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            rel = str(path.relative_to(root))
            if path.is_symlink():
                out[rel] = ("symlink", os.readlink(path))
            elif path.is_dir():
                out[rel] = ("dir", oct(path.stat().st_mode))
            elif path.is_file():
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                out[rel] = ("file", f"{oct(path.stat().st_mode)}:{digest}")
            else:
                out[rel] = ("other", "")
    return out


def _tree_effects(root: Path, before: dict[str, tuple[str, str]],
                  after: dict[str, tuple[str, str]], state_dirs: Sequence[Path]) -> list[Effect]:
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    effects = []
    prefixes = tuple(str(Path(d).resolve()) + os.sep for d in state_dirs)
    for rel in changed:
        full = str(root / rel)
        what = "created" if rel not in before else "deleted" if rel not in after else "changed"
        effects.append(Effect(_kind(full, prefixes), f"{what} {full}", witness="tree"))
    return effects


async def record_call(runtime: Runtime, call: ToolCall, *, sandbox: Path,
                      state_dirs: Iterable[Path] = ()) -> EffectReport:
    """Run ``call``'s executor once, watching what it does (see the module docstring).

    :param runtime: the runtime holding the tool and its executor (``deck.runtime``).
    :param call: the call; its parameters are validated as the pipeline would.
    :param sandbox: the directory tree to snapshot before and after (the working directory
        the tool is meant to work in).
    :param state_dirs: directories where writes count as ``state`` (tooldeck's data directory,
        a plugin's store).
    :returns: the report; call :meth:`EffectReport.assert_declared` on it.
    :raises KeyError: the tool or its executor is not registered.
    """
    tool = runtime.tools[call.tool_id]
    executor = runtime.executors[tool.executor]
    model = tool.params.model_validate(call.params)
    call = attrs.evolve(call, params=model.model_dump())
    ctx = CallContext(tool=tool, params=model, runtime=runtime,
                      decision=Decision(Verdict.ALLOW, "capability harness", gate="harness"))
    dirs = [Path(d) for d in state_dirs]
    root = sandbox.resolve()
    before = _snapshot(root)
    output: ToolOutput | None = None
    error: ToolError | None = None
    with recording(dirs) as seen:
        try:
            output = await executor.execute(call, ctx)
        except ToolError as exc:
            error = exc
    effects = list(seen)
    for effect in _tree_effects(root, before, _snapshot(root), dirs):
        path = effect.detail.split(" ", 1)[1]
        if not any(e.capability == effect.capability and e.detail.endswith(" " + path)
                   for e in effects):  # the audit hook saw this one already
            effects.append(effect)
    return EffectReport(tool=tool, effects=tuple(effects), output=output, error=error)
