"""Realistic coding-agent sessions on public projects, as lists of tool calls.

Each session is what a coding agent does to fix a small bug: look around, read code, search,
run the tests (by the spellings agents really use: ``.venv/bin/python -m pytest``,
``python -m pytest -x -q``, ``go test ./...``, ``node --test``, ``npx tsc``), edit, look at
the diff, commit with the heredoc message coding agents write. The commands follow published
agent transcripts and system prompts (Claude Code's and Codex's commit and test conventions;
SWE-agent trajectories).

``starlette`` is held back: it was written with the others and is only ever replayed to report
its numbers, never to tune a rule.
"""

from __future__ import annotations

from typing import Any

Call = dict[str, Any]

COMMIT = (
    "git add -A && git commit -q -m \"$(cat <<'EOF'\n{title}\n\n{body}\n\n"
    "Co-Authored-By: Agent <agent@example.com>\nEOF\n)\""
)


def bash(command: str) -> Call:
    return {"tool": "bash", "params": {"command": command}}


def read(path: str) -> Call:
    return {"tool": "read", "params": {"path": path}}


def edit(path: str, old: str, new: str) -> Call:
    return {"tool": "edit", "params": {"path": path, "old_string": old, "new_string": new}}


def tool(tool_id: str, **params: Any) -> Call:
    return {"tool": tool_id, "params": params}


def _explore(package: str, tests: str) -> list[Call]:
    return [
        bash("pwd"), bash("ls -la"), bash("git status"), bash("git log --oneline -n 10"),
        bash(f"ls {package}"), bash(f"ls {tests}"), bash("cat pyproject.toml"),
        bash("cat README.md | head -50"), bash(f"find {package} -name '*.py' | head -50"),
        bash(f"wc -l {package}/*.py"), tool("find_path", pattern="**/*.py"),
        tool("list_directory", path="."), bash("git branch -a"),
        bash("python3 --version"), bash(".venv/bin/python --version"),
        bash(".venv/bin/python -m pip list 2>/dev/null | head -20"),
    ]


def _python_session(package: str, tests: str, files: list[str], test_files: list[str],
                    symbols: list[str], fix: tuple[str, str, str], title: str) -> list[Call]:
    calls = _explore(package, tests)
    for path in files:
        calls += [read(path), bash(f"sed -n 1,60p {path}"), bash(f"grep -n 'def ' {path}"),
                  bash(f"head -40 {path}"), bash(f"nl -ba {path} | sed -n 20,45p")]
    for symbol in symbols:
        calls += [bash(f"grep -rn '{symbol}' {package}/ | head -30"),
                  tool("grep", pattern=symbol, path=package),
                  bash(f"grep -rn --include='*.py' '{symbol}' {tests}/ | head -20"),
                  bash(f"git log --oneline -S '{symbol}' -n 5")]
    for test in test_files:
        calls += [bash(f".venv/bin/python -m pytest {test} -q 2>&1 | tail -30"),
                  bash(f"python -m pytest {test} -x -q"),
                  bash(f"timeout 120 .venv/bin/python -m pytest {test} -k 'not slow' -q"),
                  bash(f"sed -n 1,40p {test}")]
    path, old, new = fix
    calls += [
        bash(f"grep -n '{old.splitlines()[0].strip()[:30]}' {path}"),
        edit(path, old, new),
        bash("git diff"), bash("git diff --stat"), bash(f"git diff -- {path}"),
        bash(f".venv/bin/python -m pytest {test_files[0]} -q -x 2>&1 | tail -20"),
        bash("git status --short"),
        bash(f"python -c 'import ast,sys; ast.parse(open(\"{path}\").read()); print(\"ok\")'"),
        bash(COMMIT.format(title=title, body="The helper returned the wrong value when the "
                           "argument was empty; keep the behaviour documented in the docstring.")),
        bash("git log -n 1 --stat"), bash("git show --stat HEAD"), bash("git log -p -n 1"),
        bash(f"git show HEAD:{path} | head -30"),
        bash("for f in $(git diff --name-only HEAD~1); do echo \"$f: $(wc -l < \"$f\")\"; done"),
        bash("git stash list"), bash("git stash && git stash pop"),
        bash("env | grep -i ^PATH= | head -1"), bash("ls .venv/bin | head"),
        bash("du -sh . 2>/dev/null"), bash("ls /usr/lib/python3*/ 2>/dev/null | head -5"),
        bash("which python3 git"),
        bash(f"git log --oneline -n 5 -- {path}"), bash(f"git blame -L 1,15 {path}"),
        bash(f"wc -l {tests}/*.py | tail -3"),
        bash(f".venv/bin/python -m pytest --collect-only -q {test_files[0]} 2>&1 | tail -5"),
        bash("git log --format='%h %s' -n 3"),
        bash("echo done"),
    ]
    return calls


