"""Commands that write the user's or the machine's configuration: they ask (rule ``home-config``).

A write under ``~`` or ``/etc`` named as a path is the sandbox-path rule's; these tools write
there without naming the file (each tool's documentation says where):

| command                                        | writes                                   |
| ---------------------------------------------- | ---------------------------------------- |
| ``npm``/``yarn``/``pnpm config set|delete``     | ``~/.npmrc``, ``~/.yarnrc`` (not with     |
|                                                | ``--location=project``)                  |
| ``pip config set|unset|edit``                   | ``~/.config/pip/pip.conf`` (not ``--site``)|
| ``poetry config NAME VALUE``                    | ``~/.config/pypoetry`` (not ``--local``) |
| ``conda``/``mamba config --add|--set|--append`` | ``~/.condarc``                           |
| ``gh config set``, ``gh auth setup-git|login``  | ``~/.config/gh``, the global git config  |
| ``gcloud config set|unset``, ``gcloud auth login``| ``~/.config/gcloud``                    |
| ``aws configure set``, ``az config set``        | ``~/.aws``, ``~/.azure``                 |
| ``kubectl config set*|use-context|delete-*``    | ``~/.kube/config``                       |
| ``docker login``, ``docker context create|use`` | ``~/.docker/config.json``                |
| ``npm login|adduser``, ``cargo login``,         | a registry token in the home directory   |
| ``huggingface-cli login``, ``wandb login``,     |                                          |
| ``ngrok config add-authtoken``, ``ngrok authtoken``|                                       |
| ``git credential approve``                      | the credential helper's store            |
| ``go env -w``                                   | ``~/.config/go/env``                     |
| ``bundle config set --global``, ``composer      | ``~/.bundle``, ``~/.composer``           |
| global``                                        |                                          |
| ``xdg-settings set``, ``xdg-mime default``,     | the desktop's defaults                   |
| ``defaults write``                              |                                          |
| ``pyenv global``, ``nvm alias default``,        | the user's default interpreter           |
| ``rustup|sdk|fnm default``, ``asdf global``     |                                          |
| ``ssh-keygen -R HOST`` (without ``-f``)         | ``~/.ssh/known_hosts``                   |
| ``gsettings set``, ``dconf write|load``,        | the desktop's settings database          |
| ``kwriteconfig5|6``                             |                                          |
| ``direnv allow``                                | approves ``.envrc`` to run at every ``cd``|
| ``xdg-desktop-menu|xdg-desktop-icon install``   | the user's menu entries and desktop       |
| ``gpg --import|--recv-keys|--gen-key|--sign-key``| the user's keyring and trust database    |
| …                                              | (``~/.gnupg``; not with ``--homedir``)    |
| any program given ``--install-completion``      | the user's shell startup file (Typer and |
|                                                | Click applications' completion installer)|
| ``activate-global-python-argcomplete``          | ``~/.bash_completion`` or the system's    |
"""

from __future__ import annotations

from collections.abc import Sequence

from tooldeck.shell_analysis.data_args import is_data_word
from tooldeck.shell_analysis.findings import ASK, Finding, argv_finding
from tooldeck.shell_analysis.model import Segment

__all__ = ["COMPLETION_INSTALL", "HOME_CONFIG_HEADS", "completion_install_finding",
           "home_config_finding"]

_WRITES: dict[str, tuple[tuple[str, ...], ...]] = {
    "npm": (("config", "set"), ("config", "delete"), ("config", "edit"), ("login",),
            ("adduser",)),
    "yarn": (("config", "set"), ("config", "delete")),
    "pnpm": (("config", "set"), ("config", "delete")),
    "pip": (("config", "set"), ("config", "unset"), ("config", "edit")),
    "pip3": (("config", "set"), ("config", "unset"), ("config", "edit")),
    "gh": (("config", "set"), ("auth", "setup-git"), ("auth", "login")),
    "gcloud": (("config", "set"), ("config", "unset"), ("auth", "login")),
    "aws": (("configure", "set"),),
    "az": (("config", "set"),),
    "kubectl": (("config", "set"), ("config", "set-context"), ("config", "set-cluster"),
                ("config", "set-credentials"), ("config", "use-context"),
                ("config", "delete-context"), ("config", "delete-cluster"),
                ("config", "rename-context")),
    "docker": (("login",), ("context", "create"), ("context", "use")),
    "cargo": (("login",),),
    "huggingface-cli": (("login",),),
    "wandb": (("login",),),
    # ngrok(1): the agent's authtoken or API key saved in ~/.config/ngrok/ngrok.yml (what
    # Splunk's "Ngrok Reverse Proxy Usage" detection names with the tunnels themselves)
    "ngrok": (("config", "add-authtoken"), ("config", "add-api-key"), ("config", "edit"),
              ("authtoken",)),
    "git": (("credential", "approve"),),
    "go": (("env",),),
    "composer": (("global",),),
    "xdg-settings": (("set",),),
    "xdg-mime": (("default",),),
    "defaults": (("write",),),
    "pyenv": (("global",),),
    "nvm": (("alias", "default"),),
    # the other version managers' user-wide default (their manuals)
    "rustup": (("default",),), "asdf": (("global",),), "sdk": (("default",),),
    "fnm": (("default",),),
    # desktop settings databases and direnv's approvals (their manuals): gsettings and dconf
    # write ~/.config/dconf, kwriteconfig the KDE rc files, direnv allow approves a
    # directory's .envrc to run at every cd into it
    "gsettings": (("set",), ("reset",), ("reset-recursively",)),
    "dconf": (("write",), ("load",), ("reset",)),
    "kwriteconfig5": ((),), "kwriteconfig6": ((),),
    "direnv": (("allow",), ("permit",), ("grant",)),
    # xdg-utils' installers write the user's menu and desktop (~/.local/share/applications,
    # ~/Desktop: xdg-desktop-menu(1), xdg-desktop-icon(1))
    "xdg-desktop-menu": (("install",), ("uninstall",)),
    "xdg-desktop-icon": (("install",), ("uninstall",)),
    # argcomplete's global activation writes ~/.bash_completion (or /etc/bash_completion.d
    # with --dest) and zsh's startup file (its README, "Global completion")
    "activate-global-python-argcomplete": ((),),
}
_PROJECT_SCOPES = frozenset({"--location=project", "--site", "--local", "-C", "--cwd"})

