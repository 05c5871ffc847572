r"""Code inside interpreter one-liners and code-carrying options, looked into.

An interpreter one-liner (``python3 -c``, ``perl -e``, ``node -e``, ``php -r``, ``lua -e``,
``Rscript -e``, ``pwsh -c``, ``awk 'BEGIN{…}'``…) is judged by what its code does:

| found in the code                                              | verdict                 |
| -------------------------------------------------------------- | ----------------------- |
| process spawning (``os.system``, ``subprocess``, ``exec``,     | the quoted strings are  |
| ``child_process``, backticks, ``system(``, ``pty.spawn``…)      | judged as shell text:   |
|                                                                | deny when one is denied,|
|                                                                | else ask                |
| a destructive call (``shutil.rmtree``, ``os.remove``,          | deny on ``/``, ``~`` or |
| ``fs.rmSync``, ``FileUtils.rm_rf``, ``unlink``, ``Remove-Item``)| the home directory, else|
|                                                                | ask                     |
| a file write (``open(…, 'w')``, ``mode='w'``, ``File.write``,   | deny when a path it     |
| ``writeFileSync``, ``file_put_contents``, ``shutil.copy``…),    | names (or the home) is  |
| its path built by a call too (``open(os.path.expanduser(…),     | outside the roots       |
| 'a')``, Perl's ``open(F, ">>$ENV{HOME}/…")``)                   |                         |
| a socket or HTTP client                                        | deny with a secret path |
|                                                                | or a metadata address,  |
|                                                                | else ask                |
| decoding then evaluating (``eval(Buffer.from(…'base64'))``,    | ask (opaque)            |
| ``exec(b64decode(…))``)                                        |                         |
| evaluating text read at run time (``eval(STDIN.read)``,        | ask (opaque); deny when |
| ``eval(fs.readFileSync(0))``, ``exec(open(f).read())``)         | it is fetched (above)   |
| code that is not static (``ruby -e "$PAYLOAD"``)               | ask (opaque)            |
| none of these                                                  | nothing (allow)         |

The same look applies to the value of an option that GTFOBins lists as carrying code
(``vim -c``, ``gdb -ex``, ``tar --checkpoint-action``, ``git -c core.pager=``…), see
:mod:`.launchers`.
"""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Callable, Sequence

import attrs

from tooldeck.shell_analysis.findings import ASK, DENY, Finding
from tooldeck.shell_analysis.model import Segment, Word

__all__ = [
    "INTERPRETER_CODE_OPTIONS", "POWERSHELLS", "POWERSHELL_COMMAND", "STDIN_CODE",
    "WHOLE_ENVIRONMENT", "interpreter_code", "judge_code", "judge_interpreter", "shell_candidates",
]

STDIN_CODE = "<stdin>"
"""The option word the analysis puts before a program an interpreter reads on standard input
when the interpreter has no option of its own for inline code (``tclsh <<< '…'``): the
program is judged as that interpreter's one-liner (:func:`.carriers.stdin_program`)."""

POWERSHELLS = frozenset({"pwsh", "powershell"})
"""Shells whose one-liner is a command line: its words run commands as a shell's do
(``pwsh -c 'sudo id'``), so the whole code is judged as shell text; a backtick escapes
there, it runs nothing."""
POWERSHELL_COMMAND = frozenset({"-c", "-co", "-com", "-command"})
"""PowerShell's ``-Command`` and the shortenings its parameter binder accepts, lowered."""
_POWERSHELL_ENCODED = frozenset({"-e", "-ec", "-en", "-enc", "-encodedcommand"})
"""PowerShell's ``-EncodedCommand`` (base64 code) and its shortenings, lowered."""

