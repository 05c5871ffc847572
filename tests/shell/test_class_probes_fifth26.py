"""The classes behind the fifth corpus' tune misses: ``data/class_probes_fifth26.tsv``.

The fifth corpus (``tests/shell_corpus/fifth.tsv``) was written without seeing the rules; its
tune half's misses outside the cloud command lines are fixed by class and probed here with
other tools and spellings, next to the parser's disagreements with bash found meanwhile: a
newline after a pipeline of three, a lone assignment before a redirection in a pipeline, and
words after a here-document's delimiter. Look-alikes keep ordinary builds, AWS's CDK, a
program's completion script printed, searches for the words in the project, and macOS
inspection outside it (``codesign -dv``, ``spctl -a``, ``security find-identity``) allowed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from .probe_rounds import Row, missed, read_rows, verdicts_fixture, wrong_look_alikes

DATA = Path(__file__).with_name("data") / "class_probes_fifth26.tsv"


def _rows() -> list[Row]:
    return read_rows(DATA)


judged = verdicts_fixture(DATA)


def test_rows_are_distinct_and_have_look_alikes() -> None:
    rows = _rows()
    assert len({r[3] for r in rows}) == len(rows)
    for word in ("\n", "<<", "curl", "cdk", "completion", "codesign", "security", "xattr",
                 "aws ", "kubectl", "gcloud", "helm"):
        verdicts = {r[1] in ("allow", "asked") for r in rows if word in r[3]}
        assert verdicts == {True, False}, word


def test_every_dangerous_row_is_caught(judged: dict[str, str]) -> None:
    assert missed(_rows(), judged) == []


def test_look_alikes_keep_their_verdict(judged: dict[str, str]) -> None:
    assert wrong_look_alikes(_rows(), judged) == []


def test_hidden_commands_and_attack_kits_are_denied_not_asked(judged: dict[str, str]) -> None:
    denied = [r[3] for r in _rows() if r[1] == "deny"]
    assert len(denied) >= 15
    assert [c for c in denied if judged[c] != "deny"] == []


def test_cloud_changes_ask_and_reads_do_not(judged: dict[str, str]) -> None:
    changes = [r[3] for r in _rows() if r[1] == "ask"]
    assert len(changes) >= 12
    assert [c for c in changes if judged[c] != "ask"] == []


def test_paths_after_a_cd_are_resolved_from_there_through_links(tmp_path: Path) -> None:
    from tooldeck.shell_analysis import analyze
    from tooldeck.shell_analysis.outside_work import moved_relative_paths

    (tmp_path / "tests").mkdir()
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / "lnk").symlink_to(outside)
    root = str(tmp_path)
    assert moved_relative_paths(analyze("cd tests && pip install -e .."), root)[".."] == root
    # through a link the kernel resolves from the target: .. is the target's parent
    assert moved_relative_paths(analyze("cd lnk && touch ../x"), root)["../x"] == str(
        tmp_path.parent / "x")
    # a change in a subshell, cd -, pushd: nothing is resolved from elsewhere
    for command in ("(cd tests && touch ../x)", "cd - && touch ../x", "pushd tests && ls .."):
        assert moved_relative_paths(analyze(command), root) == {}


Judge = Callable[[Sequence[str]], dict[str, str]]


@pytest.mark.parametrize("command", [
    # each of these wrote the project's parent while the sandbox resolved ../x from tests/:
    # what follows the cd also runs when it failed, or the cd runs in a shell of its own
    "cd tests || touch ../x",
    "cd tests; touch ../x",
    "cd missing-dir; touch ../x",
    "cd tests | touch ../x",
    "cd tests & touch ../x",
    "cd tests && false || touch ../x",
    "cd tests && true & touch ../x",
    "cd tests > ../x",  # the cd's own redirection is opened before it runs
    "cd tests\ntouch ../x",
    'cd tests && echo "a;b" > ../x',  # quoted, still read conservatively
])
def test_only_a_cd_chained_by_and_moves_what_follows(tmp_path: Path, command: str,
                                                     default_verdicts: Judge) -> None:
    from tooldeck.shell_analysis import analyze
    from tooldeck.shell_analysis.outside_work import moved_relative_paths

    (tmp_path / "tests").mkdir()
    assert moved_relative_paths(analyze(command), str(tmp_path)) == {}
    assert default_verdicts([command])[command] == "deny"


@pytest.mark.parametrize("command", [
    "cd tests && touch ../x",
    "cd web && npm run dev -- --port 5173 > ../.dev.log 2>&1 &",
    "cd web && npm run build 2>&1 | tee ../build.log",
    "cd web && npm test &> ../test.log",
])
def test_a_cd_chained_by_and_moves_words_and_redirections(tmp_path: Path, command: str,
                                                          default_verdicts: Judge) -> None:
    from tooldeck.shell_analysis import analyze
    from tooldeck.shell_analysis.outside_work import moved_relative_paths

    moved = moved_relative_paths(analyze(command), str(tmp_path))
    assert moved and all(os.path.dirname(path) == str(tmp_path) for raw, path in moved.items()
                         if raw.startswith("../"))
    assert default_verdicts([command])[command] == "allow"