def flask() -> list[Call]:
    """pallets/flask: a helper fix."""
    return _python_session(
        "src/flask", "tests",
        ["src/flask/helpers.py", "src/flask/config.py", "src/flask/app.py",
         "src/flask/sessions.py", "tests/test_helpers.py", "tests/test_config.py"],
        ["tests/test_helpers.py", "tests/test_config.py", "tests/test_basic.py"],
        ["get_debug_flag", "get_load_dotenv", "SECRET_KEY", "url_for", "secret_key",
         "session_interface"],
        ("src/flask/helpers.py", "def get_debug_flag() -> bool:",
         "def get_debug_flag() -> bool:  # noqa: D401"),
        "helpers: document get_debug_flag",
    )


def requests() -> list[Call]:
    """psf/requests: a utils fix."""
    return _python_session(
        "src/requests", "tests",
        ["src/requests/utils.py", "src/requests/auth.py", "src/requests/sessions.py",
         "src/requests/models.py", "tests/test_utils.py"],
        ["tests/test_utils.py", "tests/test_requests.py", "tests/test_structures.py"],
        ["get_auth_from_url", "HTTPBasicAuth", "password", "proxy_bypass", "token",
         "should_strip_auth"],
        ("src/requests/utils.py", "def get_auth_from_url(url):",
         "def get_auth_from_url(url):  # keep"),
        "utils: keep get_auth_from_url's signature visible",
    )


def starlette() -> list[Call]:
    """encode/starlette (held back)."""
    return _python_session(
        "starlette", "tests",
        ["starlette/datastructures.py", "starlette/config.py", "starlette/routing.py",
         "starlette/middleware/sessions.py", "tests/test_config.py"],
        ["tests/test_config.py", "tests/test_datastructures.py", "tests/test_routing.py"],
        ["Secret", "URL", "secret_key", "environ", "Config", "session_cookie"],
        ("starlette/config.py", "class Secret:", "class Secret:  # noqa"),
        "config: mark Secret",
    )


