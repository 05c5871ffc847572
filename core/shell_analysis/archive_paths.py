"""Archives unpacked with their members' own paths kept: where they write is the archive's.

tar strips a leading ``/`` and refuses ``..`` in member names unless told not to (tar(1):
``-P``/``--absolute-names``); unzip refuses ``../`` unless given ``-:`` (unzip(1)); bsdtar
the same with ``-P``. Told not to, an extraction writes wherever the archive says, outside
the project too (Zip Slip, CWE-22), and nobody can see where before it runs: rule
``sandbox-dynamic``, ask, as for a write whose target is only known at run time.
"""

from __future__ import annotations

from tooldeck.shell_analysis.findings import ASK, Finding
from tooldeck.shell_analysis.model import Segment

__all__ = ["ARCHIVE_HEADS", "archive_paths_finding"]

_TARS = frozenset({"tar", "bsdtar", "gtar"})
ARCHIVE_HEADS: frozenset[str] = _TARS | {"unzip"}
"""Command names :func:`archive_paths_finding` looks at."""


def _tar_extracts_absolute(args: list[str]) -> bool:
    short = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    if args and not args[0].startswith("-"):
        short += args[0]  # tar xPf a.tar: the old option style
    extracts = "x" in short or any(a in ("--extract", "--get") for a in args)
    return extracts and ("P" in short or "--absolute-names" in args)


def archive_paths_finding(segment: Segment) -> Finding | None:
    """Ask for an extraction that keeps its members' absolute or climbing paths.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    if (head in _TARS and _tar_extracts_absolute(args)) or (head == "unzip" and "-:" in args):
        return Finding(ASK, "sandbox-dynamic", f"{segment.text!r} extracts members to the "
                       "paths the archive names, outside the project too")
    return None
