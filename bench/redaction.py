"""Precision of redaction and of risk-chain tagging on real source code.

Source code mentions secrets all the time (``secret_key = self.secret_keys[-1]``,
``password: str``, ``token = token[:-1]``) without containing one. This bench reads the source
and documentation files of real projects and counts:

- secrets the redactor finds (each one is presumed a false positive: these trees hold code,
  not credentials), with the rules that found them and the values' shapes (quoted or bare,
  charset, length: never the value);
- risk-chain tags raised by an agent's ordinary look at a file — ``cat FILE``, ``sed -n``,
  ``read FILE``, ``grep -n WORD FILE`` and ``grep -rn WORD DIR`` for every secret-ish word the
  file contains — each of which would turn the next docs ``fetch`` into a "credential then
  egress" denial.

The split is fixed (issue 12, point 11); it was written down before any rule was tuned on it:

- **tune**: the ``.py``/``.pyi`` files of this interpreter's installed packages, minus the
  packages of the held-back projects (``requests``, ``starlette``, ``flask``), and the trees
  given with ``--tune``: checkouts of gin-gonic/gin (Go), cli/cli (Go), encode/httpx (Python,
  Markdown) and expressjs/express (JavaScript). Findings of this half are listed (``--show``).
- **held-back**: the trees given with ``--held-back``: checkouts of pallets/flask, psf/requests,
  encode/starlette and gorilla/mux (the session replay's projects). Never tuned on: only its
  totals and per-rule/per-tag counts are printed, never a line.

    git clone https://github.com/gin-gonic/gin     # and cli/cli, encode/httpx,
                                                   # expressjs/express (tune); pallets/flask,
                                                   # psf/requests, encode/starlette,
                                                   # gorilla/mux (held-back)
    python bench/redaction.py --tune gin cli httpx express \
        --held-back flask requests starlette mux [--show N] [--baseline REV]

``--baseline REV`` also loads ``core/secrets.py`` as it was at git revision ``REV`` and times
both detectors on the same texts, interleaved, printing the ratio (new / old seconds).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

from tooldeck.plugins.risk_chain.tags import Tag, shell_tags, text_tags
from tooldeck.secrets import SecretFinding, find_secrets

WORDS = ("secret", "secret_key", "password", "passwd", "token", "api_key", "apikey",
         "credential", "credentials", "private_key", "access_key", "auth")
_WORD = re.compile("|".join(WORDS), re.IGNORECASE)
SUFFIXES = frozenset({
    ".py", ".pyi", ".go", ".js", ".mjs", ".cjs", ".ts", ".rs", ".rb", ".java", ".sh", ".md",
    ".rst", ".toml", ".yaml", ".yml", ".cfg", ".ini", ".json", ".txt", ".html", ".ejs",
})
"""Files of a checkout that are read: code, docs and configuration."""
HELD_BACK_PACKAGES = frozenset({"requests", "starlette", "flask"})
"""Installed packages that belong to a held-back project (out of the tune half)."""
ROOT = Path(__file__).resolve().parent.parent
Finder = Callable[[str], list[SecretFinding]]


def installed_files() -> Iterator[tuple[Path, str]]:
    """The tune half's installed packages: every ``.py``/``.pyi`` file, with its name."""
    root = Path(sysconfig.get_paths()["purelib"])
    for path in sorted(root.rglob("*.py*")):
        rel = path.relative_to(root)
        if (path.suffix in (".py", ".pyi") and path.is_file()
                and rel.parts[0] not in HELD_BACK_PACKAGES):
            yield path, rel.as_posix()


def checkout_files(tree: Path) -> Iterator[tuple[Path, str]]:
    """The source, docs and configuration files of a checkout (not minified bundles)."""
    for path in sorted(tree.rglob("*")):
        rel = path.relative_to(tree)
        if (path.suffix in SUFFIXES and path.is_file() and ".git" not in rel.parts
                and not path.name.endswith(".min.js")):
            yield path, f"{tree.name}/{rel.as_posix()}"


def looks(rel: str, text: str) -> list[tuple[str, frozenset[Tag]]]:
    """An agent's ordinary looks at a file, and the tags each gets."""
    folder = rel.rsplit("/", 1)[0] if "/" in rel else "."
    result: list[tuple[str, frozenset[Tag]]] = [
        (f"cat {rel}", shell_tags(f"cat {rel}")),
        (f"sed -n 1,80p {rel}", shell_tags(f"sed -n 1,80p {rel}")),
        (f"read {rel}", text_tags(rel)),
    ]
    for word in sorted({m.group(0).lower() for m in _WORD.finditer(text)}):
        for command in (f"grep -n {word} {rel}", f"grep -rn '{word}' {folder}"):
            result.append((command, shell_tags(command)))
    return result


