"""Machine-wide state a coding task never needs to change: defences, clock, kernel.

Denied like power state (rule ``power``): each one changes the whole machine, not the
project, and most are how an intruder impairs defences. The classes follow MITRE ATT&CK
T1562 "Impair Defenses" (sub-techniques .001 tools, .004 system firewall, .012 Linux audit
system) as Atomic Red Team exercises them, and T1070.006 (system time); the read-only forms
each tool's manual documents (listing rules, status, querying a value) stay allowed.

| tool                               | denied when                                          |
| ---------------------------------- | ---------------------------------------------------- |
| iptables, ip6tables, ebtables, …   | a rule-changing command (``-A -D -I -R -F -X -P``…)  |
| iptables-restore, ip6tables-restore| always                                               |
| nft                                | ``add``, ``insert``, ``delete``, ``flush``, ``-f``…   |
| pfctl                              | ``-f``, ``-F``, ``-d``, ``-e``, ``-k`` (not ``-s``)    |
| journalctl, dmesg                  | ``--vacuum-*``, ``--rotate``, ``--flush``; ``-C``/``-c`` |
|                                    | (the system's logs deleted: T1070.002)               |
| ufw                                | any verb but ``status``, ``show``, ``app``, ``version`` |
| firewall-cmd                       | ``--add-*``, ``--remove-*``, ``--set-*``, ``--reload``… |
| auditctl                           | any option but ``-l``, ``-s``, ``-v``, ``-h`` (listing) |
| augenrules                         | ``--load`` (the audit rules replaced)                |
| kmod                               | ``insmod``, ``rmmod``, ``modprobe`` as its first word |
| setenforce, setsebool, aa-disable, | always (macOS's csrutil and spctl: :mod:`.macos_state`)|
| aa-complain, aa-teardown           |                                                      |
| sysrc                              | ``name=value``, ``-x`` (FreeBSD rc.conf)             |
| sysctl                             | ``-w``, ``-p``, ``--system``, ``key=value``          |
| date                               | ``-s``/``--set`` or an operand that is not ``+FORMAT`` |
| timedatectl                        | ``set-*``                                            |
| hwclock                            | ``--set``, ``-w``/``--systohc``, ``-s``/``--hctosys`` |
| insmod, rmmod; modprobe            | always (kernel modules); modprobe but a dry run,     |
|                                    | ``-c`` or ``--show-depends``                         |
| esxcli, vim-cmd, esxcfg-advcfg     | an ``esxcli`` command other than ``list``/``get``; a |
|                                    | ``vim-cmd`` action other than a ``get``/``list``;    |
|                                    | ``esxcfg-advcfg -s|-d|-A|-L`` (an advanced setting)  |
|                                    | (VMs powered off, snapshots removed, the acceptance  |
|                                    | level lowered, SSH or the firewall changed)          |
| dkms, depmod, dracut,              | building or installing a kernel module, rebuilding   |
| update-initramfs, mkinitcpio,      | the initramfs or installing a kernel or boot loader  |
| kernel-install, bootctl,           | (Elastic's persistence_kernel_object_file_creation,  |
| grub-install, grub2-install        | _manual_dracut_execution, _boot_file_copy; their     |
|                                    | manuals): ``dkms status``, ``dracut --list-modules``,|
|                                    | ``depmod -n``, ``bootctl status|list`` read          |
| swapoff                            | always                                               |
| update-rc.d, chkconfig             | ``disable``, ``remove``, ``off``, ``--del``          |
| launchctl                          | ``unload``, ``bootout``, ``disable``, ``stop``…;     |
|                                    | ``kickstart -k`` (a restart, as ``systemctl restart``)|
| update-ca-certificates,            | always; ``trust anchor`` (a root certificate         |
| update-ca-trust, trust             | installed: T1553.004, Sigma "Install Root Certificate")|
| amazon-ssm-agent                   | ``-register`` (the machine handed to another AWS     |
|                                    | account: Sigma "Amazon SSM Agent Hijacking")         |
| hostnamectl, localectl             | ``set-*`` (the machine's name, locale, keymap)       |
| rfkill, nmcli                      | ``block``/``unblock``; ``networking off``, ``radio … |
|                                    | off`` (the machine taken off its networks)           |
| zzz, ZZZ                           | always (Void's suspend and hibernate)                |
| mount, umount                      | an operand outside the project (absolute, ``~``,     |
|                                    | ``..``), ``-a``, a device by label or uuid: what a   |
|                                    | system path shows replaced (T1564.013 "Bind Mounts", |
|                                    | Elastic's hidepid remount rule); ``mount`` alone,    |
|                                    | ``-l``, ``-t TYPE`` list; ``umount ./mnt`` is the    |
|                                    | project's own                                        |
| a shell function that calls itself | twice, or through a pipe: a fork bomb (``:(){ :|:& };:``, |
|                                    | ``b(){ b|b& }; b``; Zeph's destructive patterns, every  |
|                                    | agent blocklist): the machine's process table filled |
| system package managers (rule      | installing, removing or upgrading a package: ``apt`` |
| ``system-package``): apt, apt-get, | ``install|remove|purge|upgrade…``, ``dpkg -i|-r|-P``, |
| aptitude, dpkg, rpm, dnf, yum,     | ``rpm -i|-U|-F|-e``, ``dnf|yum install|remove|…``,   |
| microdnf, zypper, pacman, apk,     | ``pacman -S|-U|-R``, ``apk add|del``, ``zypper in|rm``,|
| snap, flatpak, pkg, opkg, port,    | ``snap|flatpak install|remove``, ``brew install|…``  |
| brew, emerge, xbps-install, nix-env | (machine-wide software, GTFOBins' ``dpkg``/``rpm``/ |
|                                    | ``snap``/``yum`` entries run a package's scripts)    |
"""

