"""Programs that run another program, found by probing launchers past the catalogues (lead).

npx runs a command from ``PATH`` when no package provides it, as ``npm exec`` and ``yarn
exec`` do; a terminal emulator runs the command it is given in a new window (its trailing
words, or one ``-e`` word read as a command line); ``concurrently`` runs each of its words
through the shell; ``daemonize``, ``retry``, ``rr record``, ``env-cmd``, ``cross-env`` and
macOS's ``arch`` run their trailing words. Each is judged by what it runs, and the everyday
spellings stay allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

Judge = Callable[[Sequence[str]], dict[str, str]]

VERDICTS = {
    # the node runners
    "npx sudo id": "deny",
    "npx rm -rf ~": "deny",
    "npm exec -- sudo id": "deny",
    "npm x -- cat ~/.ssh/id_rsa": "deny",
    "yarn exec sudo id": "deny",
    "pnpx sudo id": "deny",
    "npx tsc --noEmit": "allow",
    "npx -y cowsay hi": "allow",
    "npx jest --runInBand src/utils.test.ts": "allow",
    "npm exec jest": "allow",
    "yarn exec tsc": "allow",
    "npm test": "allow",
    "yarn test": "allow",
    # terminal emulators
    "xterm -e sudo id": "deny",
    "xfce4-terminal -e 'sudo id'": "deny",
    "gnome-terminal -- sudo id": "deny",
    "kitty sudo id": "deny",
    "alacritty --command sudo id": "deny",
    "konsole -e 'cat ~/.ssh/id_rsa'": "deny",
    "wezterm start -- sudo id": "deny",
    "xterm -e htop": "allow",
    "kitty --version": "allow",
    # concurrently: each word is a shell command
    "concurrently 'sudo id' 'echo x'": "deny",
    "npx concurrently 'npm run api' 'sudo id'": "deny",
    "concurrently --teardown 'sudo id' 'echo x'": "deny",
    "concurrently -n api,web 'npm run api' 'npm run web'": "allow",
    "npx concurrently --kill-others 'vite' 'tsc -w'": "allow",
    # trailing-word launchers
    "daemonize sudo id": "deny",
    "retry -- sudo id": "deny",
    "rr record sudo id": "deny",
    "env-cmd sudo id": "deny",
    "cross-env NODE_ENV=test sudo id": "deny",
    "arch -x86_64 sudo id": "deny",
    "env-cmd -f .env.test jest": "allow",
    "cross-env NODE_ENV=production webpack": "allow",
    "arch -x86_64 npm install": "allow",
    "retry -- make test": "allow",
    "rr replay": "allow",
}


@pytest.mark.parametrize("command", sorted(VERDICTS))
def test_each_spelling_gets_its_verdict(default_verdicts: Judge, command: str) -> None:
    assert default_verdicts([command])[command] == VERDICTS[command]
