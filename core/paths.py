"""The symlink-safe path sandbox shared by the file tools, the shell path check and snapshots.

A raw path from a tool call becomes a *canonical* path in four steps: ``~`` is expanded, a
relative path is joined to the sandbox's working directory, the result is normalised lexically
(``.`` dropped, ``..`` pops a component but never above ``/``), and the existing part is then
resolved component by component, following every symlink (dangling ones included) to its
target, while a non-existent suffix is re-attached as written. Only the canonical path is ever
checked and only the canonical path is ever used: callers open it, never the raw string.

Rules, in the order they are applied (the rejection message always names the rule):

=====================  ====================  =============================================
rule                   category              rejects
=====================  ====================  =============================================
``not-empty``          invalid_parameters    an empty path
``no-nul``             invalid_parameters    a path containing a NUL byte
``encodable``          invalid_parameters    a path the file system encoding cannot encode
                                             (a lone surrogate outside U+DC80..U+DCFF)
``path-length``        invalid_parameters    a path over 4096 bytes (UTF-8), raw or absolute
``component-length``   invalid_parameters    a path component over 255 bytes (UTF-8)
``symlink-hops``       permanent_failure     more than 40 symlinks followed (a loop)
``inspectable``        policy_blocked        a component that cannot be inspected (lstat)
``inside-root``        policy_blocked        a canonical path outside every sandbox root
``not-root-or-above``  policy_blocked        deleting or replacing a root or an ancestor
``read-deny``          policy_blocked        reading a path matched by ``deny_read`` and
                                             not re-allowed by ``allow_read``
=====================  ====================  =============================================

Read-sandbox globs: ``*`` and ``?`` never cross ``/``; ``**`` crosses it (``a/**/b`` also
matches ``a/b``, a trailing ``/**`` also matches the directory itself); ``[...]`` and
``{a,b}`` work as in a shell. A pattern that is not absolute (nor ``~``-based) may match at
any depth (an implicit leading ``**/``). The literal directory prefix of an absolute pattern is
canonicalised like any path, so a pattern written through a symlink still matches. Unicode
look-alikes (the fullwidth solidus U+FF0F, fullwidth letters) are ordinary characters of a
name, never separators.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import attrs
import re2

from tooldeck.errors import ConfigError, ErrorCategory, ToolError

__all__ = [
    "MAX_COMPONENT_BYTES",
    "MAX_PATH_BYTES",
    "MAX_SYMLINK_HOPS",
    "Glob",
    "Operation",
    "PathSandbox",
    "canonicalize",
    "compile_glob",
    "is_within",
    "lexical_normalize",
]

MAX_PATH_BYTES = 4096
"""The longest path accepted, in UTF-8 bytes (Linux ``PATH_MAX``)."""

MAX_COMPONENT_BYTES = 255
"""The longest single path component accepted, in UTF-8 bytes (Linux ``NAME_MAX``)."""

MAX_SYMLINK_HOPS = 40
"""How many symlinks one resolution may follow before it is treated as a loop."""

Operation = Literal["read", "write", "delete"]
"""What the caller will do with a path: read rules apply to ``read``; ``delete`` keeps the
final component unresolved (the entry itself is removed or replaced, not its target) and
refuses sandbox roots and their ancestors."""

_GLOB_META = frozenset("*?[{")


# --------------------------------------------------------------------------- helpers


def _expand_home(raw: str) -> str:
    """Expand a leading ``~`` or ``~/``; any other ``~`` form is a literal name."""
    if raw == "~" or raw.startswith("~/"):
        return os.path.expanduser("~") + raw[1:]
    return raw


def _lexical(path: str) -> str:
    """Normalise an absolute path string without touching the filesystem."""
    parts: list[str] = []
    for name in path.split("/"):
        if name in ("", "."):
            continue
        if name == "..":
            if parts:
                parts.pop()
            continue
        parts.append(name)
    return "/" + "/".join(parts)


def _within(path: str, root: str) -> bool:
    """Component-prefix containment on normalised absolute path strings."""
    if root == "/":
        return True
    return path == root or path.startswith(root + "/")


def _canonical(path: str, start: str = "/") -> str:
    """Resolve every symlink in an absolute, lexically normal path; keep missing parts as written.

    ``start`` is a prefix of ``path`` already known to be canonical (a sandbox root, resolved
    when the sandbox was built); resolution begins below it.

    Components are walked left to right. An existing component that is a symlink is replaced by
    its target (absolute targets restart at ``/``, ``..`` inside targets pops the resolved
    prefix), so a dangling symlink resolves to where it points. A component that does not exist
    (or sits under a non-directory) is kept literally and the walk goes on, so a later ``..``
    from a link target still lands on a real, re-checked directory.
    """
    resolved = "" if start == "/" else start
    pending = path[len(resolved) :].split("/")[::-1]
    hops = 0
    missing = False
    while pending:
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":
            resolved = resolved.rpartition("/")[0]
            missing = False
            continue
        candidate = resolved + "/" + name
        if missing:
            resolved = candidate
            continue
        try:
            mode = os.lstat(candidate).st_mode
        except (FileNotFoundError, NotADirectoryError):
            missing = True
            resolved = candidate
            continue
        except OSError as exc:
            raise _violation(
                "inspectable",
                ErrorCategory.POLICY_BLOCKED,
                f"cannot inspect {candidate} ({exc.strerror})",
            ) from exc
        if not stat.S_ISLNK(mode):
            resolved = candidate
            continue
        hops += 1
        if hops > MAX_SYMLINK_HOPS:
            raise _violation(
                "symlink-hops",
                ErrorCategory.PERMANENT_FAILURE,
                f"more than {MAX_SYMLINK_HOPS} symlinks followed at {candidate} (a loop?)",
            )
        try:
            target = os.readlink(candidate)
        except OSError:
            pending.append(name)  # it changed since the lstat: look at it again
            continue
        if target.startswith("/"):
            resolved = ""
        pending.extend(target.split("/")[::-1])
    return resolved or "/"


def _violation(rule: str, category: ErrorCategory, detail: str) -> ToolError:
    """Build the error for a fired rule; the message starts with the rule name."""
    return ToolError(category, f"path sandbox rule '{rule}': {detail}")


def _absolute(raw: str, cwd: str) -> str:
    """Expand ``~`` and join a relative path to ``cwd``; the result is lexically normal."""
    expanded = _expand_home(raw)
    if not expanded.startswith("/"):
        expanded = cwd + "/" + expanded
    return _lexical(expanded)


# --------------------------------------------------------------------------- public helpers


def lexical_normalize(path: str | os.PathLike[str]) -> Path:
    """Normalise a path without the filesystem: drop ``.``, let ``..`` pop (never above ``/``).

    :param path: an absolute path, or a relative one (joined to the process working directory).
    :returns: the absolute, normalised path.
    """
    return Path(_absolute(os.fspath(path), os.getcwd()))


def canonicalize(path: str | os.PathLike[str]) -> Path:
    """Canonicalise a path: lexical normalisation, then ancestor-walk symlink resolution.

    :param path: the path (relative paths are joined to the process working directory;
        ``~`` is expanded).
    :returns: the canonical path; its existing part contains no symlink.
    :raises ToolError: when a symlink loop or an uninspectable component is met.
    """
    return Path(_canonical(_absolute(os.fspath(path), os.getcwd())))


def is_within(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is ``root`` or below it, comparing whole components (no filesystem).

    :param path: the path to test (made absolute and normalised lexically first).
    :param root: the containing directory (made absolute and normalised lexically first).
    :returns: True when every component of ``root`` prefixes ``path``.
    """
    cwd = os.getcwd()
    return _within(_absolute(os.fspath(path), cwd), _absolute(os.fspath(root), cwd))


