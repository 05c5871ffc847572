"""Privilege escalation and power state: commands that are denied wherever they stand.

Checked at every command position of every segment (so ``timeout 5 doas x`` and ``sh -c
'su'`` are caught like the bare command). ``sudo`` is also on the built-in blocklist; the
other escalators are here because an operator's ``allowed_commands`` must not be needed to
keep them out.

| class       | commands                                                                    |
| ----------- | --------------------------------------------------------------------------- |
| escalation  | sudo, sudoedit, doas, pkexec, run0, su, ksu, runuser, calife, sg, newgrp,   |
|             | passwd/chpasswd/chsh/chfn/usermod/useradd/groupadd/visudo/vipw, nsenter,    |
|             | sudo-rs, please, adduser/deluser/addgroup/delgroup, pw, lusermod...,        |
|             | newusers/chage/chgpasswd/groupmems/pwconv/grpconv…, suexec                |
|             | setcap (GTFOBins ``privilege-escalation``: a capability is root in part),   |
|             | ldapadd/ldapmodify/ldapdelete/ldappasswd (accounts in a directory, T1136.002)|
|             | ``machinectl shell|login``, ``sudo``-like ``pkttyagent``                    |
| power       | reboot, poweroff, halt, shutdown, telinit, ``init <runlevel>``, ``systemctl |
|             | reboot|poweroff|halt|kexec|suspend|hibernate|…|isolate|default|rescue|      |
|             | emergency``, ``loginctl`` power verbs, logind power methods over D-Bus      |
|             | (``busctl``/``dbus-send``/``gdbus``), ``systemctl stop|restart|mask|disable``|
|             | of a unit, ``systemctl enable|edit|set-property|revert`` (persistence: a  |
|             | unit's drop-in), ``service X stop|restart``; other service managers,      |
|             | IPMI power, sleep, guests, a network link down, ``kill 1``                |
|             | (:func:`_other_power_words`); an init script told to stop its service     |
|             | (``/etc/init.d/ssh stop``, ``sh /etc/rc.d/sshd restart``); ``systemctl     |
|             | reload``, ``service X reload|enable|disable|onestop``, ``svcadm``; an     |
|             | audit, logging or detection daemon killed (``pkill auditd``); suspend by   |
|             | ``s2ram``/``acpitool -s``; ``umount -a``; USB port power (``uhubctl``);    |
|             | ``snap stop|restart|disable``; a host security agent's uninstaller       |
|             | (:func:`agent_removal_finding`)                                          |
| service-    | ``systemctl start X``, ``service X start``: asks (a unit's file runs, as   |
| start       | root for a system unit)                                                    |
| persistence | ``crontab`` installing a table, ``git config --global|--system``, a started|
|             | systemd timer or path unit, a transient timer (``systemd-run --on-boot…``),|
|             | ``loginctl enable-linger``, a launchd job loaded, ``ssh-copy-id``,         |
|             | ``ssh-import-id``, boot                                                    |
|             | links of other service managers; a setuid bit and ``chown root`` ask       |
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

from tooldeck.shell_analysis.attack_tools import MINER_NAMES
from tooldeck.shell_analysis.carriers import SHELLS
from tooldeck.shell_analysis.findings import ASK, DENY, Finding
from tooldeck.shell_analysis.model import Segment

__all__ = [
    "CLASS_HEADS",
    "ESCALATORS",
    "agent_removal_finding",
    "credential_store_finding",
    "escalation_finding",
    "init_script_finding",
    "persistence_finding",
    "power_finding",
    "service_start_finding",
]

ESCALATORS: frozenset[str] = frozenset({
    "sudo", "sudoedit", "doas", "pkexec", "run0", "su", "ksu", "runuser", "calife", "sg",
    "newgrp", "passwd", "chpasswd", "chsh", "chfn", "usermod", "useradd", "groupadd",
    "gpasswd", "visudo", "vipw", "vigr", "nsenter", "pkttyagent", "setpriv", "capsh",
    "setcap", "ldapadd", "ldapmodify", "ldapdelete", "ldappasswd", "ldapmodrdn",
    # sudo's counterparts (Centrify dzdo, PowerBroker pbrun, Solaris pfexec, CA sesu) and the
    # tools that run a command as another user (gosu, su-exec, daemontools setuidgid, s6)
    "dzdo", "pbrun", "pfexec", "sesu", "gosu", "su-exec", "setuidgid", "s6-setuidgid",
    "s6-applyuidgid", "userdel", "groupdel", "groupmod",
    # sudo's rewrites and look-alikes (sudo-rs, please), Debian's account front ends
    # (adduser/deluser/addgroup/delgroup: adduser USER sudo joins a group), and the
    # account tools of BSD and busybox (pw, vipw's kin)
    "sudo-rs", "please", "pleaseedit", "adduser", "deluser", "addgroup", "delgroup", "pw",
    "lchsh", "lusermod", "luseradd", "lgroupmod",
    # shadow-utils' setuid helpers that write a process's uid and gid maps (newuidmap(1)):
    # rootless runtimes call them, a task never does
    "newuidmap", "newgidmap",
    # the rest of Falco's user_mgmt_binaries (shadow-utils' passwd and group writers: a
    # batch of accounts, password ageing, group members, the shadow files rebuilt),
    # and Apache's suexec (runs a program as another user; login(1) stays out: see
    # docs/shell.md, "Tried and dropped")
    "newusers", "chage", "chgpasswd", "groupmems", "pwconv", "pwunconv", "grpconv",
    "grpunconv", "cppw", "cpgr", "shadowconfig", "suexec",
})
"""Commands that run something as another user or change accounts."""

_MACHINECTL_SHELLS = frozenset({"shell", "login"})
_POWER_COMMANDS = frozenset({
    "reboot", "poweroff", "halt", "shutdown", "telinit", "kexec",
    # sysvinit's killall5 signals every process; OpenRC's shutdown; desktop sessions' own
    # logout and power front ends (each project's manual)
    "killall5", "openrc-shutdown", "xfce4-session-logout", "lxqt-leave", "lxsession-logout",
})
_SYSTEMCTL_POWER = frozenset({
    "reboot", "poweroff", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep",
    "suspend-then-hibernate", "soft-reboot", "isolate", "default", "rescue", "emergency",
    "exit", "switch-root", "daemon-reexec",
})
_SYSTEMCTL_STARTS = frozenset({"start", "restart", "try-restart", "reload-or-restart"})
_POWER_TARGETS = frozenset({
    "reboot", "poweroff", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep",
    "suspend-then-hibernate", "sleep", "soft-reboot", "rescue", "emergency", "ctrl-alt-del",
    "exit", "shutdown", "final", "initrd-switch-root",
})
"""systemd.special(7)'s targets that take the machine down or out of its normal state."""
_SYSTEMCTL_SERVICE = frozenset({"stop", "restart", "mask", "disable", "kill", "enable",
                                "try-restart", "reload-or-restart", "link", "preset", "edit",
                                "revert", "set-property", "unmask", "reenable", "freeze",
                                "reload", "try-reload-or-restart", "reload-or-try-restart",
                                "force-reload", "clean", "thaw", "preset-all", "add-wants",
                                "add-requires", "set-default"})