INTERPRETER_CODE_OPTIONS: dict[str, frozenset[str]] = {
    "python": frozenset({"-c"}),
    # Python's other implementations and front ends take the same -c (their manuals)
    "pypy": frozenset({"-c"}), "jython": frozenset({"-c"}), "ipython": frozenset({"-c"}),
    "micropython": frozenset({"-c"}), "graalpy": frozenset({"-c"}),
    "perl": frozenset({"-e", "-E"}),
    "ruby": frozenset({"-e"}),
    "node": frozenset({"-e", "--eval", "-p", "--print"}),
    "nodejs": frozenset({"-e", "--eval", "-p", "--print"}),
    "deno": frozenset({"eval"}),
    "bun": frozenset({"-e", "--eval"}),
    "php": frozenset({"-r"}),
    "lua": frozenset({"-e"}),
    "luajit": frozenset({"-e"}),
    "rscript": frozenset({"-e"}),
    "r": frozenset({"-e"}),
    "julia": frozenset({"-e", "--eval"}),
    "tclsh": frozenset(), "wish": frozenset(),  # Tk's windowing shell reads Tcl as tclsh
    # PowerShell's parameters are case-insensitive and may be shortened (pwsh -?): the
    # words are lowered before the lookup (:data:`POWERSHELLS`)
    "pwsh": POWERSHELL_COMMAND | _POWERSHELL_ENCODED,
    "powershell": POWERSHELL_COMMAND | _POWERSHELL_ENCODED,
    "osascript": frozenset({"-e"}),
    "osacompile": frozenset({"-e"}),  # osacompile(1) compiles the -e lines like osascript's
    "jrunscript": frozenset({"-e"}),
    "clisp": frozenset({"-x"}),
    "guile": frozenset({"-c"}),
    "ghc": frozenset({"-e"}),
    "ghci": frozenset({"-e"}),
    "octave": frozenset({"--eval"}),
    "octave-cli": frozenset({"--eval"}),
    "gnuplot": frozenset({"-e"}),
    "slsh": frozenset({"-e"}),
    "jjs": frozenset(), "jshell": frozenset(),
    "puppet": frozenset({"-e"}),
    "groovy": frozenset({"-e"}),
    "scala": frozenset({"-e"}),
    "elixir": frozenset({"-e"}),
    # the interactive shells of Elixir and Ruby evaluate what they read when fed a pipe
    # (iex -e runs code as elixir -e does; irb has no inline option): GTFOBins' irb
    "iex": frozenset({"-e"}), "irb": frozenset(),
    "erl": frozenset({"-eval"}),
    "raku": frozenset({"-e"}), "perl6": frozenset({"-e"}), "rakudo": frozenset({"-e"}),
    # Swift's, Kotlin's, TypeScript runners' and CoffeeScript's one-liners (their manuals:
    # swift -e, kotlinc -e, ts-node -e|--eval, tsx -e|--eval, coffee -e)
    "swift": frozenset({"-e"}), "kotlinc": frozenset({"-e"}), "kotlin": frozenset({"-e"}),
    "ts-node": frozenset({"-e", "--eval", "-p", "--print"}),
    "tsx": frozenset({"-e", "--eval", "-p", "--print"}), "coffee": frozenset({"-e", "--eval"}),
    "racket": frozenset({"-e", "--eval"}), "sbcl": frozenset({"--eval"}),
    "bb": frozenset({"-e", "--eval"}), "qjs": frozenset({"-e", "--eval"}),
    "rhino": frozenset({"-e"}), "nu": frozenset({"-c", "--commands"}),
    "xonsh": frozenset({"-c"}), "clojure": frozenset({"-e", "--eval"}),
    "swipl": frozenset({"-g"}), "gst": frozenset({"-e", "--eval"}),
    # the MongoDB shells run JavaScript with Node's require (mongosh's manual): Falco's "DB
    # program spawned process" is a database client spawning a shell
    "mongosh": frozenset({"--eval"}), "mongo": frozenset({"--eval"}),
}
"""Interpreters by base name (version digits stripped), with their code-carrying options."""

_AWKS = frozenset({"awk", "gawk", "mawk", "nawk", "busybox-awk"})
_SPAWN = re.compile(
    r"os\.system|os\.popen|os\.exec|os\.spawn|subprocess|pty\.spawn|commands\.getoutput|"
    r"child_process|exec(?:Sync|File|FileSync)?\s*\(|spawn(?:Sync)?\s*\(|\bexec\b|"
    r"(?<!platform\.)(?<!os\.)\bsystem\b(?!\.(?:out|err|in|exit|getProperty|getenv|"
    r"currentTimeMillis|nanoTime|arraycopy|lineSeparator)\b)(?!\s+Events\b)|popen|shell_exec|"
    r"passthru|"  # (AppleScript's "System Events" is an application, not system())
    r"proc_open|pcntl_exec|"
    r"os\.execute|run-shell-command|Runtime\.getRuntime|ProcessBuilder|Process\.Start|"
    r"Start-Process|Invoke-Expression|\biex\b|write18|%x[{(\[]|\bqx\b|Kernel\.spawn|Open3|"
    r"do shell script|doShellScript|\bdo script\b|"
    r"\bshell\s*\(|\|\s*getline|\|&|\$\(shell|execute\(|:!|"
    r"\bspawn\b|Deno\.run|Deno\.Command|Bun\.spawn|\bpipe\(readLines|\bpipe\(|"
    # Common Lisp's run-program (SBCL's sb-ext, CCL, UIOP: GTFOBins' sbcl)
    r"\brun-program\b|"
    # Foundation's Process/NSTask (Swift, Objective-C): the program it launches
    r"\bNSTask\b|\bposix_spawn|\.executableURL\b|\.launchPath\b|"
    # Bun's shell (Bun.$`cmd`: the bun manual's "Bun Shell")
    r"\bBun\.\$|"
    # (Java's System.out, System.exit … are no spawn; Haskell's System.Process is one)
    # R's system2(), awk's print | "cmd", Perl's piped open (each language's manual)
    # Perl's three-argument piped open, Node's internal spawn binding, Scala's sys.process,
    # Erlang's os:cmd and open_port, IPython's system magics (each language's manual)
    r"[\"'](?:-\||\|-)[\"']|process\.binding\s*\(|\bsys\.process\b|\bos:cmd\b|"
    r"\bopen_port\s*\(|%(?:sx|system)\b|get_ipython\(\)\.system|"
    r"\bsystem2\s*\(|\bprint\b[^|;{}\n]*\|\s*[\"']|\bopen\s*\(?\s*\w+\s*,\s*[\"']\s*\||"
    r"\bopen\s*\(?\s*\w+\s*,\s*[\"'][^\"']*\|\s*[\"']",
    re.IGNORECASE,
)
_CLIPBOARD = re.compile(
    r"(?<!set )\bthe clipboard\b|NSPasteboard|pyperclip\.paste|Get-Clipboard|"
    r"clipboard_get\(|clipboard\.readText|Clipboard\.GetText", re.IGNORECASE)
