"""Programs built from the network and put on the user's PATH: a person says yes.

``cargo install NAME`` and ``go install PKG@VERSION`` download a package's source from a
registry, build it (``cargo`` runs the crate's ``build.rs``) and install the program into
``~/.cargo/bin`` or ``$GOBIN``/``~/go/bin``, outside the project, where every later
command finds it by name. That is more than the registry download ``pip install`` makes
into the project's virtualenv. A package installed for the user by the other package
managers (``npm install -g``, ``pip install --user``, ``yarn global add``) is the same class:
a registry's code put where every later command finds it, outside the project. Rule
``program-install``, ask (one class, one verdict); the project's own program put on the
user's PATH asks as ``npm link`` and ``pipx install .`` do (``cargo install --path .``
unless ``--root`` is a project directory, ``go install ./cmd/app``), and the system's own
packages stay
denied (``pip install --break-system-packages``, ``gem install --system``: rule
``unreviewed-access``):

==================  =========================================================================
command             asks when
==================  =========================================================================
``cargo install``   a crate name, ``--git URL``, ``--registry``, ``--path`` (unless
                    ``--root`` names a project directory); not ``--list``
``go install``      a package with ``@version`` (``golang.org/x/tools/gopls@latest``), or the
                    project's own packages (``./cmd/app``, ``./...``); not ``-n``
``go get``          ``-u`` of a tool outside a module is the same; in a module it edits
                    ``go.mod`` only (allowed)
``make install``   the build's install target writes under its prefix (``/usr/local`` by
(``gmake``,         default; ``cmake --install``, ``meson install``, ``ninja install`` too),
``ninja``)          unless ``DESTDIR=``/``PREFIX=``/``--prefix`` names a relative directory
``npm``, ``pnpm``,   ``-g``/``--global``/``--location=global`` with a change (install, add,
``bun``             link, remove, update…); ``npm link`` with no package (a global link)
``yarn``            ``global`` but ``global list``
``pip``, ``pip3``   ``install --user``
``gem``             ``install --user-install``
``pipx``            ``install``, ``inject``, ``upgrade``, ``reinstall``, ``runpip`` (``*-all``)
``uv tool``         ``install``, ``upgrade`` (``uv tool run``/``uvx`` are package runners)
``code``, ``cursor``  ``--install-extension`` (VS Code and its forks: ``code-insiders``,
…                   ``codium``, ``code-oss``, ``cursor``, ``windsurf``, ``positron``): an
                    extension runs in every later editor session (the supply-chain
                    write-ups' malicious extensions)
``gh extension``    ``install``, ``upgrade``: a repository's program run as ``gh NAME``
``claude``,         ``mcp add``, ``mcp add-json``, ``mcp add-from-claude-desktop`` (Claude Code,
``codex``,          Codex, Gemini CLI, Qwen Code, Amp and VS Code's ``--add-mcp``): an MCP
``gemini``, ``qwen``, server the agent starts by itself in every later session (the
``amp``               supply-chain write-ups' backdoor MCP servers)
``dotnet``          ``tool install|update -g``/``--global`` (``~/.dotnet/tools``), ``workload
                    install|update``; a local tool (the manifest, no ``-g``) is the project's
``mix``             ``archive.install``, ``escript.install`` (``~/.mix``)
``deno``            ``install -g``/``--global`` (Deno 2's ``~/.deno/bin``)
``dart``,           ``pub global activate`` (``~/.pub-cache/bin``)
``flutter``
``cabal``, ``stack``  ``install`` (``~/.cabal/bin``, ``~/.local/bin``)
``rustup``          not judged: it installs toolchains into its own home (documented cache);
                    so are the other version managers (``nvm``, ``pyenv``, ``sdk``,
                    ``asdf``), which install language runtimes into their own directories
==================  =========================================================================
"""

from __future__ import annotations

import itertools

from tooldeck.shell_analysis.findings import ASK, Finding
from tooldeck.shell_analysis.model import Segment

__all__ = ["INSTALLER_HEADS", "program_install_finding"]

