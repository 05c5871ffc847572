"""Running one command: ``bash -c`` in a session of its own, output captured, tree killed.

=====================  ================================================================
step                   behaviour
=====================  ================================================================
spawn                  ``bash -c <command>``, ``start_new_session`` (its pid is the session
                       and process-group id), stdin ``/dev/null``, the scrubbed environment,
                       the sandbox working directory
capture                stdout and stderr read concurrently in chunks; lines kept in arrival
                       order for the interleaved view; at most ``max_output_bytes`` kept in
                       total (the rest is read and dropped, ``truncated`` set)
finish                 the leader exits (watched through a pidfd, polled where there is
                       none) and both pipes close; a process left behind that still holds
                       a pipe gets :data:`LINGER_SECS` to let go, then the tree is killed;
                       processes left in the group are killed; closing the pipes early
                       does not stop the timeout
timeout / cancel       the tree is killed: SIGSTOP every member (so none can fork away),
                       SIGTERM + SIGCONT, :data:`GRACE_SECS`, SIGKILL
tree members           processes whose session or process group is the leader's, plus every
                       descendant (by parent pid) of those, found in ``/proc`` and
                       remembered (pid and start time, so a reused pid is never hit) across
                       the kill; without ``/proc`` the process group only
exit code              the process's; killed by signal N: 128 + N
=====================  ================================================================

A grandchild that both left the session (``setsid``) and was orphaned before the kill has
no link to the command left in ``/proc``; it is the one case that escapes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

__all__ = ["GRACE_SECS", "LINGER_SECS", "Completed", "RunningCommand", "kill_tree"]

GRACE_SECS = 0.25
"""Between SIGTERM and SIGKILL."""

LINGER_SECS = 0.5
"""How long pipes may stay open after the leader exited before the tree is killed."""

_CHUNK = 65536


@attrs.frozen
class Completed:
    """A finished command.

    :param stdout: captured standard output (possibly cut).
    :param stderr: captured standard error (possibly cut).
    :param combined: both, line by line in arrival order, stderr lines prefixed ``[stderr] ``,
        trailing whitespace removed.
    :param exit_code: the exit code (128 + N when killed by signal N).
    :param truncated: more than ``max_output_bytes`` was produced.
    :param timed_out: the timeout killed the tree.
    """

    stdout: str
    stderr: str
    combined: str
    exit_code: int
    truncated: bool
    timed_out: bool


class _Capture:
    """Output of both streams within one byte budget, with the line order across them."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.raw = {False: bytearray(), True: bytearray()}
        self.lines: list[tuple[bool, bytes]] = []
        self.truncated = False

    async def pump(self, stream: asyncio.StreamReader, is_err: bool) -> None:
        partial = b""
        while chunk := await stream.read(_CHUNK):
            kept = chunk[: max(self.budget, 0)]
            self.budget -= len(kept)
            if len(kept) < len(chunk):
                self.truncated = True
            if not kept:
                continue
            self.raw[is_err] += kept
            *complete, partial = (partial + kept).split(b"\n")
            self.lines.extend((is_err, line) for line in complete)
        if partial:
            self.lines.append((is_err, partial))

    def combined(self) -> str:
        text = "\n".join(
            ("[stderr] " if is_err else "") + line.decode("utf-8", "replace")
            for is_err, line in self.lines
        )
        return text.rstrip()


@attrs.frozen
class _Proc:
    """One line of ``/proc/<pid>/stat``: what tree membership needs."""

    parent: int
    group: int
    session: int
    started: int