def mux() -> list[Call]:
    """gorilla/mux (Go): a route fix."""
    calls: list[Call] = [
        bash("pwd"), bash("ls -la"), bash("git status"), bash("git log --oneline -n 10"),
        bash("cat go.mod"), bash("cat Makefile"), bash("head -60 README.md"),
        tool("find_path", pattern="**/*.go"), tool("list_directory", path="."),
        bash("go version"), bash("go env GOPATH"), bash("wc -l *.go"),
    ]
    for path in ("mux.go", "route.go", "regexp.go", "middleware.go", "mux_test.go",
                 "route_test.go"):
        calls += [read(path), bash(f"sed -n 1,60p {path}"), bash(f"grep -n '^func ' {path}"),
                  bash(f"head -50 {path}"), bash(f"nl -ba {path} | sed -n 30,60p")]
    for symbol in ("NewRouter", "HandleFunc", "Methods", "PathPrefix", "Vars", "Use",
                   "CORSMethodMiddleware", "Subrouter"):
        calls += [bash(f"grep -rn '{symbol}' --include='*.go' . | head -20"),
                  tool("grep", pattern=symbol, path="."),
                  bash(f"git log --oneline -S '{symbol}' -n 3")]
    calls += [
        bash("go vet ./..."), bash("go build ./..."), bash("go test ./... 2>&1 | tail -20"),
        bash("go test -run TestPath -v ./... 2>&1 | tail -40"),
        bash("go test -count=1 -run 'TestMiddleware' ./..."),
        bash("timeout 120 go test -race ./... 2>&1 | tail -5"),
        bash("gofmt -l ."),
        edit("route.go", "// Route stores information to match a request and build URLs.",
             "// Route stores information to match a request and to build URLs."),
        bash("git diff"), bash("git diff --stat"), bash("gofmt -l route.go"),
        bash("go test ./... 2>&1 | tail -5"), bash("git status --short"),
        bash(COMMIT.format(title="route: clarify the Route doc comment",
                           body="Reads better; no behaviour change.")),
        bash("git log -n 1 --stat"), bash("git show HEAD:route.go | head -40"),
        bash("git log -p -n 1"), bash("for f in *.go; do echo \"$f $(grep -c func \"$f\")\"; done"),
        bash("go doc github.com/gorilla/mux Router 2>&1 | head -20"),
        bash("ls $(go env GOROOT)/src | head -5"),
        bash("go list ./..."), bash("go list -m all 2>&1 | head -10"),
        bash("go test -count=1 -run 'TestRoute|TestVars' -v ./... 2>&1 | tail -30"),
        bash("go test -cover ./... 2>&1 | tail -5"), bash("go vet ./... && echo vet-ok"),
        bash("git log --oneline -n 5 -- route.go"), bash("git blame -L 1,20 route.go"),
        bash("grep -c 'func Test' *_test.go"), bash("cat .gitignore 2>/dev/null | head"),
        bash("ls .github 2>/dev/null"), bash("git diff HEAD~1 --stat"),
        bash("git log --format='%h %an %s' -n 5"), bash("head -30 example_route_test.go"),
        bash("go test -run XXX_NONE ./... 2>&1 | tail -3"),
        bash("echo done"),
    ]
    return calls