_LOGINCTL_POWER = frozenset({"poweroff", "reboot", "halt", "suspend", "hibernate",
                             "hybrid-sleep", "kill-session", "kill-user", "terminate-session",
                             "terminate-user", "terminate-seat"})
_LOGIND_METHODS = ("poweroff", "reboot", "halt", "suspend", "hibernate", "kexec")
_DBUS_CLIENTS = frozenset({"busctl", "dbus-send", "gdbus", "qdbus"})


def _positionals(args: Sequence[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


def _tokens(segment: Segment, position: int) -> tuple[str, ...]:
    return segment.invocation(position)


def escalation_finding(segment: Segment) -> Finding | None:
    """Deny a segment that runs an escalator at any command position.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    for position in segment.command_positions:
        tokens = _tokens(segment, position)
        head = tokens[0]
        if head in ESCALATORS:
            return Finding(DENY, "escalation", f"{segment.text!r} runs {head!r}")
        if head == "machinectl" and _MACHINECTL_SHELLS.intersection(_positionals(tokens[1:])):
            return Finding(DENY, "escalation", f"{segment.text!r} opens a machinectl shell")
        if head == "chpst" and any(t.startswith(("-u", "-U")) for t in tokens[1:]):
            return Finding(DENY, "escalation", f"{segment.text!r} runs a command as another user")
        if head == "systemd-run" and _runs_as_other_user(tokens[1:]):
            return Finding(DENY, "escalation", f"{segment.text!r} runs a command as another "
                           "user through systemd")
        if head in _X_SERVERS and any(t.startswith(_X_SERVER_ROOT_OPTIONS) for t in tokens[1:]):
            return Finding(DENY, "escalation", f"{segment.text!r} has the setuid X server load "
                           "modules or write its log where it is told (CVE-2018-14665)")
    return None


_X_SERVERS = frozenset({"xorg", "x", "xorg.wrap"})
_X_SERVER_ROOT_OPTIONS = ("-modulepath", "-logfile")
"""Xorg(1)'s options that a setuid X server (1.19 to 1.20.2) honoured as root: a module loaded
from any directory, a log written over any file (CVE-2018-14665, Exploit-DB's xorg-x11-server
entries)."""


_USER_PROPERTIES = ("user=", "group=", "dynamicuser=", "supplementarygroups=")


def _runs_as_other_user(args: Sequence[str]) -> bool:
    """``systemd-run --uid=0``, ``-p User=root``, ``--property=Group=…`` (systemd-run(1))."""
    for option, value in itertools.pairwise([*args, ""]):
        if option.startswith(("--uid", "--gid")):
            return True
        if option in ("-p", "--property") and value.startswith(_USER_PROPERTIES):
            return True
        if option.startswith(("--property=", "-p")) and option.partition(
                "=" if option.startswith("--") else "p")[2].startswith(_USER_PROPERTIES):
            return True
    return False


def _power_words(head: str, args: Sequence[str]) -> str | None:
    verbs = _positionals(args)
    if head in _POWER_COMMANDS:
        return head
    if head == "init" and verbs and verbs[0] in {"0", "1", "2", "3", "4", "5", "6", "s", "q"}:
        return f"init {verbs[0]}"
    if head == "systemctl" and verbs:
        verb = verbs[0]
        if verb in _SYSTEMCTL_POWER or (verb in _SYSTEMCTL_SERVICE and len(verbs) > 1):
            return f"systemctl {verb}"
        if verb in _SYSTEMCTL_STARTS and _POWER_TARGETS.intersection(
                v.removesuffix(".target") for v in verbs[1:]):
            return f"systemctl {verb} of a power target"  # systemd.special(7)
    if head == "loginctl" and verbs and verbs[0] in _LOGINCTL_POWER:
        return f"loginctl {verbs[0]}"
    if head == "service" and len(verbs) > 1 and verbs[1] in _SERVICE_VERBS:
        return f"service {verbs[1]}"
    return _other_power_words(head, args, verbs)


_SERVICE_STOPS = frozenset({"stop", "restart", "force-reload", "down", "kill", "force-stop",
                            # an init script that removes its own service (Alibaba's Aegis:
                            # /etc/init.d/aegis uninstall, in the miners' reports)
                            "uninstall"})
_SERVICE_VERBS = _SERVICE_STOPS | frozenset({
    # service(8) of sysvinit and FreeBSD: reload, boot-time enable/disable, the one* forms
    # that act whatever rc.conf says, and FreeBSD's delete (rc.conf entry removed)
    "reload", "enable", "disable", "delete", "onestop", "onerestart", "forcestop",
    "forcerestart", "onereload", "onedisable", "oneenable"})
_SUSPENDERS = frozenset({"s2ram", "s2disk", "s2both", "hibernate"})
"""uswsusp's and hibernate-script's suspend and hibernate commands (their manuals)."""
_INTERFACE_TOOLS = frozenset({"ip", "ifconfig", "nmcli"})
_OTHER_POWER = frozenset({"rc-service", "sv", "ipmitool", "rtcwake", "pm-suspend",
                          "pm-hibernate", "pm-suspend-hybrid", "virsh", "kill", "invoke-rc.d",
                          "initctl", "launchctl", "s6-svc", "svc", "start-stop-daemon",
                          "pmset", "s6-rc", "gnome-session-quit", "cinnamon-session-quit",
                          "mate-session-save", "acpitool", "umount", "uhubctl", "vim-cmd",
                          "upsmon", "ifdown", "efibootmgr", "svcadm", "pkill",
                          "killall", "snap"}) | _SUSPENDERS
_SVCADM_CHANGES = frozenset({"enable", "disable", "restart", "refresh", "mark", "milestone",
                             "delegate"})
"""svcadm(8) of illumos and Solaris: every verb changes a service's state (Splunk's "Linux
Stop Services" and "Disable Services" name it with systemctl and service)."""
_DEFENCE_DAEMONS = frozenset({
    # the audit, logging and intrusion-detection daemons an intruder stops first (MITRE
    # T1562.001; Splunk's "Impair Defenses Process Kill" and auditd service-stop detections,
    # Falco's hids_binaries list)
    "auditd", "kauditd", "audispd", "auditbeat", "falco", "osqueryd", "sysmon", "aide",
    "ossec-syscheckd", "ossec-agentd", "wazuh-agentd", "wazuh-modulesd", "logcheck",
    "rsyslogd", "syslog-ng", "systemd-journald", "tracee", "filebeat", "elastic-agent",
    "falcon-sensor", "falcond", "mdatp", "wdavdaemon", "sentinelone", "cbagentd",
    # macOS's log daemon and the defences LOOBins' pkill entries kill by name (Little
    # Snitch, ESET, CrowdStrike Falcon, Elastic's esensor, Nessus' agent), and Objective-See's
    "syslogd", "syslog", "little snitch", "little snitch agent", "little snitch daemon",
    "eset", "falcon", "esensor", "nessusd", "lulu", "blockblock", "xprotect",
})
_SESSION_QUITS: dict[str, frozenset[str]] = {
    "gnome-session-quit": frozenset({"--power-off", "--reboot", "--logout"}),
    "cinnamon-session-quit": frozenset({"--power-off", "--reboot", "--logout"}),
    "mate-session-save": frozenset({"--shutdown-dialog", "--logout", "--force-logout"}),
}
_PMSET_VERBS = frozenset({"sleepnow", "displaysleepnow", "restoredefaults", "schedule",
                          "repeat", "touch"})
_LAUNCHCTL_STOPS = frozenset({"stop", "unload", "bootout", "kill", "remove", "reboot",
                              "disable"})
_LAUNCHCTL_STARTS = frozenset({"load", "bootstrap", "enable", "submit", "setenv"})
"""launchctl(1) verbs that install a job, let it start at boot or login, or set the
environment of every program launchd starts."""
_INIT_SCRIPT_DIRS = ("/init.d/", "/rc.d/")
"""Where SysV-style init scripts live (``/etc/init.d``, ``/etc/rc.d/init.d``, BSD's
``/etc/rc.d``, ``/usr/local/etc/rc.d``): a script there stops its service when told to."""


def is_init_script(program: str) -> bool:
    """Tell whether a program word is a SysV-style init script (``/etc/init.d/ssh``).

    Such a script is named after its service, not the client of the same name:
    ``/etc/init.d/ssh status`` asks the daemon for its state and connects nowhere.

    :param program: the program word as run.
    :returns: true for a path inside an init-script directory.
    """
    return any(directory in program for directory in _INIT_SCRIPT_DIRS)


def _other_power_words(head: str, args: Sequence[str], verbs: list[str]) -> str | None:
    """Service managers besides systemd, machine power over IPMI, sleep, the network link.

    Each tool's manual: OpenRC ``rc-service X stop``, runit ``sv down X``,
    ``ipmitool power off|cycle|reset``, ``rtcwake``, ``pm-suspend``,
    ``virsh destroy|shutdown|reboot`` (a whole guest), ``ip link set DEV down``, ``ifconfig
    DEV down``, ``nmcli networking|radio … off``, and ``kill`` of PID 1 (init).
    """
    if head == "rc-service" and len(verbs) > 1 and verbs[1] in _SERVICE_STOPS:
        return f"rc-service {verbs[1]}"
    if head == "sv" and verbs[:1] and verbs[0] in _SERVICE_STOPS:
        return f"sv {verbs[0]}"
    if head == "ipmitool" and "power" in verbs and any(
            v in verbs for v in ("off", "cycle", "reset", "soft")):
        return "ipmitool power"
    if head in ("rtcwake", "pm-suspend", "pm-hibernate", "pm-suspend-hybrid") or (
            head in _SUSPENDERS):
        return head
    if head == "acpitool" and any(a in ("-s", "-S", "--suspend", "--hibernate") for a in args):
        return "acpitool suspend"
    if head == "umount" and any(a in ("-a", "--all") or (
            a.startswith("-") and not a.startswith("--") and "a" in a) for a in args):
        return "umount -a (every filesystem)"
    if head == "uhubctl" and any(a in ("off", "cycle", "toggle", "0", "2", "3") for a in args):
        return "uhubctl (USB port power)"
    if head == "virsh" and verbs[:1] and verbs[0] in ("destroy", "shutdown", "reboot", "reset",
                                                       "suspend", "managedsave"):
        return f"virsh {verbs[0]}"
    if head in _INTERFACE_TOOLS and verbs[-1:] == ["down"] and (
            head == "ifconfig" or _ip_link_set(verbs)):
        return f"{head} … down"
    hypervisor = _hypervisor_power(head, verbs)
    if hypervisor is not None:
        return hypervisor
    if head == "ifdown" and (verbs or "-a" in args or "--all" in args):
        return "ifdown"
    if head == "efibootmgr" and any(a.split("=")[0] in _EFI_WRITES or (
            a.startswith("-") and not a.startswith("--") and set(a[1:]) & set("noabc"))
            for a in args):
        return "efibootmgr (the firmware's boot entries)"
    if head == "nmcli" and verbs[-1:] == ["off"] and verbs[:1] and verbs[0] in (
            "networking", "radio", "n", "r"):
        return "nmcli … off"
    if head in ("invoke-rc.d", "initctl") and verbs[:2] and _SERVICE_STOPS.intersection(
            verbs[:2]):  # Debian's invoke-rc.d NAME stop, Upstart's initctl stop NAME
        return f"{head} stop"
    if head in _SESSION_QUITS and _SESSION_QUITS[head].intersection(args):
        return f"{head} (the desktop session's power or logout)"
    if head == "pmset" and ((verbs[:1] and verbs[0] in _PMSET_VERBS) or any(
            a in ("-a", "-b", "-c", "-u") for a in args)):
        return "pmset"  # macOS pmset(1): sleep now, schedule, or change the power settings
    if head == "s6-rc" and "change" in verbs and any(a.startswith("-d") for a in args):
        return "s6-rc -d change"  # s6-rc(8): bring services down
    if head == "launchctl" and verbs[:1] and verbs[0] in _LAUNCHCTL_STOPS:
        return f"launchctl {verbs[0]}"
    if head in ("s6-svc", "svc") and any(a in ("-d", "-k", "-x") for a in args):
        return f"{head} down"  # s6 and daemontools take a supervised service down
    if head == "start-stop-daemon" and any(a in ("--stop", "-K") for a in args):
        return "start-stop-daemon --stop"
    if head == "kill" and args and args[-1] == "1" and "-0" not in args:
        return "kill 1 (init)"
    if head == "svcadm" and _SVCADM_CHANGES.intersection(verbs[:1]):
        return f"svcadm {verbs[0]}"
    if head == "snap" and verbs[:1] and verbs[0] in ("stop", "restart", "disable"):
        return f"snap {verbs[0]}"  # snap(8): a snap's services stopped or turned off
    if head in ("pkill", "killall"):
        return _signalled(head, [d for v in verbs for d in _pattern_programs(v)])
    if head in _DBUS_CLIENTS:
        text = " ".join(args).lower()
        if "login1" in text and any(m in text for m in _LOGIND_METHODS):
            return f"{head} login1 power call"
    return None


def _signalled(head: str, programs: Sequence[str]) -> str | None:
    """A defence daemon or a coin miner among the programs a signal goes to, named."""
    daemon = next((d for d in programs if d in _DEFENCE_DAEMONS), None)
    if daemon is not None:
        return f"{head} {daemon} (a defence or logging daemon)"
    miner = next((d for d in programs if d in MINER_NAMES), None)
    if miner is not None:
        return f"{head} {miner} (a coin miner: killing rivals is a miner's first step)"
    return None


_PID_LOOKUP = re.compile(r"(?:\$\(|`)\s*(?:pgrep|pidof)\s+(?:-\S+\s+)*([^\s)`|;&]+)")
"""A process id looked up by name in a substitution (``kill -STOP $(pgrep -x osqueryd)``,
```pidof auditd```)."""


def _kill_by_lookup(segment: Segment, position: int) -> str | None:
    """``kill`` given the pids of a defence daemon or a miner found by name at run time."""
    names = [m.group(1).strip("'\"^$").rsplit("/", 1)[-1].lower()
             for w in segment.words[position + 1:] for m in _PID_LOOKUP.finditer(w.source)]
    return _signalled("kill", names) if names else None


def _pattern_programs(pattern: str) -> list[str]:
    """The programs a ``pkill``/``killall`` pattern names, lowered.

    ``^auditd$``, ``/usr/bin/falco -c x``, each alternative of ``syslog|auditd|osqueryd``,
    and a name with blanks as a whole (``killall "Little Snitch Agent"``).
    """
    found: list[str] = []
    for alternative in pattern.strip("()").split("|"):
        text = alternative.strip("^$() ").lower()
        words = text.split()
        if words:
            found.extend((words[0].rsplit("/", 1)[-1], text))
    return found


_EFI_WRITES = frozenset({"--bootnext", "--delete-bootnext", "--bootorder", "--delete-bootorder",
                         "--delete-bootnum", "--active", "--inactive", "--create",
                         "--create-only"})


def _ip_link_set(verbs: Sequence[str]) -> bool:
    """``ip link set``, as ip(8) also takes it abbreviated (``ip l s eth0 down``)."""
    return len(verbs) > 1 and "link".startswith(verbs[0]) and "set".startswith(verbs[1])


_GUEST_POWER: dict[str, tuple[tuple[str, ...], ...]] = {
    # hypervisors' and management controllers' own CLIs (their manuals): a whole guest or
    # host powered off, reset or suspended
    "esxcli": (("system", "shutdown"), ("vm", "process", "kill"),
               ("system", "maintenancemode", "set")),
    "xl": (("destroy",), ("shutdown",), ("reboot",), ("pause",)),
    "vboxmanage": tuple(("controlvm", "*", v) for v in (
        "poweroff", "acpipowerbutton", "reset", "pause", "savestate", "acpisleepbutton")),
    "qm": (("stop",), ("shutdown",), ("reboot",), ("reset",), ("suspend",)),
    "pct": (("stop",), ("shutdown",), ("reboot",), ("suspend",)),
    "racadm": tuple(("serveraction", v) for v in (
        "powerdown", "powercycle", "hardreset", "graceshutdown", "gracereboot")),
    "upsdrvctl": (("shutdown",),),
    # tc(8): a queueing discipline or a classifier changed; a classifier may be an eBPF
    # program attached to the interface (Elastic's persistence_bpf_program_or_map_load)
    "tc": (("qdisc", "add"), ("qdisc", "replace"), ("qdisc", "change"), ("qdisc", "del"),
           ("filter", "add"), ("filter", "replace"), ("filter", "change")),
    "cpupower": (("frequency-set",), ("idle-set",), ("set",)),
    "grub-reboot": ((),), "grub-set-default": ((),), "update-grub": ((),),
    "grub2-reboot": ((),), "grub2-set-default": ((),),
}
"""Boot loader entries, traffic control and CPU power settings are machine-wide too."""


def _hypervisor_power(head: str, verbs: Sequence[str]) -> str | None:
    """A guest's or the host's power changed through its manager (:data:`_GUEST_POWER`)."""
    if head == "vim-cmd" and any(v.startswith("vmsvc/power.") for v in verbs):
        return "vim-cmd vmsvc/power"
    if head == "upsmon" and verbs[:1] == ["fsd"]:
        return "upsmon -c fsd (forced shutdown)"
    prefixes = _GUEST_POWER.get(head)
    if prefixes is None:
        return None
    lowered = [v.lower() for v in verbs]
    for prefix in prefixes:
        if len(lowered) >= len(prefix) and all(
                p in ("*", w) for p, w in zip(prefix, lowered, strict=False)):
            return f"{head} {' '.join(prefix)}".strip()
    return None


def _script_words(segment: Segment) -> list[str]:
    """The program run and its arguments; for a shell, its script's (``sh -e x.sh stop``)."""
    if not segment.command_positions:
        return []
    words = [w.value for w in segment.words[segment.command_positions[-1]:]]
    if segment.command in SHELLS and len(words) > 1:
        rest = list(itertools.dropwhile(lambda w: w.startswith("-"), words[1:]))
        return rest or words
    return words


def init_script_finding(segment: Segment) -> Finding | None:
    """Deny an init script run to stop its service, as ``service ssh stop`` is.

    ``/etc/init.d/ssh stop``, ``sh /etc/rc.d/sshd restart`` (sysvinit's manuals).

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    words = _script_words(segment)
    if words and is_init_script(words[0]) and words[1:2] and (
            words[1] in _SERVICE_STOPS):
        return Finding(DENY, "power", f"{segment.text!r} runs an init script's {words[1]!r}")
    return None


_SECURITY_AGENTS = re.compile(
    r"(?:^|/)(?:aegis|qcloud|yunjing|hostguard|cloudmonitor|CrowdStrike|falcon|sentinelone|"
    r"carbonblack|cbagent|ds_agent|sophos\w*|eset|wazuh|ossec|osquery|elastic-agent|qualys|"
    r"rapid7|tanium|mdatp)(?:[/_\-.]|$)", re.IGNORECASE)
"""Host security and monitoring agents by their install directories or script names: the
cloud vendors' (Alibaba's Aegis and CloudMonitor, Tencent's YunJing and Stargate under
/usr/local/qcloud, Huawei's HostGuard) and the EDRs' (CrowdStrike, SentinelOne, Carbon Black,
Trend Micro Deep Security, Sophos, ESET, Wazuh, osquery, Elastic, Qualys, Rapid7, Tanium,
Defender). Cado's, Unit 42's and Aqua's reports on TeamTNT and Kinsing show miners running
their uninstallers first (MITRE T1562.001)."""


def agent_removal_finding(segment: Segment) -> Finding | None:
    """Deny a host security agent's uninstaller run.

    ``/usr/local/qcloud/stargate/admin/uninstall.sh``, ``bash aegis_uninstall.sh``.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    words = _script_words(segment)
    program = words[0] if words else ""
    name = program.rsplit("/", 1)[-1]
    if "uninst" in name.lower() and _SECURITY_AGENTS.search(program):
        return Finding(DENY, "power", f"{segment.text!r} removes a host security or monitoring "
                       "agent (defence evasion)")
    return None


def power_finding(segment: Segment) -> Finding | None:
    """Deny a segment that changes power or service state at any command position.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    for position in segment.command_positions:
        tokens = _tokens(segment, position)
        what = _power_words(tokens[0], tokens[1:])
        if what is None and tokens[0] == "kill":
            what = _kill_by_lookup(segment, position)
        if what is not None:
            return Finding(DENY, "power", f"{segment.text!r} runs {what!r}")
    return None


_SERVICE_STARTS = frozenset({"start", "onestart"})


def service_start_finding(segment: Segment) -> Finding | None:
    """Ask before a command starts a service (``systemctl start x``, ``service x start``).

    Starting a unit runs whatever its file says, as root for a system unit (Atomic Red Team
    T1569.003 starts the unit it just wrote); a developer starting a database asks once.
    A ``--user`` unit runs as the user, as the command itself would: not asked. Timers and
    power targets are denied by :func:`persistence_finding` and :func:`power_finding` first.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if "start" not in segment.text:  # cheap first look
        return None
    for position in segment.command_positions:
        head, *args = _tokens(segment, position)
        verbs = _positionals(args)
        if (head == "systemctl" and verbs[:1] == ["start"] and len(verbs) > 1
                and "--user" not in args) or (
                head == "service" and len(verbs) > 1 and verbs[1] in _SERVICE_STARTS):
            return Finding(ASK, "service-start", f"{segment.text!r} starts a service")
    return None


_SETUID = ("u+s", "g+s", "+s", "a+s", "ug+s")


def _setuid_mode(mode: str) -> bool:
    if mode in _SETUID or mode.endswith("+s") or ",u+s" in mode:
        return True
    return mode.isdigit() and len(mode) == 4 and mode[0] in "2467"


def _to_root(owner: str) -> bool:
    """``root``, ``0``, ``root:root``, ``0:0``, ``root:`` as chown(1)'s owner operand."""
    return owner.partition(":")[0].partition(".")[0] in ("root", "0")


_SERVICE_ENABLERS: dict[str, Callable[[list[str], Sequence[str]], bool]] = {
    # update-rc.d(8): NAME defaults|enable|start…; chkconfig(8): NAME on, --add, --level
    # N NAME on; rc-update(8): add|del SERVICE [RUNLEVEL] (show is a read)
    "update-rc.d": lambda ops, args: len(ops) >= 2,
    "chkconfig": lambda ops, args: "--add" in args or "--del" in args or (
        len(ops) >= 2 and ops[-1] in ("on", "off", "reset")),
    "rc-update": lambda ops, args: ops[:1] in (["add"], ["del"], ["delete"]),
}


_TRANSIENT_TIMERS = ("--on-active", "--on-boot", "--on-startup", "--on-unit-active",
                     "--on-unit-inactive", "--on-calendar", "--on-clock-change",
                     "--on-timezone-change", "--timer-property")
"""systemd-run(1)'s options that make a transient timer instead of running the command now."""


def persistence_finding(segment: Segment) -> Finding | None:
    """Deny a segment that installs something that outlives the session.

    ``crontab`` installing a table (a file or standard input; ``-l`` and ``-r`` are left to
    other rules; ``-e`` opens an editor on the table and asks), ``git config
    --global``/``--system`` writes (the user's or the machine's git configuration), a
    started systemd timer or path unit, a transient timer (``systemd-run --on-boot=…``),
    ``loginctl
    enable-linger``, a launchd job installed or enabled
    (``launchctl load|bootstrap|enable|submit|setenv``), ``ssh-copy-id``/``ssh-import-id``
    and the other
    service managers' boot links (``update-rc.d x defaults|enable``, ``chkconfig x on``,
    ``chkconfig --add``, ``rc-update add``) are denied;
    setuid/setgid bits (``chmod u+s``, ``chmod 4755``) and a file given to root (``chown
    root x``) ask.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    if head == "crontab" and not any(a.startswith(("-l", "-r", "-e")) for a in args):
        return Finding(DENY, "persistence", f"{segment.text!r} installs a crontab")
    if head == "crontab" and any(a.startswith("-e") for a in args):
        return Finding(ASK, "persistence", f"{segment.text!r} edits the crontab")
    if head == "install":
        modes = [b for a, b in itertools.pairwise(args) if a in ("-m", "--mode")]
        modes += [a.partition("=")[2] for a in args if a.startswith("--mode=")]
        if any(_setuid_mode(m) for m in modes):
            return Finding(ASK, "persistence", f"{segment.text!r} installs a setuid/setgid "
                           "file")
    if head == "chown" and any(_to_root(a) for a in _positionals(args)[:1]):
        # Splunk's linux_change_file_owner_to_root: a file handed to root (a setuid binary
        # staged, or a file the user can no longer remove); asks as a setuid bit does
        return Finding(ASK, "persistence", f"{segment.text!r} gives a file to root")
    if head == "chmod" and any(_setuid_mode(a) for a in args):
        # asks: inside the project a setuid bit on a build product can be legitimate (and a
        # path outside is denied by the sandbox anyway)
        return Finding(ASK, "persistence", f"{segment.text!r} sets a setuid/setgid bit")
    if head == "systemctl" and _positionals(args)[:1] == ["start"] and any(
            u.endswith((".timer", ".path")) for u in _positionals(args)[1:]):
        # Atomic Red Team T1053.006: a started timer runs its service on schedule; a path
        # unit runs it whenever a file changes (systemd.path(5))
        return Finding(DENY, "persistence", f"{segment.text!r} starts a systemd timer or "
                       "path unit")
    if head == "systemd-run" and any(a.startswith(_TRANSIENT_TIMERS) for a in args):
        # systemd-run(1): a transient timer runs the command later, unwatched (Elastic's
        # persistence_systemd_scheduled_timer_created, Splunk's transient timers)
        return Finding(DENY, "persistence", f"{segment.text!r} schedules a transient timer")
    if head == "loginctl" and _positionals(args)[:1] == ["enable-linger"]:
        return Finding(DENY, "persistence", f"{segment.text!r} keeps the user's services "
                       "running after logout")
    if head in _SERVICE_ENABLERS and _SERVICE_ENABLERS[head](_positionals(args), args):
        # Atomic Red Team T1037.004 / T1543: a boot-time service (SysV rc links, OpenRC)
        return Finding(DENY, "persistence", f"{segment.text!r} makes a service start at boot")
    if head == "launchctl" and _positionals(args)[:1] and _positionals(args)[0] in (
            _LAUNCHCTL_STARTS):  # LOOBins' launchctl: a job that runs at every login or boot
        return Finding(DENY, "persistence", f"{segment.text!r} installs or enables a launchd "
                       "job")
    if head in ("ssh-copy-id", "ssh-import-id"):
        # T1098.004: a key added to a host's or the user's authorized_keys (ssh-import-id(1)
        # fetches a GitHub or Launchpad user's keys into ~/.ssh/authorized_keys)
        return Finding(DENY, "persistence", f"{segment.text!r} installs a key in "
                       "authorized_keys")
    if head == "git" and "config" in args:
        rest = args[args.index("config") + 1 :]
        if {"--global", "--system"} & set(rest) and not _git_config_reads(rest):
            return Finding(DENY, "persistence", f"{segment.text!r} writes the git "
                           "configuration outside the project")
    return None


_GIT_CONFIG_READS = frozenset({"--get", "--get-all", "--get-regexp", "-l", "--list",
                               "--show-origin", "--get-urlmatch", "--get-color",
                               "--get-colorbool"})
_GIT_CONFIG_WRITES = frozenset({"--unset", "--unset-all", "--add", "--replace-all", "-e",
                                "--edit", "--rename-section", "--remove-section"})
_GIT_CONFIG_VALUES = frozenset({"--type", "--default", "--blob", "-f", "--file", "--comment"})


def _git_config_reads(rest: list[str]) -> bool:
    """``git config --global user.name`` (one name, no value) or ``--get``/``get``/``list``."""
    if _GIT_CONFIG_READS.intersection(rest):
        return True
    if _GIT_CONFIG_WRITES.intersection(rest):
        return False
    operands = [a for a, before in zip(rest, ["", *rest], strict=False)
                if not a.startswith("-") and before not in _GIT_CONFIG_VALUES]
    return operands[:1] in (["get"], ["list"]) or (
        len(operands) == 1 and operands[0] not in ("set", "unset", "edit", "rename-section",
                                                   "remove-section"))


_CREDENTIAL_STORES: dict[str, frozenset[str]] = {
    # security(1): the password items, a keychain's dump and an export (private keys with
    # -t identities); find-certificate prints certificates and find-identity the signing
    # identities' names and hashes, never a private key: code signing reads them daily
    "security": frozenset({"find-generic-password", "find-internet-password", "dump-keychain",
                           "export"}),
    "secret-tool": frozenset({"lookup", "search"}),
    "keyctl": frozenset({"print", "read", "pipe"}),
    "pass": frozenset({"show"}),
    "gpg": frozenset({"--export-secret-keys", "--export-secret-subkeys"}),
    "getent": frozenset({"shadow", "gshadow"}),
    "xauth": frozenset({"list", "extract", "nlist"}),  # the X server's cookies, printed
    # KWallet's entries (kwallet-query(1) -r), WireGuard's private and preshared keys
    # (wg(8) showconf, show IFACE private-key), MySQL's login paths in clear
    # (my_print_defaults(1) -s), systemd's encrypted credentials (systemd-creds(1))
    "kwallet-query": frozenset({"-r", "--read-password"}),
    "wg": frozenset({"showconf", "private-key", "preshared-keys"}),
    "my_print_defaults": frozenset({"-s", "--show"}),
    "systemd-creds": frozenset({"decrypt", "cat"}),
    # password managers' CLIs that print a vault (keepassxc-cli(1) export, show -s; rbw, a
    # Bitwarden client: get, code; aws-vault export) and a MySQL client's options with the
    # password of its option files (mysql(1) --print-defaults)
    "keepassxc-cli": frozenset({"export", "-s", "--show-protected"}),
    "rbw": frozenset({"get", "code"}),
    "aws-vault": frozenset({"export"}),
    "mysql": frozenset({"--print-defaults"}),
    "mariadb": frozenset({"--print-defaults"}),
    "mysqldump": frozenset({"--print-defaults"}),
}
_MEMORY_DUMPERS = frozenset({"gcore"})


def credential_store_finding(segment: Segment) -> Finding | None:
    """Deny reading a credential store (keychain, secret service, kernel keyring, gpg keys).

    NetworkManager's saved Wi-Fi and VPN secrets (``nmcli -s|--show-secrets … show``: the
    osquery incident-response pack's ``wifi_networks``; ``nmcli device wifi show-password``)
    count as one.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    if not segment.command_positions:
        return None
    head, *args = segment.argv
    if head == "nmcli" and ((any(a in ("-s", "--show-secrets") or a.startswith(
            "--show-secrets") for a in args) and "show" in args) or "show-password" in args):
        return Finding(DENY, "credential-store", f"{segment.text!r} prints saved network "
                       "secrets")
    if head in _MEMORY_DUMPERS:
        return Finding(DENY, "credential-store", f"{segment.text!r} dumps a process's memory")
    verbs = _CREDENTIAL_STORES.get(head)
    if verbs is not None and verbs.intersection(args):
        return Finding(DENY, "credential-store", f"{segment.text!r} reads a credential store")
    return None


CLASS_HEADS: frozenset[str] = (
    ESCALATORS | _POWER_COMMANDS | _DBUS_CLIENTS | frozenset(_CREDENTIAL_STORES) | _MEMORY_DUMPERS
    | frozenset({"machinectl", "init", "systemctl", "loginctl", "service", "crontab", "chmod",
                 "git", "install", "chpst", "ssh-copy-id", "ssh-import-id",
                 "systemd-run", "chown"}) | _X_SERVERS
    | frozenset(_SERVICE_ENABLERS)
    | _OTHER_POWER | _INTERFACE_TOOLS | frozenset(_GUEST_POWER)
)
"""Command names any rule of this module looks at (a segment without one is skipped)."""
