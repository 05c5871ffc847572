"""Programs a coding task never runs: attack frameworks, crackers, scanners, coin miners.

Denied by name (rule ``attack-tool``), whatever they are given: each one is there to attack
a machine, a network or a password, and none builds, tests or ships code. The lists are
SigmaHQ's Linux rules "Linux HackTool Execution" (command-and-control frameworks, scanners,
web enumeration, exploit and cracking tools, PEASS) and "Linux Crypto Mining Indicators"
(rules/linux/process_creation, commit 8eaafff1f), the miners by their project names, and
Impacket's example scripts with the LAN and SMB enumerators (:data:`_LATERAL`). A
miner is also known by what it is given: a ``stratum+tcp://`` (``+ssl``, ``+udp``) pool
or an option only a miner has (``--donate-level``, ``--randomx-1gb-pages``,
``--wallet-address``: Datadog's ``cryptominer_args``), whatever the program is called
(MITRE ATT&CK T1496), unless the word is data or a pattern (``echo``, ``grep
'stratum+tcp://' src/``).

A directory client is one when it enumerates a Windows domain: ``ldapsearch`` given the
account, group, computer or service filters that Microsoft's "Hunting for reconnaissance
activities using LDAP search filters" lists (``(objectClass=group)``,
``servicePrincipalName=*``, ``userAccountControl:1.2.840.113556.1.4.803:=…``,
``adminCount=1``: ATT&CK T1087.002, T1069.002; mthcht's ThreatHunting-Keywords ``ldapsearch``
and ``ldap queries`` entries), like the dumpers that do nothing else (``ldapdomaindump``,
``windapsearch``, ``ldapsearch-ad``, ``adidnsdump``). A lookup of one entry (``(uid=alice)``,
``-s base``) is a developer debugging a login and stays allowed.

A name a developer's tool shares is denied only with a subcommand that tool does not have
(``cdk run``, ``cdk evaluate``: cdk-team's CDK, not AWS's). Left out on purpose: ``httpx``
(also encode/httpx's command line), secret scanners run on the project (``trufflehog
filesystem .``; a search of the home is the secret rules'), and scanners the egress gate
already judges by their targets (``nmap``, ``masscan``, ``naabu``…).
"""

from __future__ import annotations

import re

from tooldeck.shell_analysis.data_args import is_data_word
from tooldeck.shell_analysis.findings import DENY, Finding
from tooldeck.shell_analysis.model import Segment, command_name
from tooldeck.shell_analysis.program_text import program_words

__all__ = ["ATTACK_TOOL_HEADS", "DIRECTORY_CLIENTS", "MINER_MARKERS", "MINER_NAMES", "SCRIPT_HOSTS",
           "attack_tool_finding"]

_FRAMEWORKS = frozenset({
    "crackmapexec", "cme", "nxc", "netexec", "havoc", "merlin-agent", "merlinserver-linux-x64",
    "msfconsole", "msfvenom", "msfdb", "msfrpcd", "ps-empire", "powershell-empire",
    "sliver-client", "sliver-server", "sliver", "villain.py", "teamserver", "cobaltstrike",
    # MITRE CALDERA's agents (mitre/sandcat README, mitre/stockpile abilities: sandcat.go
    # started with -server, the Python agent ragdoll)
    "sandcat", "sandcat.go", "sandcat-linux", "sandcat-darwin", "ragdoll.py",
})
_RECON = frozenset({
    "autorecon", "legion", "netdiscover", "nuclei", "recon-ng", "sniper", "dirb", "dirbuster",
    "eyewitness", "feroxbuster", "ffuf", "gobuster", "wfuzz", "whatweb", "joomscan", "nikto",
    "wpscan",
})
_EXPLOITS = frozenset({
    "aircrack-ng", "bloodhound-python", "bpfdos", "ebpfki", "evil-winrm", "hashcat",
    "hoaxshell.py", "hydra", "john", "ncrack", "pidhide", "pspy32", "pspy32s", "pspy64",
    "pspy64s", "setoolkit", "sqlmap", "writeblocker", "linpeas", "linpeas.sh",
    "linpeas_linux_amd64", "linpeas_fat.sh",
    # the other privilege-escalation checkers (Atomic Red Team T1059.004: LinEnum, AutoSUID)
    # and Kubernetes attack tools (Elastic's "Potential Kubeletctl Execution")
    "linenum", "linenum.sh", "autosuid.sh", "linux-exploit-suggester",
    "linux-exploit-suggester.sh", "les.sh", "lse.sh", "kubeletctl", "peirates",
    # Datadog's default runtime policy (DataDog/security-agent-policies@16b77b6,
    # runtime/default.policy: offensive_k8s_tool, container_breakout_enumeration_tool):
    # Kubernetes and container-escape attack tools, also as the scripts they ship as
    "kubiscan", "kubiscan.py", "kdigger", "kube-hunter", "kubestriker", "red_kube.py",
    "kubesploit", "amicontained", "deepce", "deepce.sh", "go-pillage-registries", "botb",
})
_CREDENTIAL_DUMPERS = frozenset({
    # MITRE ATT&CK T1003 software that reads passwords out of memory and stores on Linux:
    # LaZagne (S0349), MimiPenguin (S0179)
    "lazagne", "lazagne.py", "mimipenguin", "mimipenguin.sh", "mimipenguin.py",
})
_IMPACKET = ("secretsdump", "wmiexec", "smbexec", "psexec", "atexec", "dcomexec",
             "getuserspns", "getnpusers", "getst", "gettgt", "getadusers", "ntlmrelayx",
             "smbrelayx", "lookupsid", "samrdump", "rpcdump", "ticketer", "goldenpac",
             "raisechild", "finddelegation", "addcomputer", "rbcd", "dacledit", "owneredit",
             "get-gpppassword", "getlapspassword", "mssqlclient", "wmipersist", "dpapi",
             "keylistattack", "smbserver")