def commander() -> list[Call]:
    """tj/commander.js (JavaScript, node's test runner, tsc, eslint, prettier): a doc fix."""
    calls: list[Call] = [
        bash("pwd"), bash("ls -la"), bash("git status"), bash("git log --oneline -n 10"),
        bash("cat package.json"), bash("head -60 Readme.md"), bash("ls lib tests | head -40"),
        tool("find_path", pattern="lib/**/*.js"), tool("list_directory", path="."),
        bash("node --version && npm --version"), bash("wc -l lib/*.js index.js"),
        bash("npm ls --depth=0 2>&1 | head -20"), bash("ls node_modules/.bin | head -20"),
        bash("cat tsconfig.json"), bash("cat eslint.config.js"),
    ]
    for path in ("lib/option.js", "lib/command.js", "lib/help.js", "lib/error.js",
                 "tests/options.camelcase.test.js", "typings/index.d.ts"):
        calls += [read(path), bash(f"sed -n 1,60p {path}"), bash(f"grep -n 'function ' {path}"),
                  bash(f"head -50 {path}"), bash(f"nl -ba {path} | sed -n 30,60p")]
    for symbol in ("camelcase", "attributeName", "splitOptionFlags", "InvalidArgumentError",
                   "storeOptionsAsProperties", "_optionValues", "helpOption"):
        calls += [bash(f"grep -rn '{symbol}' lib/ | head -20"),
                  tool("grep", pattern=symbol, path="lib"),
                  bash(f"grep -rln '{symbol}' tests/ | head -10"),
                  bash(f"git log --oneline -S '{symbol}' -n 3")]
    calls += [
        bash("node --test tests/options.camelcase.test.js"),
        bash("node --test tests/options.camelcase.test.js 2>&1 | tail -15"),
        bash("node --test tests/option.bad-flags.test.js tests/options.bool.test.js 2>&1"
             " | tail -20"),
        bash("timeout 300 node --test 2>&1 | tail -25"),
        bash("npx tsc -p tsconfig.js.json"), bash("npx eslint lib/ index.js"),
        bash("npx prettier --check lib/"), bash("node_modules/.bin/tsc -p tsconfig.ts.json"),
        bash("npm run check:lint 2>&1 | tail -20"), bash("npm run check:format"),
        bash("node -e \"import('./index.js').then(m => console.log(Object.keys(m).join(' ')))\""),
        bash("node -p \"require('./package.json').version\""),
        bash("npm test 2>&1 | tail -30"),
        bash("grep -n 'Return option name' lib/option.js"),
        edit("lib/option.js", "   * Return option name, in a camelcase format that can be used",
             "   * Return the option name, in a camelcase format that can be used"),
        bash("git diff"), bash("git diff --stat"), bash("git diff -- lib/option.js"),
        bash("npx prettier --check lib/option.js"), bash("npx eslint lib/option.js"),
        bash("node --test tests/options.camelcase.test.js 2>&1 | tail -8"),
        bash("git status --short"),
        bash(COMMIT.format(title="option: say what attributeName returns",
                           body="A doc comment fix; no behaviour change.")),
        bash("git log -n 1 --stat"), bash("git show HEAD:lib/option.js | head -40"),
        bash("git log -p -n 1"),
        bash("for f in lib/*.js; do echo \"$f $(grep -c 'function' \"$f\")\"; done"),
        bash("git log --oneline -n 5 -- lib/option.js"), bash("git blame -L 200,230 lib/option.js"),
        bash("grep -c \"test(\" tests/options.*.test.js | head"),
        bash("cat .gitignore 2>/dev/null | head"), bash("ls .github 2>/dev/null"),
        bash("git diff HEAD~1 --stat"), bash("git log --format='%h %an %s' -n 5"),
        bash("ls examples | head -20"), bash("node examples/options-common.js -h 2>&1 | head"),
        bash("npm pack --dry-run 2>&1 | tail -15"),
        bash("echo done"),
    ]
    return calls


