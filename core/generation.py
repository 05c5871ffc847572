"""A policy generation: every policy file one runtime was built from, read once, with its identity.

A runtime is built from exactly one *generation*: the bytes of the configuration file and of
every policy file a plugin read while the runtime was built (shell overlays, for one), each
with the identity of the file it came from (device, inode, size, mtime, ctime). Plugins read
policy files through :meth:`PolicyReads.read_text`, so what they parsed is what was recorded:
a file changing on disk afterwards never changes what a runtime holds, nor its digest.

The hot-reload rule (:mod:`tooldeck.deck`) compares generations: which files changed, whether
a changed file was replaced by a rename (a new inode) or written in place, and whether a
generation is still on disk byte for byte after a settle interval.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs

__all__ = ["FileVersion", "PolicyReads", "read_version"]


@attrs.frozen
class FileVersion:
    """One policy file as read: its bytes (``None`` when it was missing) and its identity.

    :param path: the file.
    :param data: its content, or ``None`` when it did not exist.
    :param kind: how a change to it is judged (:mod:`tooldeck.policy_change`): ``config``
        (the configuration file), ``overlay`` (a tighten-only overlay) or ``opaque``.
    :param identity: ``(device, inode, size, mtime_ns, ctime_ns)`` of the file read.
    """

    path: Path
    data: bytes | None
    kind: str = "opaque"
    identity: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    @property
    def empty(self) -> bool:
        """True for a zero-byte file: a save in progress, never a policy."""
        return self.data is not None and not self.data

    @property
    def inode(self) -> tuple[int, int]:
        """``(device, inode)``: a rename-over save gives the path a new one."""
        return self.identity[0], self.identity[1]

    def on_disk_still(self) -> bool:
        """True when the file is still exactly this version: same identity, same bytes."""
        try:
            return read_version(self.path, self.kind) == self
        except OSError:
            return False


def read_version(path: Path, kind: str = "opaque") -> FileVersion:
    """Read ``path`` once: its bytes and the identity of the very file they came from.

    :param path: the file.
    :param kind: how a change to it is judged (see :class:`FileVersion`).
    :returns: the version; ``data`` is ``None`` when the file does not exist.
    :raises OSError: it exists but cannot be read.
    """
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return FileVersion(Path(path), None, kind)
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(fd)
        try:
            data = handle.read()
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    return FileVersion(Path(path), data, kind, identity)


class PolicyReads:
    """The files one runtime build read: plugins read policy files through it.

    A path is read from disk once per build; asking again returns the same bytes, so two
    plugins (or two passes of one) never see two versions of one file. After the build it is
    frozen: its versions and digest no longer change.
    """

    def __init__(self, versions: Iterable[FileVersion] = ()) -> None:
        self._versions: dict[Path, FileVersion] = {v.path: v for v in versions}
        self._frozen = False
        self._digest: str | None = None

    @property
    def versions(self) -> Mapping[Path, FileVersion]:
        """Every file read, by path."""
        return dict(self._versions)

    def add(self, version: FileVersion) -> None:
        """Record a version read elsewhere (the configuration file, read before the build)."""
        if self._frozen:
            raise RuntimeError(f"{version.path}: policy files are read while a runtime is built")
        self._versions[version.path] = version

    def read(self, path: Path, kind: str = "opaque") -> FileVersion:
        """The version of ``path`` this build uses, reading it on first use.

        :param path: the file.
        :param kind: how a change to it is judged (see :class:`FileVersion`).
        :raises OSError: it cannot be read.
        :raises RuntimeError: the build is over (policy files are read while building).
        """
        path = Path(path)
        version = self._versions.get(path)
        if version is None:
            if self._frozen:
                raise RuntimeError(f"{path}: policy files are read while a runtime is built")
            version = self._versions[path] = read_version(path, kind)
        return version

    def read_text(self, path: Path, kind: str = "opaque") -> str:
        """The UTF-8 text of ``path`` as this build sees it.

        :raises FileNotFoundError: it does not exist.
        :raises UnicodeDecodeError: it is not UTF-8.
        :raises OSError: it cannot be read.
        """
        data = self.read(path, kind).data
        if data is None:
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return data.decode("utf-8")

    def freeze(self, also: Iterable[Path] = ()) -> None:
        """End the build: read the files in ``also`` not read yet, then accept no new reads.

        :param also: policy files a plugin recorded without reading them through this object.
        """
        for path in also:
            try:
                self.read(path)
            except OSError:
                self._versions[Path(path)] = FileVersion(Path(path), None)
        self._frozen = True

    def digest(self, config_text: str) -> str:
        """sha256 (16 hex digits) of the configuration text and every other file read.

        :param config_text: the configuration document's text.
        """
        if self._digest is not None:
            return self._digest
        h = hashlib.sha256(config_text.encode())
        for path in sorted(self._versions):
            version = self._versions[path]
            if version.kind == "config":
                continue
            data = b"<missing>" if version.data is None else version.data
            name = str(path).encode()
            h.update(b"%d:%s%d:%s" % (len(name), name, len(data), data))
        digest = h.hexdigest()[:16]
        if self._frozen:
            self._digest = digest
        return digest