"""Code reading the clipboard (AppleScript's ``the clipboard``, LOOBins' osascript entry;
Cocoa's pasteboard, pyperclip, PowerShell, Tk, Electron, .NET): denied as ``pbpaste`` is,
where passwords are copied; AppleScript's ``set the clipboard to`` writes it."""
_KEYRING = re.compile(
    r"keyring\.get_(?:password|credential)\b|keyring[\s\S]*\bget_(?:password|credential)\s*\(|"
    r"keytar[\s\S]*\b(?:getPassword|"
    r"findPassword|findCredentials)\s*\(|SecKeychainFind\w*Password|SecItemCopyMatching|"
    r"secretstorage\.\w+|\.get_secret\(\)|libsecret|Secret\.password_lookup")
"""Code reading a stored password through the OS keyring's API (Python's ``keyring`` and
``secretstorage``, Node's ``keytar``, Apple's Security framework, libsecret): denied as
``security find-generic-password -w`` and ``secret-tool lookup`` are."""
_PASSWORD_PROMPT = re.compile(r"\bdisplay dialog\b[^\n]*\bwith hidden answer\b|"
                              r"\bSecureTextField\b|\bNSSecureTextField\b", re.IGNORECASE)
"""Code that asks the user for a password in a dialog of its own (AppleScript's ``display
dialog … with hidden answer``, LOOBins' osascript entry, MITRE ATT&CK T1056.002 GUI input
capture; a Cocoa or SwiftUI secure field): a password typed there goes to the code."""
_KEYSTROKES = re.compile(r"\bkeystroke\b|\bkey code\b|CGEventPost|CGEventCreateKeyboardEvent",
                         re.IGNORECASE)
"""Code typing into other applications (AppleScript's System Events ``keystroke``/``key code``,
Quartz's ``CGEventPost``): what it types into a terminal runs there."""
_LOGIN_ITEM = re.compile(r"\bmake\s+(?:new\s+)?login\s+item\b|SMLoginItemSetEnabled|"
                         r"LSSharedFileListInsertItem", re.IGNORECASE)
"""Code that adds a login item (System Events' ``make login item``, the Service Management and
Launch Services calls; MITRE T1547.015): a program started at every login."""
_PRIVILEGE = re.compile(r"\bset(?:e|re|res)?[ug]id\s*\(\s*0\b|POSIX::set[ug]id\(\s*0")
"""Code that makes itself root (GTFOBins ``capabilities``: ``os.setuid(0)``)."""
_POWER = re.compile(
    r"\b(?:Restart|Stop)-Computer\b|"
    r"«event aevt(?:shut|rest|rsdn|rrst|rlgo|logo)»|"
    r"\btell\s+app(?:lication)?\s+[\"'](?:System Events|Finder|loginwindow)[\"']\s+to\s+"
    r"(?:shut\s*down|restart|log\s*out|sleep)\b", re.IGNORECASE)
"""PowerShell's own power commands, and AppleScript's: System Events' or Finder's ``shut down``,
``restart``, ``log out`` and ``sleep``, and the raw Apple events loginwindow takes for them
(Apple's AERegistry: ``aevtshut``, ``aevtrest``, ``aevtrsdn``, ``aevtrrst``, ``aevtrlgo``,
``aevtlogo``)."""
_BACKTICK = re.compile(r"`[^`]+`")
_TEMPLATE_LANGUAGES = frozenset({"node", "nodejs", "deno", "bun", "osascript", "jrunscript",
                                 "mongosh", "mongo"})
