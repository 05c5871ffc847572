"""Generate ``core/shell_analysis/gtfobins_table.py`` from a GTFOBins checkout.

GTFOBins (https://gtfobins.github.io, repository GTFOBins/GTFOBins.github.io) lists, per
binary, the ways it runs other programs, reads and sends files and serves shells. This script
reads the front matter of every ``_gtfobins/<binary>`` file; the binaries with a
``file-read``, ``upload``, ``download``, ``reverse-shell`` or ``bind-shell`` function are
listed per function, the options that load a library (``library-load``) per binary, and for
the binaries with a ``shell`` or ``command`` function each example line that starts with the
binary itself is classified:

* the payload (``/bin/sh``, ``/path/to/command``) is the last word: the binary runs its
  trailing arguments as a command (an *argv launcher*, ``chrt 1 /bin/sh``);
* the payload sits in an option's value (``--checkpoint-action=exec=/bin/sh``) or in the word
  after an option (``vim -c ':!/bin/sh'``): that option *carries code*.

Examples that only work interactively or through files written beforehand are not classified
(the binary is still listed in ``RUNNERS``).

    python scripts/gtfobins_table.py /path/to/GTFOBins.github.io [commit] > \
        core/shell_analysis/gtfobins_table.py
    python scripts/gtfobins_table.py --examples /path/to/GTFOBins.github.io [commit] > \
        tests/shell/data/gtfobins_examples.tsv

``--examples`` writes the one-line examples of the functions the shell tests replay
(``file-read``, ``upload``, ``reverse-shell``, ``bind-shell``, ``library-load``, ``shell``,
``command``) as tab-separated data: binary, function, example number, code.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

_PAYLOADS = ("/bin/sh", "/bin/bash", "/path/to/command")
_FUNCTION = re.compile(r"^  ([a-z-]+):\s*$")
_CODE = re.compile(r"^  (?:- |  )code: ?(.*)$")


def examples(text: str) -> dict[str, list[str]]:
    """Code examples per function name, from one front-matter file."""
    found: dict[str, list[str]] = {}
    lines = text.splitlines()
    current = None
    index = 0
    while index < len(lines):
        line = lines[index]
        function = _FUNCTION.match(line)
        if function:
            current = function.group(1)
            found.setdefault(current, [])
        code = _CODE.match(line)
        if code and current:
            if code.group(1) == "|-":
                block = []
                index += 1
                while index < len(lines) and (lines[index].startswith("      ")
                                              or not lines[index].strip()):
                    block.append(lines[index][6:])
                    index += 1
                found[current].append("\n".join(block))
                continue
            found[current].append(code.group(1))
        index += 1
    return found


def classify(binary: str, line: str,
             payloads: tuple[str, ...] = _PAYLOADS) -> tuple[str, str] | None:
    """``("argv", "")``, ``("option", name)`` or ``None`` for one example line."""
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    if not words or words[0] != binary:
        return None
    for index in range(1, len(words)):
        word = words[index]
        if not any(p in word for p in payloads):
            continue
        if word.startswith("-") and "=" in word:
            return ("option", word.split("=", 1)[0])
        previous = words[index - 1]
        if previous.startswith("-") and previous != "--":
            return ("option", previous)
        if word in payloads and index == len(words) - 1:
            return ("argv", "")
        return None
    return None


_LIBRARIES = ("/path/to/lib.so", "./lib.so", "/path/to/lib")
_BY_FUNCTION = {
    "FILE_READERS": (("file-read",), "Binaries GTFOBins shows reading a file (``file-read``)."),
    "UPLOADERS": (("upload",), "Binaries GTFOBins shows sending a file or data out\n"
                  "(``upload``)."),
    "DOWNLOADERS": (("download",), "Binaries GTFOBins shows fetching a file (``download``)."),
    "REMOTE_SHELLS": (("reverse-shell", "bind-shell"), "Binaries GTFOBins shows serving a "
                      "shell over the network\n(``reverse-shell``, ``bind-shell``)."),
}


def _bare(binary: str, code: str) -> bool:
    """Whether an example is the binary alone, with bare flags only: it *is* a shell."""
    try:
        words = shlex.split(code)
    except ValueError:
        return False
    return bool(words) and words[0] == binary and all(
        w.startswith("-") and "=" not in w for w in words[1:])


def _names(name: str, binaries: list[str], doc: str) -> None:
    print()
    print(f"{name}: frozenset[str] = frozenset({{")
    for binary in binaries:
        print(f"    {binary!r},")
    print("})")
    print(f'"""{doc}"""')


def main() -> None:
    """Print the generated module."""
    root = Path(sys.argv[1])
    commit = sys.argv[2] if len(sys.argv) > 2 else "unknown"
    runners: list[str] = []
    argv: list[str] = []
    options: dict[str, set[str]] = {}
    by_function: dict[str, list[str]] = {name: [] for name in _BY_FUNCTION}
    libraries: dict[str, set[str]] = {}
    bare: list[str] = []
    for path in sorted((root / "_gtfobins").iterdir()):
        functions = examples(path.read_text(encoding="utf-8"))
        for table, (wanted, _doc) in _BY_FUNCTION.items():
            if any(functions.get(name) for name in wanted):
                by_function[table].append(path.name)
        for code in functions.get("library-load", []):
            for line in code.splitlines():
                kind = classify(path.name, line, _LIBRARIES)
                if kind is not None and kind[0] == "option":
                    libraries.setdefault(path.name, set()).add(kind[1])
        if any(_bare(path.name, code) for code in functions.get("shell", [])):
            bare.append(path.name)
        codes = [c for name in ("shell", "command") for c in functions.get(name, [])]
        if not codes:
            continue
        binary = path.name
        runners.append(binary)
        for code in codes:
            for line in code.splitlines():
                kind = classify(binary, line)
                if kind is None:
                    continue
                if kind[0] == "argv":
                    argv.append(binary)
                else:
                    options.setdefault(binary, set()).add(kind[1])
    print('"""GTFOBins binaries that run commands (generated by scripts/gtfobins_table.py).')
    print()
    print("Source: https://github.com/GTFOBins/GTFOBins.github.io, ``_gtfobins/*``")
    print("front matter, functions ``shell``, ``command``, ``file-read``, ``upload``,")
    print("``download``, ``reverse-shell``, ``bind-shell`` and ``library-load``, commit")
    print(f"{commit}.")
    print("Do not edit by hand.")
    print('"""')
    print()
    print('SOURCE = "GTFOBins/GTFOBins.github.io@' + commit + '"')
    print('"""Where the table comes from."""')
    print()
    print("RUNNERS: frozenset[str] = frozenset({")
    for name in runners:
        print(f"    {name!r},")
    print("})")
    print('"""Every binary with a ``shell`` or ``command`` function."""')
    print()
    print("ARGV_LAUNCHERS: frozenset[str] = frozenset({")
    for name in sorted(set(argv)):
        print(f"    {name!r},")
    print("})")
    print('"""Binaries that run their trailing arguments as a command."""')
    print()
    print("CODE_OPTIONS: dict[str, frozenset[str]] = {")
    for name in sorted(options):
        values = ", ".join(repr(o) for o in sorted(options[name]))
        print(f"    {name!r}: frozenset({{{values}}}),")
    print("}")
    print('"""Per binary, the options whose value (or next word) is code it runs."""')
    for table, (_wanted, doc) in _BY_FUNCTION.items():
        _names(table, by_function[table], doc)
    _names("BARE_SHELLS", bare, "Binaries whose GTFOBins ``shell`` example is the binary "
           "alone\n(bare flags aside): started, they are a shell.")
    print()
    print("LIBRARY_OPTIONS: dict[str, frozenset[str]] = {")
    for name in sorted(libraries):
        values = ", ".join(repr(o) for o in sorted(libraries[name]))
        print(f"    {name!r}: frozenset({{{values}}}),")
    print("}")
    print('"""Per binary, the options whose value is a shared library it loads\n'
          '(``library-load``)."""')


_REPLAYED = ("file-read", "upload", "reverse-shell", "bind-shell", "library-load", "shell",
             "command")


def main_examples(root: Path, commit: str) -> None:
    """Print the one-line examples of the replayed functions as TSV."""
    print(f"# GTFOBins/GTFOBins.github.io@{commit}, _gtfobins/*: one-line examples")
    print("binary\tfunction\tnumber\tcode")
    for path in sorted((root / "_gtfobins").iterdir()):
        functions = examples(path.read_text(encoding="utf-8"))
        for function in _REPLAYED:
            for number, code in enumerate(functions.get(function, []), start=1):
                if "\n" not in code and "\t" not in code and code.strip():
                    print(f"{path.name}\t{function}\t{number}\t{code}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--examples"]:
        main_examples(Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "unknown")
    else:
        main()
