"""A name ``echo`` or ``printf`` only prints is data, not a path the command opens.

Found replaying a freeform agent session (bench/sessions.py ``click``): ``echo $SHELL $HOME |
wc -w`` was denied by the sandbox-path rule, as if printing the home directory's name wrote
there. Issue 12, item 4 ("data is not code"): the arguments of a command that only prints
them are data. A name fed to a reader (``echo /etc/x | xargs cat``), written or redirected
to, and a secret's name keep their judgement.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

Judge = Callable[[Sequence[str]], dict[str, str]]

PRINTED = [
    "echo $HOME",
    'echo "$HOME"',
    "echo ~",
    "echo ~/projects",
    "printf '%s\\n' \"$HOME\"",
    "echo $SHELL $HOME | wc -w",
    "echo $HOME/.cache/pip",
    "echo /usr/local/bin && ls",
    "echo \"venv: $HOME/.venvs/x\" | grep venv",
]

STILL_DENIED = [
    "echo ~/.ssh/id_rsa",  # a secret's name keeps the secret rules' judgement
    "echo /etc/shadow | xargs cat",  # the name feeds a reader
    "echo ~/.bashrc | xargs rm",
    "echo hi > ~/.bashrc",  # a redirect target is written
    "echo ~/.bashrc > ~/.bashrc",
    "echo /root | tee /etc/motd",
]


@pytest.mark.parametrize("command", PRINTED)
def test_a_printed_name_outside_the_project_is_allowed(default_verdicts: Judge,
                                                       command: str) -> None:
    assert default_verdicts([command])[command] == "allow"


@pytest.mark.parametrize("command", STILL_DENIED)
def test_names_fed_to_readers_written_or_secret_stay_denied(default_verdicts: Judge,
                                                           command: str) -> None:
    assert default_verdicts([command])[command] == "deny"
