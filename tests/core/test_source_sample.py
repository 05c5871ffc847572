"""Real source code is neither redacted nor a risk chain's first link (issue 12, point 11).

``tests/secrets_corpus/source_sample`` holds unmodified files of popular public projects (see
its README for origins and licences) that name secrets everywhere and hold none. Redaction
must leave them alone, and an agent's ordinary look at them must not be tagged: a tag there
would turn the next docs ``fetch`` into a "credential then egress" denial.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tooldeck.plugins.risk_chain.tags import shell_tags, text_tags
from tooldeck.secrets import find_secrets, redact

SAMPLE = Path(__file__).resolve().parent.parent / "secrets_corpus" / "source_sample"
FILES = sorted(p for p in SAMPLE.rglob("*") if p.is_file() and p.parent.name != "licenses"
               and p.name != "README.md")
WORDS = re.compile(r"secret_key|secret|password|passwd|token|api_key|apikey|credentials?|"
                   r"private_key|access_key|auth", re.IGNORECASE)


def test_the_sample_is_a_few_thousand_lines_of_several_projects() -> None:
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in FILES)
    assert lines >= 3000
    assert len({p.relative_to(SAMPLE).parts[0] for p in FILES}) >= 8
    readme = (SAMPLE / "README.md").read_text(encoding="utf-8")
    assert all(f"`{p.relative_to(SAMPLE).as_posix()}`" in readme for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(SAMPLE).as_posix() for p in FILES])
def test_no_line_is_redacted(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert WORDS.search(text), "the sample is meant to be full of secret vocabulary"
    assert find_secrets(text) == []
    assert redact(text) == text


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(SAMPLE).as_posix() for p in FILES])
def test_looking_at_the_file_is_no_credential_access(path: Path) -> None:
    rel = path.relative_to(SAMPLE).as_posix()
    folder = rel.rsplit("/", 1)[0]
    words = {m.group(0) for m in WORDS.finditer(path.read_text(encoding="utf-8"))}
    looks = [f"cat {rel}", f"sed -n 1,80p {rel}", f"head -50 {rel}"]
    looks += [f"grep -n {word} {rel}" for word in words]
    looks += [f"grep -rn '{word}' {folder}" for word in words]
    looks += [f"rg -n {word.lower()} {folder}" for word in words]
    assert {look: shell_tags(look) for look in looks if shell_tags(look)} == {}
    assert text_tags(rel) == frozenset()
