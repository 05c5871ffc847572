"""The analyser splits a command into the commands bash itself reads there.

tree-sitter-bash and bash disagree on some texts: a newline after a pipeline of three, a lone
assignment before a redirection in a pipeline, words after a here-document's delimiter. The
oracle here is bash: it reprints a function's body in a canonical form (``declare -f``), one
command per line with the same words. Every simple command the analyser finds in bash's
reprint, with its words (from the command that runs on, past wrappers such as ``time``), it
must find in the original text too. The reserved word ``time`` is left out of the alphabet:
bash reprints it oddly (``time --`` as ``time -p``, ``time time`` as ``time``).

Bash only defines the function, never runs its body; it runs with ``PATH`` emptied, in a
temporary directory, and every generated text is checked with ``bash -n`` first, so a text
that closed the function early could not run anything but builtins, none of which the
alphabet names.

The property runs derandomized (the same examples on every run): the suite stays
deterministic, and each disagreement it found is pinned in ``test_adversarial.py``. Its
randomized runs found four of the six classes fixed in ``parse.py``.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldeck.shell_analysis import analyze

_BASH = ["env", "-i", "PATH=/nonexistent", shutil.which("bash") or "/bin/bash", "--norc",
         "--noprofile"]
_END = "@@end-of-reprint@@"

_WORD = st.sampled_from([
    "a", "b", "c", "d", "sudo", "rm", "-rf", "~", "x=1", "'q r'", '"s t"', "$v", "$(e f)",
    "`g`", "-n", "2", "0", "#c", "!", "w", "y=$(h)", "{ k; }", "(m)", "nohup", "env",
    "--", "-c", "if a; then b; fi", "for i in 1 2; do c; done", "while a; do b | c | d\ne; done",
    "case $v in x) a;; esac", "[[ -n $v ]]", "(( i++ ))", "a=(1 2)", "$((1+2))", "<(p)", ">(s)",
    "'\n'", '"a\nb"', "cat <<E\nq $(r)\nE\n", "X=1", "<<<w",
])
_GLUE = st.sampled_from([
    " ", " ", " ", " | ", " && ", " || ", "; ", "\n", "\n\n", " & ", " |& ", " > ", " 2>&1 ",
    " < ", " \\\n ", "\n  ", " ;\n", " &&\n", " |\n", " X=1 ", " >f ", " <f ", " <<<w ",
    " Y=2 2>/dev/null ", " # x\n", " 1>&2 ", " &>f ",
])


def _reprint(command: str, directory: Path) -> str | None:
    """Bash's canonical text of ``command``, or ``None`` when bash does not accept it."""
    checked = subprocess.run([*_BASH, "-n", "-c", command], capture_output=True, cwd=directory,
                             timeout=10, check=False)
    if checked.returncode != 0 or checked.stderr:
        return None
    script = f"f () {{\n{command}\n}}\ndeclare -f f\necho {_END}\n"
    shown = subprocess.run([*_BASH, "-s"], input=script, capture_output=True, text=True,
                           cwd=directory, timeout=10, check=False).stdout
    if not shown.endswith(_END + "\n"):
        return None
    lines = shown[: -len(_END) - 1].splitlines()
    if lines[:2] != ["f () ", "{ "] or lines[-1:] != ["}"]:
        return None
    return "\n".join(lines[2:-1])


def _commands(command: str) -> list[tuple[str, ...]] | None:
    analysis = analyze(command)
    if analysis.opaque:
        return None
    # what runs: the words from the last command position on, past wrappers (nohup, env)
    return [tuple(word.value for word in segment.words[segment.command_positions[-1]:])
            for segment in analysis.segments if segment.command_positions]


@settings(max_examples=500, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(parts=st.lists(st.tuples(_WORD, _GLUE), min_size=1, max_size=8), last=_WORD)
def test_the_commands_found_are_those_bash_reads(parts: list[tuple[str, str]], last: str,
                                                 tmp_path_factory: pytest.TempPathFactory,
                                                 ) -> None:
    command = "".join(word + glue for word, glue in parts) + last
    reprint = _reprint(command, tmp_path_factory.getbasetemp())
    if reprint is None:
        return
    ours, bash = _commands(command), _commands(reprint)
    if ours is not None and bash is not None:
        # bash's commands are all found; the analyser may find more (it walks a text with
        # both a here-document and a line continuation twice, once with the lines joined)
        assert not Counter(bash) - Counter(ours), (command, reprint)


@pytest.mark.parametrize("command", [
    "ls | sort | echo\nrm -rf $HOME && true",
    "ls | X=1 2>&1 rm -rf ~",
    "rm <<EOF -rf ~\nx\nEOF",
])
def test_the_oracle_tells_the_known_disagreements_apart(command: str,
                                                        tmp_path: Path) -> None:
    reprint = _reprint(command, tmp_path)
    assert reprint is not None
    assert reprint != command
    assert _commands(command) == _commands(reprint)
    assert any(words[:1] == ("rm",) for words in _commands(reprint) or [])