_MAKES = frozenset({"make", "gmake", "bmake", "ninja"})
_PREFIXES = ("DESTDIR=", "PREFIX=", "prefix=", "--prefix=", "--destdir=")

_NPM_FAMILY = frozenset({"npm", "pnpm", "bun"})
_GLOBAL_FLAGS = frozenset({"-g", "--global", "--location=global"})
_NPM_CHANGES = frozenset({"install", "i", "add", "link", "ln", "uninstall", "remove", "rm",
                          "un", "update", "up", "upgrade"})
_EDITORS = frozenset({"code", "code-insiders", "codium", "code-oss", "cursor", "windsurf",
                      "positron"})
"""VS Code and its forks: ``--install-extension`` takes the extension (their CLI help)."""
_AGENT_CLIS = frozenset({"claude", "codex", "gemini", "qwen", "amp"})
"""Coding agents whose ``mcp add`` registers a server they start (each CLI's help)."""
_MCP_ADDS = frozenset({"add", "add-json", "add-from-claude-desktop"})
INSTALLER_HEADS: frozenset[str] = frozenset(
    {"cargo", "go", "cmake", "meson", "yarn", "pip", "pip3", "gem", "pipx", "uv", "gh",
     "dotnet", "mix", "deno", "dart", "flutter", "cabal", "stack"}) | (
    _MAKES | _NPM_FAMILY | _EDITORS | _AGENT_CLIS)
"""Command names :func:`program_install_finding` looks at."""

_CARGO_VALUES = frozenset({"--version", "--vers", "--root", "--target", "--target-dir",
                           "--features", "-F", "--profile", "-j", "--jobs", "--bin",
                           "--example", "--index", "--registry", "--config", "-Z",
                           "--branch", "--tag", "--rev", "--git", "--color"})


def _cargo(args: list[str]) -> str | None:
    if args[:1] != ["install"]:
        return None
    rest = args[1:]
    if any(a.startswith(("--list", "-h", "--help")) or a == "-V" for a in rest):
        return None
    if any(a.startswith("--path") for a in rest):
        return None if _relative_root(rest) else (
            "builds the project's program onto the user's PATH (~/.cargo/bin)")
    if any(a.startswith(("--git", "--registry", "--index")) for a in rest):
        return "builds a crate from a repository or registry onto the user's PATH"
    names = [a for a, before in zip(rest, ("", *rest), strict=False)
             if not a.startswith("-") and before not in _CARGO_VALUES]
    return "builds a crate from crates.io onto the user's PATH" if names else None


def _relative_root(args: list[str]) -> bool:
    """``--root DIR`` / ``--root=DIR`` naming a directory of the project (not ``/``, ``~``…)."""
    for option, value in itertools.pairwise(["", *args]):
        root = value.split("=", 1)[1] if value.startswith("--root=") else (
            value if option == "--root" else None)
        if root is not None:
            return not root.startswith(("/", "~", "$")) and ".." not in root.split("/")
    return False


def _go(args: list[str]) -> str | None:
    if args[:1] != ["install"]:
        return None
    remote = [a for a in args[1:] if not a.startswith("-") and "@" in a]
    if remote:
        return f"builds {remote[0]} from the network onto the user's PATH"
    if any(a in ("-h", "-help", "--help", "-n") for a in args[1:]):
        return None
    return "builds the project's program onto the user's PATH ($GOBIN or ~/go/bin)"