def click() -> list[Call]:
    """pallets/click 8.1.7 (the PyPI sdist): a freeform session, not built from the templates.

    Written after the others, in the manner of published Claude Code and Codex transcripts
    rather than the templates above: ``rg``, ``tree``, ``jq``, a scratch script in a heredoc,
    a branch, ``git stash``, a test run that trips over a plugin's deprecation warning and is
    rerun with the plugin off, a regression the agent makes and then sees fail, ``sed -i`` and
    ``python - <<'EOF'`` edits, and cleanup. Its pytest runs need ``click`` importable from
    ``src`` (``PYTHONPATH=src``), as an agent finds out on its first run.
    """
    run = "PYTHONPATH=src python -m pytest"
    calls: list[Call] = [
        bash("pwd && ls"), bash("git status && git log --oneline | head -5"),
        bash("tree -L 2 -I '__pycache__|*.egg-info' | head -60"),
        bash("cat setup.cfg"), bash("cat tox.ini"), bash("head -80 CHANGES.rst"),
        bash("ls requirements/ && cat requirements/tests.txt"),
        bash("rg --files src | sort"), bash("rg -n 'def make_default_short_help' src/"),
        bash("rg -n 'make_default_short_help' -g '*.py' ."),
        bash("rg -c 'def ' src/click | sort -t: -k2 -n -r | head"),
        read("src/click/utils.py"), bash("sed -n 50,110p src/click/utils.py"),
        bash("grep -n 'short_help' src/click/core.py | head -20"),
        bash("awk 'NR>=490 && NR<=520' tests/test_utils.py"),
        bash("python -m pytest tests/test_utils.py -q 2>&1 | tail -15"),
        bash(f"{run} tests/test_utils.py -q 2>&1 | tail -15"),
        bash(f"{run} tests/test_utils.py -q -p no:asyncio 2>&1 | tail -5"),
        bash(f"{run} tests/test_utils.py -q -p no:asyncio -k short_help -v 2>&1 | tail -25"),
        bash("git checkout -b fix/short-help-ellipsis"),
        bash("cat > /tmp/repro_click.py <<'EOF'\nfrom click.utils import make_default_short_help"
             " as f\nfor text in ['Hello world. More.', 'a' * 50, '\\b\\nno rewrap here']:\n"
             "    print(repr(f(text, 10)))\nEOF\nPYTHONPATH=src python /tmp/repro_click.py"),
        bash("PYTHONPATH=src python - <<'EOF'\nimport click, inspect\n"
             "print(click.__version__)\n"
             "print(inspect.signature(click.utils.make_default_short_help))\nEOF"),
        edit("src/click/utils.py", "        if total_length > max_length:  # too long, truncate",
             "        if total_length >= max_length:  # too long, truncate"),
        bash("git diff"),
        bash(f"{run} tests/test_utils.py -q -p no:asyncio -x 2>&1 | tail -40"),
        bash(f"{run} tests/test_utils.py -p no:asyncio -k short_help --tb=short -q"),
        bash(f"{run} tests/ -q -p no:asyncio -x --tb=line 2>&1 | tail -20"),
        bash("git stash && git stash list"),
        bash(f"{run} tests/test_utils.py -q -p no:asyncio -k short_help 2>&1 | tail -3"),
        bash("git stash pop && git status --short"),
        bash("sed -i 's/if total_length >= max_length:  # too long/"
             "if total_length > max_length:  # too long/' src/click/utils.py"),
        bash("git diff --stat && git diff src/click/utils.py"),
        bash("python - <<'EOF'\nfrom pathlib import Path\np = Path('src/click/utils.py')\n"
             "t = p.read_text()\n"
             "old = '    \"\"\"Returns a condensed version of help string.\"\"\"'\n"
             "assert old in t\np.write_text(t.replace(old, '    \"\"\"Return a condensed version"
             " of a help string.\"\"\"', 1))\nprint('ok')\nEOF"),
        bash("git diff -U1"),
        bash(f"{run} tests/test_utils.py tests/test_formatting.py -q -p no:asyncio 2>&1"
             " | tail -5"),
        bash(f"{run} tests -q -p no:asyncio -n 0 2>&1 | tail -8"),
        bash(f"{run} tests -p no:asyncio -q --durations=5 2>&1 | tail -15"),
        bash("python -m ruff check src/click/utils.py 2>&1 | tail -5"),
        bash("python -m mypy src/click/utils.py --ignore-missing-imports 2>&1 | tail -5"),
        bash("python -m flake8 --version 2>&1 | head -2"),
        bash("find . -name '__pycache__' -type d -prune -exec rm -rf {} + && echo cleaned"),
        bash("find . -name '*.pyc' | wc -l"), bash("rm -f /tmp/repro_click.py"),
        bash("git add src/click/utils.py && git status"),
        bash(COMMIT.format(title="utils: say what make_default_short_help returns",
                           body="Imperative docstring, as the rest of the module.")),
        bash("git log --oneline -3 && git show --stat HEAD"),
        bash("git show HEAD -- src/click/utils.py"),
        bash("git log -p -1 --format=%s"),
        bash("git diff main...HEAD --stat 2>/dev/null || git diff HEAD~1 --stat"),
        bash("git branch -vv"), bash("git checkout - && git branch"),
        bash("git checkout fix/short-help-ellipsis"),
        bash("rg -n 'TODO|FIXME|XXX' src/ | head -20"),
        bash("rg -l 'import typing as t' src | xargs wc -l | sort -n | tail -5"),
        bash("grep -rn 'def get_' src/click/core.py | awk -F: '{print $2\": \"$3}' | head -20"),
        bash("cut -d' ' -f1 CHANGES.rst | sort | uniq -c | sort -rn | head -5"),
        bash("wc -l src/click/*.py | sort -n | tail -8"),
        bash("du -sh src tests docs && df -h . | tail -1"),
        bash("python3 -c 'import sys; print(sys.version)' && which python3 && uname -srm"),
        bash("env | grep -i '^python' || true"), bash("echo $SHELL $HOME | wc -w"),
        bash("ls -la src/click | head -25"), bash("stat -c '%n %s' src/click/utils.py"),
        bash("file src/click/py.typed README.rst"),
        bash("head -c 300 docs/index.rst; echo"), bash("tail -n 20 src/click/utils.py"),
        bash("nl -ba src/click/utils.py | sed -n 56,70p"),
        bash("cat -A src/click/utils.py | sed -n 1,5p"),
        bash("sed -n '/^def make_str/,/^def /p' src/click/utils.py"),
        bash("git show HEAD:src/click/utils.py | sed -n 56,60p"),
        bash("git grep -n 'max_length' -- src | head"),
        bash("git log --format='%h %ad %s' --date=short -n 3"),
        bash("git diff HEAD~1 -- src/click/utils.py | head -30"),
        bash("jq --version && echo '{\"a\": [1, 2]}' | jq '.a | length'"),
        bash("ls examples && ls examples/* | head -20"),
        bash("cat examples/naval/naval.py | head -40"),
        bash("PYTHONPATH=src python examples/naval/naval.py --help"),
        bash("PYTHONPATH=src python examples/naval/naval.py ship new Titanic"),
        bash("PYTHONPATH=src python examples/naval/naval.py nonsense 2>&1; echo exit=$?"),
        bash("PYTHONPATH=src python -c "
             "'import click; click.echo(click.style(\"hi\", fg=\"red\"))'"),
        bash("sort -u requirements/*.in 2>/dev/null | head"),
        bash("grep -c '' src/click/*.py | sort -t: -k2 -nr | head -3"),
        bash("diff <(sed -n 1,20p src/click/utils.py) <(git show HEAD~1:src/click/utils.py"
             " | sed -n 1,20p) && echo same-head"),
        bash("for f in src/click/*.py; do printf '%s %s\\n' \"$(grep -c '^def ' \"$f\")\" \"$f\";"
             " done | sort -rn | head -5"),
        bash("git log --stat -n 1 | tail -5"), bash("git status --porcelain=v1"),
        bash("git rev-parse --abbrev-ref HEAD && git rev-parse --short HEAD"),
        bash("ls -1 tests | wc -l && ls tests | head -30"),
        bash("grep -n 'filterwarnings' -A3 setup.cfg"),
        bash(f"{run} tests/test_basic.py -q -p no:asyncio -rs 2>&1 | tail -12"),
        bash(f"{run} tests/test_termui.py -q -p no:asyncio 2>&1 | tail -12"),
        bash(f"{run} tests/test_shell_completion.py -q -p no:asyncio -x 2>&1 | tail -6"),
        bash(f"{run} --co -q tests/test_utils.py -p no:asyncio 2>&1 | tail -8"),
        bash("git log --graph --oneline -n 10"), bash("python -m pip show click 2>&1 | head -3"),
        bash("ls -la .venv/bin | head"), bash(".venv/bin/python -c 'print(1 + 1)'"),
        bash("tree src -L 1"), bash("rg -n 'short_help' docs/ | head"),
        bash("head -20 tests/conftest.py"), bash("git tag | head; git stash list | wc -l"),
        bash("echo done"),
    ]
    return calls


SESSIONS = {"flask": flask, "requests": requests, "mux": mux, "starlette": starlette,
            "commander": commander, "click": click}
HELD_BACK = frozenset({"starlette"})
