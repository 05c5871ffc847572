"""Three third-party plugins, installed for real, driven through the CLI of their venv.

``sqlite_query`` (an executor using the core's path service), ``no_drop_table`` (a gate) and
``dedupe_adjacent`` (a strategy type shipping a ``journalctl`` rule), from ``examples/``.
"""

from __future__ import annotations

import json
import re
import sqlite3
import textwrap
from pathlib import Path
from typing import Any

import pytest

from .conftest import Venv, check

pytestmark = pytest.mark.timeout(300)

ENABLED = '[plugins]\nenable = ["sqlite_query", "no_drop_table", "dedupe_adjacent"]\n'
ALLOW = "".join(f'[[tools.permissions.{tool}]]\npattern = "*"\naction = "allow"\n'
                for tool in ("sqlite_query", "read"))


def _database(path: Path, value: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (v TEXT)")
    db.execute("INSERT INTO t VALUES (?)", (value,))
    db.commit()
    db.close()


@pytest.fixture
def project(tmp_path: Path) -> dict[str, Path]:
    """A sandbox root and a directory outside it, each with its own app.db."""
    root, elsewhere = tmp_path / "root", tmp_path / "elsewhere"
    _database(root / "app.db", "root")
    _database(root / "sub" / "app.db", "sub")
    _database(elsewhere / "app.db", "elsewhere")
    return {"tmp": tmp_path, "root": root, "elsewhere": elsewhere}


def _config(project: dict[str, Path], extra: str = "", *, plugins: str = ENABLED) -> Path:
    path = project["tmp"] / "config" / "tooldeck.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f'{plugins}[tools.file]\nallowed_paths = ["{project["root"]}"]\n'
                    f"{ALLOW}{extra}", encoding="utf-8")
    return path


def _call(venv: Venv, config: Path, tool: str, params: dict[str, Any],
          cwd: Path) -> tuple[int, dict[str, Any]]:
    proc = venv.tooldeck("call", tool, "--params", json.dumps(params), "--json",
                         "--config", str(config), cwd=cwd)
    assert proc.stdout, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return proc.returncode, result


@pytest.mark.parametrize(("cwd", "expected"), [
    ("elsewhere", "root"),  # outside every root: relative to the first root
    ("root", "root"),
    ("root/sub", "sub"),  # inside a root: relative to the working directory
])
def test_the_executor_opens_the_app_db_that_read_and_check_path_name(
    venv: Venv, project: dict[str, Path], cwd: str, expected: str,
) -> None:
    config = _config(project)
    where = project["tmp"] / cwd
    want = project["tmp"] / ("root/sub" if expected == "sub" else "root") / "app.db"
    report = json.loads(check(venv.tooldeck("check", "path", "app.db", "--json",
                                            "--config", str(config), cwd=where)).stdout)
    assert (report["verdict"], report["resolved"]) == ("allow", str(want))
    # read refuses a binary file, naming the canonical path it opened
    _, read = _call(venv, config, "read", {"path": "app.db"}, where)
    assert re.search(rf"error: {re.escape(str(want))} is a binary file", read["text"]), read
    code, query = _call(venv, config, "sqlite_query", {"sql": "SELECT v FROM t"}, where)
    assert (code, query["text"]) == (0, f"v\n{expected}"), query


def test_the_sandbox_service_holds_with_the_files_plugin_disabled(
    venv: Venv, project: dict[str, Path],
) -> None:
    config = _config(project, '[plugins.sqlite_query]\nmax_rows = 5\n',
                     plugins=ENABLED + 'disable = ["files"]\n')
    where = project["elsewhere"]
    plugins = {p["name"]: p for p in json.loads(check(venv.tooldeck(
        "plugins", "--json", "--config", str(config), cwd=where)).stdout)}
    assert plugins["files"]["state"] == "disabled"
    assert plugins["sqlite_query"]["state"] == "enabled"
    code, read = _call(venv, config, "read", {"path": "app.db"}, where)
    assert (code, read["category"]) == (1, "tool_not_found")
    code, query = _call(venv, config, "sqlite_query", {"sql": "SELECT v FROM t"}, where)
    assert (code, query["text"]) == (0, "v\nroot"), query
    for outside in (str(where / "app.db"), "../elsewhere/app.db", "/etc/passwd"):
        code, denied = _call(venv, config, "sqlite_query",
                             {"sql": "SELECT 1", "db": outside}, where)
        assert (code, denied["category"]) == (1, "policy_blocked"), (outside, denied)
        assert "inside-root" in denied["text"]
    report = json.loads(check(venv.tooldeck("check", "path", "app.db", "--json",
                                            "--config", str(config), cwd=where)).stdout)
    assert report["resolved"] == str(project["root"] / "app.db")


def test_the_gate_vetoes_drop_table_that_the_rules_allow(
    venv: Venv, project: dict[str, Path],
) -> None:
    config = _config(project)
    code, result = _call(venv, config, "sqlite_query", {"sql": "drop  table t"},
                         project["root"])
    assert (code, result["category"]) == (1, "policy_blocked"), result
    assert result["decision"]["gate"] == "no_drop_table"
    code, result = _call(venv, config, "sqlite_query", {"sql": "SELECT count(*) AS n FROM t"},
                         project["root"])
    assert (code, result["text"]) == (0, "n\n1"), result


