"""Programs built from the network and put on the user's PATH: a person says yes.

``cargo install NAME`` and ``go install PKG@VERSION`` download a package's source from a
registry, build it (``cargo`` runs the crate's ``build.rs``) and install the program into
``~/.cargo/bin`` or ``$GOBIN``/``~/go/bin``, outside the project, where every later
command finds it by name. That is more than the registry download ``pip install`` makes
into the project's virtualenv, and less than a global ``npm install -g`` of the machine's
shared prefix (denied). Rule ``program-install``, ask; the project's own program stays
allowed (``cargo install --path .``, ``go install ./cmd/app``):

==================  =========================================================================
command             asks when
==================  =========================================================================
``cargo install``   a crate name, ``--git URL`` or ``--registry``; not ``--path`` / ``--list``
``go install``      a package with ``@version`` (``golang.org/x/tools/gopls@latest``)
``go get``          ``-u`` of a tool outside a module is the same; in a module it edits
                    ``go.mod`` only (allowed)
``rustup``          not judged: it installs toolchains into its own home (documented cache)
==================  =========================================================================
"""

from __future__ import annotations

from tooldeck.shell_analysis.findings import ASK, Finding
from tooldeck.shell_analysis.model import Segment

__all__ = ["INSTALLER_HEADS", "program_install_finding"]

INSTALLER_HEADS: frozenset[str] = frozenset({"cargo", "go"})
"""Command names :func:`program_install_finding` looks at."""

_CARGO_LOCAL = ("--path", "--list", "-h", "--help", "-V", "--version")
_CARGO_VALUES = frozenset({"--version", "--vers", "--root", "--target", "--target-dir",
                           "--features", "-F", "--profile", "-j", "--jobs", "--bin",
                           "--example", "--index", "--registry", "--config", "-Z",
                           "--branch", "--tag", "--rev", "--git", "--color"})


def _cargo(args: list[str]) -> str | None:
    if args[:1] != ["install"]:
        return None
    rest = args[1:]
    if any(a.startswith(_CARGO_LOCAL) for a in rest):
        return None
    if any(a.startswith(("--git", "--registry", "--index")) for a in rest):
        return "builds a crate from a repository or registry"
    names = [a for a, before in zip(rest, ("", *rest), strict=False)
             if not a.startswith("-") and before not in _CARGO_VALUES]
    return "builds a crate from crates.io" if names else None


def _go(args: list[str]) -> str | None:
    if args[:1] != ["install"]:
        return None
    remote = [a for a in args[1:] if not a.startswith("-") and "@" in a]
    return f"builds {remote[0]} from the network" if remote else None


def program_install_finding(segment: Segment) -> Finding | None:
    """Ask for a program built from the network and installed on the user's PATH.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    reason = _cargo(args) if head == "cargo" else _go(args) if head == "go" else None
    if reason is None:
        return None
    return Finding(ASK, "program-install", f"{segment.text!r} {reason} and installs it "
                   "on the user's PATH, outside the project")