from __future__ import annotations

from collections.abc import Sequence

from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import CommandAnalysis, Segment, command_name

__all__ = ["SYSTEM_STATE_HEADS", "fork_bomb_finding", "system_state_finding"]

_IPTABLES = frozenset({"iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy",
                       "iptables-nft", "ip6tables-nft", "ebtables", "arptables"})
_IPTABLES_CHANGES = frozenset("ADIRFXPZNE")
_IPTABLES_LONG = ("--append", "--delete", "--insert", "--replace", "--flush", "--delete-chain",
                  "--policy", "--zero", "--new-chain", "--rename-chain")
_NFT_CHANGES = frozenset({"add", "insert", "replace", "delete", "flush", "destroy", "create",
                          "reset"})
_UFW_READS = frozenset({"status", "show", "app", "version", "help", "--version", "--help"})
_FIREWALLD_CHANGES = ("--add-", "--remove-", "--set-", "--panic-on", "--reload",
                      "--complete-reload", "--change-", "--new-", "--delete-",
                      "--runtime-to-permanent", "--load-", "--reset-")
_AUDITCTL_READS = frozenset({"-l", "-s", "-v", "-h", "--help"})
_ALWAYS = frozenset({"setenforce", "setsebool", "aa-disable", "aa-complain", "aa-teardown",
                     "insmod", "rmmod", "swapoff",
                     "iptables-restore", "ip6tables-restore", "update-ca-certificates",
                     "update-ca-trust"})
