r"""Judge the links a command creates, and paths that climb out of links, against the sandbox.

The path sandbox checks every path of a command *before* it runs, so a link created by the
command itself is invisible to it: ``ln -s .. up && echo x > up/../outside`` checks
``up/../outside`` as ``./outside``. These rules close that gap.

| rule           | vote | fires when                                                          |
| -------------- | ---- | ------------------------------------------------------------------- |
| ``link-outside`` | deny | a link's target resolves outside every sandbox root (1)           |
| ``link-secret``  | deny | a link's target is a read-denied path (``[tools.file] deny_read``) |
| ``link-unclear`` | ask  | a link creation cannot be seen statically (:mod:`.links`)        |
| ``link-cd``      | ask  | the command creates a link and changes directory (2)              |
| ``link-through`` | ask  | a path of the command goes *through* a link the command creates   |
|                  |      | (``ln -sf build/out current && ls current/x``) (3)                |
| ``link-dotdot``  | ask  | a path climbs with ``..`` out of an existing symlink              |
|                  |      | (``cat lnk/../x``: the shell follows ``lnk`` first) (4)            |

1. A symbolic target is resolved from the link's directory the way the kernel will:
   physically, component by component (``..`` after a symlink leaves the symlink's target),
   every existing symlink followed; with ``ln -r`` it is relative to the working directory.
   A hard link's target is relative to the working directory. When two operands leave open
   whether the second is a directory, both readings are judged. Exempt device paths
   (``/dev/null``…) may be targets.
2. Relative paths after ``cd`` no longer mean what the check assumed.
3. The link's target may itself be fine, but what lies under a link is only known once it
   exists (``a/b/c/up -> ../../..`` then ``a/b/c/up/../../x`` leaves the root).
4. The sandbox normalises ``..`` lexically before resolving links; the kernel does not.
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Collection, Iterator
from typing import Literal

import attrs

from tooldeck.errors import ToolError
from tooldeck.paths import PathSandbox, canonicalize
from tooldeck.shell_analysis.links import LinkCreation, LinkScan, scan_links
from tooldeck.shell_analysis.model import CommandAnalysis

__all__ = ["LinkFinding", "link_findings"]

_DIRECTORY_CHANGERS = frozenset({"cd", "pushd", "popd"})


@attrs.frozen
class LinkFinding:
    """One link rule that fired.

    :param decision: ``deny`` or ``ask``.
    :param rule: the rule name (see the module table).
    :param detail: one sentence naming the link or path.
    """

    decision: Literal["deny", "ask"]
    rule: str
    detail: str


def _expand(raw: str) -> str:
    """``~`` and ``~USER`` as bash expands them (an unknown user's ``~name`` stays as it is)."""
    return os.path.expanduser(raw) if raw.startswith("~") else raw


def _absolute(raw: str, cwd: str) -> str:
    """Expand ``~`` and ``~USER`` and join to ``cwd``; ``..`` is kept (not normalised)."""
    raw = _expand(raw)
    return raw if raw.startswith("/") else f"{cwd}/{raw}"


def _lexical(path: str) -> str:
    normal = posixpath.normpath(path)
    return "/" + normal.lstrip("/")


def _physical_join(base: str, relative: str) -> str:
    """Resolve ``relative`` from ``base`` as the kernel does: each step on a canonical prefix."""
    current = "/" if relative.startswith("/") else str(canonicalize(base))
    for name in relative.split("/"):
        if name in ("", "."):
            continue
        if name == "..":
            current = posixpath.dirname(current)
        else:
            current = str(canonicalize(posixpath.join(current, name)))
    return current


def _is_real_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _placements(creation: LinkCreation, cwd: str) -> list[tuple[str, str | None]]:
    """Every ``(directory, link path)`` the new link may get.

    The path is ``None`` when no name can be made (ln would fail): only the directory matters.
    """
    link = _lexical(_absolute(creation.link, cwd))
    name = posixpath.basename(creation.target.rstrip("/"))
    inside = (link, None if name in ("", ".", "..") else posixpath.join(link, name))
    as_name = (posixpath.dirname(link), link)
    if creation.placement == "name":
        return [as_name]
    if creation.placement == "into" or _is_real_dir(link):
        return [inside]
    return [as_name, inside]


def _target_finding(creation: LinkCreation, directory: str, sandbox: PathSandbox,
                    exempt: Collection[str]) -> LinkFinding | None:
    cwd = str(sandbox.cwd)
    target = _expand(creation.target)
    from_link_dir = creation.kind == "symbolic" and not creation.relative
    base = directory if from_link_dir else cwd
    kind = "symbolic link" if creation.kind == "symbolic" else "hard link"
    try:
        resolved = _physical_join(base, target)
        if _lexical(_absolute(target, base)) in exempt or resolved in exempt:
            return None
        sandbox.resolve_str(resolved, op="read")
    except ToolError as exc:
        rule = "link-secret" if "'read-deny'" in exc.message else "link-outside"
        return LinkFinding("deny", rule, f"{creation.segment.text!r} makes a {kind} in "
                           f"{directory} to {creation.target!r}: {exc.message}")
    return None


def _candidates(value: str) -> Iterator[str]:
    """The path-shaped parts of a word: itself, the value after ``=``, a glued option value."""
    yield value
    if "=" in value:
        yield value.partition("=")[2]
    if value.startswith("-") and len(value) > 2:
        yield value[2:]


def _through(raw: str, cwd: str, links: Collection[str]) -> str | None:
    """The created link a path goes through (a component after it), or ``None``."""
    parts = [p for p in _absolute(raw, cwd).split("/") if p not in ("", ".")]
    stack: list[str] = []
    for index, name in enumerate(parts):
        if name == "..":
            if stack:
                stack.pop()
        else:
            stack.append(name)
        if index + 1 < len(parts) and "/" + "/".join(stack) in links:
            return "/" + "/".join(stack)
    return None


def _climbs_out_of_symlink(raw: str, cwd: str) -> str | None:
    """An existing symlink that a ``..`` of the path climbs out of, or ``None``."""
    parts = [p for p in _absolute(raw, cwd).split("/") if p not in ("", ".")]
    if ".." not in parts:
        return None
    stack: list[str] = []
    for index, name in enumerate(parts):
        if name == "..":
            if stack:
                stack.pop()
            continue
        stack.append(name)
        if ".." not in parts[index + 1 :]:
            return None
        prefix = "/" + "/".join(stack)
        try:
            if stat.S_ISLNK(os.lstat(prefix).st_mode):
                return prefix
        except OSError:
            continue
    return None


def _path_words(analysis: CommandAnalysis) -> Iterator[str]:
    for segment in analysis.segments:
        for word in segment.words:
            if word.dynamic:
                continue
            yield from (c for c in _candidates(word.value) if "/" in c)
    yield from analysis.redirect_targets


def _ask_findings(analysis: CommandAnalysis, scan: LinkScan, links: Collection[str],
                  cwd: str) -> Iterator[LinkFinding]:
    for reason in scan.unclear:
        yield LinkFinding("ask", "link-unclear", reason)
    if scan.creations and any(s.command in _DIRECTORY_CHANGERS for s in analysis.segments):
        yield LinkFinding("ask", "link-cd", "the command creates a link and changes directory; "
                          "relative paths after the cd cannot be checked")
    for raw in _path_words(analysis):
        link = _through(raw, cwd, links) if links else None
        if link is not None:
            yield LinkFinding("ask", "link-through", f"path {raw!r} goes through {link}, a "
                              "link this command creates; what lies under it is not known yet")
            return
        symlink = _climbs_out_of_symlink(raw, cwd)
        if symlink is not None:
            yield LinkFinding("ask", "link-dotdot", f"path {raw!r} climbs with '..' out of the "
                              f"symlink {symlink}; the shell follows the link first")
            return


def link_findings(analysis: CommandAnalysis, sandbox: PathSandbox,
                  exempt: Collection[str] = ()) -> tuple[LinkFinding, ...]:
    """Apply the link rules to one command: denies first, then asks; never raises.

    :param analysis: the analysed command.
    :param sandbox: the shell's roots and working directory, with the read rules whose
        denied paths no link may name.
    :param exempt: canonical paths outside the roots that a link may point at.
    :returns: every finding, ``deny`` ones first; empty when no rule fires. A failure of the
        rules themselves is an ``ask`` (fail closed).
    """
    if "\x00" in analysis.command and scan_links(analysis).creations:
        # no file name holds a NUL: the operand cannot be judged, and bash would cut it
        return (LinkFinding("deny", "link-unclear",
                            "a link operand contains a NUL byte"),)
    try:
        return _findings(analysis, sandbox, exempt)
    except Exception as error:  # the rules fail closed, never raise
        return (LinkFinding("ask", "link-unclear",
                            f"the link rules failed ({type(error).__name__})"),)


def _findings(analysis: CommandAnalysis, sandbox: PathSandbox,
              exempt: Collection[str]) -> tuple[LinkFinding, ...]:
    scan = scan_links(analysis)
    cwd = str(sandbox.cwd)
    denies: list[LinkFinding] = []
    links: set[str] = set()
    for creation in scan.creations:
        for directory, link_path in _placements(creation, cwd):
            if link_path is not None:
                links.add(link_path)
            finding = _target_finding(creation, directory, sandbox, exempt)
            if finding is not None:
                denies.append(finding)
    return (*denies, *_ask_findings(analysis, scan, frozenset(links), cwd))


def symlink_target_values(analysis: CommandAnalysis) -> frozenset[str]:
    """Values that occur in the command only as targets of symbolic links it creates.

    Such a target is resolved from the link's directory, not the working directory, so the
    sandbox's path check must leave it to :func:`link_findings` (``ln -s ../lib app/lib`` is
    ``./lib``). A value that occurs anywhere else too is not returned (it is checked twice).

    :param analysis: the analysed command.
    :returns: the values.
    """
    scan = scan_links(analysis)
    as_target: dict[str, set[int]] = {}
    for creation in scan.creations:
        if creation.kind == "symbolic" and not creation.relative:
            as_target.setdefault(creation.target, set()).add(id(creation.segment))
    if not as_target:
        return frozenset()
    seen: dict[str, int] = {}
    for segment in analysis.segments:
        for word in segment.words:
            for value in set(_candidates(word.value)):
                seen[value] = seen.get(value, 0) + 1
    for target in analysis.redirect_targets:
        seen[target] = seen.get(target, 0) + 1
    return frozenset(v for v, segments in as_target.items() if seen.get(v, 0) == len(segments))
