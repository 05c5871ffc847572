"""Arg values never reach the shell as syntax: each stays exactly one word (real bash)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.skills.conftest import (
    BASH_ALLOWED,
    SAY,
    SAY_ALLOWED,
    TRUSTED_GREET,
    MakeDeck,
    write_skill,
)
from tooldeck.models import ToolCall
from tooldeck.plugins.skills.render import command_template_problem, render_params

ATTACKS = [
    "; rm -rf /", "$(touch pwned)", "`touch pwned`", "a\ntouch pwned", "a\rtouch pwned",
    "' ; touch pwned ; '", '" ; touch pwned ; "', "$((1+1))", "${HOME}", "*", "~", "-n",
    "a && touch pwned", "a | touch pwned", "> pwned", "\\", "'", "", "#", "!!", "$'\\x27'",
    "a\\\ntouch pwned", "{who}", "\t", " ", "é\u202e", "$(IFS=x;touch pwned)",
]

TEMPLATE = {"command": "printf '%s\\0' start {a} {b} end"}
ARGS = {"a": "string", "b": "string"}


def _words(command: str, cwd: Path) -> list[str]:
    """The arguments bash hands printf for ``command``, split at the NUL terminators."""
    out = subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, check=True,
                         timeout=30).stdout.decode("utf-8", "surrogateescape")
    return out.split("\0")[:-1]


def test_the_template_used_here_is_accepted() -> None:
    assert command_template_problem(TEMPLATE["command"], ARGS) is None


@pytest.mark.parametrize("attack", ATTACKS)
def test_each_known_attack_arrives_as_one_literal_word(attack: str, tmp_path: Path) -> None:
    command = render_params(TEMPLATE, {"a": attack, "b": "x"})["command"]
    assert _words(command, tmp_path) == ["start", attack, "x", "end"]
    assert list(tmp_path.iterdir()) == []  # nothing was created: no command ran


texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                max_size=40)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=texts, b=texts)
def test_any_values_arrive_as_exactly_two_words(a: str, b: str) -> None:
    try:
        command = render_params(TEMPLATE, {"a": a, "b": b})["command"]
    except ValueError:
        assert any("[" in v and ("$(" in v or "`" in v) for v in (a, b))
        return
    with tempfile.TemporaryDirectory() as scratch:  # one per example: hypothesis replays
        assert _words(command, Path(scratch)) == ["start", a, b, "end"]
        assert list(Path(scratch).iterdir()) == []


def test_a_nul_character_is_refused() -> None:
    with pytest.raises(ValueError, match="NUL"):
        render_params(TEMPLATE, {"a": "x\x00y", "b": ""})


def test_values_outside_a_command_are_substituted_as_text_and_typed_when_whole() -> None:
    rendered = render_params({"path": "docs/{a}.md", "limit": "{n}", "awk": "{print}"},
                             {"a": "x y", "n": 3})
    assert rendered == {"path": "docs/x y.md", "limit": 3, "awk": "{print}"}


@pytest.mark.parametrize("template", [
    "echo {a}", "echo --name={a}", "cd {a} && ls", "echo $(cat {a})", "echo 'lit' {a} \"x\"",
    "awk '{print $1}' {a}", "(( 1 )) && echo {a}", "echo {n} $(( {n} + 1 ))",
])
def test_templates_with_bare_placeholders_are_accepted(template: str) -> None:
    assert command_template_problem(template, {"a": "string", "n": "integer"}) is None


async def test_through_the_deck_an_injection_is_printed_not_run(
        tmp_path: Path, make_deck: MakeDeck) -> None:
    write_skill(tmp_path, "greet", SAY)
    deck = make_deck(TRUSTED_GREET + SAY_ALLOWED + BASH_ALLOWED)
    for attack in ("; touch pwned", "$(touch pwned)", "`touch pwned`", "a\ntouch pwned"):
        result = await deck.call(ToolCall("skill_greet__say", {"who": attack}))
        assert result.ok, result.text
        assert result.output is not None
        assert result.output.summary.split("\0")[:2] == ["hello", attack]
    assert not (tmp_path / "pwned").exists()


ARITHMETIC = [  # places where bash evaluates a quoted word as arithmetic, subscripts included
    "let {a}", "declare -i x={a}", "printf -v {a} x", "read -r {a} <<< x", "[ -v {a} ]",
    "arr=(1 2); echo ${{arr[{a}]}}", "echo $[ {a} ]", "declare {a}=1", "typeset -n r={a}; echo $r",
    "x=(); x[{a}]=1",
]
pieces = st.lists(st.sampled_from([
    "a[", "]", "$(touch pwned)", "`touch pwned`", "$( touch pwned )", "${x:-", "}", "$[",
    "b[", "x[0]+", " ", "0", "'", '"', "\\", "$'\\x60'", "<(touch pwned)",
]), max_size=8).map("".join)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(template=st.sampled_from(ARITHMETIC), value=pieces)
def test_a_value_never_runs_as_an_arithmetic_subscript(template: str, value: str) -> None:
    template = template.replace("${{", "${").replace("]}}", "]}")
    if command_template_problem(template, {"a": "string"}) is not None:
        return  # refused when the skill is read: rule bare-placeholder
    try:
        command = render_params({"command": template}, {"a": value})["command"]
    except ValueError:
        return  # refused: rule no-subscript-code
    with tempfile.TemporaryDirectory() as scratch:  # one per example: hypothesis replays
        subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=30)
        assert not (Path(scratch) / "pwned").exists(), command


def test_a_subscript_with_a_command_substitution_is_refused() -> None:
    with pytest.raises(ValueError, match="array subscript"):
        render_params({"command": "let {a}"}, {"a": "a[$(touch pwned)]"})
    assert render_params({"path": "{a}"}, {"a": "a[$(x)]"}) == {"path": "a[$(x)]"}  # no shell


@pytest.mark.parametrize("template", ["x[{a}]=1", "echo ${arr[{a}]}", "echo $[ {a} ]",
                                      "echo $(( {a} ))", "(( {a} ))", "[[ {a} -eq 1 ]]"])
def test_a_string_placeholder_in_an_arithmetic_place_is_refused(template: str) -> None:
    problem = command_template_problem(template, {"a": "string"})
    assert problem is not None and "arithmetic" in problem
    assert command_template_problem(template, {"a": "integer"}) is None