JOURNAL = "\n".join(["-- Boot 1 --", *["kernel: eth0: link up"] * 120, "systemd: Started."])
GIT_LOG = "".join(f"commit {i:040x}\nAuthor: A <a@example.com>\nDate:   Mon Jan 1\n\n"
                  f"    change {i}\n\n" for i in range(60))


def test_a_user_rule_file_leaves_builtin_and_plugin_rules_active(
    venv: Venv, project: dict[str, Path],
) -> None:
    rules = project["tmp"] / "config" / "filters.toml"
    rules.parent.mkdir(exist_ok=True)
    rules.write_text('[[rules]]\nname = "mytool"\nmatch = { prefix = "mytool" }\n'
                     'strategy = { type = "truncate", max_lines = 50 }\n')
    config = _config(project, '[tools.filters]\nfilters_path = "filters.toml"\n')

    def filtered(command: str, text: str) -> dict[str, Any]:
        proc = check(venv.tooldeck("filter", "--command", command, "--json", "--config",
                                   str(config), cwd=project["root"], input=text))
        result: dict[str, Any] = json.loads(proc.stdout)
        assert "unknown strategy type" not in proc.stderr, proc.stderr
        return result

    assert "git-log" in (filtered("git log", GIT_LOG)["rule"] or [])
    journal = filtered("journalctl -b", JOURNAL)
    assert "journalctl-dedupe" in journal["rule"]
    assert journal["output"].count("eth0") == 1
    assert filtered("mytool run", "x\n" * 200)["rule"] == ["mytool"]
    verify = json.loads(check(venv.tooldeck("filter", "verify", "--json", "--config",
                                            str(config), cwd=project["root"])).stdout)
    assert verify["failures"] == [] and verify["warnings"] == []
    assert verify["origins"]["plugin dedupe_adjacent"] == 1
    assert verify["origins"][str(rules)] == 1
    assert verify["origins"]["builtin"] >= 25


BROKEN_GATE = {
    "pyproject.toml": """\
[build-system]
requires = ["setuptools>=77"]
build-backend = "setuptools.build_meta"

[project]
name = "tooldeck-broken-gate"
version = "0.1.0"

[project.entry-points.tooldeck]
broken_gate = "tooldeck_broken_gate"

[project.entry-points."tooldeck.gates"]
broken_gate = "tooldeck_broken_gate"
""",
    "tooldeck_broken_gate.py": 'raise RuntimeError("the gate cannot load its policy")\n',
}


def test_a_broken_gate_is_listed_while_calls_refuse_to_run(
    venv: Venv, project: dict[str, Path],
) -> None:
    dist = project["tmp"] / "tooldeck-broken-gate"
    dist.mkdir()
    for name, text in BROKEN_GATE.items():
        (dist / name).write_text(text)
    venv.pip_install(dist)
    config = _config(project, plugins='[plugins]\nenable = ["sqlite_query", "broken_gate"]\n')
    listing = venv.tooldeck("plugins", "--json", "--config", str(config), cwd=project["root"])
    assert listing.returncode == 0, listing.stderr
    plugins = {p["name"]: p for p in json.loads(listing.stdout)}
    broken = plugins["broken_gate"]
    assert broken["state"] == "broken"
    assert "RuntimeError: the gate cannot load its policy" in broken["why"]
    assert plugins["sqlite_query"]["state"] == "enabled"
    call = venv.tooldeck("call", "sqlite_query", "--params", '{"sql": "SELECT 1"}',
                         "--config", str(config), cwd=project["root"])
    assert call.returncode == 2, call.stdout + call.stderr
    assert "broken_gate" in call.stderr and call.stdout == ""
    checked = venv.tooldeck("config", "check", str(config), cwd=project["root"])
    assert checked.returncode == 2, checked.stdout + checked.stderr
    assert "broken_gate" in checked.stdout + checked.stderr
    assert "the gate cannot load its policy" in checked.stdout + checked.stderr


EXAMPLE_FENCE = re.compile(r"^ *```toml tooldeck-examples\n(.*?)^ *```", re.S | re.M)


def test_documented_example_configurations_are_valid(venv: Venv, tmp_path: Path) -> None:
    from .conftest import EXAMPLES, ROOT

    docs = [ROOT / "docs" / "plugins.md", *(ROOT / "examples" / n / "README.md" for n in EXAMPLES)]
    blocks = [(doc, textwrap.dedent(block)) for doc in docs
              for block in EXAMPLE_FENCE.findall(doc.read_text("utf-8"))]
    assert len(blocks) >= 4, "the docs lost their example configurations"
    for i, (doc, block) in enumerate(blocks):
        path = tmp_path / f"example-{i}.toml"
        path.write_text(block, encoding="utf-8")
        proc = venv.tooldeck("config", "check", str(path), cwd=tmp_path)
        assert proc.returncode == 0, f"{doc} block {i}:\n{block}\n{proc.stderr}"