_DESTROY = re.compile(
    r"rmtree|os\.remove|os\.unlink|os\.rmdir|removedirs|\bunlink\b|rm_rf|rm_r\b|"
    r"FileUtils\.rm|rmSync|rmdirSync|unlinkSync|fs\.rm\b|fs\.rm\(|Remove-Item|\bdel\s+/|"
    r"File\.delete|Files\.delete|file\.remove|rimraf|shred|truncate\(|\brm\(|\bunlink\(|"
    r"delete-directory|rmdir\(|"
    # AppleScript's Finder and System Events deleting items (osascript(1))
    r"\bto delete\b|\bdelete (?:every|the|folder|file|items?)\b|"
    # PHP's file functions (the PHP manual)
    r"\bunlink\s*\(|\brmdir\s*\(|"
    # Foundation's file manager from JXA or Swift (removeItemAtPath:error:, removeItem(at:),
    # trashItemAtURL:…; Apple's NSFileManager reference)
    r"\bremoveItem(?:AtPath|AtURL|\b)|\btrashItem|"
    # recursive removals by their libraries' names: Perl's File::Path (remove_tree), Ruby's
    # FileUtils (remove_dir, remove_entry), Go's os.RemoveAll, Rust's remove_dir_all, Kotlin's
    # deleteRecursively, Tcl's file delete (each language's reference)
    r"\bremove_tree\b|\bremove_(?:dir|entry)(?:_secure)?\b|\bRemoveAll\b|\bremove_dir_all\b|"
    r"\bdeleteRecursively\b|\bfile\s+delete\b",
    re.IGNORECASE,
)
_HOME_OR_ROOT = re.compile(
    r"Dir\.home|homedir|expanduser|Path\.home|\$ENV\{HOME\}|getenv\(['\"]HOME|"
    r"environ\[['\"]HOME|process\.env\.HOME|\$HOME|\$env:USERPROFILE|~|['\"]/['\"]|"
    r"['\"]/(?:etc|usr|var|home|root|bin|boot|lib|opt|srv)\b|"
    # macOS's own roots (the users' homes, the system and the local domain, mounted volumes)
    r"['\"]/(?:Users|Library|System|Applications|private|Volumes)\b|"
    # AppleScript's home folder, PHP's and Ruby's views of HOME
    r"\bof home\b|\bpath to home folder\b|\$_SERVER\[['\"]HOME|\$_ENV\[['\"]HOME|ENV\[['\"]HOME|"
    # Foundation's home directory (NSHomeDirectory(), homeDirectoryForCurrentUser)
    r"NSHomeDirectory|homeDirectoryForCurrentUser|"
    # the JVM's home directory (System.getProperty("user.home"))
    r"user\.home\b",
)
_WRITE = re.compile(
    r"open\((?:[^()]|\([^()]*\))*['\"][wax]b?\+?['\"]|mode\s*=\s*['\"][wax]|\.write_(?:text|bytes)\(|"
    r"File\.write|IO\.write|File\.open\([^)]*['\"][wa]|writeFileSync|appendFileSync|"
    r"fs\.writeFile|fs\.appendFile|file_put_contents|fopen\([^)]*['\"][wax]|shutil\.copy|"
    r"shutil\.move|os\.rename|os\.replace|copyFileSync|renameSync|Set-Content|Out-File|"
    r"Add-Content|\bspurt\b|>>?\s*['\"]?(?:[/~]|\$ENV\{HOME\})|['\"]\+?>>?['\"]|\\openout|FileWriter|"
    r"\bfile\s*\{|os\.OpenFile|ioutil\.WriteFile|os\.WriteFile|\bdump\s+(?:value|memory)|"
    r"(?<![.\w])(?:copy|rename)\s*\(|"  # PHP's copy() and rename()
    # Foundation's writers (writeToFile:atomically:…, createFileAtPath:…, moveItemAtPath:…)
    r"\bwriteTo(?:File|URL)|\bcreateFileAtPath|\b(?:move|copy)ItemAt(?:Path|URL)|"
    # a file's mode or owner changed (os.chmod, fs.chmodSync, File.chmod, FileUtils.chown…):
    # /etc/passwd made writable is a write to it
    r"\b(?:l?ch(?:mod|own)|fchmodat)(?:Sync)?\s*\(",
    re.IGNORECASE,
)
_LITERAL_PATH = re.compile(r"['\"]((?:/|~/)[^'\"\s]*)['\"]")
_HOME_CALL = re.compile(r"Dir\.home|homedir\(|expanduser\(|Path\.home\(|\$ENV\{HOME\}|"
                        r"NSHomeDirectory|homeDirectoryForCurrentUser|"
                        r"getenv\(['\"]HOME|environ\[['\"]HOME|process\.env\.HOME|\$HOME|"
                        r"\$_(?:SERVER|ENV)\[['\"]HOME")
