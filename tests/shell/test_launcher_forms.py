"""Launchers judged by what they run, in every option form their manuals document (issue 12).

Each command below puts ``reboot`` (power: denied) behind a wrapper, tracer, sandbox, scheduler
or environment runner, spelled with the options the tool's manual documents: ``--``,
``-u user``, combined short flags (``-fw``, ``-Hu``), glued values (``-c3``, ``-oL``),
``--opt=value``, required operands (``timeout 5``, ``chroot /``, ``flock FILE``). The tools are
GTFOBins' ``shell``/``command`` binaries (:mod:`tooldeck.shell_analysis.gtfobins_table`, the
examples themselves are replayed by ``test_gtfobins_catalogue.py``), the tracers and launchers
of ``launchers.py``, and the environment runners that run a given command (``poetry run``,
``conda run``, ``op run --``, ``aws-vault exec``, ``direnv exec``, ``mise exec``, ``nix
develop -c``, ``nix-shell --run``, ``tini``, ``prlimit``, task spoolers; their documentation).
The same runners around everyday work, and their subcommands that run nothing, stay allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

LAUNCHED = (
    'chroot / reboot', 'chroot --userspec=1:1 / reboot', 'timeout 5 reboot',
    'timeout -s KILL 5 reboot', 'timeout -k 1 5 reboot', 'timeout --signal=KILL 5 reboot',
    'timeout -v --preserve-status 5s reboot', 'nice -n 10 reboot', 'nice -10 reboot',
    'nice --adjustment=5 reboot', 'ionice -c 3 reboot', 'ionice -c3 -n7 reboot',
    'chrt -f 1 reboot', 'chrt --fifo 1 reboot', 'chrt -r -p 1 reboot', 'taskset -c 0,1 reboot',
    'taskset 0x1 reboot', 'stdbuf -o L reboot', 'stdbuf -oL -eL reboot', 'env -u HOME reboot',
    'env -i PATH=/bin reboot', 'env -C /tmp reboot', "env -S 'reboot'",
    "env --split-string='reboot now'", "env -iS 'reboot'", 'nohup -- reboot', 'setsid -w reboot',
    'setsid -fw reboot', 'flock -w 5 /tmp/l reboot', 'flock -xn /tmp/l reboot',
    'flock /tmp/l -c reboot', 'unshare -rm reboot', 'unshare --user --map-root-user reboot',
    'sudo -u bob reboot', 'sudo -Hu bob reboot', 'sudo -E -- reboot', 'sudo -g wheel -u bob -- id',
    'doas -u bob reboot', 'runuser -u bob -- reboot', 'su -l bob -c reboot',
    'strace -f -o /dev/null reboot', 'strace -fo x reboot', 'strace -e trace=none -- reboot',
    'ltrace -f reboot', 'gdb -q --args reboot', 'gdb -batch -ex run --args reboot',
    'valgrind --tool=none reboot', 'valgrind -q reboot', 'xargs -0 -I{} reboot',
    'xargs -n1 -P4 reboot', 'xargs -a list.txt reboot', 'xargs --arg-file=list.txt -r reboot',
    'watch -n 1 reboot', 'watch -n1 -d reboot', 'script -qc reboot /dev/null',
    'script -q -c reboot /dev/null', 'script --command reboot /dev/null', 'time -p reboot',
    'time -f %e reboot', 'exec -a x reboot', 'command -p reboot',
    'nsenter -t 1 -m -u -i -n -p reboot', 'nsenter --target 1 --all reboot',
    'systemd-run --user --scope reboot', 'systemd-run -p CPUQuota=10% reboot',
    'setarch x86_64 -R reboot', 'setarch $(uname -m) reboot', 'prlimit --nofile=1024 reboot',
    'cpulimit -l 50 -- reboot', "faketime '2020-01-01' reboot", 'proot -0 reboot',
    'bwrap --bind / / reboot', 'firejail --noprofile reboot', 'parallel ::: reboot',
    'parallel -j1 reboot ::: a', 'busybox sh -c reboot', 'pkexec --user root reboot',
    'numactl --cpunodebind=0 reboot', 'numactl -N 0 -m 0 reboot', 'sg wheel -c reboot',
    'ls | entr reboot', 'ls | entr -r reboot', 'watchexec -- reboot', 'watchexec -e py reboot',
    'nodemon --exec reboot', 'sshpass -p x reboot', 'torsocks reboot', 'proxychains4 -q reboot',
    'xvfb-run -a reboot', 'dbus-run-session -- reboot', 'chpst -u bob reboot',
    'softlimit -m 100 reboot', 'aa-exec -p unconfined reboot', 'aa-exec -p unconfined -- reboot',
    'hyperfine reboot', 'hyperfine --runs 1 reboot', "hyperfine -r 1 'reboot'", 'rlwrap -a reboot',
    'logsave /dev/null reboot', 'choom -n 0 -- reboot',
    'start-stop-daemon --start --exec /sbin/reboot', 'start-stop-daemon -S -x /sbin/reboot',
    'ssh-agent reboot', 'tmux new -d reboot', "tmux new-session -d 'reboot'",
    'screen -dmS x reboot', 'dtach -n /tmp/s reboot', 'cgexec -g cpu:x reboot',
    'systemd-inhibit --what=idle reboot', 'perf stat reboot', 'perf record -g -- reboot',
    'perf trace reboot', 'ltrace -c -- reboot', 'memusage reboot', 'heaptrack reboot',
    'catchsegv reboot', 'multitime -n 3 reboot', 'pexec -e x -c reboot', 'linux64 reboot',
    'i386 -R reboot', 'xdotool exec reboot', 'dbus-launch reboot',
    'uv run reboot', 'uvx --from x reboot', 'npx -c reboot', 'npm exec -- reboot',
    'pnpm exec reboot', 'pnpm dlx x reboot', 'yarn exec reboot', 'poetry run reboot',
    'pipenv run reboot', 'hatch run reboot', 'pdm run reboot', 'conda run -n base reboot',
    'mamba run -n base reboot', 'direnv exec . reboot', 'bundle exec reboot', 'dotenv -- reboot',
    'dotenvx run -- reboot', 'op run -- reboot', 'doppler run -- reboot',
    'aws-vault exec prod -- reboot', 'with-contenv reboot', 'tini -- reboot', 'dumb-init reboot',
    'gosu root reboot', 'su-exec root reboot', 'setpriv --reuid=0 reboot',
    'setpriv --no-new-privs reboot', 'capsh -- -c reboot', 'capsh --caps=x -- -c reboot',
    'runcon -t x reboot', 'flatpak-spawn --host reboot', 'distrobox-host-exec reboot',
    'toolbox run reboot', 'nix-shell -p x --run reboot', 'nix develop -c reboot',
    'devbox run reboot', 'mise exec -- reboot', 'mise x -- reboot', 'asdf exec reboot',
    'rtx exec -- reboot', 'envdir ./env reboot', 'envconsul reboot', 'chamber exec app -- reboot',
    'daemonize /sbin/reboot', 'daemon -- reboot', 'ts reboot', 'sem reboot', 'nq reboot',
    'pueue add reboot', 'tsp reboot',
)

EVERYDAY = (
    'poetry run pytest -x', 'poetry run python -m pytest tests', 'poetry install --with dev',
    'pipenv install requests', 'pipenv run python manage.py migrate', 'pdm run lint',
    'pdm -p . run pytest', 'hatch run test', 'hatch -e test run pytest',
    'conda run -n env python script.py', 'conda install -n env numpy', 'mamba install -y numpy',
    'pixi run test', 'pixi install', 'op run --env-file app.env -- npm start', 'op item list',
    'doppler run -- npm start', 'direnv exec . make test', 'mise exec -- node -v',
    'mise use node@20', 'asdf install nodejs 20.1.0', 'asdf exec npm ci', 'devbox run test',
    'devbox add python', 'nix develop -c make', 'nix build .#default', 'nix flake update',
    'nix-shell -p hello --run hello', "nix-shell --run 'make test'",
    'dotenv -e .env.example -- node index.js', 'dotenvx run -- node index.js',
    'tini -- python app.py', 'dumb-init -- python app.py', 'pnpm install', 'pnpm run build',
    'pnpm exec tsc --noEmit', 'pnpm dlx create-vite my-app', 'bunx prettier --check .',
    'bun x tsc', 'bun install', 'uvx ruff check .', 'pipx run black .',
    'aws-vault exec dev -- terraform plan', 'prlimit --nofile=4096 make', 'ts make',
    'pueue add -- make test', 'pueue status',
)


@pytest.fixture(scope="module")
def judged(default_verdicts: Callable[[Sequence[str]], dict[str, str]]) -> dict[str, str]:
    """Every command's verdict under the embedded default."""
    return default_verdicts([*LAUNCHED, *EVERYDAY])


def test_every_launched_reboot_is_denied(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in LAUNCHED if judged[c] != "deny"}
    assert wrong == {}


def test_everyday_work_through_the_same_runners_is_allowed(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in EVERYDAY if judged[c] != "allow"}
    assert wrong == {}