# --------------------------------------------------------------------------- globs


def _translate_class(text: str, start: int) -> tuple[str, int]:
    """Translate the ``[...]`` class opening at ``text[start]``; return (regex, next index)."""
    index = start + 1
    negate = index < len(text) and text[index] in "!^"
    if negate:
        index += 1
    body_start = index
    if index < len(text) and text[index] == "]":
        index += 1
    while index < len(text) and text[index] != "]":
        index += 1
    if index >= len(text):
        raise ValueError("unclosed '['")
    body = text[body_start:index].replace("\\", "\\\\").replace("[", "\\[")
    if negate:
        return f"[^/{body}]", index + 1
    return f"(?:[{body}])", index + 1


def _translate_component(text: str) -> str:
    """Translate glob syntax inside one path component (``**`` here still crosses ``/``)."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if text.startswith("**", index):
            out.append(".*")
            index += 2
        elif char == "*":
            out.append("[^/]*")
            index += 1
        elif char == "?":
            out.append("[^/]")
            index += 1
        elif char == "[":
            regex, index = _translate_class(text, index)
            out.append(regex)
        elif char == "{":
            close = text.find("}", index)
            if close < 0:
                raise ValueError("unclosed '{'")
            options = text[index + 1 : close].split(",")
            out.append("(?:" + "|".join(_translate_component(o) for o in options) + ")")
            index = close + 1
        else:
            out.append(re2.escape(char))
            index += 1
    return "".join(out)


def _translate(pattern: str) -> str:
    """Translate a ``/``-separated glob into an RE2 regex body (not anchored)."""
    parts = pattern.split("/")
    out: list[str] = []
    skip_separator = True
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            if index == 0:
                out.append(".*" if last else "(?:.*/)?")
                skip_separator = True
            else:
                out.append("(?:/.*)?")
                skip_separator = False
            continue
        if not skip_separator:
            out.append("/")
        out.append(_translate_component(part))
        skip_separator = False
    return "".join(out)


@attrs.frozen
class Glob:
    """A compiled path glob, matched against whole absolute paths with RE2 (linear time).

    :param pattern: the glob as written.
    :param regex: the anchored RE2 regex it was translated to.
    :param base: the canonical literal directory prefix (where a walk for it would start).
    :param lexical_base: the same prefix before symlinks were resolved (``base`` depends on
        every symlink on it: a cache of a walk checks that this still leads to ``base``).
    """

    pattern: str
    regex: str
    base: str
    _compiled: Any = attrs.field(eq=False, repr=False)
    lexical_base: str = "/"

    def matches(self, path: str | os.PathLike[str]) -> bool:
        """Whether the whole absolute ``path`` matches.

        :param path: an absolute, normalised path.
        :returns: True on a full match.
        """
        return self._compiled.fullmatch(os.fspath(path)) is not None


def compile_glob(pattern: str, *, cwd: str | None = None) -> Glob:
    """Compile a path glob; without ``cwd`` a relative pattern matches at any depth.

    An absolute (or ``~``) pattern has its literal directory prefix lexically normalised and
    canonicalised, so it matches the canonical paths the sandbox produces.

    :param pattern: the glob.
    :param cwd: when given, a relative pattern is joined to this absolute directory instead
        of getting an implicit leading ``**/``.
    :returns: the compiled glob.
    :raises ValueError: on an empty pattern, a NUL byte or an unbalanced ``[`` / ``{``.
    """
    if not pattern or "\x00" in pattern:
        raise ValueError(f"invalid glob {pattern!r}: empty or contains NUL")
    try:
        return _compile_glob(pattern, cwd)
    except ValueError as exc:
        raise ValueError(f"invalid glob {pattern!r}: {exc}") from exc


def _compile_glob(pattern: str, cwd: str | None) -> Glob:
    """Translate and compile a non-empty glob (see :func:`compile_glob`)."""
    expanded = _expand_home(pattern)
    if not expanded.startswith("/"):
        if cwd is None:
            anywhere = expanded if expanded.split("/")[0] == "**" else "**/" + expanded
            return _build_glob(pattern, _translate(anywhere), "/")
        expanded = cwd + "/" + expanded
    parts = expanded.split("/")
    literal = 0
    while literal < len(parts) and not (_GLOB_META & set(parts[literal])):
        literal += 1
    lexical = _lexical("/".join(parts[:literal]) or "/")
    base = _canonical(lexical)
    prefix = "" if base == "/" else re2.escape(base)
    if literal == len(parts):
        return _build_glob(pattern, prefix or "/", base, lexical)
    return _build_glob(pattern, prefix + _translate("/" + "/".join(parts[literal:])), base,
                       lexical)


def _build_glob(pattern: str, body: str, base: str, lexical: str = "/") -> Glob:
    """Compile an RE2 body into a :class:`Glob` (dot matches newline: names may hold one)."""
    options = re2.Options()
    options.log_errors = False
    options.dot_nl = True
    try:
        compiled = re2.compile(body, options)
    except re2.error as exc:
        raise ValueError(str(exc)) from exc
    return Glob(pattern=pattern, regex=body, base=base, compiled=compiled, lexical_base=lexical)


# --------------------------------------------------------------------------- the sandbox


def _check_raw(raw: str) -> None:
    """Rules ``not-empty``, ``no-nul``, ``encodable``, ``path-length``, ``component-length``."""
    if not raw:
        raise _violation("not-empty", ErrorCategory.INVALID_PARAMETERS, "the path is empty")
    if "\x00" in raw:
        raise _violation(
            "no-nul", ErrorCategory.INVALID_PARAMETERS, f"the path contains a NUL byte: {raw!r}"
        )
    try:
        os.fsencode(raw)
    except UnicodeEncodeError as exc:
        raise _violation(
            "encodable", ErrorCategory.INVALID_PARAMETERS,
            f"the path cannot be encoded for the file system ({exc.reason} at position "
            f"{exc.start}): {raw[:60]!r}",
        ) from None
    _check_lengths(raw)


def _check_lengths(path: str) -> None:
    """Rules ``path-length`` and ``component-length``."""
    encoded = os.fsencode(path)
    size = len(encoded)
    if size > MAX_PATH_BYTES:
        raise _violation(
            "path-length",
            ErrorCategory.INVALID_PARAMETERS,
            f"the path is {size} bytes long, over the {MAX_PATH_BYTES}-byte limit "
            f"(starts {path[:60]!r})",
        )
    if size <= MAX_COMPONENT_BYTES:
        return
    longest = max(encoded.split(b"/"), key=len)
    if len(longest) > MAX_COMPONENT_BYTES:
        name = os.fsdecode(longest)
        raise _violation(
            "component-length",
            ErrorCategory.INVALID_PARAMETERS,
            f"a path component is {len(longest)} bytes long, over the "
            f"{MAX_COMPONENT_BYTES}-byte limit (starts {name[:40]!r})",
        )


def _compile_rules(patterns: Iterable[str], key: str) -> tuple[Glob, ...]:
    """Compile read-sandbox globs; an invalid one rejects the configuration (fail closed)."""
    compiled: list[Glob] = []
    for pattern in patterns:
        try:
            compiled.append(compile_glob(pattern))
        except (ValueError, ToolError) as exc:
            raise ConfigError(f"{key}: cannot use glob {pattern!r}: {exc}", key=key) from exc
    return tuple(compiled)


class PathSandbox:
    """Allowed roots plus a read sandbox; turns raw tool paths into checked canonical paths.

    :param roots: the allowed directories (empty means the working directory); ``~`` is
        expanded and each root is canonicalised once (a missing root keeps its spelling).
    :param deny_read: globs of canonical paths that may not be read.
    :param allow_read: globs that re-allow paths matched by ``deny_read`` (alone they
        restrict nothing).
    :param cwd: the directory relative paths are joined to (default: the process's).
    :raises ConfigError: when a read-sandbox glob is invalid.
    """

    __slots__ = ("_allow", "_cwd", "_deny", "_roots")

    def __init__(
        self,
        roots: Iterable[str | os.PathLike[str]],
        *,
        deny_read: Iterable[str] = (),
        allow_read: Iterable[str] = (),
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        self._cwd = _absolute(os.fspath(cwd), os.getcwd()) if cwd is not None else os.getcwd()
        raw_roots = [os.fspath(r) for r in roots] or [self._cwd]
        canonical: list[str] = []
        for raw in raw_roots:
            absolute = _absolute(raw, self._cwd)
            try:
                root = _canonical(absolute)
            except ToolError:
                root = absolute
            if root not in canonical:
                canonical.append(root)
        self._roots = tuple(sorted(canonical, key=len, reverse=True))
        self._deny = _compile_rules(deny_read, "deny_read")
        self._allow = _compile_rules(allow_read, "allow_read")

    def with_cwd(self, cwd: str) -> PathSandbox:
        """The same sandbox with relative paths joined to another directory.

        :param cwd: an absolute directory (it is not checked against the roots here).
        :returns: a copy sharing the roots and read rules.
        """
        other = object.__new__(PathSandbox)
        other._cwd = _absolute(cwd, self._cwd)
        other._roots, other._deny, other._allow = self._roots, self._deny, self._allow
        return other

    @property
    def roots(self) -> tuple[Path, ...]:
        """The canonical sandbox roots, longest first."""
        return tuple(Path(r) for r in self._roots)

    @property
    def cwd(self) -> Path:
        """The directory relative paths are joined to."""
        return Path(self._cwd)

    @property
    def has_read_rules(self) -> bool:
        """Whether any ``deny_read`` glob is configured (``allow_read`` alone changes nothing)."""
        return bool(self._deny)

    def absolute(self, raw: str) -> str:
        """The absolute, lexically normal form of a tool path; symlinks are not resolved.

        Following it (``os.stat``) reaches what :meth:`resolve_str` resolves it to, as long
        as no symlink on the way changed: a result cache stats it to notice one that did.

        :param raw: the path as the tool call gave it.
        :returns: ``~`` expanded, joined to ``cwd``, ``.`` and ``..`` applied lexically.
        """
        return _absolute(raw, self._cwd)

    def resolve(self, raw: str, *, op: Operation = "read") -> Path:
        """Turn a raw tool path into a checked canonical path, or raise naming the rule.

        :param raw: the path as the tool call gave it.
        :param op: ``read`` also applies the read sandbox; ``write`` resolves fully;
            ``delete`` resolves the parent and keeps the final name (the entry itself).
        :returns: the canonical path to operate on.
        :raises ToolError: ``invalid_parameters`` for malformed input, ``policy_blocked`` for
            a sandbox violation, ``permanent_failure`` for a symlink loop.
        """
        return Path(self.resolve_str(raw, op=op))

    def resolve_str(self, raw: str, *, op: Operation = "read") -> str:
        """Like :meth:`resolve` but returns a plain string (for hot paths).

        :param raw: the path as the tool call gave it.
        :param op: see :meth:`resolve`.
        :returns: the canonical path as a string.
        """
        _check_raw(raw)
        absolute = _absolute(raw, self._cwd)
        _check_lengths(absolute)
        if op == "delete" and absolute != "/":
            parent, _, name = absolute.rpartition("/")
            parent = parent or "/"
            canonical = _canonical(parent, self._start_for(parent)).rstrip("/") + "/" + name
        else:
            canonical = _canonical(absolute, self._start_for(absolute))
        self._rule_inside_root(canonical)
        if op == "delete":
            self._rule_not_root_or_above(canonical)
        if op == "read":
            self._rule_read_deny(canonical)
        return canonical

    def contains(self, path: str | os.PathLike[str]) -> bool:
        """Whether a canonical path lies inside a root (no filesystem access).

        :param path: a canonical absolute path.
        :returns: True when some root contains it.
        """
        text = os.fspath(path)
        return any(_within(text, root) for root in self._roots)

    def root_of(self, path: str | os.PathLike[str]) -> Path:
        """The innermost root containing a canonical path.

        :param path: a canonical absolute path.
        :returns: the root.
        :raises ToolError: ``policy_blocked`` (rule ``inside-root``) when none contains it.
        """
        return Path(self.root_str_of(os.fspath(path)))

    def root_str_of(self, path: str) -> str:
        """Like :meth:`root_of` but with plain strings (for hot paths).

        :param path: a canonical absolute path.
        :returns: the root.
        """
        for root in self._roots:
            if _within(path, root):
                return root
        raise self._outside(path)

    def is_root_or_above(self, path: str | os.PathLike[str]) -> bool:
        """Whether a path is a sandbox root itself or an ancestor of one (refuse deleting it).

        :param path: an absolute path, compared lexically (pass a canonical one).
        :returns: True when removing it would remove a root.
        """
        text = _lexical(os.fspath(path))
        return any(_within(root, text) for root in self._roots)

    def read_allowed(self, path: str | os.PathLike[str]) -> bool:
        """Whether the read sandbox lets a canonical path be read.

        :param path: a canonical absolute path.
        :returns: False iff a ``deny_read`` glob matches and no ``allow_read`` glob does.
        """
        if not self._deny:
            return True
        text = os.fspath(path)
        if not any(glob.matches(text) for glob in self._deny):
            return True
        return any(glob.matches(text) for glob in self._allow)

    def check_read(self, path: str | os.PathLike[str]) -> None:
        """Raise unless the read sandbox lets a canonical path be read.

        :param path: a canonical absolute path.
        :raises ToolError: ``policy_blocked`` naming rule ``read-deny``.
        """
        self._rule_read_deny(os.fspath(path))

    def glob(self, pattern: str, *, base: str = ".") -> Glob:
        """Compile a tool-supplied glob; a relative one is joined to ``base`` (under ``cwd``).

        :param pattern: the glob from the tool call.
        :param base: the directory a relative pattern is relative to.
        :returns: the compiled glob with its canonical walk base.
        :raises ToolError: ``invalid_parameters`` naming the pattern when it cannot be used.
        """
        try:
            _check_raw(pattern)
            _check_raw(base)
            return compile_glob(pattern, cwd=_absolute(base, self._cwd))
        except ValueError as exc:
            raise ToolError(ErrorCategory.INVALID_PARAMETERS, str(exc)) from exc

    def _start_for(self, absolute: str) -> str:
        """The innermost root lexically containing a path (canonical: resolution starts there).

        A root is opened with ``O_NOFOLLOW`` when used, so trusting its spelling is safe.
        """
        for root in self._roots:
            if _within(absolute, root):
                return root
        return "/"

    # ---------------------------------------------------------------- one function per rule

    def _outside(self, canonical: str) -> ToolError:
        return _violation(
            "inside-root",
            ErrorCategory.POLICY_BLOCKED,
            f"{canonical} is outside every sandbox root ({', '.join(self._roots)})",
        )

    def _rule_inside_root(self, canonical: str) -> None:
        """Rule ``inside-root``: the canonical path lies in a root, by whole components."""
        if not any(_within(canonical, root) for root in self._roots):
            raise self._outside(canonical)

    def _rule_not_root_or_above(self, canonical: str) -> None:
        """Rule ``not-root-or-above``: a root and its ancestors are never removed or replaced."""
        if self.is_root_or_above(canonical):
            raise _violation(
                "not-root-or-above",
                ErrorCategory.POLICY_BLOCKED,
                f"{canonical} is a sandbox root or contains one; it cannot be deleted or replaced",
            )

    def _rule_read_deny(self, canonical: str) -> None:
        """Rule ``read-deny``: deny_read matches and allow_read does not."""
        if not self.read_allowed(canonical):
            denied_by = next(g.pattern for g in self._deny if g.matches(canonical))
            raise _violation(
                "read-deny",
                ErrorCategory.POLICY_BLOCKED,
                f"{canonical} matches deny_read glob {denied_by!r} and no allow_read glob",
            )