HOME_CONFIG_HEADS: frozenset[str] = frozenset(_WRITES) | {"poetry", "conda", "mamba", "bundle",
                                                           "gpg", "gpg2", "ssh-keygen"}
"""Command names :func:`home_config_finding` looks at."""


def _operands(args: Sequence[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


_GPG_WRITES = frozenset({
    "--import", "--recv-keys", "--recv-key", "--receive-keys", "--import-ownertrust",
    "--delete-keys", "--delete-key", "--delete-secret-keys", "--delete-secret-and-public-key",
    "--sign-key", "--lsign-key", "--quick-sign-key", "--quick-lsign-key", "--gen-key",
    "--generate-key", "--full-generate-key", "--full-gen-key", "--quick-gen-key",
    "--quick-generate-key", "--edit-key", "--refresh-keys", "--fetch-keys", "--update-trustdb",
})
"""gpg(1) commands that change the keyring or the trust database."""


def _why(head: str, args: Sequence[str]) -> str | None:
    if _PROJECT_SCOPES.intersection(args):
        return None  # npm config set --location=project, pip --site, poetry --local
    if head in ("gpg", "gpg2"):
        changes = _GPG_WRITES.intersection(a.partition("=")[0] for a in args)
        return f"{head} {min(changes)} changes the user's keyring" if changes and not any(
            a.startswith("--homedir") for a in args) else None
    operands = _operands(args)
    if head == "ssh-keygen":  # ssh-keygen(1) -R HOST rewrites ~/.ssh/known_hosts unless -f
        return "ssh-keygen -R rewrites ~/.ssh/known_hosts" if "-R" in args and not any(
            a.startswith("-f") for a in args) else None
    if head == "go":
        return "go env -w writes the user's go env file" if (
            operands[:1] == ["env"] and "-w" in args) else None
    if head == "poetry":
        return "poetry config writes the user's configuration" if (
            operands[:1] == ["config"] and len(operands) >= 3) else None
    if head in ("conda", "mamba"):
        return f"{head} config writes ~/.condarc" if operands[:1] == ["config"] and any(
            a in ("--add", "--set", "--append", "--prepend", "--remove") for a in args) else None
    if head == "bundle":
        return "bundle config --global writes ~/.bundle" if (
            operands[:1] == ["config"] and "--global" in args) else None
    for prefix in _WRITES.get(head, ()):
        if tuple(operands[: len(prefix)]) == prefix:
            return " ".join((head, *prefix, "writes outside the project"))
    return None


def home_config_finding(segment: Segment) -> Finding | None:
    """Ask before a command writes the user's or the machine's configuration.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    return argv_finding(segment, ASK, "home-config", _why)


COMPLETION_INSTALL = "--install-completion"
"""The option of Typer applications (and Click ones that copy it) that appends a completion
line to the user's shell startup file (``~/.bashrc``, ``~/.zshrc``, fish's config)."""


def completion_install_finding(segment: Segment) -> Finding | None:
    """Ask before any program installs its shell completion into the user's startup file.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    program = set(segment.command_positions)
    for index, word in enumerate(segment.words):
        if (index not in program and word.value.partition("=")[0] == COMPLETION_INSTALL
                and not is_data_word(segment, word)):
            return Finding(ASK, "home-config", f"{segment.text!r} installs its shell "
                           "completion into the user's shell startup file")
    return None