def _user_install(head: str, args: list[str]) -> str | None:
    """``npm install -g``, ``yarn global add``, ``pip install --user``: for the user."""
    words = [a for a in args if not a.startswith("-")]
    if head in _NPM_FAMILY and _GLOBAL_FLAGS.intersection(args) and _NPM_CHANGES.intersection(
            words[:1]):
        return f"installs a package for the user ({head} global)"
    if head == "npm" and words in (["link"], ["ln"]):
        return "links the project globally (npm link)"
    if head == "yarn" and words[:1] == ["global"] and words[1:2] != ["list"]:
        return "installs a package for the user (yarn global)"
    if head in ("pip", "pip3") and words[:1] == ["install"] and "--user" in args:
        return "installs a package for the user (pip --user)"
    if head == "gem" and words[:1] == ["install"] and "--user-install" in args:
        return "installs a gem for the user (--user-install)"
    if head == "pipx" and words[:1] and words[0] in _PIPX_CHANGES:
        return f"installs an application for the user (pipx {words[0]})"
    if head == "uv" and words[:1] == ["tool"] and words[1:2] and words[1] in _UV_TOOL_CHANGES:
        return f"installs a tool for the user (uv tool {words[1]})"
    if head in _EDITORS and any(a.startswith("--install-extension") for a in args):
        return f"installs an editor extension for the user ({head} --install-extension)"
    if head in _AGENT_CLIS and words[:1] == ["mcp"] and words[1:2] and words[1] in _MCP_ADDS:
        return f"registers an MCP server the agent starts by itself ({head} mcp {words[1]})"
    if head in _EDITORS and any(a.startswith("--add-mcp") for a in args):
        return f"registers an MCP server the editor starts by itself ({head} --add-mcp)"
    if head == "gh" and words[:1] in (["extension"], ["extensions"], ["ext"]) and words[1:2] in (
            ["install"], ["upgrade"]):
        return f"installs a gh extension for the user (gh extension {words[1]})"
    return _other_ecosystems(head, args, words)


def _other_ecosystems(head: str, args: list[str], words: list[str]) -> str | None:
    """.NET, Elixir, Deno, Dart and Haskell programs installed for the user."""
    if head == "dotnet" and words[:1] == ["tool"] and words[1:2] in (["install"], ["update"]) and (
            _GLOBAL_FLAGS.intersection(args)):
        return f"installs a .NET tool for the user (dotnet tool {words[1]} --global)"
    if head == "dotnet" and words[:1] == ["workload"] and words[1:2] in (["install"], ["update"]):
        return f"installs an SDK workload (dotnet workload {words[1]})"
    if head == "mix" and words[:1] and words[0] in ("archive.install", "escript.install"):
        return f"installs an archive for the user (mix {words[0]})"
    if head == "deno" and words[:1] == ["install"] and _GLOBAL_FLAGS.intersection(args):
        return "installs a script for the user (deno install --global)"
    if head in ("dart", "flutter") and words[:3] == ["pub", "global", "activate"]:
        return f"installs a package for the user ({head} pub global activate)"
    if head in ("cabal", "stack") and words[:1] == ["install"]:
        return f"installs a program for the user ({head} install)"
    return None


_PIPX_CHANGES = frozenset({"install", "install-all", "inject", "upgrade", "upgrade-all",
                           "reinstall", "reinstall-all", "runpip"})
"""pipx(1)'s commands that put a package's programs on the user's PATH (``~/.local/bin``)."""
_UV_TOOL_CHANGES = frozenset({"install", "upgrade"})
"""``uv tool install|upgrade``: the same, in uv's tool directory (uv's manual)."""


def _build_install(head: str, args: list[str]) -> str | None:
    """``make install``, ``cmake --install build``, ``meson install``: into the prefix."""
    values = [a.split("=", 1)[1] for a in args if a.startswith(_PREFIXES)]
    values += [b for a, b in itertools.pairwise(args) if a in ("--prefix", "--destdir")]
    if any(v and not v.startswith(("/", "~", "$")) for v in values):
        return None  # staged into the project (DESTDIR=stage, --prefix=./dist)
    installs = (head in _MAKES and "install" in args) or (
        head == "cmake" and "--install" in args) or (head == "meson" and args[:1] == ["install"])
    return "installs the build under its prefix" if installs else None


def program_install_finding(segment: Segment) -> Finding | None:
    """Ask for a program built from the network and installed on the user's PATH.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    reason = (_cargo(args) if head == "cargo" else _go(args) if head == "go"
              else _user_install(head, args) or _build_install(head, args))
    if reason is None:
        return None
    return Finding(ASK, "program-install", f"{segment.text!r} {reason}, outside the project")