_BOOT_CHAIN_READS: dict[str, frozenset[str]] = {
    "dkms": frozenset({"status", "--version", "-h", "--help"}),
    "depmod": frozenset({"-n", "--dry-run", "-h", "--help", "-V", "--version"}),
    # modprobe(8): a dry run, the configuration or the dependencies shown load nothing
    "modprobe": frozenset({"-n", "--dry-run", "-c", "--showconfig", "--show-depends",
                           "-R", "--resolve-alias", "-h", "--help", "-V", "--version"}),
    "dracut": frozenset({"--list-modules", "-h", "--help", "--version", "--print-cmdline"}),
    "update-initramfs": frozenset({"-h", "--help"}),
    "mkinitcpio": frozenset({"-L", "--listhooks", "-M", "--automods", "-H", "--hookhelp",
                             "-h", "--help", "-V", "--version"}),
    "kernel-install": frozenset({"inspect", "list", "-h", "--help", "--version"}),
    "bootctl": frozenset({"status", "list", "is-installed", "random-seed-status", "-h",
                          "--help", "--version", "--print-esp-path", "--print-boot-path",
                          "-p", "-x"}),
    "grub-install": frozenset({"-h", "--help", "-V", "--version"}),
    "grub2-install": frozenset({"-h", "--help", "-V", "--version"}),
}
"""Kernel module, initramfs and boot loader builders, with the words that make a run a read
(any other run changes what the machine boots: Elastic's persistence rules on kernel objects,
dracut and initramfs files)."""
_DATE_VALUE_OPTIONS = frozenset({"-d", "--date", "-f", "--file", "-r", "--reference", "-z"})
_HWCLOCK_SETS = frozenset({"--set", "-w", "--systohc", "-s", "--hctosys"})
_RC_OFF = frozenset({"disable", "remove", "off", "--del"})
_LAUNCHCTL_OFF = frozenset({"unload", "bootout", "disable", "stop", "remove", "kill"})
_MOUNT_VALUES = frozenset({"-t", "--types", "-O", "--test-opts", "-N", "--namespace",
                           "--options-mode", "--options-source", "-o", "--options"})
"""mount(8)'s options whose value is no mount: a listing may name them (``mount -t ext4``)."""
_MOUNT_EVERYWHERE = ("-a", "--all", "-A", "--all-targets", "-L", "--label", "-U", "--uuid")
"""Every entry of fstab or every mount point, or a disk named by its label or uuid."""

_PACKAGE_VERBS: dict[str, frozenset[str]] = {
    "apt": frozenset({"install", "reinstall", "remove", "purge", "autoremove", "upgrade",
                      "full-upgrade", "dist-upgrade", "build-dep"}),
    "dnf": frozenset({"install", "localinstall", "reinstall", "remove", "erase", "upgrade",
                      "update", "downgrade", "autoremove", "swap", "distro-sync", "group"}),
    "zypper": frozenset({"install", "in", "remove", "rm", "update", "up", "dist-upgrade", "dup",
                         "patch"}),
    "apk": frozenset({"add", "del", "upgrade", "fix"}),
    "snap": frozenset({"install", "remove", "refresh", "revert"}),
    "pkg": frozenset({"install", "add", "delete", "remove", "upgrade"}),
    "opkg": frozenset({"install", "remove", "upgrade"}),
    "port": frozenset({"install", "uninstall", "upgrade", "activate"}),
    "brew": frozenset({"install", "reinstall", "uninstall", "remove", "upgrade", "tap", "link"}),
    "nix-env": frozenset({"-i", "--install", "-e", "--uninstall", "-u", "--upgrade"}),
}
for _alias, _same in (("apt-get", "apt"), ("aptitude", "apt"), ("yum", "dnf"),
                      ("microdnf", "dnf"), ("flatpak", "snap")):
    _PACKAGE_VERBS[_alias] = _PACKAGE_VERBS[_same]
_PACKAGE_LETTERS: dict[str, str] = {"dpkg": "iruPA", "rpm": "iUFe", "pacman": "SURD",
                                    "emerge": "", "xbps-install": ""}

SYSTEM_STATE_HEADS: frozenset[str] = (
    _IPTABLES | _ALWAYS | frozenset({"nft", "pfctl", "journalctl", "dmesg", "ufw", "firewall-cmd",
                                     "auditctl", "augenrules", "kmod", "sysrc",
                                     "sysctl",
                                     "date", "timedatectl", "hwclock", "update-rc.d",
                                     "chkconfig", "launchctl", "trust",
                                     "amazon-ssm-agent", "hostnamectl", "localectl", "rfkill",
                                     "nmcli", "zzz", "ZZZ", "mount", "umount",
                                     "esxcli", "vim-cmd", "esxcfg-advcfg", "rcsusefirewall2",
                                     "susefirewall2"})
    | frozenset(_PACKAGE_VERBS) | frozenset(_PACKAGE_LETTERS) | frozenset(_BOOT_CHAIN_READS)
)
"""Command names :func:`system_state_finding` looks at."""