_SYMLINK_CALL = re.compile(r"symlink\w*\s*\([^,)]*")


_BARE_PATH = re.compile(r"(?:^|[\s(,=>])((?:~|/(?:etc|usr|var|home|root|bin|boot|lib|opt|srv|tmp))"
                        r"/[^\s'\"),;]*)")


def _write_targets(code: str) -> list[str]:
    """Absolute or home paths a writing one-liner names (not a symlink's target)."""
    text = _SYMLINK_CALL.sub("", code)
    found = [m.group(1) for m in _LITERAL_PATH.finditer(text)]
    found += [m.group(1) for m in _BARE_PATH.finditer(text)]
    if _HOME_CALL.search(text):
        found.append("~/")
    return found


_NETWORK = re.compile(
    r"socket|urlopen|urllib|requests\.|http\.client|httplib|fetch\s*\(|XMLHttpRequest|"
    r"Net::HTTP|IO::Socket|LWP|fsockopen|TCPSocket|curl_exec|Invoke-WebRequest|\b(?:iwr|irm)\s|"
    r"Invoke-RestMethod|WebClient|http\.get|https\.get|net\.connect|/dev/tcp|/inet6?/(?:tcp|udp)|"
    r"\.request\(|net\.Dial|createConnection|Socket\(|socketConnection|make\.socket|"
    # URL readers by their manuals: PHP's URL wrappers, Ruby's open-uri, Node's http modules
    r"(?:file_get_contents|fopen|readfile|include|require)(?:_once)?\s*\(?\s*['\"](?:https?|ftp)://|"
    r"URI\.open|open-uri|require\(\s*['\"](?:https?|http2|net)['\"]\s*\)|"
    # Foundation's URL loading (JXA and Swift: NSString/NSData stringWithContentsOfURL…,
    # NSURLSession; Apple's Foundation reference; Sigma's JXA in-memory execution)
    r"ContentsOfURL|NSURLSession|NSURLConnection|\bURLSession\b",
    re.IGNORECASE,
)
_RUN_TEXT = re.compile(
    r"(?<![.\w])eval\b|(?<![.\w])exec\s*\(|\bFunction\s*\(|instance_eval|loadstring\s*\(|"
    r"runInThisContext|runInNewContext|vm\.Script|Invoke-Expression|\biex\b|"
    r"(?<![.\w])load\s*\(\s*io\.")  # Lua's load(io.read(…)): a chunk read as code
"""Running a string as code (``eval``, ``exec(``, ``new Function(``; not ``model.eval()``)."""
_READ_AT_RUN_TIME = re.compile(
    r"\bSTDIN\b|\$stdin|sys\.stdin|process\.stdin|php://stdin|<\s*(?:STDIN)?\s*>|"
    r"readFileSync|\breadFile\s*\(|File\.read|IO\.read|File\.open|\bopen\s*\(|"
    r"file_get_contents|\bio\.read|io\.open|\bslurp\b|readLines|readTextFile|Bun\.file|"
    r"read_to_string|ContentsOfFile|readline")
"""Code text that comes from standard input or a file at run time (each language's reader:
``STDIN.read``, ``sys.stdin``, ``readFileSync(0)``, Perl's ``<STDIN>``, ``File.read``,
``open(…)``, ``file_get_contents``, Lua's ``io.read``, JXA's ``stringWithContentsOfFile``)."""
_SENSITIVE = re.compile(
    r"169\.254\.169\.254|metadata\.google|100\.100\.100\.200|\.ssh|\.aws|\.npmrc|\.netrc|"
    r"\.env\b|id_rsa|id_ed25519|/etc/shadow|credentials|\.git-credentials|\.kube|\.docker|"
    r"\.gnupg|\.pypirc|environ\b",
    re.IGNORECASE,
)
WHOLE_ENVIRONMENT = re.compile(
    r"process\.env(?![.\[\w])|Deno\.env\.toObject|"
    r"os\.environ(?![\[\w]|\.(?:get|setdefault|pop|update|__getitem__)\b)|"
    r"\bENV\.(?:to_h|to_a|to_hash|each\w*|inspect|keys|values|map|select|sort\w*|filter\w*)\b|"
    r"\b(?:p|pp|puts|print)\s*\(?\s*ENV\b(?!\s*\[)|%ENV\b|"
    r"\$_(?:ENV|SERVER)\b(?!\s*\[)|(?<![.\w])getenv\(\s*\)|System\.getenv\(\s*\)")
