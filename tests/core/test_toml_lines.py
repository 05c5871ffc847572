"""Finding a rule's line: array-of-tables headers scanned, trusted only when tomllib agrees."""

from __future__ import annotations

import sys

from hypothesis import given
from hypothesis import strategies as st

from tooldeck.toml_lines import array_table_lines, header_key

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

KEY = ("tools", "permissions", "bash")


def test_header_spellings() -> None:
    assert header_key("[[tools.permissions.bash]]") == KEY
    assert header_key('  [[ tools . "permissions" . \'bash\' ]]  # why') == KEY
    assert header_key('[[tools.permissions."a.b"]]') == ("tools", "permissions", "a.b")
    assert header_key("[tools.permissions.bash]") is None
    assert header_key("[[tools.permissions.bash]] x") is None
    assert header_key("pattern = '[[tools.permissions.bash]]'") is None


def test_headers_inside_multiline_strings_are_not_rules() -> None:
    text = ('[agent]\nnote = """\n[[tools.permissions.bash]]\n"""\n'
            "[[tools.permissions.bash]]\npattern = '*'\naction = 'allow'\n")
    assert array_table_lines(text, KEY, 1) == (5,)


def test_a_disagreement_with_the_parser_gives_no_line() -> None:
    inline = "[tools.permissions]\nbash = [{pattern = '*', action = 'allow'}]\n"
    assert array_table_lines(inline, KEY, 1) == ()


HEADERS = st.sampled_from([
    "[[tools.permissions.bash]]", "[[ tools.permissions.bash ]]",
    '[[tools."permissions".bash]]  # note', "[[tools . permissions . 'bash']]",
])
OTHER = st.sampled_from([
    "", "# [[tools.permissions.bash]]", "[[tools.permissions.read]]\npattern = 'x'\n"
    "action = 'deny'", '[s{i}]\ndoc = """\n[[tools.permissions.bash]]\n"""', "[t{i}]",
])


@given(st.lists(st.tuples(OTHER, HEADERS), max_size=8), OTHER)
def test_lines_match_the_tables_the_parser_sees(blocks: list[tuple[str, str]],
                                                 tail: str) -> None:
    text, expected = "", []
    for i, (other, header) in enumerate(blocks):
        if other:
            text += other.format(i=i) + "\n"
        expected.append(text.count("\n") + 1)
        text += f"{header}\npattern = 'p{i}'\naction = 'deny'\n"
    text += tail.format(i="tail") + "\n"
    parsed = tomllib.loads(text)
    tables = parsed.get("tools", {}).get("permissions", {}).get("bash", [])
    assert [t["pattern"] for t in tables] == [f"p{i}" for i in range(len(blocks))]
    assert array_table_lines(text, KEY, len(tables)) == tuple(expected)
