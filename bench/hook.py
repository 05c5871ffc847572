"""Latency of ``tooldeck hook claude-code < payload``: warm server vs cold process.

Prints the median wall time of each, of ``python -c pass`` for scale, their ratios, and the
median in-process round trip of the thin client (socket connect → answer). Run it with the
venv's python: ``python bench/hook.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAYLOAD = json.dumps({
    "session_id": "bench", "hook_event_name": "PreToolUse", "tool_name": "Bash",
    "tool_input": {"command": "ls -la"}, "tool_use_id": "toolu_bench",
})


def wall(argv: list[str], runs: int, **kwargs: object) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, input=PAYLOAD, capture_output=True, text=True, check=True,
                       **kwargs)  # type: ignore[call-overload]
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    tooldeck = str(Path(sys.executable).with_name("tooldeck"))
    base = tempfile.mkdtemp(prefix="tdb")
    env = {**os.environ, "XDG_RUNTIME_DIR": base}
    os.environ["XDG_RUNTIME_DIR"] = base
    server = subprocess.Popen([tooldeck, "serve", "--idle-timeout", "300"], env=env,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        assert "listening" in server.stderr.readline()
        python = wall([sys.executable, "-c", "pass"], runs)
        cold = wall([tooldeck, "hook", "claude-code", "--cold"], runs, env=env)
        warm = wall([tooldeck, "hook", "claude-code", "--no-start"], runs, env=env)

        from tooldeck.plugins.agent_hooks.client import ask_server

        trips = []
        for _ in range(runs * 10):
            started = time.perf_counter()
            ask_server("claude-code", PAYLOAD, None)
            trips.append(time.perf_counter() - started)
        trip = statistics.median(trips)
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(base, ignore_errors=True)
    print(f"runs per figure: {runs} (round trips: {runs * 10}); "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"python -c pass            {python * 1000:8.1f} ms")
    print(f"tooldeck hook, cold       {cold * 1000:8.1f} ms  {cold / python:5.1f}x python")
    print(f"tooldeck hook, warm       {warm * 1000:8.1f} ms  {warm / python:5.1f}x python")
    print(f"client round trip (warm)  {trip * 1000:8.2f} ms")


if __name__ == "__main__":
    main()
