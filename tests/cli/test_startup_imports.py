"""A command that sends no request, walks no tree and parses no skill loads no library for it.

``tooldeck check bash ls`` builds the whole default deck (every built-in plugin through its
entry point) and judges a command. The HTTP stack, YAML, gitignore matching and the retry
library are loaded where they are used, so this start must not import them; timings live in
``bench/startup.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_PROBE = """
import contextlib, io, json, sys
from tooldeck.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["check", "bash", "ls"])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

DEFERRED = ("httpx", "yaml", "pathspec", "tenacity")
"""Libraries only a request, a skill file, an ignore-file walk or a retry needs."""


def test_check_bash_imports_no_deferred_library(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                            cwd=tmp_path, check=True, timeout=120)
    answer = json.loads(result.stdout.splitlines()[-1])
    assert answer["code"] == 0
    loaded = {name.split(".")[0] for name in answer["modules"]}
    assert "tooldeck.plugins.openai_summarizer.client" in answer["modules"]
    assert "tooldeck.plugins.skills.skill_file" in answer["modules"]
    assert sorted(loaded & set(DEFERRED)) == []