"""The whole environment taken at once, not one variable (Node's ``process.env`` and Deno's
``Deno.env.toObject()``, Python's ``os.environ``, Ruby's ``ENV``, Perl's ``%ENV``, PHP's
``$_ENV``/``$_SERVER``/``getenv()``, Java's ``System.getenv()``; each language's manual).
``process.env.HOME``, ``os.environ["HOME"]``, ``os.environ.get(…)``, ``ENV["HOME"]`` and
``$ENV{HOME}`` read one variable."""
_DECODE = re.compile(
    r"base64|b64decode|atob\(|fromCharCode|unhexlify|decode\(['\"](?:hex|rot)|zlib|marshal|"
    r"pack\(['\"]H|Buffer\.from|FromBase64String|-enc\b|codecs\.decode|bytes\.fromhex|"
    r"\[char\]",
    re.IGNORECASE,
)
_ARGUMENTS = re.compile(r"ARGV|sys\.argv|process\.argv|\$argv|\$\*|\$@|commandArgs|@ARGS")
_EVAL = re.compile(r"\beval\b|\bexec\b|Function\(|compile\(|instance_eval|load\(|"
                   r"Invoke-Expression|\biex\b", re.IGNORECASE)
_STRINGS = (
    re.compile(r"\"((?:[^\"\\]|\\.)*)\""), re.compile(r"'((?:[^'\\]|\\.)*)'"),
    re.compile(r"`([^`]*)`"), re.compile(r"\{([^{}]*)\}"), re.compile(r"\(([^()]*)\)"),
)
_SHELL_PREFIXES = re.compile(
    r"^(?:\s+|[:!@+-]|\\!|exec[= ]|\.system\s|\.shell\s|execute\(|"
    r"(?:platform\s+)?(?:shell|system)\s|[0-9$,/]*e\s)+")
_STATEMENT_BREAKS = re.compile(r"[;\n\t]")
_BARE_SHELLS = re.compile(
    r"^(?:/bin/|/usr/bin/)?(?:ba|da|z|k|c|tc|fi|a)?sh(?:\s+(?:-[a-z]+|[0-9]?[<>]&?[0-9]?\S*))*$")


def _glued(value: str, options: frozenset[str]) -> bool:
    """``-eCODE`` (a short option with its value glued) or ``--eval=CODE``."""
    if "=" in value and value.split("=", 1)[0] in options:
        return True
    return any(len(o) == 2 and o.startswith("-") and value.startswith(o) and len(value) > 2
               for o in options)


def interpreter_code(segment: Segment) -> tuple[str, list[Word]] | None:
    """Find the code words of an interpreter one-liner.

    :param segment: one analysed segment.
    :returns: ``(interpreter, code words)`` or ``None`` when the segment is no one-liner.
    """
    if not segment.command_positions:
        return None
    name = segment.command.rstrip("0123456789.-")
    if name not in INTERPRETER_CODE_OPTIONS and name not in _AWKS and segment.command not in (
            "octave-cli",):
        return None
    key = segment.command if segment.command == "octave-cli" else name
    args = segment.words[segment.command_positions[-1] + 1 :]
    if key in _AWKS:
        program = _awk_program(args)
        return (key, [program]) if program is not None else None
    options = INTERPRETER_CODE_OPTIONS[key]
    code: list[Word] = []
    for index, word in enumerate(args):
        value = word.value.lower() if key in POWERSHELLS else word.value
        if (value in options or value == STDIN_CODE) and index + 1 < len(args):
            code.append(args[index + 1])
        elif _glued(value, options):
            code.append(word)
    loaded = _loaded_modules(key, args)
    if loaded and code:  # perl -MLWP::Simple -e 'get(…)': the module is part of the code
        code = [attrs.evolve(w, value=f"{loaded} {w.value}") for w in code]
    return (key, code) if code else None


_MODULE_OPTIONS = {"perl": ("-M", "-m"), "ruby": ("-r",), "node": ("-r", "--require"),
                   "nodejs": ("-r", "--require")}


def _loaded_modules(key: str, args: Sequence[Word]) -> str:
    """The modules an option loads before the code runs, as the code would load them.

    ``perl -MLWP::Simple`` is ``use LWP::Simple;``, ``ruby -rnet/http`` is ``require
    'net/http'`` (perlrun(1), ruby(1), node(1)).
    """
    prefixes = _MODULE_OPTIONS.get(key)
    if prefixes is None:
        return ""
    found = []
    for index, word in enumerate(args):
        value = word.value
        if value in prefixes and index + 1 < len(args):
            found.append(args[index + 1].value)
        elif value.startswith(prefixes) and not value.startswith("--") and len(value) > 2:
            found.append(value[2:])
    if key == "perl":
        return " ".join(f"use {m.partition('=')[0]};" for m in found)
    return " ".join(f"require('{m}');" for m in found)


