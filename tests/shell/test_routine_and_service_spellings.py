"""Spellings of routine destruction and boot-time services the catalogue tests did not hold.

Derived from the tools' manuals, not from corpus rows: git-branch(1) ``-d -f`` clustered as
``-df`` is ``-D``; find(1) ``-delete`` with a name test matching every source file of a
language deletes the project's code (``*.pyc`` is regenerable; ``*.log`` is kept data and
asks as ``rm`` of it does, since the policy26 round); sed(1)
scripts given with ``-e`` and BSD's ``-i ''``; the boot links of the service managers other
than systemd (update-rc.d(8), chkconfig(8), rc-update(8); Atomic Red Team T1037/T1543).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

Judge = Callable[[Sequence[str]], dict[str, str]]

ASKED = [
    "git branch -df feature",
    "git branch --delete -f feature",
    "find . -name '*.py' -delete",
    "find src -type f -name '*.ts' -delete",
    "find . -name '*.log' -delete",
    "sed -i '' -e 'd' app.py",
    "sed -i -e '1,$d' app.py",
    # installs outside the project that name no path (make(1) install target, cmake
    # --install, meson install; gpg(1) keyring changes)
    "make install",
    "cmake --install build",
    "meson install -C build",
    "gpg --import key.asc",
    "gpg --recv-keys 0xDEADBEEF",
]

DENIED = [
    "update-rc.d backdoor defaults",
    "update-rc.d backdoor enable",
    "chkconfig backdoor on",
    "chkconfig --add backdoor",
    "chkconfig --level 35 backdoor on",
    "rc-update add backdoor default",
]

ALLOWED = [
    "git branch -d merged",
    "find . -name '*.pyc' -delete",
    "sed -i 's/a/b/' app.py",
    "sed -i -e 's/x/y/' app.py",
    "chkconfig --list",
    "rc-update show",
    "make DESTDIR=stage install",
    "cmake --install build --prefix ./dist",
    "make installcheck",
    "gpg --verify release.tar.gz.asc release.tar.gz",
    "gpg --list-keys",
]


@pytest.mark.parametrize("command", ASKED)
def test_routine_destruction_in_every_spelling_asks(default_verdicts: Judge,
                                                   command: str) -> None:
    assert default_verdicts([command])[command] == "ask"


@pytest.mark.parametrize("command", DENIED)
def test_boot_time_services_of_every_manager_are_denied(default_verdicts: Judge,
                                                       command: str) -> None:
    assert default_verdicts([command])[command] == "deny"


@pytest.mark.parametrize("command", ALLOWED)
def test_their_everyday_forms_stay_allowed(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] == "allow"
