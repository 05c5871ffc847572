"""Suite-wide isolation: no test reads or writes the real user's config, data or audit log.

Hypothesis runs without its per-example deadline: no property here is about time (speed is
measured in ``bench/``), and on a loaded 2-core CI machine one slow example of a property
would fail it as flaky.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("tooldeck", deadline=None)
settings.load_profile("tooldeck")


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    for name in list(os.environ):
        if name.startswith("TOOLDECK_"):
            monkeypatch.delenv(name)


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test with the current directory set to an empty temporary directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
