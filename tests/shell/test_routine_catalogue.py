"""Routine destructive commands ask, from the issue's list and each tool's manual (issue 12).

Issue 12's item 4 (git history and work-tree discards, recursive permission changes, broad
kills, emptied files, ``dd of=``, ``crontab -r``, in-project wipes, history rewrites), spelled
the ways the tools' manuals allow: ``git switch --discard-changes`` next to ``git checkout
-f``, ``git gc --prune=now`` next to ``git reflog expire``, ``find . -delete`` and ``rsync
--delete`` into the project next to ``rm -rf ./*``, ``cat /dev/null > f`` next to ``: > f``,
forced image removal next to ``docker system prune``, and the documented database resets of
Django (``manage.py flush``), Rails (``db:drop``/``db:reset``), Prisma (``migrate reset``),
Alembic (``downgrade base``) and MongoDB (``dropDatabase()``) next to ``dropdb``.
Each must ask (or deny); the everyday forms of the same tools stay allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

ASKED = (
    "git reset --hard HEAD~3", "git clean -xdf", "git push origin +main", "git checkout -f",
    "git switch -f main", "git switch --discard-changes main", "git tag -d v1.0",
    "git gc --prune=now --aggressive", "git submodule deinit -f --all", "git stash clear",
    "kill -9 -1", "kill -9 0", "kill 0", "pkill -f .", "chmod -R 777 .", "chown -R nobody .",
    "truncate -s 0 app.db", ": > db.sqlite3", "true > src/app.py", "cat /dev/null > data.json",
    "echo -n > notes.md",
    "dd if=/dev/zero of=data.bin bs=1M count=10", "crontab -r", "rm -rf .git", "rm -rf ./*",
    "find . -delete", "find . -type f -delete", "find . -mindepth 1 -delete",
    "rsync -a --delete empty/ ./", "mv src /dev/null", "sed -i 'd' src/app.py",
    "sed -i '1,$d' main.py", "docker rmi -f $(docker images -q)", "docker image rm -f web",
    "docker image prune -a", "python manage.py flush --noinput", "python3 manage.py reset_db",
    "rails db:drop", "bin/rails db:reset", "rake db:schema:load", "npx prisma migrate reset",
    "prisma db push --force-reset", "alembic downgrade base",
    "mongosh app --eval 'db.dropDatabase()'", "dropdb app", "terraform destroy -auto-approve",
)

EVERYDAY = (
    "git switch main", "git switch -c feature", "git tag -a v1 -m release", "git gc",
    "git submodule update --init", "kill -TERM 1234", "kill -0 1234", "echo hi > out.txt",
    "cat a.txt > b.txt", "find . -name '*.pyc' -delete", "find . -type d -empty -delete",
    "find build -delete", "rsync -a --delete src/ dist/", "mv build/app.whl dist/",
    "sed -i 's/a/b/' x.txt", "sed -i 1d header.csv", "docker rmi web:old", "docker image prune -f",
    "python manage.py migrate", "python manage.py test", "rails db:migrate", "rake test",
    "npx prisma generate", "prisma migrate dev", "alembic upgrade head",
    "mongosh app --eval 'db.users.find()'",
    # a redirection to a device sink empties nothing, whichever segment carries it (found
    # replaying the minimist session: the true of '… 2>/dev/null || true' read as bare)
    "ls 2>/dev/null || true", "npx tape --version 2>/dev/null || true",
    "git rev-parse HEAD > /dev/null; true", "make -s >/dev/stderr || :",
)


@pytest.fixture(scope="module")
def judged(default_verdicts: Callable[[Sequence[str]], dict[str, str]]) -> dict[str, str]:
    """Every command's verdict under the embedded default."""
    return default_verdicts([*ASKED, *EVERYDAY])


def test_every_routine_destruction_asks(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in ASKED if judged[c] not in ("ask", "deny")}
    assert wrong == {}


def test_everyday_forms_of_the_same_tools_are_allowed(judged: dict[str, str]) -> None:
    wrong = {c: judged[c] for c in EVERYDAY if judged[c] != "allow"}
    assert wrong == {}