_HOME_REFERENCES = re.compile(
    r"\$ENV\{HOME\}|\$ENV\{['\"]HOME['\"]\}|process\.env\.HOME|Dir\.home|"
    r"(?:os\.)?homedir\(\)|getenv\(['\"]HOME['\"]\)|\$env:(?:HOME|USERPROFILE)|%USERPROFILE%",
)


def shell_candidates(code: str) -> list[str]:
    """The pieces of a code text that may be shell commands.

    The whole text, its quoted strings and its statements, with prefixes such as ``shell ``
    or ``!`` removed.

    :param code: the code text (a one-liner, an option's value).
    :returns: the candidates, duplicates removed, in order.
    """
    code = _HOME_REFERENCES.sub("~", code)  # the shell analyzer knows ~ as the home directory
    found = [code]
    for pattern in _STRINGS:
        found.extend(m.group(1) for m in pattern.finditer(code) if m.group(1))
    pieces = [p for p in _STATEMENT_BREAKS.split(code) if p.strip()]
    if len(pieces) > 1:  # make recipes, gdb/ex command lists: each statement on its own
        found.extend(pieces)
    return list(dict.fromkeys(_SHELL_PREFIXES.sub("", c).strip() for c in found))


def judge_code(code: str, shell_judge: Callable[[str], Finding | None],
               *, whole_is_shell: bool = False, backticks: bool = True) -> Finding | None:
    """Judge a piece of code in some language by what it spawns, destroys or sends.

    :param code: the code text.
    :param shell_judge: judges one string as shell text (the analyzer, recursively).
    :param whole_is_shell: whether the whole text may be shell code too (an option value),
        not only the strings inside it.
    :param backticks: whether backticks run a command in this language (not JavaScript's
        template literals).
    :returns: the finding, or ``None`` when nothing of note was found.
    """
    spawn = _SPAWN.search(code) is not None or (backticks and _BACKTICK.search(code) is not None)
    if spawn or whole_is_shell:
        for candidate in shell_candidates(code):
            if _BARE_SHELLS.match(candidate.split(" #", 1)[0].strip()):
                return Finding(DENY, "embedded-code", f"the code spawns a shell ({candidate!r})")
            judged = candidate and (whole_is_shell or candidate != code)
            found = shell_judge(candidate) if judged else None
            if found is not None and found.verdict == DENY:
                return Finding(DENY, "embedded-code",
                               f"the code runs {candidate[:60]!r}: {found.detail}")
    if _PRIVILEGE.search(code):
        return Finding(DENY, "embedded-code", "the code makes itself root (setuid(0))")
    if _CLIPBOARD.search(code):
        return Finding(DENY, "embedded-code", "the code reads the clipboard")
    if _KEYRING.search(code):
        return Finding(DENY, "embedded-code", "the code reads a password from the keyring")
    if _PASSWORD_PROMPT.search(code):
        return Finding(DENY, "embedded-code", "the code asks for a password in a dialog of "
                       "its own (GUI input capture)")
    if _POWER.search(code):
        return Finding(DENY, "embedded-code", "the code restarts or stops the machine")
    if _LOGIN_ITEM.search(code):
        return Finding(DENY, "embedded-code", "the code adds a login item (persistence)")
    destroy = _DESTROY.search(code) is not None
    if destroy and _HOME_OR_ROOT.search(code):
        return Finding(DENY, "embedded-code", "the code deletes outside the project")
    if _WRITE.search(code) is not None:
        for target in _write_targets(code):
            found = shell_judge(f": > {shlex.quote(target)}")
            if found is not None and found.verdict == DENY:
                return Finding(DENY, "embedded-code", f"the code writes {target!r} outside "
                               "the project")
    network = _NETWORK.search(code) is not None
    if network and (_SENSITIVE.search(code) or WHOLE_ENVIRONMENT.search(code)):
        return Finding(DENY, "embedded-code", "the code sends or fetches sensitive data")
    if network and spawn:
        return Finding(DENY, "embedded-code", "the code connects out and runs a process "
                       "(a reverse shell)")
    if network and _RUN_TEXT.search(code):
        return Finding(DENY, "embedded-code", "the code fetches code and runs it "
                       "(download-exec in one line)")
    if _DECODE.search(code) and _EVAL.search(code):
        return Finding(ASK, "embedded-code", "the code decodes then runs something")
    if _RUN_TEXT.search(code) and _READ_AT_RUN_TIME.search(code):
        return Finding(ASK, "embedded-code", "the code runs text it reads at run time "
                       "(opaque)")
    if spawn:
        return Finding(ASK, "embedded-code", "the code spawns a process")
    if _KEYSTROKES.search(code):
        return Finding(ASK, "embedded-code", "the code types into other applications")
    if destroy:
        return Finding(ASK, "embedded-code", "the code deletes files")
    if network:
        return Finding(ASK, "embedded-code", "the code opens a network connection")
    return None