_LATERAL = frozenset({
    # Fortra's Impacket example scripts (impacket/examples/, and Kali's impacket-NAME
    # commands): each one attacks Windows accounts, hashes or services over the network
    *(f"{name}.py" for name in _IMPACKET), *(f"impacket-{name}" for name in _IMPACKET),
    # LAN and SMB enumeration and poisoning (each project's README: enum4linux, nbtscan,
    # arp-scan, unicornscan, smbmap, kerbrute, Responder, bettercap, ettercap)
    "enum4linux", "enum4linux-ng", "enum4linux-ng.py", "nbtscan", "arp-scan", "unicornscan",
    "smbmap", "kerbrute", "responder", "responder.py", "bettercap", "ettercap",
    # Active Directory dumpers over LDAP (each project's README; ThreatHunting-Keywords'
    # offensive_tool_keyword entries)
    "ldapdomaindump", "windapsearch", "windapsearch.py", "ldapsearch-ad", "ldapsearch-ad.py",
    "adidnsdump",
})
_MINERS = frozenset({
    "xmrig", "xmr-stak", "xmr-stak-rx", "cpuminer", "cpuminer-multi", "minerd", "cgminer",
    "bfgminer", "ccminer", "ethminer", "t-rex", "nbminer", "lolminer", "phoenixminer",
    "nanominer", "gminer", "srbminer-multi", "teamredminer", "xmrig-cuda",
    # Kinsing's miner and its watchdog as they run (Aqua's and Trend Micro's Kinsing reports)
    "kinsing", "kdevtmpfsi",
})
_DENIED_NAMES = _FRAMEWORKS | _RECON | _EXPLOITS | _CREDENTIAL_DUMPERS | _MINERS | _LATERAL
MINER_NAMES: frozenset[str] = _MINERS
"""Coin miners' program names: killing one by name is also a miner's first step (Trend Micro's
Korkerds and the Kinsing reports: rival miners killed before the install)."""
_BY_SUBCOMMAND: dict[str, frozenset[str]] = {
    # cdk-team/CDK's container-escape kit (README "Usage", commit 656f5c0): its evaluation,
    # exploits and tools. AWS's CDK shares the name but none of these subcommands.
    "cdk": frozenset({"evaluate", "eva", "run", "auto-escape", "kcurl", "ucurl", "dcurl",
                      "ectl", "probe"}),
}
_IMAGE_RUNNERS: dict[str, frozenset[str]] = {
    # the verbs that start a container from an image (each engine's reference)
    **dict.fromkeys(("docker", "podman", "nerdctl"), frozenset({"run", "create"})),
    "kubectl": frozenset({"run"}), "oc": frozenset({"run"}),
}
"""Container engines: an image named for an attack tool or a miner (``docker run -d
xmrig/xmrig``, ``kubectl run x --image=…/xmrig``) runs that tool (MITRE T1610, T1496)."""

