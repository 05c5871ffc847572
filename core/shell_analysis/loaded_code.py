"""Code that nobody reads before it runs: native libraries, git hooks, interactive shells.

| rule            | fires when                                                      | verdict |
| --------------- | --------------------------------------------------------------- | ------- |
| library-load    | an option GTFOBins lists as loading a library (``openssl        | ask     |
|                 | -engine``, ``ssh-keygen -D``, ``curl --engine``, ``mysql        |         |
|                 | --default-auth``), ``bash``'s ``enable -f``, a server directive |         |
|                 | given as an option (``nginx -g 'load_module …'``, ``httpd -C    |         |
|                 | 'LoadModule …'``), or one-liner code loading one                 |         |
|                 | (``ctypes.CDLL``, ``Fiddle.dlopen``, ``ffi.load``)               |         |
| persistence     | a write into ``.git/hooks/`` (a hook git runs later), of a      | deny    |
|                 | ``.pth`` file or ``sitecustomize.py`` (run at every Python start)|         |
| persistence     | a write of a server page (``.php``, ``.jsp``, ``.asp[x]``…) whose | deny    |
|                 | text runs a request's input (``system($_GET[…])``, ``eval(        |         |
|                 | $_POST[…])``, ``exec(request.getParameter(…))``): a web shell     |         |
|                 | (Pepe Berba's part 1, Elastic's web server persistence rules)     |         |
| git-hook        | a write into ``.git/config`` (it can name a pager, an          | ask     |
|                 | fsmonitor, a hooks path)                                        |         |
| persistence     | a write of an agent's or editor's settings that name commands   | ask     |
|                 | it runs by itself (``.claude/settings.json`` hooks, ``.mcp.json``,|         |
|                 | ``.cursor/mcp.json``, ``.vscode/tasks.json`` run at folder open, |         |
|                 | ``.vscode/mcp.json``, ``.gemini/settings.json``, ``opencode.json``,|        |
|                 | ``.aider.conf.yml``, ``.codex/config.toml`` …: _AGENT_RUN_SETTINGS)|        |
|                 | or of ``.vscode/settings.json`` turning ``chat.tools.autoApprove``|         |
|                 | on                                                               |         |
| persistence     | a write of the instructions, rules or memory an agent reads into | ask     |
|                 | every session (``CLAUDE.md``, ``AGENTS.md``, ``GEMINI.md``,      |         |
|                 | ``.cursorrules``, ``.cursor/rules/``, ``.github/copilot-         |         |
|                 | instructions.md``, ``.kiro/steering/`` …): a prompt injection    |         |
|                 | that outlives the session. In the home these are outside the root|         |
|                 | (``sandbox-path`` denies)                                        |         |
| persistence     | a file copied from outside the project into                      | ask     |
|                 | ``.github/workflows/`` (Shai-Hulud's workflow: it runs with the  |         |
|                 | repository's secrets on the next push)                            |         |
| shell           | a shell started with no script (``bash``, ``zsh -i``,           | ask     |
|                 | ``pwsh``; GTFOBins' bare ``shell`` examples such as ``tclsh``,   |         |
|                 | ``screen``): what it runs is typed later, unseen                |         |
| launcher        | the same bare shell in code another command runs (``bash -c     | deny    |
|                 | 'sh'``, ``eval bash``): a shell spawned, as a launcher spawns it |         |
| secret-read     | one-liner code naming a secret file (``open('.env')``,          | deny    |
|                 | ``File.read("id_rsa")``)                                        |         |

Library options come from GTFOBins' ``library-load`` function (:mod:`.gtfobins_table`); an
interpreter's code option there (``python -c``) is code, judged by :mod:`.interpreters`.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.carriers import SHELLS
from tooldeck.shell_analysis.findings import ASK, DENY, Finding
from tooldeck.shell_analysis.gtfobins_table import BARE_SHELLS, LIBRARY_OPTIONS
from tooldeck.shell_analysis.interpreters import INTERPRETER_CODE_OPTIONS, interpreter_code
from tooldeck.shell_analysis.launchers import bare_shell
from tooldeck.shell_analysis.model import CommandAnalysis, Segment
from tooldeck.shell_analysis.outside_reads import is_secret_path
from tooldeck.shell_analysis.secret_reads import SECRET_MARKERS, is_project_secret

__all__ = ["HOOK_MARKERS", "LOADER_HEADS", "SERVER_PAGES",
           "SHELL_HEADS", "code_secret_finding",
           "hook_finding", "library_finding", "shell_finding"]

_OPTIONS: dict[str, frozenset[str]] = {
    name: options for name, options in LIBRARY_OPTIONS.items()
    if name not in INTERPRETER_CODE_OPTIONS and name not in ("bash", "sh", "zsh")
}
_LIBRARY_CODE = re.compile(
    r"ctypes|cdll|CDLL\(|LoadLibrary|dlopen|Fiddle|ffi\.load|DynaLoader|dl_load_file|"
    r"System\.load|process\.dlopen|\bFFI::|enable\s+-f", re.IGNORECASE)
_STARTUP_FILES = frozenset({"sitecustomize.py", "usercustomize.py"})
_AGENT_RUN_SETTINGS = ("/.claude/settings.json", "/.claude/settings.local.json", "/.mcp.json",
                       "/.cursor/mcp.json", "/.cursor/hooks.json", "/.vscode/tasks.json",
                       "/.vscode/mcp.json", "/.gemini/settings.json", "/.codex/config.toml",
                       "/.roo/mcp.json", "/.amazonq/mcp.json", "/.kiro/settings/mcp.json",
                       "/.zed/settings.json", "/.zed/tasks.json", "/.junie/mcp/mcp.json",
                       "/opencode.json", "/opencode.jsonc", "/.aider.conf.yml",
                       "/.continue/config.yaml", "/.continue/config.json")
"""Project files whose commands an agent or editor runs by itself, unreviewed: Claude Code's
hooks and MCP servers, Cursor's MCP servers (CVE-2025-54135 "CurXecute", CVE-2025-54136
"MCPoison") and hooks, VS Code's tasks run at folder open (the "Contagious Interview"
repositories) and MCP servers, the settings of Gemini CLI, Codex, Roo Code, Amazon Q, Kiro,
Zed, Junie, opencode, aider (``test-cmd``, ``yes-always``) and Continue (each tool's
documentation)."""
_AGENT_RUN_DIRECTORIES = ("/.claude/hooks/", "/.continue/mcpServers/", "/.kiro/hooks/")
"""Directories of scripts or server entries those settings run (Claude Code's hook scripts,
Continue's MCP server files, Kiro's agent hooks)."""
_EDITOR_AUTO_APPROVE = re.compile(r"autoApprove|chat\.tools\.|allowAutomaticTasks")
"""VS Code settings that let Copilot's agent run tools unasked or tasks run at folder open
(CVE-2025-53773 wrote ``chat.tools.autoApprove`` into ``.vscode/settings.json``)."""
_AGENT_INSTRUCTION_NAMES = frozenset({
    "CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENT.md", "GEMINI.md", ".cursorrules",
    ".windsurfrules", ".clinerules", ".roomodes", ".goosehints", ".rules",
    "copilot-instructions.md",
})
"""Instruction and memory files coding agents read into every session (Claude Code's
memory, agents.md, Gemini CLI's context file, Cursor's, Windsurf's, Cline's and Roo's rules
and modes, goose's hints, Zed's rules, GitHub Copilot's repository instructions)."""
_AGENT_INSTRUCTION_DIRECTORIES = (
    "/.cursor/rules/", "/.windsurf/rules/", "/.clinerules/", "/.roo/", "/.continue/rules/",
    "/.github/instructions/", "/.github/prompts/", "/.amazonq/rules/", "/.kiro/steering/",
    "/.junie/", "/.aiassistant/rules/", "/.claude/commands/", "/.claude/agents/",
    "/.gemini/commands/", "/.opencode/")
"""Directories of rules, prompts, custom commands and sub-agents the same agents load (their
documentation: Cursor, Windsurf, Cline, Roo Code, Continue, Copilot, Amazon Q, Kiro, Junie,
JetBrains AI Assistant, Claude Code, Gemini CLI, opencode)."""
SERVER_PAGES: tuple[str, ...] = (".php", ".phtml", ".php5", ".phar", ".jsp", ".jspx", ".asp",
                                 ".aspx", ".ashx", ".cgi")
"""File types a web server runs when requested (PHP, JSP, ASP.NET, CGI)."""
_WEB_SHELL = re.compile(
    r"(?:system|passthru|shell_exec|exec|popen|proc_open|pcntl_exec|eval|assert|"
    r"create_function)\s*\(\s*(?:base64_decode\s*\(\s*)?\$_(?:GET|POST|REQUEST|COOKIE|"
    r"SERVER|FILES)|`\$_(?:GET|POST|REQUEST)|getRuntime\(\)\.exec\(\s*request\.getParameter|"
    r"\beval\s*\(\s*Request|Process\.Start\(\s*Request", re.IGNORECASE)
"""Code that runs a web request's input as a command or as code (a web shell)."""
HOOK_MARKERS: tuple[str, ...] = (
    ".git", ".pth", "customize.py", ".json", *SERVER_PAGES, ".claude", ".cursor", ".gemini",
    ".codex", ".roo", ".amazonq", ".kiro", ".zed", ".junie", "opencode", ".aider",
    ".continue", ".windsurf", ".clinerules", ".goosehints", ".rules", ".aiassistant",
    "CLAUDE", "AGENT", "GEMINI", ".vscode")
"""Text in a written path that makes :func:`hook_finding` worth running (a cheap look)."""
_STRING = re.compile(r"""["']([^"'\n]{1,300})["']""")

_DIRECTIVE_LOADS: dict[str, tuple[frozenset[str], re.Pattern[str]]] = {
    # a directive given on the command line that loads a module (nginx's core module
    # load_module, Apache's LoadModule given with -C/-c: each server's manual)
    "nginx": (frozenset({"-g"}), re.compile(r"\bload_module\b")),
    **dict.fromkeys(("httpd", "apache2", "apachectl"), (
        frozenset({"-C", "-c"}), re.compile(r"\bLoadModule\b", re.IGNORECASE))),
}

LOADER_HEADS: frozenset[str] = frozenset(_OPTIONS) | frozenset(_DIRECTIVE_LOADS) | {"enable"}
"""Command names :func:`library_finding` looks at (one-liners are found by their code)."""

_OTHER_BARE_SHELLS = frozenset({"wish", "xonsh", "nu", "ion"})
"""Shells GTFOBins lists under no ``shell`` function but auditd's ``susp_shell`` key watches
with ``bash``: Tcl/Tk's windowing shell and the Python-powered shell read what they run later,
when started alone; so do Nushell and Redox's ion."""
_BARE = BARE_SHELLS | _OTHER_BARE_SHELLS
_INFO_FLAGS = frozenset({"--version", "--help"})
"""Options with which a shell prints and exits (``bash --version``): no shell is started."""

SHELL_HEADS: frozenset[str] = SHELLS | _BARE
"""Command names :func:`shell_finding` looks at: shells, and GTFOBins binaries that are one
when started alone (``tclsh``, ``screen``, ``pwsh``, ``systemd-run -S``)."""


def library_finding(segment: Segment) -> Finding | None:
    """Ask before a command loads a native library into itself.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    name = segment.command
    args = [w.value for w in segment.words[segment.command_positions[-1] + 1 :]]
    if name == "enable" and any(a.startswith("-") and "f" in a for a in args):
        return Finding(ASK, "library-load", f"{segment.text!r} loads a builtin from a library")
    options = _OPTIONS.get(name)
    if options is not None and any(a.partition("=")[0] in options for a in args):
        return Finding(ASK, "library-load", f"{segment.text!r} loads a native library")
    directive = _DIRECTIVE_LOADS.get(name)
    if directive is not None and any(
            option in directive[0] and directive[1].search(value)
            for option, value in itertools.pairwise(args)):
        return Finding(ASK, "library-load", f"{segment.text!r} loads a module named on its "
                       "command line")
    code = interpreter_code(segment)
    if code is not None and any(_LIBRARY_CODE.search(w.value) for w in code[1]):
        return Finding(ASK, "library-load", f"{code[0]} code loads a native library")
    return None


def hook_finding(analysis: CommandAnalysis, cwd: str | None) -> Finding | None:
    """Judge a write of code that runs later by itself: hooks, ``.pth`` files, git's config.

    A git hook (``.git/hooks/*``) runs on the next commit or checkout, a ``.pth`` file or
    ``sitecustomize.py`` on every Python start: persistence, denied. ``.git/config`` can name
    a pager, an fsmonitor or a hooks path, an agent's or editor's settings commands it runs
    by itself (:data:`_AGENT_RUN_SETTINGS`): asks.

    :param analysis: the analysed command.
    :param cwd: where the command runs (relative targets start there).
    :returns: the finding, or ``None``.
    """
    for target in analysis.write_targets:
        path = os.path.normpath(os.path.join(cwd or "/", os.path.expanduser(target)))
        name = path.rsplit("/", 1)[-1]
        if "/.git/hooks/" in path or name.endswith(".pth") or name in _STARTUP_FILES:
            return Finding(DENY, "persistence", f"the command writes {target!r}: code that "
                           "runs by itself later")
        if path.endswith("/.git/config"):
            return Finding(ASK, "git-hook", f"the command writes {target!r}: git's "
                           "configuration can name code to run")
        if name.endswith(SERVER_PAGES) and _WEB_SHELL.search(analysis.command):
            return Finding(DENY, "persistence", f"the command writes {target!r}: a server "
                           "page that runs a web request's input (a web shell)")
        inside = cwd is None or path.startswith(cwd.rstrip("/") + "/")
        if inside and "/.github/workflows/" in f"{path}/" and _copied_from_outside(
                analysis, cwd):
            return Finding(ASK, "persistence", f"the command copies a file from outside the "
                           f"project into {target!r}: a CI workflow runs with the "
                           "repository's secrets on the next push")
        if path.endswith(_AGENT_RUN_SETTINGS) or any(
                d in path for d in _AGENT_RUN_DIRECTORIES) or (
                path.endswith("/.vscode/settings.json")
                and _EDITOR_AUTO_APPROVE.search(analysis.command)):
            return Finding(ASK, "persistence", f"the command writes {target!r}: settings "
                           "that name commands an agent or editor runs by itself")
        if name in _AGENT_INSTRUCTION_NAMES or any(
                d in f"{path}/" for d in _AGENT_INSTRUCTION_DIRECTORIES):
            return Finding(ASK, "persistence", f"the command writes {target!r}: instructions "
                           "a coding agent follows in every later session")
    return None


_COPIERS = frozenset({"cp", "mv", "install", "rsync", "ln"})


def _copied_from_outside(analysis: CommandAnalysis, cwd: str | None) -> bool:
    """Whether a copy in the command takes a source from outside the working directory."""
    for segment in analysis.segments:
        if segment.command not in _COPIERS or not segment.command_positions:
            continue
        operands = [w.value for w in segment.words[segment.command_positions[-1] + 1 :]
                    if not w.value.startswith("-")]
        for source in operands[:-1]:
            if cwd is None:
                if source.startswith(("/", "~", "..")):
                    return True
                continue
            path = os.path.normpath(os.path.join(cwd, os.path.expanduser(source)))
            if not path.startswith(cwd.rstrip("/") + "/"):
                return True
    return False


def shell_finding(segment: Segment) -> Finding | None:
    """Ask before a shell starts with no script: what it runs comes later, unseen.

    :param segment: one analysed segment (nested code is judged by its own segments).
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions or segment.stdin != "inherited":
        return None  # a heredoc or a file fed to the shell is its script (judged as such)
    words = segment.words[segment.command_positions[-1]:]
    if segment.origin not in ("top", "subshell", "group", "function", "substitution",
                              "process substitution"):
        # code another command runs (bash -c 'sh', find -exec sh, eval bash): a spawned
        # shell, as GTFOBins' launchers spawn one
        if bare_shell(words):
            return Finding(DENY, "launcher", f"{segment.text!r} starts an interactive shell "
                           f"from {segment.origin}")
        return None
    if bare_shell(words) or (segment.command in _BARE and all(
            w.value.startswith("-") and "=" not in w.value for w in words[1:])
            and not any(w.value in _INFO_FLAGS for w in words[1:])):
        return Finding(ASK, "shell", f"{segment.text!r} starts a shell without a script")
    return None


def _names_secret(text: str, cwd: str | None, roots: Sequence[str]) -> str | None:
    for match in _STRING.finditer(text):
        value = match.group(1)
        if SECRET_MARKERS.search(value) is None:
            continue
        path = os.path.normpath(os.path.join(cwd or "/", os.path.expanduser(value)))
        inside = any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)
        if is_secret_path(path) or (inside and is_project_secret(path)):
            return value
    return None


def code_secret_finding(segment: Segment, cwd: str | None,
                        roots: Sequence[str]) -> Finding | None:
    """Deny a one-liner whose code names a secret file (``open('.env')``).

    :param segment: one analysed segment.
    :param cwd: where the command runs.
    :param roots: the sandbox roots (absolute).
    :returns: the finding, or ``None``.
    """
    code = interpreter_code(segment)
    if code is None:
        return None
    for word in code[1]:
        secret = _names_secret(word.value, cwd, roots)
        if secret is not None:
            return Finding(DENY, "secret-read", f"{code[0]} code names the secret {secret!r}")
        if _DOTENV.search(word.value) and _PRINTS_ENVIRONMENT.search(word.value):
            return Finding(DENY, "secret-read", f"{code[0]} code loads .env and prints what "
                           "it loaded")
    return None


_DOTENV = re.compile(r"dotenv", re.IGNORECASE)
"""python-dotenv, the dotenv npm package, Ruby's dotenv gem: each loads ``.env``."""
_PRINTS_ENVIRONMENT = re.compile(
    r"dotenv_values|(?:print|console\.log|puts|p|pp|echo|var_dump|print_r)\s*\(?\s*"
    r"(?:process\.env|os\.environ|ENV\b|\$_ENV|getenv\(\))|\bdict\(os\.environ",
    re.IGNORECASE)
"""Code printing the whole environment (``console.log(process.env)``) or dotenv's values."""
