"""Start-up cost of the ``tooldeck`` command line, as a ratio to ``python -c pass``.

Prints the median wall time of N runs of each command and its ratio to an empty Python start
in the same process, so figures from a busy machine stay comparable. Each command runs once
unmeasured first with bytecode writing on (``PYTHONDONTWRITEBYTECODE`` unset), so the figures
are those of an installed tooldeck, not of recompiling edited modules. Run it with the venv's
python: ``python bench/startup.py [--runs N]``.
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


def wall(argv: list[str], runs: int, env: dict[str, str]) -> float:
    """Return the median wall time of ``runs`` runs of ``argv`` fed the hook payload."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, input=PAYLOAD, capture_output=True, text=True, env=env,
                       check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    """Measure each command and print its median and its ratio to ``python -c pass``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    tooldeck = str(Path(sys.executable).with_name("tooldeck"))
    base = tempfile.mkdtemp(prefix="tds")
    env = {**os.environ, "XDG_RUNTIME_DIR": base}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    commands = {
        "tooldeck --version": [tooldeck, "--version"],
        "tooldeck check bash ls": [tooldeck, "check", "bash", "ls"],
        "tooldeck run -- true": [tooldeck, "run", "--", "true"],
        "tooldeck hook claude-code --cold": [tooldeck, "hook", "claude-code", "--cold",
                                             "--no-start"],
    }
    try:
        python = wall([sys.executable, "-c", "pass"], runs, env)
        for argv in commands.values():
            wall(argv, 1, env)  # writes the bytecode of modules edited since the last run
        figures = {name: wall(argv, runs, env) for name, argv in commands.items()}
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"runs per figure: {runs}; load average {os.getloadavg()[0]:.1f}")
    print(f"{'python -c pass':34} {python * 1000:8.1f} ms")
    for name, seconds in figures.items():
        print(f"{name:34} {seconds * 1000:8.1f} ms  {seconds / python:5.1f}x python")


if __name__ == "__main__":
    main()
