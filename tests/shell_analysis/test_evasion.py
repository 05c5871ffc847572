"""Evasion rules (policy18): invisible characters, terminal text hiding, timestomping.

Examples from InternalAllTheThings' "Linux - Evasion" page and Atomic Red Team T1070.006,
written for this test; properties check that only the invisible characters themselves fire.
"""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooldeck.shell_analysis import DEFAULT_BLOCKED, ClassContext, analyze, judge_classes

CONTEXT = ClassContext(DEFAULT_BLOCKED, ("/work/project",), "/work/project")
INVISIBLE = "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2066\u2069\ufeff"


def _rule(command: str) -> tuple[str, str] | None:
    found = judge_classes(analyze(command), CONTEXT)
    return None if found is None else (found.verdict, found.rule)


@pytest.mark.parametrize("command", [
    "touch $'index\\u200D.php'", "cp index.php $'index\\u202E.php'", "mv a $'a\\uFEFF'",
])
def test_an_invisible_character_in_a_word_asks(command: str) -> None:
    assert _rule(command) == ("ask", "invisible")


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz._-", min_size=1, max_size=12),
       st.sampled_from(INVISIBLE), st.integers(min_value=0, max_value=12))
def test_any_invisible_character_anywhere_in_a_file_name_asks(
        name: str, hidden: str, where: int) -> None:
    spelled = name[:where] + hidden + name[where:]
    assert _rule(f"touch {shlex.quote(spelled)}") == ("ask", "invisible")


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_characters=INVISIBLE,
                                      exclude_categories=("Cc", "Cs", "Zs", "Zl", "Zp")),
               min_size=1, max_size=12))
def test_visible_text_never_fires_the_invisible_rule(name: str) -> None:
    found = _rule(f"touch {shlex.quote(name)}")
    assert found is None or found[1] != "invisible"


@pytest.mark.parametrize("command", [
    'echo "# $(clear)" >> script.sh', 'printf "%s\\n" "$(tput cuu1)" > notes.md',
    'echo "$(reset)" >> run.sh',
])
def test_terminal_control_output_written_to_a_file_asks(command: str) -> None:
    assert _rule(command) == ("ask", "hidden-text")


@pytest.mark.parametrize("command", [
    "touch -a -m -t 202210312359 example", "touch -a -m -d @1667275140 example",
    "touch -m -r other_file example", "touch -acm --reference=x y",
    "touch --time=mtime -d 2020-01-01 x",
])
def test_a_chosen_stamp_set_from_a_date_or_file_asks(command: str) -> None:
    assert _rule(command) == ("ask", "timestomp")


@pytest.mark.parametrize("command", [
    "touch x", "touch -a x", "touch -d '1 hour ago' x", "touch -r ref x",
    "touch -t 200001010000 x",
    'echo "$(clear)"', "clear", "tput setaf 1",
])
def test_ordinary_touch_and_terminal_use_stay_allowed(command: str) -> None:
    assert _rule(command) is None