def shape(value: str) -> str:
    """A value's shape, never the value: quoted or bare, charset, length."""
    quoted = "quoted" if value[:1] in "\"'`" or value[1:2] in "\"'" else "bare"
    bare = value.strip("\"'`")
    if all(c in "0123456789abcdefABCDEF-" for c in bare):
        charset = "hex"
    elif bare.isalnum():
        charset = "alnum"
    else:
        charset = "symbols"
    size = "32+" if len(bare) >= 32 else "16-31" if len(bare) >= 16 else "<16"
    return f"{quoted} {charset} {size}"


class Half:
    """Counts for one half of the corpus."""

    def __init__(self, name: str, show: int) -> None:
        self.name, self.show = name, show
        self.counts: Counter[str] = Counter()
        self.rules: Counter[str] = Counter()
        self.shapes: Counter[str] = Counter()
        self.tags: Counter[str] = Counter()
        self.seconds = 0.0

    def _print(self, line: str) -> None:
        if self.show > 0:
            self.show -= 1
            print("  " + line)

    def add(self, rel: str, text: str) -> None:
        """Count one file's findings and tagged looks."""
        self.counts["files"] += 1
        self.counts["lines"] += text.count("\n") + 1
        start = time.perf_counter()
        findings = find_secrets(text)
        self.seconds += time.perf_counter() - start
        lines = text.splitlines()
        for finding in findings:
            self.counts["findings"] += 1
            self.rules[finding.rule] += 1
            self.shapes[f"{finding.rule} ({shape(text[finding.start:finding.end])})"] += 1
            line = lines[finding.line - 1] if finding.line <= len(lines) else ""
            self._print(f"redacted ({finding.rule}) {rel}:{finding.line}: {line.strip()[:110]}")
        for command, tags in looks(rel, text):
            self.counts["looks"] += 1
            if tags:
                self.counts["tagged"] += 1
                labels = sorted(tag.label for tag in tags)
                self.tags.update(labels)
                self._print(f"tagged {labels}: {command}")

    def row(self) -> str:
        """The summary line (aggregates only)."""
        c = self.counts
        return (f"{self.name:10} {c['files']:7} {c['lines']:9} {c['findings']:9} "
                f"{c['looks']:7} {c['tagged']:7} {self.seconds:9.2f}")

    def detail(self) -> str:
        """Per-rule and per-tag counts (aggregates only)."""
        rules = ", ".join(f"{rule} {n}" for rule, n in self.shapes.most_common()) or "none"
        tags = ", ".join(f"{tag} {n}" for tag, n in self.tags.most_common()) or "none"
        return f"  {self.name}: findings by rule: {rules}; tags: {tags}"


def load_baseline(rev: str) -> ModuleType:
    """``core/secrets.py`` as it was at ``rev``, imported as a separate module."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:core/secrets.py"],
                            capture_output=True, text=True, check=True).stdout
    path = Path(tempfile.mkdtemp()) / "secrets_baseline.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("secrets_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compare_speed(texts: list[str], baseline: Finder, rounds: int = 3) -> tuple[float, float]:
    """Best-of-``rounds`` seconds of this detector and of ``baseline`` over ``texts``."""
    best_new = best_old = float("inf")
    for _ in range(rounds):
        for finder in (find_secrets, baseline):
            start = time.perf_counter()
            for text in texts:
                finder(text)
            elapsed = time.perf_counter() - start
            if finder is find_secrets:
                best_new = min(best_new, elapsed)
            else:
                best_old = min(best_old, elapsed)
    return best_new, best_old


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune", nargs="*", type=Path, default=[],
                        help="checkouts of the tune half (besides the installed packages)")
    parser.add_argument("--held-back", nargs="*", type=Path, default=[],
                        help="checkouts never used to tune the rules (aggregates only)")
    parser.add_argument("--show", type=int, default=20, help="tune-half findings to print")
    parser.add_argument("--baseline", metavar="REV",
                        help="also time core/secrets.py of this git revision")
    args = parser.parse_args()
    tune, held_back = Half("tune", args.show), Half("held-back", 0)
    texts: list[str] = []
    sources: list[tuple[Half, Iterator[tuple[Path, str]]]] = [(tune, installed_files())]
    sources += [(tune, checkout_files(tree)) for tree in args.tune]
    sources += [(held_back, checkout_files(tree)) for tree in args.held_back]
    for half, files in sources:
        for path, rel in files:
            text = path.read_text(errors="replace")
            half.add(rel, text)
            texts.append(text)
    print(f"{'half':10} {'files':>7} {'lines':>9} {'findings':>9} {'looks':>7} {'tagged':>7} "
          f"{'redact s':>9}")
    for half in (tune, held_back):
        print(half.row())
    for half in (tune, held_back):
        print(half.detail())
    if args.baseline:
        new, old = compare_speed(texts, load_baseline(args.baseline).find_secrets)
        megabytes = sum(len(t.encode("utf-8", "replace")) for t in texts) / 1e6
        print(f"find_secrets over all {megabytes:.1f} MB: {new:.2f} s; at {args.baseline}: "
              f"{old:.2f} s; ratio {new / old:.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
