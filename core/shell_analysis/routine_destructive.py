"""Destructive but routine commands: they ask for a human yes, they are not denied.

| command                                   | asks when                                          |
| ----------------------------------------- | -------------------------------------------------- |
| ``git reset``                             | ``--hard`` or ``--merge``/``--keep`` (drops work)   |
| ``git clean``                             | any run that is not a dry run (``-n``)            |
| ``git push``                              | ``-f``/``--force*``/``--mirror``/``--delete``/``-d``,|
|                                           | a ``+ref`` or ``:ref`` refspec                      |
| ``git checkout``                          | ``--`` followed by paths, or ``.``, ``-f``          |
| ``git restore``                           | any path without ``--staged`` alone (worktree)      |
| ``git stash``                             | ``drop`` or ``clear``                              |
| ``git branch``                            | ``-D`` / ``--delete --force`` / ``-df``             |
| ``git rebase``                            | ``-i``/``--interactive`` (history rewrite)         |
| ``git filter-branch|filter-repo``, ``git  | always (history rewrite)                           |
| reflog expire``, ``git update-ref -d``,   |                                                    |
| ``bfg`` (BFG Repo-Cleaner)                |                                                    |
| ``git switch``                            | ``-f``/``--force``/``--discard-changes``           |
| ``git tag``                               | ``-d``/``--delete``                                |
| ``git gc``                                | ``--prune=now``/``--prune=all`` (drops unreachable |
|                                           | commits the reflog still offered)                  |
| ``git submodule deinit``                  | ``-f``/``--force`` (discards the submodules' work) |
| ``git reflog delete``, ``git prune``,     | always (``prune`` but ``-n``): commits or refs     |
| ``git symbolic-ref|replace -d``, ``git    | dropped for good, a work tree's changes dropped,   |
| worktree remove -f``, ``git update-ref    | a branch or a tag moved                            |
| refs/heads/X REV``, ``git tag -f``        |                                                    |
| migrations undone                         | ``manage.py migrate APP zero``, ``rails            |
|                                           | db:rollback``, ``alembic downgrade``, ``flask db    |
|                                           | downgrade``, ``mix ecto.drop|reset|rollback``,      |
|                                           | ``artisan migrate:fresh|reset|rollback|db:wipe``,  |
|                                           | ``knex migrate:rollback``, ``sequelize              |
|                                           | db:migrate:undo``; ``terraform taint``              |
| any of these fed by ``xargs``             | its input is a list found at run time (``… | xargs |
|                                           | kill -9``)                                         |
| ``git checkout``                          | a file operand (``git checkout src/app.py``: a     |
|                                           | name with a ``.ext``, or ``*``)                    |
| ``chmod``, ``chown``, ``chgrp``           | ``-R`` (chmod: with a mode granting others write,  |
|                                           | in any clause: ``g+w,o+w``, ``a=rwx``, ``0757``)   |
| ``kill``                                  | the ``-1`` pid (every process of the user) or ``0``|
|                                           | (the caller's own process group)                   |
| ``pkill``/``killall``                     | ``-u``, ``-v``, a catch-all pattern (``.``, ``.*``), |
|                                           | or ``SIGKILL`` by name (``-9``, ``-KILL``, ``-s 9``)|
| ``killall``                               | always but ``-l``/``-V``: every process of a name  |
| ``pkill``                                 | a runtime's name (``python3``, ``node``, ``java``: |
|                                           | every program it runs, the agent's host too)       |
| ``truncate``                              | always (``-s 0`` empties a file)                   |
| ``shred``, ``wipe``, ``srm``              | always (overwrites a file beyond recovery)         |
| ``wipefs``                                | ``-a``/``-o`` (erases a filesystem's signatures)   |
| ``chattr``, ``setfacl``                   | ``-R`` (a whole tree's attributes or ACLs)         |
| ``atrm``, ``at -r|-d``                    | always (removes queued jobs, as ``crontab -r``)    |
| ``docker|podman stop|kill|rm|pause``      | of a list found at run time (``$(docker ps -q)``)  |
| ``unlink``                                | always (deletes its file, as ``rm`` does)          |
| ``fuser``                                 | ``-k`` (kills every process using a file or port)  |
| ``docker``/``podman`` (``compose``)       | ``down -v``/``--volumes``/``--rmi``, ``volume rm`` |
|                                           | or ``prune``, ``system prune`` (data, images),     |
|                                           | ``rmi``/``image rm`` forced or of found ids,       |
|                                           | ``image prune -a``                                 |
| ``find``                                  | ``-delete`` (or ``-exec rm/unlink/shred``) with no |
|                                           | name, path or time test (every file under its      |
|                                           | start, as ``rm -r``), or a name                    |
|                                           | test matching a language's sources (``*.py``) or   |
|                                           | secret files (``.env``, ``*.pem``: not artefacts);  |
|                                           | a name test picking the data the artefacts left    |
|                                           | out on purpose (``*.log``, ``*.sqlite3``, ``*.db``,|
|                                           | ``*.bak``: ``rm`` of them asks too)                |
|                                           | ``-exec chmod/chown/chgrp`` as their ``-R`` form   |
| ``rsync``                                 | ``--delete*`` into ``.``/``./`` (the project)       |
| ``sed -i``                                | a script that only deletes lines (``d``, ``1,$d``;  |
|                                           | ``-e`` scripts, BSD's ``-i ''``)                    |
| database resets                           | ``manage.py flush|reset_db``, ``rails|rake           |
|                                           | db:drop|db:reset|db:schema:load``, ``prisma migrate |
|                                           | reset``, ``prisma db push --force-reset``,          |
|                                           | ``alembic downgrade base``, ``mongo|mongosh --eval``|
|                                           | of ``dropDatabase``                                 |
| ``> file``                                | a redirection with no command (``: > f``, ``> f``)  |
| ``dd``                                    | an ``of=`` target                                  |
| ``crontab``                               | ``-r`` (removes every job)                         |
| ``rm -r``                                 | of ``.git``, ``.``, ``*``, ``./*`` (a project wipe) |
| ``cp``/``mv`` ``/dev/null``               | a file emptied by copying ``/dev/null`` over it, or |
|                                           | moved onto ``/dev/null`` (gone)                     |
| ``kill``                                  | ``-9`` of pids found at run time (``$(pgrep …)``)   |
| ``chmod -R``                              | a mode taking the owner's access away (``000``)     |
| ``kubectl``/``oc delete``, ``helm          | always: remote resources other people use           |
| uninstall``, ``terraform destroy``,       |                                                    |
| ``pulumi destroy``, ``gh repo|release     |                                                    |
| delete``, ``dropdb``, ``redis-cli         |                                                    |
| flushall``, ``aws s3 rm --recursive``,    |                                                    |
| ``aws|gcloud|az … delete*`` (``hcloud``,  |                                                    |
| ``linode-cli``, ``scw``, ``oci``, ``glab``|                                                    |
| … too), an HTTP ``DELETE`` (``curl -X``,  |                                                    |
| ``wget --method``, ``http DELETE``),      |                                                    |
| ``conda env remove``                      |                                                    |
| the platforms' and registries' own        | apps and clusters destroyed (``heroku apps:destroy``,|
| deletes, takedowns and SQL wipes          | ``fly apps destroy``, ``kind``/``minikube``/``k3d`` |
|                                           | delete), versions withdrawn (``npm unpublish``,     |
|                                           | ``cargo``/``gem yank``), ``kubectl drain``/``scale  |
|                                           | --replicas=0``, ``gh api -X DELETE``, ``hg strip``/ |
|                                           | ``purge``, ``svn revert``, ``dvc gc``, ``DROP``/    |
|                                           | ``TRUNCATE``/unfiltered ``DELETE FROM`` in          |
|                                           | ``psql``/``mysql``/``sqlite3``                      |

Other ``rm`` runs are left to the ``rm`` confirm pattern (and the floor's protected roots),
which removals of regenerable artefacts inside the project do not meet
(:mod:`.artefact_removal`). ``find -delete`` from an artefact start (``find build -delete``)
needs no test: the names are :mod:`.artefacts`' one list, shared with ``rm``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tooldeck.shell_analysis.artefacts import is_kept_data, is_regenerable
from tooldeck.shell_analysis.cloud_clis import operands as cloud_operands
from tooldeck.shell_analysis.findings import ASK, Finding
from tooldeck.shell_analysis.git_options import without_git_options
from tooldeck.shell_analysis.model import Segment, command_name
from tooldeck.shell_analysis.outside_reads import is_secret_path

__all__ = ["ROUTINE_HEADS", "routine_finding"]

ROUTINE_HEADS: frozenset[str] = frozenset({
    "git", "rm", "kill", "pkill", "killall", "chmod", "chown", "chgrp", "truncate", "dd", "crontab",
    "shred", "wipe", "srm", "docker", "podman", "docker-compose", "podman-compose", "cp", "mv",
    "kubectl", "oc", "helm", "terraform", "tofu", "pulumi", "gh", "dropdb", "dropuser",
    "redis-cli", "mysqladmin", "aws", "gcloud", "az", "doctl", "find", "rsync", "sed",
    "python", "python3", "rails", "rake", "prisma", "alembic", "mongo", "mongosh", "npx", "bunx",
    "heroku", "fly", "flyctl", "vercel", "netlify", "kind", "minikube", "k3d", "supabase",
    "firebase", "npm", "cargo", "gem", "hg", "svn", "dvc", "eksctl", "psql", "mysql",
    "mariadb", "sqlite3", "unlink", "fuser", "hcloud", "gsutil", "wrangler", "linode-cli",
    "scw", "vultr-cli", "oci",
    "ibmcloud", "exo", "upcloud", "glab", "tea", "wget2", "http", "https", "xh", "xhs",
    "conda", "mamba", "curl", "wget", "wipefs", "chattr", "setfacl", "atrm", "at", "vagrant",
    "flask", "mix", "php", "artisan", "knex", "sequelize", "sequelize-cli", "dotnet",
    "rimraf", "del-cli", "premove", "pnpx", "tee", "bfg",
})
"""Command names :func:`routine_finding` looks at."""

_FILE_OPERAND = re.compile(r"(?:^|/)[^/]*\.[A-Za-z][A-Za-z0-9]{0,5}$|\*")
_KILL_SIGNALS = frozenset({"-9", "-kill", "-sigkill", "--signal=9", "--signal=kill",
                           "--signal=sigkill"})
_CATCH_ALL = frozenset({".", ".*", "", "*", "^", "$"})
_FOUND = "\0found at run time"
"""Stands for an argument a command substitution produces (``kill -9 $(pgrep …)``)."""


def _options(args: Sequence[str]) -> set[str]:
    return {a for a in args if a.startswith("-")}


def _short_letters(args: Sequence[str]) -> str:
    return "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))


_GIT_LONG_OPTIONS = ("--hard", "--merge", "--keep", "--force", "--force-with-lease",
                     "--force-if-includes", "--mirror", "--delete", "--prune",
                     "--discard-changes", "--interactive", "--dry-run")
"""Long options the rules below read, in the order an abbreviation is resolved."""


def _unabbreviated(arg: str) -> str:
    """A long option git takes abbreviated, spelled out (``--har`` is ``--hard``, parse-options)."""
    if not arg.startswith("--") or len(arg) < 4 or "=" in arg or arg in _GIT_LONG_OPTIONS:
        return arg
    return next((o for o in _GIT_LONG_OPTIONS if o.startswith(arg)), arg)


def _git(args: Sequence[str]) -> str | None:
    words = without_git_options(args)
    if not words:
        return None
    sub, rest = words[0], [_unabbreviated(a) for a in words[1:]]
    options = _options(rest)
    letters = _short_letters(rest)
    operands = [a for a in rest if not a.startswith("-")]
    if sub == "reset" and options & {"--hard", "--merge", "--keep"}:
        return "git reset --hard discards uncommitted work"
    if sub == "clean" and "n" not in letters and "--dry-run" not in options:
        return "git clean deletes untracked files"
    if sub == "push" and (
        "f" in letters or "d" in letters
        or any(o.startswith(("--force", "--mirror", "--delete", "--prune")) for o in options)
        or any(o.startswith(("+", ":")) for o in operands)
    ):
        return "git push rewrites or deletes remote history"
    if sub == "checkout" and ("--" in rest or "." in operands or "f" in letters
                              or "--force" in options
                              or any(_FILE_OPERAND.search(o) for o in operands)):
        return "git checkout over paths discards uncommitted changes"
    restore = options - {"--"}  # git restore --staged -- a.py: the separator is no option
    if sub == "restore" and operands and not (restore <= {"--staged", "-S"} and restore):
        return "git restore discards uncommitted changes"
    if sub == "stash" and operands[:1] in (["drop"], ["clear"]):
        return f"git stash {operands[0]} deletes stashed work"
    deletes = "d" in letters or "--delete" in options
    if sub == "branch" and ("D" in letters or (deletes and (
            "f" in letters or "--force" in options))):
        return "git branch -D deletes an unmerged branch"
    if sub == "rebase" and ("i" in letters or "--interactive" in options):
        return "git rebase -i rewrites history (and opens an editor)"
    if sub == "switch" and ("f" in letters or options & {"--force", "--discard-changes"}):
        return "git switch --discard-changes drops uncommitted changes"
    if sub == "tag" and ("d" in letters or "--delete" in options):
        return "git tag -d deletes a tag"
    if sub == "gc" and options & {"--prune=now", "--prune=all"}:
        return "git gc --prune=now drops unreachable commits for good"
    if sub == "submodule" and operands[:1] == ["deinit"] and (
            "f" in letters or "--force" in options):
        return "git submodule deinit -f discards the submodules' work trees"
    moved = _moved_branch(sub, rest, letters, options, operands)
    if moved is not None:
        return moved
    if sub == "read-tree" and "--reset" in options and ("u" in letters or "-u" in rest):
        return "git read-tree -u --reset overwrites the work tree"
    if sub == "checkout-index" and ("f" in letters or "--force" in options):
        return "git checkout-index -f overwrites the work tree's files"
    if sub in ("filter-branch", "filter-repo") or (
            sub == "reflog" and operands[:1] in (["expire"], ["delete"])) or (
            sub == "update-ref" and "d" in letters):
        return f"git {sub} rewrites history"
    return _git_drops(sub, letters, options, operands)


def _git_drops(sub: str, letters: str, options: set[str], operands: list[str]) -> str | None:
    """git(1)'s other ways to lose commits or refs for good.

    ``git prune`` (unreachable objects, without ``-n``), ``git symbolic-ref -d`` and ``git
    replace -d`` (refs), ``git worktree remove --force``, ``git update-ref refs/heads/X REV``
    and ``git tag -f`` (a ref moved). ``git branch -M main`` stays allowed: it is how a new
    repository's branch is renamed (GitHub's own instructions), not how work is dropped.
    """
    if sub == "prune" and "n" not in letters and "--dry-run" not in options:
        return "git prune deletes unreachable objects for good"
    if sub == "worktree" and operands[:1] == ["remove"] and (
            "f" in letters or "--force" in options):
        return "git worktree remove --force deletes a work tree's uncommitted changes"
    if sub == "update-ref" and len(operands) >= 2 and operands[0].startswith("refs/heads/"):
        return "git update-ref moves a branch, leaving its commits behind"
    if sub == "tag" and ("f" in letters or "--force" in options):
        return "git tag -f moves an existing tag"
    if sub in ("symbolic-ref", "replace") and ("d" in letters or "--delete" in options):
        return f"git {sub} -d deletes a ref"
    return None


def _moved_branch(sub: str, rest: Sequence[str], letters: str, options: set[str],
                  operands: Sequence[str]) -> str | None:
    """``git branch -f main HEAD~3``, ``git checkout -B main origin/main``, ``git switch -C``.

    Each moves an existing branch to another commit: its own commits are left behind.
    Without a start point (``git checkout -B topic``) the branch is made at ``HEAD``.
    """
    if sub == "branch" and ("f" in letters or "--force" in options) and len(operands) >= 2:
        return "git branch -f moves a branch, leaving its commits behind"
    resets = (sub == "checkout" and "-B" in rest) or (sub == "switch" and (
        "-C" in rest or "--force-create" in options))
    if resets and len(operands) >= 2:
        return f"git {sub} {'-B' if sub == 'checkout' else '-C'} resets a branch to another commit"
    return None


_WIPES = frozenset({".", "./", "*", "./*", ".*", ".git", ".git/", "./.git", "*/", "./*/"})


def _rm(args: Sequence[str]) -> str | None:
    letters = _short_letters(args)
    recursive = "r" in letters or "R" in letters or "--recursive" in args
    operands = [a for a in args if not a.startswith("-")]
    if recursive and any(o in _WIPES for o in operands):
        return "rm -r wipes the project or its history"
    return None


_RUNTIME_NAME = re.compile(
    r"(?:python|pypy|node|nodejs|java|ruby|perl|php|bash|sh|zsh|dash|fish|deno|bun|dotnet|"
    r"go|erl|beam\.smp|lua|Rscript|R|julia|ssh|sshd|systemd|dockerd|containerd|code)"
    r"[\d.]*")
"""Interpreters and runtimes: ``pkill python3`` stops every Python program of the user."""


def _kill(head: str, args: Sequence[str]) -> str | None:
    if head == "kill":
        if ("-1" in args and args[-1] == "-1") or ("--" in args and "-1" in args):
            return "kill -1 signals every process"
        if args and args[-1] == "0":
            return "kill 0 signals the caller's whole process group"
        lowered = [a.lower() for a in args]
        sigkill = _KILL_SIGNALS.intersection(lowered) or any(
            a == "-s" and b in ("9", "kill", "sigkill") for a, b in itertools.pairwise(lowered))
        return "kill -9 of processes found at run time" if sigkill and _FOUND in args else None
    options = _options(args)
    patterns = [a for a in args if not a.startswith("-")]
    if head == "killall" and patterns:
        return "killall signals every process of that name"
    if head == "pkill" and any(_RUNTIME_NAME.fullmatch(p.strip("^$")) for p in patterns):
        return "pkill of a runtime's name signals every program it runs"
    if head == "pkill" and options & {"-f", "--full"} and any(
            (".*" in p or ".+" in p) and _RUNTIME_NAME.fullmatch(p.strip("^").split(" ")[0])
            for p in patterns):  # pkill -f 'python .*manage.py': every such program of the user
        return "pkill -f with a wildcard after a runtime's name signals every program it matches"
    if options & {"-u", "-U", "-v", "--user", "--inverse"} or any(
            o.startswith(("-u", "--user=")) for o in options):
        return f"{head} by user matches every process of that user"
    if not patterns or any(p in _CATCH_ALL or len(p) <= 2 for p in patterns):
        return f"{head} with a catch-all pattern"
    lowered = [a.lower() for a in args]
    if _KILL_SIGNALS.intersection(lowered) or any(
            a == "-s" and b in ("9", "kill", "sigkill") for a, b in itertools.pairwise(lowered)):
        return f"{head} sends SIGKILL to every process of that name"
    return None


def _grants_others_write(mode: str) -> bool:
    """Whether a chmod mode (octal, or symbolic clauses joined by commas) lets others write."""
    if mode.isdigit():
        return len(mode) <= 4 and mode[-1] in "2367"
    for clause in mode.split(","):
        who, _, perms = clause.partition("+") if "+" in clause else clause.partition("=")
        if perms and "w" in perms and (not who or "o" in who or "a" in who):
            return True
    return False


def _chmod(head: str, args: Sequence[str]) -> str | None:
    recursive = "R" in _short_letters(args) or "--recursive" in args
    if not recursive:
        return None
    if head in ("chown", "chgrp"):
        return f"{head} -R changes ownership of a whole tree"
    modes = [a for a in args if not a.startswith("-") or a[1:2] in ("r", "w", "x")]
    if any(_grants_others_write(m) for m in modes[:1]):
        return "chmod -R makes a whole tree world-writable"
    if any(_takes_owner_access(m) for m in modes[:1]):
        return "chmod -R takes the owner's access away from a whole tree"
    return None


def _takes_owner_access(mode: str) -> bool:
    """``000``, ``0444``, ``a-rwx``, ``u-w``: the owner can no longer write (or read) it."""
    if mode.isdigit() and 3 <= len(mode) <= 4:
        return int(mode[-3]) < 6
    return any(clause.startswith(("u-", "a-", "-", "ugo-")) and ("w" in clause or "r" in clause)
               for clause in mode.split(","))


_CONTAINER_DATA = frozenset({"-v", "--volumes", "--rmi"})


_COMPOSE_VALUES = frozenset({"-f", "--file", "-p", "--project-name", "--profile",
                             "--env-file", "--project-directory", "--ansi", "--parallel",
                             "-c", "--context", "-H", "--host"})
"""Options of docker, podman and compose that take the next word (``compose -f x.yml down``)."""


def _containers(args: Sequence[str]) -> str | None:
    words = [a for previous, a in zip(["", *args], args, strict=False)
             if not a.startswith("-") and previous not in _COMPOSE_VALUES]
    if words[:1] == ["compose"]:
        words = words[1:]
    verb = words[:1]
    if verb == ["down"] and (_CONTAINER_DATA.intersection(args)
                             or any(a.startswith("--rmi=") for a in args)):
        return "compose down deletes the project's volumes or images"
    if words[:2] in (["volume", "rm"], ["volume", "prune"], ["system", "prune"],
                     ["container", "prune"], ["system", "reset"]):
        return f"{' '.join(words[:2])} deletes container data"
    if verb in (["stop"], ["kill"], ["rm"], ["pause"]) and _FOUND in args:
        return f"{verb[0]} of every container a listing found"
    forced = "-f" in args or "--force" in args or _FOUND in args
    if (verb == ["rmi"] or words[:2] == ["image", "rm"]) and forced:
        return "removing images by force or by a found list"
    if words[:2] in (["image", "prune"], ["builder", "prune"], ["buildx", "prune"]) and (
            "--all" in args or any(a.startswith("-") and not a.startswith("--") and "a" in a
                                   for a in args)):
        return f"{' '.join(words[:2])} -a deletes every unused image or build cache"
    if words[:2] == ["network", "prune"]:
        return "network prune deletes every unused network"
    return None


_FIND_TESTS = ("-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer", "-mtime",
               "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-size", "-empty", "-user",
               "-perm", "-wholename", "-iwholename", "-links", "-inum", "-samefile", "-lname")


_FIND_RUNS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_REMOVERS = frozenset({"rm", "unlink", "shred"})


def _find_runs(args: Sequence[str]) -> tuple[str, list[str]]:
    """The command a ``find -exec`` runs on what it finds, and its arguments (else empty)."""
    for index, arg in enumerate(args):
        if arg in _FIND_RUNS and index + 1 < len(args):
            rest = list(itertools.takewhile(lambda a: a not in (";", "+"), args[index + 2 :]))
            return args[index + 1].rsplit("/", 1)[-1], rest
    return "", []


def _find(args: Sequence[str]) -> str | None:
    """``find . -delete``, ``find . -type f -delete``: every file under the start, no filter.

    ``-exec rm {} +`` deletes as ``-delete`` does; ``-exec chmod 777 {} +`` changes the
    whole tree as ``chmod -R 777`` does.
    """
    runs, run_args = _find_runs(args)
    if runs in ("chmod", "chown", "chgrp"):
        return _chmod(runs, ["-R", *run_args])
    if "-delete" not in args and runs not in _FIND_REMOVERS:
        return None
    starts = [a for a in itertools.takewhile(lambda a: not a.startswith(("-", "(", "!")), args)]
    if not any(a.startswith(_FIND_TESTS) for a in args) and not (starts and all(
            is_regenerable(s.rstrip("/").rsplit("/", 1)[-1]) for s in starts)):
        # every file under each start: the project (find . -delete) or a whole directory
        # (find src -delete, as rm -r src); -type alone selects no subset worth keeping; a
        # build output (find build -delete) is regenerated by the next build
        where = "the project" if any(s in _WIPES for s in starts) or not starts else "a tree"
        return f"find -delete with no test deletes every file of {where}"
    names = [b for a, b in itertools.pairwise(args) if a in ("-name", "-iname")]
    if any(_SOURCE_GLOB.fullmatch(n) for n in names):
        return "find -delete of source files deletes the project's code"
    if any(is_secret_path(f"./{n}") for n in names):
        return "find -delete of secret files deletes what no build regenerates"
    kept = next((n for n in names if is_kept_data(n)), None)
    if kept is not None:
        return f"find -delete of {kept}: data no build regenerates (rm of it asks too)"
    return None


_SOURCE_GLOB = re.compile(
    r"\*\.(?:py|pyi|js|mjs|cjs|ts|tsx|jsx|go|rs|java|kt|scala|c|h|cc|cpp|hpp|cs|swift|rb|"
    r"php|lua|sh|md|rst|toml|ya?ml|json|sql|html|css|vue|svelte|ex|exs|erl|hs|ml|clj|dart)")
"""A name test matching every source file of a language: not a regenerable artefact
(``*.pyc``, ``*.o``, ``*.log`` stay allowed, the corpus README's in-root cleanups)."""


_SED_DELETE_ALL = re.compile(r"^\s*(?:1\s*,\s*\$\s*)?d\s*$")
_DB_RESETS: dict[str, tuple[tuple[str, ...], ...]] = {
    # each framework's documented way to empty or drop its database, or to undo migrations
    # (which drops what they created)
    "rails": (("db:drop",), ("db:reset",), ("db:schema:load",), ("db:purge",),
              ("db:rollback",), ("db:migrate:reset",)),
    "rake": (("db:drop",), ("db:reset",), ("db:schema:load",), ("db:purge",),
             ("db:rollback",), ("db:migrate:reset",)),
    "prisma": (("migrate", "reset"),),
    "alembic": (("downgrade",),),
    "flask": (("db", "downgrade"),),
    "mix": (("ecto.drop",), ("ecto.reset",), ("ecto.rollback",)),
    "artisan": (("migrate:fresh",), ("migrate:reset",), ("migrate:rollback",), ("db:wipe",)),
    "knex": (("migrate:rollback",), ("migrate:down",)),
    "sequelize": (("db:migrate:undo",), ("db:migrate:undo:all",), ("db:drop",)),
    "sequelize-cli": (("db:migrate:undo",), ("db:migrate:undo:all",), ("db:drop",)),
    # Entity Framework Core's CLI: the database dropped, or every migration undone
    # (dotnet ef database update 0; the EF Core tools reference)
    "dotnet": (("ef", "database", "drop"), ("ef", "database", "update", "0")),
}


def _database(head: str, args: Sequence[str]) -> str | None:
    operands = [a for a in args if not a.startswith("-")]
    if head in ("npx", "bunx") and operands:  # npx prisma migrate reset
        head, args = operands[0], args[args.index(operands[0]) + 1 :]
        operands = operands[1:]
    if head == "php" and operands[:1] and operands[0].endswith("artisan"):
        head, operands = "artisan", operands[1:]  # php artisan migrate:fresh
    if head.startswith("python"):
        if any(a.endswith("manage.py") for a in operands[:1]) and (operands[1:2] in (
                ["flush"], ["reset_db"]) or (operands[1:2] == ["migrate"]
                                             and operands[-1:] == ["zero"])):
            return f"manage.py {' '.join(operands[1:])} empties the database"
        return None
    if head in ("mongo", "mongosh"):
        return "the script drops a database or a collection" if any(
            _MONGO_DROP.search(a) for a in args) else None
    if head == "prisma" and operands[:2] == ["db", "push"] and "--force-reset" in args:
        return "prisma db push --force-reset empties the database"
    for prefix in _DB_RESETS.get(command_name(head), ()):
        if tuple(o.lower() for o in operands[: len(prefix)]) == prefix:
            return f"{head} {' '.join(prefix)} drops or empties the database"
    return None


_JS_REMOVERS = frozenset({"rimraf", "del-cli", "premove"})
"""Node's ``rm -rf`` (rimraf, del-cli, pnpm's premove): recursive whatever they are given."""


def _js_remove(head: str, args: Sequence[str]) -> str | None:
    operands = [a for a in args if not a.startswith("-")]
    if any(o in _WIPES or o.startswith(("/", "~", "..", "*", "./*")) for o in operands):
        return f"{head} deletes the whole project or a tree outside it"
    return None


def _argv_finding(argv: Sequence[str]) -> str | None:
    head, args = argv[0], argv[1:]
    if head in ("npx", "bunx", "pnpx") and args:  # npx rimraf ./*
        first = next((i for i, a in enumerate(args) if not a.startswith("-")), None)
        if first is not None and command_name(args[first]) in _JS_REMOVERS:
            return _js_remove(command_name(args[first]), args[first + 1 :])
    if head in _JS_REMOVERS:
        return _js_remove(head, args)
    if head == "bfg" and args and not {"--help", "--version", "-h"} & set(args):
        return "bfg rewrites the repository's history"  # BFG Repo-Cleaner, as filter-repo
    if head == "git":
        return _git(args)
    if head == "rm":
        return _rm(args)
    if head in ("kill", "pkill", "killall"):
        return _kill(head, args)
    if head in ("chmod", "chown", "chgrp"):
        return _chmod(head, args)
    if head == "truncate":
        return "truncate changes a file's size"
    if head == "unlink" and args:
        return "unlink deletes a file, as rm does"
    if head == "fuser" and "k" in _short_letters(args):
        return "fuser -k kills every process using the file or port"
    if head in ("shred", "wipe", "srm"):
        return f"{head} overwrites a file beyond recovery"
    if head == "wipefs" and _options(args) & {"-a", "--all", "-o", "--offset"} | {
            a for a in args if a.startswith("-") and not a.startswith("--") and "a" in a}:
        return "wipefs erases the signatures that make a filesystem readable"
    if (head in ("chattr", "setfacl") and "R" in _short_letters(args)) or (
            head == "setfacl" and "--recursive" in args):
        return f"{head} -R changes the attributes or ACLs of a whole tree"
    if head == "atrm" or (head == "at" and _short_letters(args)[:1] in ("r", "d")):
        return "atrm removes queued jobs"
    if head in ("docker", "podman"):
        return _containers(args)
    if head in ("docker-compose", "podman-compose"):
        return _containers(["compose", *args])
    if head == "dd" and any(a.startswith("of=") for a in args):
        return "dd overwrites its of= target"
    if head == "crontab" and "r" in _short_letters(args):
        return "crontab -r removes every job"
    operands = [a for a in args if not a.startswith("-")]
    if head in ("cp", "mv") and "/dev/null" in operands[:-1]:
        return f"{head} /dev/null empties its target"
    if head == "mv" and operands[-1:] == ["/dev/null"] and len(operands) > 1:
        return "mv onto /dev/null deletes the source"
    if head == "find":
        return _find(args)
    if head == "rsync" and any(a.startswith("--delete") for a in args) and (
            operands[-1:] and operands[-1] in _WIPES):
        return "rsync --delete into the project deletes every file the source lacks"
    scripts = [b for a, b in itertools.pairwise(args) if a in ("-e", "--expression")]
    scripts = scripts or [o for o in operands if o][:1]  # sed -i '' (BSD): an empty suffix
    if head == "sed" and any(a.startswith(("-i", "--in-place")) for a in args) and any(
            _SED_DELETE_ALL.match(o) for o in scripts):
        return "sed -i with a delete-all script empties the file"
    database = _database(head, args)
    if database is not None:
        return database
    return _remote(head, cloud_operands(head, args), args)


_REMOTE_DELETES: dict[str, tuple[tuple[str, ...], ...]] = {
    # cluster, cloud and database operations that destroy what other people use
    "kubectl": (("delete",),), "oc": (("delete",),), "helm": (("uninstall",), ("delete",),
                                                             ("del",)),
    "terraform": (("destroy",), ("taint",)), "tofu": (("destroy",), ("taint",)),
    "pulumi": (("destroy",),),
    "gh": (("repo", "delete"), ("release", "delete"), ("release", "delete-asset"),
           ("secret", "delete"),
           ("issue", "delete"), ("run", "delete"), ("variable", "delete"), ("cache", "delete"),
           ("label", "delete"), ("gist", "delete"), ("project", "delete")),
    "dropdb": ((),), "dropuser": ((),), "redis-cli": (("flushall",), ("flushdb",)),
    "mysqladmin": (("drop",),),
    # the same in each platform's and registry's own CLI (their manuals): apps, clusters,
    # published versions, hosted databases and working copies of other VCSs
    "heroku": (("apps:destroy",), ("pg:reset",), ("destroy",)), "fly": (("apps", "destroy"),
                                                                     ("destroy",)),
    "flyctl": (("apps", "destroy"), ("destroy",)), "vercel": (("remove",), ("rm",)),
    "netlify": (("sites:delete",),), "kind": (("delete",),), "minikube": (("delete",),),
    "k3d": (("cluster", "delete"),), "supabase": (("db", "reset"),),
    "firebase": (("firestore:delete",), ("database:remove",), ("hosting:disable",)),
    "npm": (("unpublish",),), "cargo": (("yank",),), "gem": (("yank",),),
    "hg": (("strip",), ("purge",)), "svn": (("revert",),), "dvc": (("gc",),),
    "eksctl": (("delete",),), "doctl": (("kubernetes", "cluster", "delete"),),
    # Cloud Storage's own CLI: buckets and objects removed (gsutil rb|rm, gcloud storage rm)
    "gsutil": (("rb",), ("rm",)),
    # a whole environment removed (conda(1): env remove, remove --all)
    "conda": (("env", "remove"),), "mamba": (("env", "remove"),),
    # a development VM and its disks (vagrant(1): destroy)
    "vagrant": (("destroy",),),
}
_CLOUD_CLIS = frozenset({"aws", "gcloud", "az", "doctl",
                         # the other clouds' and forges' CLIs (their manuals: NOUN delete)
                         "hcloud", "linode-cli", "scw", "vultr-cli", "oci", "ibmcloud",
                         "exo", "upcloud", "glab", "tea",
                         # the platforms' CLIs (NOUN delete, NOUN:delete, NOUN:destroy)
                         "wrangler", "supabase", "firebase", "netlify", "vercel", "heroku",
                         "fly", "flyctl"})
_CLOUD_DELETE_VERBS = ("delete-", "terminate-", "purge-", "schedule-key-deletion")
"""Verb prefixes of the clouds' APIs that delete or empty what they name (``aws sqs
purge-queue``, ``aws kms schedule-key-deletion``: elastic/detection-rules' impact rules)."""
_HTTP_CLIENTS = frozenset({"curl", "wget", "wget2", "http", "https", "xh", "xhs"})


def _http_delete(head: str, args: Sequence[str]) -> bool:
    """Tell whether an HTTP client sends a DELETE, which deletes what the URL names.

    ``curl -X DELETE``, ``-XDELETE``, ``--request DELETE``, ``wget --method=DELETE``,
    HTTPie's ``http DELETE URL``.
    """
    upper = [a.upper() for a in args]
    if head in ("http", "https", "xh", "xhs"):
        return [a for a in upper if not a.startswith("-")][:1] == ["DELETE"]
    return any(a in ("-XDELETE", "--REQUEST=DELETE", "--METHOD=DELETE") or (a, b) in (
        ("-X", "DELETE"), ("--REQUEST", "DELETE"), ("--METHOD", "DELETE"))
        for a, b in itertools.pairwise([*upper, ""]))


_MONGO_DROP = re.compile(r"dropDatabase\(|\.drop\(\)|\.deleteMany\(\s*\{\s*\}\s*\)|"
                         r"\.remove\(\s*\{\s*\}\s*\)")
"""mongo shell code that drops a database or a collection, or empties one (its manual)."""
_SQL_WIPE = re.compile(
    r"\b(?:DROP\s+(?:DATABASE|SCHEMA|TABLE)|TRUNCATE|DELETE\s+FROM\s+\S+\s*;?\s*$)",
    re.IGNORECASE)


def _remote(head: str, operands: list[str], args: Sequence[str]) -> str | None:
    if head == "redis-cli" and {"flushall", "flushdb"} & {o.lower() for o in operands}:
        return "redis-cli flushall/flushdb empties the database"
    for prefix in _REMOTE_DELETES.get(head, ()):
        if [o.lower() for o in operands[: len(prefix)]] == list(prefix):
            return f"{head} {' '.join(prefix)} destroys shared resources".replace("  ", " ")
    if head == "terraform" and "apply" in operands[:1] and "-destroy" in args:
        return "terraform apply -destroy destroys infrastructure"
    if head == "aws" and operands[:2] in (["s3", "rm"], ["s3", "rb"]) and (
            "--recursive" in args or "--force" in args or operands[1] == "rb"):
        return f"aws s3 {operands[1]} deletes a bucket's objects"
    if head == "gcloud" and operands[:2] == ["storage", "rm"]:
        return "gcloud storage rm deletes a bucket's objects"
    if head in _CLOUD_CLIS and any(
            o == "delete" or o.startswith(_CLOUD_DELETE_VERBS) or o.endswith((
                ":delete", ":destroy")) for o in operands):
        return f"{head} deletes cloud resources"
    if head in _HTTP_CLIENTS and _http_delete(head, args):
        return f"{head} sends an HTTP DELETE (a remote resource, as gh api -X DELETE)"
    if head in ("kubectl", "oc") and (operands[:1] == ["drain"] or (
            operands[:1] == ["scale"] and any(a in ("--replicas=0", "--replicas 0")
                                              for a in args))):
        return f"{head} {operands[0]} takes a workload down"
    if head == "gh" and operands[:1] == ["api"] and any(
            a.upper() in ("-XDELETE", "--METHOD=DELETE") or (a, b) in (("-X", "DELETE"), (
                "--method", "DELETE")) for a, b in itertools.pairwise([*args, ""])):
        return "gh api DELETE deletes a remote resource"
    if head in ("psql", "mysql", "mariadb", "sqlite3") and any(
            _SQL_WIPE.search(a) for a in args):
        return f"{head} runs SQL that empties or drops a table"
    return None


def routine_finding(segment: Segment, bare_redirect: bool) -> Finding | None:
    """Ask for a destructive but routine segment.

    :param segment: one analysed segment.
    :param bare_redirect: whether the segment is only a writing redirection (``: > f``).
    :returns: the finding, or ``None``.
    """
    if bare_redirect:
        return Finding(ASK, "routine-destructive", f"{segment.text!r} empties a file")
    if not segment.command_positions:
        return None
    if segment.command == "tee" and segment.stdin_file == "/dev/null" and not any(
            w.value in ("-a", "--append") for w in segment.words):
        return Finding(ASK, "routine-destructive", f"{segment.text!r}: tee with no input "
                       "empties its files")
    words = segment.words[segment.command_positions[-1] + 1 :]
    argv = (segment.command, *(_FOUND if w.dynamic and ("$(" in w.source or "`" in w.source)
                               else w.value for w in words))
    if "xargs" in segment.wrappers:  # … | xargs kill -9: its input adds the found operands
        argv = (*argv, _FOUND)
    reason = _argv_finding(argv)
    if reason is None:
        return None
    return Finding(ASK, "routine-destructive", f"{segment.text!r}: {reason}")
