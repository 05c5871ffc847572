"""Running one command: ``bash -c`` in a session of its own, output captured, tree killed.

=====================  ================================================================
step                   behaviour
=====================  ================================================================
spawn                  ``bash -c <command>``, ``start_new_session`` (its pid is the session
                       and process-group id), stdin ``/dev/null``, the scrubbed environment,
                       the sandbox working directory
capture                stdout and stderr read as they become readable (the event loop
                       watches both pipes), in chunks; lines kept in arrival order for the
                       interleaved view; at most ``max_output_bytes`` kept in total (the
                       rest is read and dropped, ``truncated`` set)
progress               with an ``on_output`` callback, the complete lines of each chunk kept
                       (stderr ones prefixed ``[stderr] ``) are handed to it as they arrive,
                       one call per chunk; without one, nothing extra is done
finish                 the leader exits (watched through a pidfd, ``waitpid`` polled where
                       there is none) and both pipes close; a process left behind that
                       still holds a pipe gets :data:`LINGER_SECS` to let go, then the tree
                       is killed; processes left in the group are killed; closing the pipes
                       early does not stop the timeout
reaping                with a pidfd the leader is reaped after the group's last ``SIGKILL``,
                       so its pid (the group id) cannot be reused while it is signalled; a
                       status taken by another reaper (a child watcher waiting for any
                       child) is reported as 255, as asyncio does
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
import subprocess
from collections.abc import Callable, Iterable, Mapping

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

    def __init__(self, budget: int, on_output: Callable[[str], None] | None = None) -> None:
        self.budget = budget
        self.raw = {False: bytearray(), True: bytearray()}
        self.lines: list[tuple[bool, bytes]] = []
        self.truncated = False
        self._partial = {False: b"", True: b""}
        self._on_output = on_output

    def _report(self, is_err: bool, lines: list[bytes]) -> None:
        if self._on_output is None or not lines:
            return
        prefix = "[stderr] " if is_err else ""
        self._on_output("\n".join(prefix + line.decode("utf-8", "replace") for line in lines))

    def feed(self, is_err: bool, chunk: bytes) -> None:
        """Keep what the budget allows of one chunk read from a stream."""
        kept = chunk[: max(self.budget, 0)]
        self.budget -= len(kept)
        if len(kept) < len(chunk):
            self.truncated = True
        if not kept:
            return
        self.raw[is_err] += kept
        *complete, self._partial[is_err] = (self._partial[is_err] + kept).split(b"\n")
        self.lines.extend((is_err, line) for line in complete)
        self._report(is_err, complete)

    def end(self, is_err: bool) -> None:
        """A stream is closed: its unfinished last line is a line."""
        partial = self._partial[is_err]
        if partial:
            self.lines.append((is_err, partial))
            self._partial[is_err] = b""
            self._report(is_err, [partial])

    def combined(self) -> str:
        """Both streams' lines in the order read, without the final newlines.

        Only newlines are taken off the end: spaces ending the last line are content (``head
        -c 200 LICENSE`` of a file view stays exact). Output of whitespace alone is none.
        """
        text = "\n".join(
            ("[stderr] " if is_err else "") + line.decode("utf-8", "replace")
            for is_err, line in self.lines
        ).rstrip("\n")
        return text if text.strip() else ""


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


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class RunningCommand:
    """A started command; :meth:`finish` waits for it (or kills it at the timeout).

    Use :meth:`start` to create one. The event loop watches the two pipes and the leader's
    exit directly (``add_reader`` on the pipes and on a pidfd; without pidfd a task polls
    ``waitpid``): no transports, stream readers, reader tasks or child-watcher thread per
    command. The leader is reaped only after the last ``killpg`` of its group, so its pid
    (the group id) cannot be reused by another process while it is signalled.
    """

    def __init__(self, process: subprocess.Popen[bytes], stdout: int, stderr: int,
                 capture: _Capture) -> None:
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._process = process
        self._capture = capture
        self._pipes = {stdout: False, stderr: True}  # fd → is stderr
        self._exited = False
        self._returncode: int | None = None
        self._waiters: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []
        self._pidfd: int | None = None
        self._poller: asyncio.Task[None] | None = None
        for fd, is_err in self._pipes.items():
            os.set_blocking(fd, False)
            loop.add_reader(fd, self._read, fd, is_err)
        try:
            self._pidfd = os.pidfd_open(process.pid)
        except (AttributeError, OSError):
            self._poller = loop.create_task(self._poll())
        else:
            loop.add_reader(self._pidfd, self._on_exit)

    @classmethod
    async def start(cls, command: str, *, cwd: str, env: Mapping[str, str],
                    max_output_bytes: int,
                    on_output: Callable[[str], None] | None = None,
                    executable: str | None = None) -> RunningCommand:
        """Spawn ``bash -c command``.

        :param command: the command text.
        :param cwd: the working directory.
        :param env: the (scrubbed) environment.
        :param executable: the absolute path of the ``bash`` to run (its ``argv[0]`` stays
            ``bash``); ``None`` searches the ``PATH`` of ``env``.
        :param max_output_bytes: the capture budget over both streams.
        :param on_output: called with the complete lines of each chunk read (see above).
        :returns: the running command.
        :raises OSError: ``bash`` cannot be started.
        """
        out_read, out_write = os.pipe()
        try:
            err_read, err_write = os.pipe()
        except BaseException:
            os.close(out_read)
            os.close(out_write)
            raise
        try:
            process = subprocess.Popen(
                ["bash", "-c", command], executable=executable, cwd=cwd, env=env,
                start_new_session=True,
                stdin=subprocess.DEVNULL, stdout=out_write, stderr=err_write,
            )
        except BaseException:
            os.close(out_read)
            os.close(err_read)
            raise
        finally:
            os.close(out_write)
            os.close(err_write)
        return cls(process, out_read, err_read, _Capture(max_output_bytes, on_output))

    @property
    def pid(self) -> int:
        """The leader's pid (also the session and process-group id)."""
        return self._process.pid

    @property
    def _drained(self) -> bool:
        return not self._pipes

    # ------------------------------------------------------------------ event-loop callbacks

    def _wake(self) -> None:
        """Resolve the waiters whose condition now holds (the others would only wait again)."""
        for ready, waiter in self._waiters:
            if ready():
                _resolve(waiter)

    def _read(self, fd: int, is_err: bool) -> None:
        try:
            chunk = os.read(fd, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if chunk:
            self._capture.feed(is_err, chunk)
            return
        self._close_pipe(fd)
        self._wake()

    def _close_pipe(self, fd: int) -> None:
        self._loop.remove_reader(fd)
        os.close(fd)
        self._capture.end(self._pipes.pop(fd))

    def _on_exit(self) -> None:
        if self._pidfd is not None:
            self._loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        self._exited = True
        self._wake()

    async def _poll(self) -> None:
        """Without pidfd: poll ``waitpid`` (backing off to 50 ms) until the leader exits."""
        delay = 0.0
        while not self._reap(os.WNOHANG):
            await asyncio.sleep(delay)
            delay = min(delay * 2 or 0.001, 0.05)
        self._poller = None
        self._exited = True
        self._wake()

    def _reap(self, flags: int) -> bool:
        """Collect the leader's exit status; ``False`` while it runs (``WNOHANG``)."""
        if self._returncode is not None:
            return True
        try:
            pid, status = os.waitpid(self.pid, flags)
        except ChildProcessError:  # reaped by someone else: the status is lost (as in asyncio)
            code = 255
        else:
            if pid == 0:
                return False
            code = os.waitstatus_to_exitcode(status)
        self._returncode = self._process.returncode = code
        return True

    async def _until(self, ready: Callable[[], bool], when: float | None) -> bool:
        """Wait until ``ready()`` holds or the loop time ``when`` passes; say whether it holds."""
        loop = self._loop
        while not ready():
            if when is not None and loop.time() >= when:
                return False
            waiter: asyncio.Future[None] = loop.create_future()
            entry = (ready, waiter)
            self._waiters.append(entry)
            timer = None if when is None else loop.call_at(when, _resolve, waiter)
            try:
                await waiter
            finally:
                self._waiters.remove(entry)
                if timer is not None:
                    timer.cancel()
        return True

    # ------------------------------------------------------------------ waiting and killing

    async def finish(self, timeout: float) -> Completed:
        """Wait for the command, killing its tree at ``timeout`` or when cancelled.

        :param timeout: seconds.
        :returns: what it produced; ``timed_out`` tells whether the timeout ended it.
        """
        loop = self._loop
        deadline = loop.time() + timeout
        timed_out = False
        try:
            await self._until(lambda: self._exited or self._drained, deadline)
            if self._exited and not self._drained:  # something left behind holds a pipe
                await self._until(lambda: self._drained,
                                  min(deadline, loop.time() + LINGER_SECS))
            elif self._drained and not self._exited:  # pipes closed, bash still running
                await self._until(lambda: self._exited, deadline)
            timed_out = not self._exited
            if timed_out or not self._drained:
                await kill_tree(self.pid)
            await self._settle()
        except asyncio.CancelledError:
            await asyncio.shield(self.kill())
            raise
        code = self._returncode
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
        """Kill whatever is left in the group, close the pipes, reap the leader."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        if not self._drained:
            await self._until(lambda: self._drained, self._loop.time() + GRACE_SECS)
            for fd in list(self._pipes):  # still held open by something out of reach
                self._close_pipe(fd)
        await self._until(lambda: self._exited, None)
        self._reap(0)

    async def kill(self) -> None:
        """Kill the tree now and reap it (for cancellation and runtime retirement)."""
        if not self._exited:
            await kill_tree(self.pid)
        await self._settle()
