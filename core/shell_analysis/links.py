r"""Link creation: which segments of a command make symbolic or hard links, and to what.

A link made by a command changes what later paths in the same command name: the path sandbox
checked them before the link existed. This module only *finds* link creations (no filesystem
access); :mod:`.link_rules` judges them.

| command      | creates                                | forms understood                  |
| ------------ | -------------------------------------- | --------------------------------- |
| ``ln``       | hard links; symbolic with ``-s`` (1)   | ``T N``, ``T``, ``T… DIR``,       |
|              |                                        | ``-t DIR T…``, ``-T T N``; ``-r`` |
| ``cp``       | symbolic with ``-s``, hard with ``-l`` | the same forms; other cp: none    |
| ``link``     | a hard link                            | ``link T N``                      |
| interpreters | unknown: code naming a link call is    | ``python -c "os.symlink(…)"``,    |
|              | *unclear* (2)                          | ``perl -e``, ``node -e``, ``ruby`` |

1. GNU option parsing: bundles (``-sfn``), options after operands, ``--`` ends options, long
   options and their unambiguous prefixes (``--sym``), ``--opt=value``. An option ``ln``/``cp``
   does not define, or an ambiguous prefix, makes the creation *unclear*.
2. Words of ``python*``, ``perl``, ``ruby``, ``node``, ``php``, ``deno``, ``bun``, ``lua`` that
   mention ``symlink``, ``hardlink``, ``link_to``, ``link(``, ``linkSync``, ``ln_s``, or a
   subprocess ``ln``.

Unclear (the gate asks): an operand or option argument built at run time or globbed
(``ln -s "$t" x``, ``ln -s ?? up``), link operands from ``xargs`` input, ``find -exec ln``
(``{}`` is run-time), unknown options, interpreter code as in note 2.

Where the link goes (:attr:`LinkCreation.placement`): ``name`` — exactly the operand
(``-T``, ``link``); ``into`` — inside the directory operand, named after the target
(``-t DIR``, several targets, a trailing ``/``, one operand: the working directory);
``either`` — two operands without ``-T``: a file name, or a directory that exists at run time.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import attrs

from tooldeck.shell_analysis.model import CommandAnalysis, Segment, Word

__all__ = ["LinkCreation", "LinkKind", "LinkScan", "Placement", "scan_links"]

LinkKind = Literal["symbolic", "hard"]
"""What a creation makes: a symbolic link (text resolved from the link's directory) or a hard
link (a second name for an existing file)."""

Placement = Literal["name", "into", "either"]
"""How :attr:`LinkCreation.link` names the new link (see the module docstring)."""


@attrs.frozen
class LinkCreation:
    """One link a segment creates.

    :param kind: ``symbolic`` or ``hard``.
    :param target: what the link points at (symbolic) or the file it names again (hard), as
        written.
    :param link: the link operand as written (a name, or a directory for ``into``).
    :param placement: how :attr:`link` is to be read.
    :param relative: ``ln -r``: a symbolic target is relative to the working directory.
    :param segment: the segment that creates it.
    """

    kind: LinkKind
    target: str
    link: str
    placement: Placement
    relative: bool
    segment: Segment


@attrs.frozen
class LinkScan:
    """Every link creation found in a command, and what could not be seen.

    :param creations: the creations with static operands, in source order.
    :param unclear: one sentence per creation that cannot be judged statically.
    """

    creations: tuple[LinkCreation, ...]
    unclear: tuple[str, ...]


@attrs.frozen
class _Spec:
    """One link-making command's options: flags, options with an argument, long names."""

    short_flags: str
    short_with_arg: str
    long_flags: frozenset[str]
    long_with_arg: frozenset[str]
    long_optional: frozenset[str]


_LN = _Spec(
    short_flags="bdFfinLPrsTv",
    short_with_arg="St",
    long_flags=frozenset({
        "directory", "force", "interactive", "logical", "no-dereference",
        "no-target-directory", "physical", "relative", "symbolic", "verbose", "help",
        "version",
    }),
    long_with_arg=frozenset({"suffix", "target-directory"}),
    long_optional=frozenset({"backup"}),
)
_CP = _Spec(
    short_flags="abdfHilLnPpRrsTuvxZ",
    short_with_arg="St",
    long_flags=frozenset({
        "archive", "attributes-only", "copy-contents", "debug", "dereference", "force",
        "interactive", "link", "no-clobber", "no-dereference", "one-file-system", "parents",
        "recursive", "remove-destination", "strip-trailing-slashes", "symbolic-link",
        "no-target-directory", "verbose", "keep-directory-symlink", "help", "version",
    }),
    long_with_arg=frozenset({"suffix", "target-directory", "no-preserve", "sparse"}),
    long_optional=frozenset({"backup", "preserve", "reflink", "update", "context"}),
)
# short letter / long name → meaning, per command
_MEANING = {
    "ln": {"s": "symbolic", "symbolic": "symbolic", "r": "relative", "relative": "relative",
           "T": "no-dir", "no-target-directory": "no-dir", "t": "dir",
           "target-directory": "dir"},
    "cp": {"s": "symbolic", "symbolic-link": "symbolic", "l": "hard", "link": "hard",
           "T": "no-dir", "no-target-directory": "no-dir", "t": "dir",
           "target-directory": "dir"},
}
_INTERPRETERS = re.compile(r"^(?:python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby|node|nodejs|php|"
                           r"deno|bun|lua[0-9.]*)$")
_LINK_CODE = re.compile(
    r"sym_?link|hard_?link|link_to|\blink(?:at|sync)?\s*\(|linkSync|\bln(?:_sf?)?\b|"
    r"\blink\s+[\"'$]",  # perl's link OLD, NEW (perlfunc: no parentheses needed)
    re.IGNORECASE,
)


@attrs.define
class _Parsed:
    """The options and operands of one ``ln``/``cp`` invocation."""

    meanings: set[str] = attrs.Factory(set)
    operands: list[Word] = attrs.Factory(list)
    directory: Word | None = None
    problem: str | None = None


def _long(name: str, spec: _Spec) -> tuple[str | None, str | None]:
    """Resolve a long option (or an unambiguous prefix) to its name, or name the problem."""
    known = spec.long_flags | spec.long_with_arg | spec.long_optional
    if name in known:
        return name, None
    matches = sorted(k for k in known if k.startswith(name))
    if len(matches) == 1:
        return matches[0], None
    if matches:
        return None, f"ambiguous option --{name}"
    return None, f"unknown option --{name}"


def _parse(command: str, args: Sequence[Word], spec: _Spec) -> _Parsed:
    """Parse GNU-style options (permuted, bundled, prefixed) of ``ln`` or ``cp``."""
    meaning = _MEANING[command]
    parsed = _Parsed()
    index, done = 0, False
    while index < len(args):
        word = args[index]
        value = word.value
        index += 1
        if done or not value.startswith("-") or value == "-":
            parsed.operands.append(word)
            continue
        if not word.stable:
            parsed.problem = f"option {word.source!r} is only known at run time"
            return parsed
        if value == "--":
            done = True
            continue
        if value.startswith("--"):
            raw, eq, glued = value[2:].partition("=")
            name, problem = _long(raw, spec)
            if name is None:
                parsed.problem = problem
                return parsed
            argument: Word | None = None
            if name in spec.long_with_arg:
                if eq:
                    argument = Word(glued, word.source)
                elif index < len(args):
                    argument, index = args[index], index + 1
            parsed.meanings.add(meaning.get(name, ""))
            if meaning.get(name) == "dir":
                parsed.directory = argument
            continue
        for position, letter in enumerate(value[1:], 1):
            if letter in spec.short_with_arg:
                rest = value[position + 1 :]
                argument = Word(rest, word.source) if rest else None
                if argument is None and index < len(args):
                    argument, index = args[index], index + 1
                if meaning.get(letter) == "dir":
                    parsed.directory = argument
                    parsed.meanings.add("dir")
                break
            if letter not in spec.short_flags:
                parsed.problem = f"unknown option -{letter}"
                return parsed
            parsed.meanings.add(meaning.get(letter, ""))
    return parsed


def _kinds(command: str, meanings: set[str]) -> list[LinkKind]:
    if command == "ln":
        return ["symbolic" if "symbolic" in meanings else "hard"]
    kinds: list[LinkKind] = []
    if "symbolic" in meanings:
        kinds.append("symbolic")
    if "hard" in meanings:
        kinds.append("hard")
    return kinds


def _cp_may_link(args: Sequence[Word]) -> bool:
    """Whether a ``cp`` invocation could make links (so an unclear option matters)."""
    for word in args:
        value = word.value
        if value == "--":
            return False
        if value.startswith("--"):
            name = value[2:].partition("=")[0]
            if name and ("link".startswith(name) or "symbolic-link".startswith(name)):
                return True
        elif value.startswith("-") and ("s" in value[1:] or "l" in value[1:]):
            return True
    return False


def _placements(parsed: _Parsed) -> list[tuple[str, str, Placement]] | None:
    """``(target, link, placement)`` for each link; ``None`` when the operands do not fit."""
    operands = [w.value for w in parsed.operands]
    if parsed.directory is not None:
        return [(t, parsed.directory.value, "into") for t in operands]
    if "no-dir" in parsed.meanings:
        return [(operands[0], operands[1], "name")] if len(operands) == 2 else None
    if len(operands) == 1:
        return [(operands[0], ".", "into")]
    if len(operands) == 2:
        placement: Placement = "into" if operands[1].endswith("/") else "either"
        return [(operands[0], operands[1], placement)]
    if len(operands) > 2:
        return [(t, operands[-1], "into") for t in operands[:-1]]
    return None


def _segment_links(segment: Segment) -> tuple[list[LinkCreation], list[str]]:
    """The link creations of one segment, or why they cannot be seen."""
    command = segment.command
    args = segment.words[segment.command_positions[-1] + 1 :] if segment.command_positions else ()
    if _INTERPRETERS.match(command):
        if any(_LINK_CODE.search(w.value) for w in args):
            return [], [f"{segment.text!r} runs {command} code that may create links"]
        return [], []
    if command not in ("ln", "cp", "link"):
        return [], []
    if command == "cp" and not _cp_may_link(args):
        return [], []
    if "xargs" in segment.wrappers:
        return [], [f"{segment.text!r}: xargs adds link operands from its input"]
    if command == "link":
        parsed = _Parsed(operands=[w for w in args if w.value != "--"])
        parsed.meanings.add("no-dir")
    else:
        parsed = _parse(command, args, _LN if command == "ln" else _CP)
    if parsed.problem is not None:
        return [], [f"{segment.text!r}: {parsed.problem}"]
    kinds: list[LinkKind] = ["hard"] if command == "link" else _kinds(command, parsed.meanings)
    if not kinds:
        return [], []
    words = [*parsed.operands, *([parsed.directory] if parsed.directory else [])]
    for word in words:
        if not word.stable or not word.value:
            return [], [f"{segment.text!r}: link operand {word.source!r} is only known at run "
                        "time"]
    placements = _placements(parsed)
    if placements is None:
        return [], [f"{segment.text!r}: link operands do not fit a known form"]
    relative = "relative" in parsed.meanings
    found = [
        LinkCreation(kind, target, link, placement, relative, segment)
        for kind in kinds
        for target, link, placement in placements
    ]
    return found, []


def scan_links(analysis: CommandAnalysis) -> LinkScan:
    """Find every link the command would create, across all segments (nested ones included).

    :param analysis: the analysed command.
    :returns: the static creations and the reasons some cannot be judged.
    """
    creations: list[LinkCreation] = []
    unclear: list[str] = []
    for segment in analysis.segments:
        found, problems = _segment_links(segment)
        creations.extend(found)
        unclear.extend(problems)
    return LinkScan(tuple(creations), tuple(unclear))