ATTACK_TOOL_HEADS: frozenset[str] = _DENIED_NAMES | frozenset(_BY_SUBCOMMAND) | frozenset(
    _IMAGE_RUNNERS)
"""Command names :func:`attack_tool_finding` looks at (lowercase, as :func:`.command_name`
gives): denied by name, or by a subcommand only the attack tool of that name has."""

MINER_MARKERS: tuple[str, ...] = ("stratum+tcp://", "stratum+ssl://", "stratum+udp://",
                                  "stratum2+tcp://", "stratum1+tcp://", "--donate-level",
                                  "--randomx-1gb-pages", "--wallet-address")
"""Text only a miner's command line holds (a segment holding one is looked at)."""


_SCRIPT_HOSTS = frozenset({"python", "python2", "python3", "bash", "sh", "dash", "zsh", "perl"})


def _script(segment: Segment) -> str | None:
    """The script an interpreter runs (``python3 laZagne.py all`` → ``lazagne.py``)."""
    if segment.command not in _SCRIPT_HOSTS:
        return None
    operands = [a for a in segment.argv[1:] if not a.startswith("-")]
    return command_name(operands[0]) if operands else None


DIRECTORY_CLIENTS: frozenset[str] = frozenset({"ldapsearch"})
"""Directory clients :func:`attack_tool_finding` looks at for a domain enumeration."""
_DOMAIN_RECON = re.compile(
    r"\((?:objectClass|objectCategory)=(?:user|group|person|computer|groupPolicyContainer|"
    r"trustedDomain|organizationalUnit|domain)\)|servicePrincipalName=|userAccountControl:|"
    r"adminCount=|sAMAccountType=|ms-MCS-AdmPwd|msDS-AllowedToDelegateTo|memberOf=CN=",
    re.IGNORECASE)
"""The account, group, computer and service filters of a domain enumeration."""

SCRIPT_HOSTS: frozenset[str] = _SCRIPT_HOSTS
"""Interpreters whose script :func:`attack_tool_finding` names too."""


def _tool_image(segment: Segment) -> str | None:
    """The image word of a container start whose repository is named for a denied tool."""
    argv = segment.argv
    verbs = _IMAGE_RUNNERS.get(argv[0] if argv else "")
    if verbs is None or verbs.isdisjoint(argv[1:4]):
        return None
    for word in argv[1:]:
        image = word.partition("=")[2] if word.startswith("--image=") else word
        name = image.rsplit("/", 1)[-1].partition("@")[0].partition(":")[0].lower()
        if name in _DENIED_NAMES and not image.startswith("-"):
            return image
    return None


def attack_tool_finding(segment: Segment) -> Finding | None:
    """Deny an attack tool, a miner by its arguments, a domain enumeration by its filters.

    :param segment: one analysed segment.
    :returns: the finding, or ``None``.
    """
    for position in segment.command_positions:
        head = command_name(segment.words[position].value)
        if head in _DENIED_NAMES:
            kind = "a coin miner" if head in _MINERS else "an attack tool"
            return Finding(DENY, "attack-tool", f"{segment.text!r} runs {head!r}, {kind}")
        operands = [w.value for w in segment.words[position + 1 :]
                    if not w.value.startswith("-")]
        if operands and operands[0] in _BY_SUBCOMMAND.get(head, ()):
            return Finding(DENY, "attack-tool", f"{segment.text!r} runs {head!r} "
                           f"{operands[0]!r}, an attack tool")
    image = _tool_image(segment)
    if image is not None:
        return Finding(DENY, "attack-tool", f"{segment.text!r} runs the image {image!r}, "
                       "named for an attack tool or a coin miner")
    if segment.command in DIRECTORY_CLIENTS and any(
            _DOMAIN_RECON.search(a) for a in segment.argv[1:]):
        return Finding(DENY, "attack-tool", f"{segment.text!r} enumerates a domain's accounts, "
                       "groups or services")
    script = _script(segment)
    if script in _DENIED_NAMES:
        return Finding(DENY, "attack-tool", f"{segment.text!r} runs {script!r}, an attack tool")
    program = program_words(segment)  # grep 'stratum+tcp://' src/ looks for one
    for index, word in enumerate(segment.words):
        marker = next((m for m in MINER_MARKERS if m in word.value), None)
        if marker is not None and index not in program and not is_data_word(segment, word):
            return Finding(DENY, "attack-tool", f"{segment.text!r} is given {marker!r}: "
                           "a coin miner's pool")
    return None