def _iptables(args: Sequence[str]) -> bool:
    for arg in args:
        if arg.startswith("--"):
            if arg.startswith(_IPTABLES_LONG):
                return True
        elif arg.startswith("-") and len(arg) > 1 and arg[1] in _IPTABLES_CHANGES:
            return True
    return False


def _date(args: Sequence[str]) -> bool:
    if "-j" in args:  # BSD and macOS date(1): -j never sets the clock (-f parses a date)
        return False
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("-s", "--set") or arg.startswith("--set="):
            return True
        elif arg in _DATE_VALUE_OPTIONS:
            skip = True
        elif not arg.startswith(("-", "+")):
            return True  # date MMDDhhmm[[CC]YY][.ss] sets the clock
    return False


def _mount(head: str, args: Sequence[str]) -> bool:
    """``mount``/``umount`` of a path outside the project, or of everything (not a listing)."""
    skip = False
    for arg in args:
        name, eq, value = arg.partition("=")
        if skip:  # an option's value: a type, mount options
            skip = False
        elif arg.startswith(_MOUNT_EVERYWHERE):
            return True
        elif head == "mount" and arg in _MOUNT_VALUES:
            skip = True
        elif arg.startswith("-"):
            if eq and name in ("--source", "--target") and _outside(value):
                return True
        elif _outside(arg):
            return True
    return False


def _outside(path: str) -> bool:
    """A mount operand that names no path of the project (a system path, a device)."""
    return path.startswith(("/", "~")) or ".." in path.split("/")


def _changes(head: str, args: Sequence[str]) -> bool:
    verbs = [a for a in args if not a.startswith("-")]
    if head in _ALWAYS:
        return True
    if head in _BOOT_CHAIN_READS:
        if not args:  # dracut and depmod alone rebuild for the running kernel
            return head in ("dracut", "depmod")
        return not _BOOT_CHAIN_READS[head].intersection(args)
    if head in _IPTABLES:
        return _iptables(args)
    if head in ("rcsusefirewall2", "susefirewall2"):  # SUSE's firewall script: stop, off
        return bool({"stop", "off", "reset", "close"} & set(verbs))
    if head == "esxcli":  # esxcli(1): NAMESPACE… COMMAND; list and get read, the rest change
        return bool(verbs) and not any(v.startswith(("list", "get")) or v == "help"
                                       for v in verbs)
    if head == "esxcfg-advcfg":  # ESXi's advanced settings: -s/--set and -d/--default change
        return any(a in ("-s", "--set", "-d", "--default", "-A", "--add-option", "-L",
                         "--del-option") for a in args)
    if head == "vim-cmd":  # vim-cmd SERVICE/ACTION: getallvms, get.*, *.list read
        action = verbs[0].rsplit("/", 1)[-1] if verbs else ""
        return bool(action) and not action.startswith(("get", "list", "help")) and (
            ".get" not in action and not action.endswith(".list"))
    if head == "journalctl":
        return any(a.startswith(("--vacuum", "--rotate", "--flush", "--relinquish-var",
                                 "--smart-relinquish-var")) for a in args)
    if head == "dmesg":
        return any(a in ("-C", "--clear", "-c", "--read-clear", "-D", "--console-off")
                   for a in args)
    if head == "pfctl":
        return any(a.startswith(("-f", "-F", "-d", "-e", "-k", "-K")) or (
            a.startswith("-") and not a.startswith("-s") and "f" in a) for a in args)
    if head == "nft":
        return "-f" in args or "--file" in args or bool(_NFT_CHANGES.intersection(verbs[:1]))
    if head == "ufw":
        return bool(verbs) and verbs[0] not in _UFW_READS
    if head == "firewall-cmd":
        return any(a.startswith(_FIREWALLD_CHANGES) for a in args)
    if head == "auditctl":
        return any(a.startswith("-") and a not in _AUDITCTL_READS for a in args)
    if head == "augenrules":
        return "--load" in args
    if head == "kmod":
        return bool(verbs[:1]) and verbs[0] in ("insmod", "rmmod", "modprobe")
    if head == "sysrc":
        return "-x" in args or any("=" in v for v in verbs)
    if head == "sysctl":
        return bool({"-w", "--write", "-p", "--load", "--system"}.intersection(args)) or any(
            "=" in v for v in verbs)
    if head == "date":
        return _date(args)
    if head == "timedatectl":
        return any(v.startswith("set-") for v in verbs[:1])
    if head == "hwclock":
        return bool(_HWCLOCK_SETS.intersection(args))
    if head in ("update-rc.d", "chkconfig"):
        return bool(_RC_OFF.intersection(args))
    if head == "launchctl":  # kickstart -k kills the running job first (launchctl(1))
        return bool(_LAUNCHCTL_OFF.intersection(verbs[:1])) or (verbs[:1] == ["kickstart"] and any(
            a.startswith("-") and not a.startswith("--") and "k" in a for a in args))
    if head == "trust":
        return bool(verbs[:1]) and verbs[0] in ("anchor", "extract-compat")
    if head == "amazon-ssm-agent":
        return "-register" in args
    if head in ("hostnamectl", "localectl"):
        return any(v.startswith("set-") for v in verbs[:1])
    if head == "rfkill":
        return bool(verbs[:1]) and verbs[0] in ("block", "unblock")
    if head == "nmcli":
        return verbs[:2] in (["networking", "off"], ["radio", "off"]) or (
            verbs[:1] == ["radio"] and "off" in verbs)
    if head in ("mount", "umount"):
        return _mount(head, args)
    return head in ("zzz", "ZZZ")