def _ipython_escapes(words: list[Word], shell_judge: Callable[[str], Finding | None]
                     ) -> list[Finding]:
    """IPython's ``!cmd`` lines, judged as the shell commands they are (spawns ask)."""
    found: list[Finding] = []
    for word in words:
        for line in word.value.splitlines():
            if line.lstrip().startswith("!"):
                command = line.lstrip()[1:].lstrip("!").strip()
                judged = shell_judge(command)
                found.append(Finding(DENY, "embedded-code", f"the code runs {command!r}: "
                                     f"{judged.detail}") if judged is not None
                             and judged.verdict == DENY else
                             Finding(ASK, "embedded-code", "the code spawns a process"))
    return found


_AWK_VALUED = frozenset({"-v", "-F", "--assign", "--field-separator"})
_AWK_FILES = frozenset({"-f", "--file", "-E", "--exec"})


def _awk_program(args: Sequence[Word]) -> Word | None:
    """The program text of an awk command: the first operand that is no option's value.

    ``awk -v x=1 '{…}'``: the ``-v`` value is skipped; ``awk -f prog.awk``: no inline program.
    """
    skip = False
    for word in args:
        if skip:
            skip = False
            continue
        if word.value in _AWK_FILES:
            return None
        if word.value in _AWK_VALUED:
            skip = True
            continue
        if not word.value.startswith("-"):
            return word
    return None


def _awk_bound(segment: Segment, program: Word) -> Word:
    """An awk program with each ``-v NAME=VALUE`` variable written in as a string literal.

    Its regular expression constants are emptied: they are data.
    """
    args = [w.value for w in segment.words[segment.command_positions[-1] + 1 :]]
    text = program.value
    for option, value in itertools.pairwise(args):
        name, eq, bound = value.partition("=")
        if option == "-v" and eq and name.isidentifier():
            literal = '"' + bound.replace("\\", "\\\\") + '"'  # re.sub reads backslashes
            text = re.sub(rf"\b{re.escape(name)}\b", literal, text)
    text = _AWK_REGEX.sub(r"\1//", text)
    return program if text == program.value else attrs.evolve(program, value=text)


_AWK_REGEX = re.compile(r"(^|[\n{;(,!~&|]\s*)/(?:\\.|[^/\n])+/")
"""A regular expression constant where awk expects a pattern or an operand (awk(1)): its
text is matched against input, never run (``awk '/system/ {print}'`` spawns nothing)."""


def judge_interpreter(segment: Segment,
                      shell_judge: Callable[[str], Finding | None]) -> Finding | None:
    """Judge an interpreter one-liner segment.

    :param segment: one analysed segment.
    :param shell_judge: judges one string as shell text.
    :returns: the finding, or ``None``.
    """
    found = interpreter_code(segment)
    if found is None:
        return None
    name, words = found
    for word in words:
        if word.dynamic and not word.value.strip():
            return Finding(ASK, "embedded-code", f"{name} code {word.source!r} is not static")
    command_line = name in POWERSHELLS
    if command_line and any(w.value.lower() in _POWERSHELL_ENCODED
                            for w in segment.words[segment.command_positions[-1] + 1 :]):
        return Finding(ASK, "embedded-code", f"{name} runs base64-encoded code (opaque)")
    backticks = name not in _TEMPLATE_LANGUAGES and not command_line
    if name in _AWKS:  # awk -v cmd=sh 'BEGIN{system(cmd)}': the variable's value is the code
        words = [_awk_bound(segment, w) for w in words]
    findings = [f for w in words if (f := judge_code(
        w.value, shell_judge, whole_is_shell=command_line, backticks=backticks)) is not None]
    if name == "ipython":  # a line '!cmd' is shell code (IPython's system shell escape)
        findings.extend(_ipython_escapes(words, shell_judge))
    if any(w.dynamic for w in words) and not findings:
        findings.append(Finding(ASK, "embedded-code", f"{name} code is built at run time"))
    if not findings and any(_EVAL.search(w.value) and _ARGUMENTS.search(w.value) for w in words):
        args = segment.words[segment.command_positions[-1] + 1 :]
        if any(w.dynamic for w in args if w not in words):
            findings.append(Finding(ASK, "embedded-code", f"{name} code runs an argument only "
                                    "known at run time"))
    for finding in findings:
        if finding.verdict == DENY:
            return finding
    return findings[0] if findings else None