def _stat_table() -> dict[int, _Proc] | None:
    """Every live process by pid, or ``None`` without ``/proc``."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    table: dict[int, _Proc] = {}
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        fields = data[data.rfind(b")") + 2 :].split()
        if len(fields) >= 20 and fields[0] != b"Z":
            table[int(entry)] = _Proc(int(fields[1]), int(fields[2]), int(fields[3]),
                                      int(fields[19]))
    return table


def _members(leader: int, known: dict[int, int]) -> dict[int, int]:
    """The leader's tree now, as ``pid → start time``.

    Session or group members, their descendants, and the ``known`` members still alive
    (same pid and start time).
    """
    table = _stat_table()
    if table is None:
        return dict(known)
    found = {pid: p.started for pid, p in table.items() if leader in (p.group, p.session)}
    found.update({pid: started for pid, started in known.items()
                  if pid in table and table[pid].started == started})
    children: dict[int, list[int]] = {}
    for pid, proc in table.items():
        children.setdefault(proc.parent, []).append(pid)
    queue = list(found)
    while queue:
        for child in children.get(queue.pop(), ()):
            if child not in found:
                found[child] = table[child].started
                queue.append(child)
    return found


def _signal_all(leader: int, pids: Iterable[int], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, sig)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


async def kill_tree(leader: int) -> None:
    """Kill a command's whole process tree (see the module table).

    :param leader: the pid of ``bash``, which is also its session and group id.
    """
    known: dict[int, int] = {}
    for _ in range(8):  # freeze until no new member appears
        found = _members(leader, known)
        fresh = {pid: started for pid, started in found.items() if pid not in known}
        _signal_all(leader, fresh, signal.SIGSTOP)
        if not fresh:
            break
        known.update(fresh)
    _signal_all(leader, known, signal.SIGTERM)
    _signal_all(leader, known, signal.SIGCONT)
    await asyncio.sleep(GRACE_SECS)
    _signal_all(leader, _members(leader, known), signal.SIGKILL)


class _ExitWatch:
    """A future set when the leader exits: a pidfd reader, or a polling task without pidfd.

    ``Process.wait()`` cannot serve: it also waits for the pipes, which a process left
    behind may hold open.
    """

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        loop = asyncio.get_running_loop()
        self.future: asyncio.Future[None] = loop.create_future()
        self._fd: int | None = None
        self._poller: asyncio.Task[None] | None = None
        try:
            self._fd = os.pidfd_open(proc.pid)
        except (AttributeError, OSError):
            self._poller = loop.create_task(self._poll(proc))
        else:
            loop.add_reader(self._fd, self._fire)

    def _fire(self) -> None:
        if not self.future.done():
            self.future.set_result(None)

    async def _poll(self, proc: asyncio.subprocess.Process) -> None:
        await _returncode(proc)
        self._fire()

    def close(self) -> None:
        """Stop watching."""
        if self._fd is not None:
            asyncio.get_running_loop().remove_reader(self._fd)
            os.close(self._fd)
            self._fd = None
        if self._poller is not None:
            self._poller.cancel()


async def _returncode(proc: asyncio.subprocess.Process) -> int:
    """Poll until the event loop has reaped ``proc`` (backing off to 50 ms)."""
    delay = 0.0
    while proc.returncode is None:
        await asyncio.sleep(delay)
        delay = min(delay * 2 or 0.001, 0.05)
    return proc.returncode


class RunningCommand:
    """A started command; :meth:`finish` waits for it (or kills it at the timeout).

    Use :meth:`start` to create one.
    """

    def __init__(self, proc: asyncio.subprocess.Process, capture: _Capture) -> None:
        self.proc = proc
        self._capture = capture
        assert proc.stdout is not None and proc.stderr is not None
        self._pumps = asyncio.gather(
            capture.pump(proc.stdout, False), capture.pump(proc.stderr, True)
        )

    @classmethod
    async def start(cls, command: str, *, cwd: str, env: Mapping[str, str],
                    max_output_bytes: int) -> RunningCommand:
        """Spawn ``bash -c command``.

        :param command: the command text.
        :param cwd: the working directory.
        :param env: the (scrubbed) environment.
        :param max_output_bytes: the capture budget over both streams.
        :returns: the running command.
        :raises OSError: ``bash`` cannot be started.
        """
        proc = await asyncio.create_subprocess_exec(
            "bash", "-c", command, cwd=cwd, env=dict(env), start_new_session=True,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        return cls(proc, _Capture(max_output_bytes))

    @property
    def pid(self) -> int:
        """The leader's pid (also the session and process-group id)."""
        return self.proc.pid

    async def finish(self, timeout: float) -> Completed:
        """Wait for the command, killing its tree at ``timeout`` or when cancelled.

        :param timeout: seconds.
        :returns: what it produced; ``timed_out`` tells whether the timeout ended it.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        watch = _ExitWatch(self.proc)
        exited, pumps = watch.future, self._pumps
        either: set[asyncio.Future[Any]] = {exited, pumps}
        timed_out = False
        try:
            await asyncio.wait(either, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if exited.done() and not pumps.done():  # something left behind holds a pipe
                await asyncio.wait({pumps}, timeout=min(LINGER_SECS, deadline - loop.time()))
            elif pumps.done() and not exited.done():  # pipes closed, bash still running
                await asyncio.wait({exited}, timeout=max(deadline - loop.time(), 0))
            timed_out = not exited.done()
            if timed_out or not pumps.done():
                await kill_tree(self.pid)
        except asyncio.CancelledError:
            await asyncio.shield(self.kill())
            raise
        finally:
            watch.close()
        await self._settle()
        code = self.proc.returncode
        assert code is not None
        capture = self._capture
        return Completed(
            stdout=capture.raw[False].decode("utf-8", "replace"),
            stderr=capture.raw[True].decode("utf-8", "replace"),
            combined=capture.combined(),
            exit_code=128 - code if code < 0 else code,
            truncated=capture.truncated,
            timed_out=timed_out,
        )

    async def _settle(self) -> None:
        """Kill whatever is left in the group, end the pumps, reap the leader."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        pumps = self._pumps
        if not pumps.done():
            await asyncio.wait({pumps}, timeout=GRACE_SECS)
        if not pumps.done():
            pumps.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pumps
        if pumps.cancelled():  # a pipe is still held open: wait() would never return
            await _returncode(self.proc)
        else:
            await self.proc.wait()

    async def kill(self) -> None:
        """Kill the tree now and reap it (for cancellation and runtime retirement)."""
        if self.proc.returncode is None:
            await kill_tree(self.pid)
        await self._settle()