def _package_change(head: str, args: Sequence[str]) -> bool:
    if head in _PACKAGE_VERBS:
        verbs = _PACKAGE_VERBS[head]
        if head == "nix-env":
            return bool(verbs.intersection(args))
        return bool(verbs.intersection(a for a in args if not a.startswith("-")))
    letters = _PACKAGE_LETTERS.get(head)
    if letters is None:
        return False
    if not letters:  # emerge, xbps-install: every run but a query installs
        return not any(a in ("-p", "--pretend", "-s", "--search", "-S", "--sync") for a in args)
    long_changes = ("--install", "--remove", "--purge", "--upgrade", "--freshen", "--erase",
                    "--sync", "--unpack", "--configure")
    return any(a.startswith(long_changes) or (
        a.startswith("-") and not a.startswith("--") and len(a) > 1 and a[1] in letters)
        for a in args)


def system_state_finding(segment: Segment) -> Finding | None:
    """Deny a segment that changes defences, the clock or the kernel, at any command position.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    for position in segment.command_positions:
        head = command_name(segment.words[position].value)
        if head not in SYSTEM_STATE_HEADS:
            continue
        args = [w.value for w in segment.words[position + 1 :]]
        if _package_change(head, args):
            return Finding(DENY, "system-package", f"{segment.text!r} changes the machine's "
                           f"packages ({head})")
        if _changes(head, args):
            return Finding(DENY, "power", f"{segment.text!r} changes machine-wide state "
                           f"({head})")
    return None


def fork_bomb_finding(analysis: CommandAnalysis) -> Finding | None:
    """Deny a shell function whose body calls it twice or through a pipe: a fork bomb.

    ``:(){ :|:& };:`` and its renamings (``bomb(){ bomb|bomb & }; bomb``) spawn processes
    until the process table is full; a function calling itself once, not piped, is ordinary
    recursion and is not judged here.

    :param analysis: the analysed command.
    :returns: the finding, or ``None``.
    """
    for name in analysis.functions:
        calls = [s for s in analysis.segments
                 if s.origin == "function" and s.command == command_name(name)]
        if len(calls) > 1 or any(s.stdin == "pipe" for s in calls):
            return Finding(DENY, "power", f"the function {name!r} calls itself "
                           f"{'through a pipe' if len(calls) == 1 else 'twice'}: a fork bomb "
                           "fills the machine's process table")
    return None
