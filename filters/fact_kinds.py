"""The kinds of fact no filter may drop: the tables the protected-line classifier reads.

Four tables, each of ``(kind, RE2 pattern)`` pairs, matched per line:

- :data:`MUST_KEEP_RULES`: always protected (errors, warnings, failures and their details,
  summaries and counts, "nothing to do" one-liners, versions that ran);
- :data:`SOURCE_RULES`: a location in source code, protected unless it is a library's
  (:data:`LIBRARY_PATH`);
- :data:`QUOTED_RULES`: lines that quote source or unfold values, never protected for the
  words they hold;
- :data:`LISTING_RULES`: the identifier lines of a listing and changed lines, protected
  while an output holds few of them (:data:`LISTING_LIMIT`, :data:`CHANGED_BLOCK`).
"""

from __future__ import annotations

__all__ = [
    "CHANGED_BLOCK",
    "LIBRARY_PATH",
    "LISTING_LIMIT",
    "LISTING_RULES",
    "MUST_KEEP_RULES",
    "QUOTED_RULES",
    "SOURCE_RULES",
]

MUST_KEEP_RULES: tuple[tuple[str, str], ...] = (
    # (kind, pattern) — a line matching any pattern is protected. Kinds of fact:
    # errors and failures
    # a word, not the name of a file or directory (``errors.py``, ``src/errors/``)
    ("error word", r"(?i)\berrors?(?:[^./\w]|\.(?:\s|$)|$)"),
    ("exception class", r"\b(?:[A-Z]\w*)?(?:Error|Exception|Warning)\b"),
    # (and pytest's subtests: ``SUBFAILED[n check] (n=3)``, ``SUBFAILED(i=1) tests/…``)
    ("failure word", r"(?i)\b(?:sub)?fail(?:s|ed|ure|ures|ing)?(?:[^./\w]|\.(?:\s|$)|$)"),
    ("panic", r"(?i)\bpanic(?:ked)?\b"),
    ("fatal", r"(?i)\bfatal\b"),
    ("traceback header", r"^Traceback \(most recent call last\)"),
    # pytest's explanation lines, but not the ``+  where x = f()`` lines that unfold values
    ("pytest assertion line", r"^E(?:\s+[^+\s]|\s+\+(?:\S|\s\S)|\s+\+\s\s+[^w\s]|\s*$)"),
    ("assertion", r"(?i)\bassert(?:ion)?\b"),
    ("expected/actual", r"(?i)^\s*(?:left|right|expected|actual|received|got|want)\b"),
    ("expectation", r"(?i)\bexpected\b|\bwant(?:ed)? \S|\bdid not (?:throw|raise|warn)\b"),
    (
        "cause",
        r"(?i)\bcaused by\b|\bconflict(?:s|ing)?\b|\bincompatible\b|\bunsatisfi|\bdepends on\b"
        r"|\bcould not resolve\b|\bcannot (?:find|resolve|install|open|read)\b",
    ),
    ("difference", r"(?i)\bdiffer(?:s|ing|ence|ent)?\b|\bdiff:|!=| vs\.? "),
    ("refusal", r"(?i)\bdenied\b|not permitted|\bforbidden\b|\bunauthori[sz]ed\b"),
    (
        "crash",
        r"(?i)segmentation fault|core dumped|\bkilled\b|out of memory"
        r"|\b(?:received|with default action of) signal\b|\bSIG(?:SEGV|ABRT|BUS|FPE|ILL)\b"
        # a test worker that died (pytest-xdist) and pytest's own crash
        r"|\bnode down:|\bcrashed worker\b|^INTERNALERROR>",
    ),
    # what a memory checker found (valgrind, AddressSanitizer): the access and the address
    (
        "memory error",
        r"(?i)\binvalid (?:read|write|free)\b|\bnot stack'd\b|\buninitiali[sz]ed\b"
        r"|\bconditional jump\b|\bdouble free\b|\b(?:heap|stack)-(?:buffer-overflow|use-after)",
    ),
    # npm marks every line of its error report; the usage text after it is not the error
    ("npm error", r"^npm (?:ERR!|_____) [^\s\[-]"),
    ("error code", r"\bcode:? '?E[A-Z0-9_]{2,}|\bcode: '?[A-Z][A-Z0-9]*_[A-Z0-9_]+"),
    # a workload that is down: kubectl's pod reasons, a container that exited with a failure
    # (``docker ps -a``: ``Exited (137) 2 hours ago``) or fails its health check
    (
        "workload failure",
        r"CrashLoopBackOff|ImagePullBackOff|ErrImagePull|OOMKilled|\bEvicted\b"
        r"|\bExited \([1-9]\d*\)|\(unhealthy\)",
    ),
    ("failed test marker", r"^\s*(?:✕|✗|✖|\x{00D7}|●)\s|^\s*not ok \d+"),
    # a test runner's progress letters holding a failure or an error: pytest's per-file line
    # and its continuation (``tests/test_api.py ..F..E.  [ 40%]``, ``u`` a passing subtest,
    # ``R`` a rerun of a flaky test), unittest's dots (``..F.E``): which files failed, in the
    # order they ran; a line of passes and skips only is progress
    ("failing progress", r"^(?:\S+\.py\s+)?[.sxXuRFE]*[FER][.sxXuRFE]*(?:\s+\[\s*\d+%\])?\s*$"),
    # pytest heads each failing test's block with its name between rulers of underscores:
    # the failing test's name. Matched as the engine's ruler compaction leaves it
    # (``___ test_write_timeout[trio] ___``), so that it is still shortened first; a name too
    # long for the terminal's width gets one underscore on each side (``_ test_x[https://…] _``);
    # pytest-sugar draws the rulers with horizontal bars (``――― test_x ―――``)
    ("failed test heading", r"^(?:_{3}|_|\x{2015}{3}) [^\s_\x{2015}].* (?:_{3}|_|\x{2015}{3})$"),
    # what a leak checker found (valgrind, LeakSanitizer)
    ("leak", r"(?i)\b(?:definitely|indirectly|possibly) lost\b|\bleak(?:s|ed)?\b"),
    # valgrind's heap summary: what was still held when the program ended
    ("heap summary", r"\bin use at exit: \d|\btotal heap usage: \d|\bstill reachable: \d"),
    # javac's and others' fields under an error: ``symbol  : method x()``, ``location: class Y``
    (
        "error field",
        r"^\s*(?:\[ERROR\]\s+)?(?:(?:symbol|required|found|reason)\s*:\s*\S|location\s*:\s*[a-z])",
    ),
    # warnings: for a linter or a compiler, the warnings are the result
    (
        "warning",
        r"(?i)\bwarn(?:s|ed|ing|ings)?(?:[^./\w]|\.(?:\s|$)|$)|\bEBADENGINE\b|\bdeprecated\b",
    ),
    # a diagnostic named by its code: ``E501``, ``SC2086 (info):``, ``TS2345``, ``W0611:``,
    # bandit's ``>> Issue: [B105:hardcoded_password_string] …``
    ("diagnostic code", r"(?:^|\s|\[)[A-Z]{1,4}\d{3,5}(?::|\s\(|\s*\t|\s|$)"),
    # kotlinc, javac under gradle: ``e: /src/App.kt: (12, 5): Unresolved reference: foo``
    ("severity letter", r"^\s*[ewEW]: \S+\.\w+"),
    # (and what to run again to fix what was found: syrupy's ``Re-run pytest with
    # --snapshot-update to delete unused snapshots.``)
    ("hint", r"(?i)^\s*(?:help|hint|tip):\s|^\s*re-?run \S+ with -"),
    # outcomes that are not a pass: skips and their reasons, expected failures, ignored tests,
    # reruns
    (
        "skip",
        r"(?i)\bskip(?:s|ped|ping)?\b|\bxfail(?:ed)?\b|\bxpass(?:ed)?\b|\[no test files\]"
        r"|\bignored\b|\bno tests?\b|at least one test|unexpected success"
        # a test that failed and was run again (pytest-rerunfailures)
        r"|(?-i:\bRERUN\b)"
        # a pending example and its reason (rspec's ``  caches it (PENDING: Not yet implemented)``)
        r"|(?-i:\(PENDING: [^)]*\)\s*$)",
    ),
    # summaries and counts
    (
        "count",
        r"(?i)\b\d+ (?:passed|failed|skipped|errors?|warnings?|tests?|suites?|packages?"
        r"|(?:source )?files?|director(?:y|ies)|problems?|issues?|deselected|xfailed|xpassed"
        r"|items?|added|removed|changed|upgraded|newly installed|vulnerabilit(?:y|ies)"
        r"|passing|pending|todo|cancell?ed|snapshots?"
        r"|insertions?\(?|deletions?\(?|to add|to change|to destroy|workers?|durations?|fixable"
        r"|(?:unsafe )?fix(?:es)? available)\b",
    ),
    (
        "exit status",
        r"(?i)\bexit(?:ed)? (?:with )?(?:code |status )?\d+\b|\bsuccessfully\b|\breturn code: \d",
    ),
    # the totals row of a table (coverage's ``TOTAL``, ``ls -l``'s ``total 264``) and a
    # query's row count (``(25 rows)``): the table's summary; not git's object counts
    # (``Total 3 (delta 2), reused 0``)
    ("table total", r"(?i)^\W*total\b[^(]*\d[^(]*$|^\(\d+ rows?\)$"),
    # the verdict of a coverage threshold (pytest-cov's ``--cov-fail-under``, coverage.py's
    # ``fail_under``): ``Required test coverage of 80% reached. Total coverage: 91.66%``
    ("coverage verdict", r"(?i)\brequired test coverage of [\d.]+% (?:not )?reached\b"),
    # a row of a coverage report, the table the command asked for: coverage.py's
    # ``src/a.py  120  60  50%`` and istanbul's ``a.js |  85.71 |  50 |  100 |  85.71 | 12-14``
    (
        "coverage row",
        r"^\S+\.\w+\s+\d+\s+\d+(?:\s+\d+\s+\d+)?\s+\d+(?:\.\d+)?%"
        r"|^[^|]*\S\s*\|\s*\d+(?:\.\d+)?\s*\|\s*\d+(?:\.\d+)?\s*\|\s*\d+(?:\.\d+)?\s*\|",
    ),
    # where a report the command was asked for went: coverage's ``Coverage HTML written to
    # dir htmlcov`` (and its XML, JSON, LCOV files; ``Wrote HTML report to …`` on its own
    # command line), pytest's ``generated xml file: …/junit.xml``, pytest-html's
    # ``Generated html report: file://…``
    (
        "report written",
        r"(?i)\bwritten to (?:dir|file) \S|\bwrote \w+ report to \S"
        r"|\bgenerated (?:xml file|html report): \S",
    ),
    # a formatter's verdict on each file and on the run (black, ruff format)
    (
        "formatting verdict",
        r"^(?:would reformat|reformatted) \S|^(?:Oh no!|All done!)",
    ),
    (
        "summary",
        r"(?i)^\s*(?:\[INFO\] )?(?:build (?:success|failure)|total time"
        r"|plan:|apply complete|saved the plan|your code has been rated|test result:"
        r"|tests?:\s|test suites:|ran \d+ tests?|OK(?:\s*\(|\s*$)|ok\s+[^\d\s]|--- (?:FAIL|SKIP)"
        r"|finished\b|done\b|found \d+|all checks passed|added \d+|up to date|audited \d+"
        r"|success\b|(?:PASS|FAIL)\s*$"
        r"|(?:#|\x{2139}) (?:tests|suites|pass|fail|cancelled|skipped|todo) \d+)",
    ),
    # a benchmark's measurement, the result the run was for: pytest-benchmark's table (its
    # header naming the unit, ``Name (time in ns)  Min  Max …``, and each row, ``test_sort
    # 227.8499 (1.0)  406,703.1499 (1.0) …``; with one benchmark it prints no ratio, ``test_sort
    # 227.8499  406,703.1499  …``; with ``--benchmark-compare`` each row names its run,
    # ``test_sort (0001_unknown)  227.8499 (1.0) …``, under ``Comparing against benchmarks
    # from: <saved run>``), cargo bench's ``bench:  1,234 ns/iter (+/- 5)``,
    # go's ``BenchmarkSort-8  1000000  1234 ns/op``
    (
        "benchmark result",
        r"^Name \(time in \w+\)\s|^\S+(?: \([\w.-]+\))?\s+[\d,]+\.\d+ \((?:[\d.]+|>1000\.0)\)\s"
        r"|^test\S*(?: \([\w.-]+\))?\s{2,}[\d,]+\.\d+\s{2,}[\d,]+\.\d+\s"
        r"|^Comparing against benchmarks from: \S"
        r"|\bbench:\s+[\d,.]+ ns/iter\b|^Benchmark\S*\s+\d+\s+[\d.]+ ns/op\b",
    ),
    # cmake's outcome, apt's plan: what the run did or is about to do
    (
        "outcome of a run",
        r"(?i)^-- (?:configuring|generating) (?:done|incomplete)|^-- build files have been written"
        r"|^the following (?:new |additional )?packages will be|^after this operation, ",
    ),
    ("outcome of a step", r"\.{3,} ?(?:SUCCESS|FAILURE|SKIPPED|OK|FAILED)\b"),
    (
        "nothing to do",
        r"(?i)nothing to (?:do|commit|be done)|\bup[ -]to[ -]date\b|no changes"
        r"|no (?:issues|problems|errors) found|would be left unchanged|\bunchanged\b"
        r"|already (?:installed|up|exists)|no such|not found|\bmissing\b|no tests? (?:ran|found)",
    ),
    ("line reference", r"(?i)\bline \d+:"),
    # a plan's heading for each resource it will act on (terraform, tofu:
    # ``  # aws_instance.web will be created``, ``  # aws_db.main must be replaced``): which
    # resource, and what happens to it; the attributes under it are the changed lines
    (
        "planned action",
        r"^\s*# \S.* (?:will|must) be (?:created|destroyed|replaced|updated|read)\b",
    ),
    # a package an install added, removed or changed: ``+ httpx==0.28.1``, ``- idna 3.4``
    (
        "package change",
        r"^\s*[+~-] @?[\w./-]+(?:\[[\w,]+\])?(?:==|@| )v?\d"
        r"|^\s*Found existing installation: \S",
    ),
    # pydantic's reason under a field of a validation error
    ("validation detail", r"\[type=[\w.]+, input_value="),
    # what ran: a tool's version banner, the commit a build checked out
    (
        "version banner",
        r"^[A-Z][\w.-]*(?: [A-Za-z][\w.-]*){0,2},? (?:version )?v?\d+\.\d+(?:\.\d+)+\b"
        r"|(?i)^commit message:|(?i)\bidentification is \S+ v?\d",
    ),
)
"""The must-keep rules, in order: kind, then RE2 pattern (per-line search)."""

SOURCE_RULES: tuple[tuple[str, str], ...] = (
    # failure details: a message that starts with the location it is about; after
    # ``path:line:`` a column, one space and the message, or nothing — not a search's
    # match (``grep -n``: ``path.py:191:async def f():``, the quoted code right after the
    # line number or indented), which is a line of the file, not a fact about it
    (
        "location",
        r"^\s*(?:\x{276F}\s*|at\s+)?[\w./\\@+-]*\w\.[A-Za-z]\w*:\d+(?::\d+)?"
        r"(?:[,)\]]|:(?:\d| \S|\s?$)|\s|$)",
    ),
    # the location line under a diagnostic (rustc's and ruff's ``--> src/a.py:3:1``)
    ("location arrow", r"^\s*--> ?\S*\w\.[A-Za-z]\w*:\d+"),
    ("traceback frame", r"^\s*File \"[^\"]+\", line \d+"),
    # a labelled location (node:test's diagnostics ``location: 'a.test.js:4:1'``, bandit's
    # ``Location: src/app.py:211:12`` under each finding) and a native frame's ``(file.c:36)``
    # and node's spec reporter's line above each failing test (``test at tests/a.test.js:64:9``)
    (
        "test location",
        r"^\s*(?i:location): '?\S+:\d+|\(\S+\.\w+:\d+\)\s*$|^test at \S+:\d+:\d+\s*$",
    ),
    # a finding about a whole file, headed by a ruler (biome's ``lib/error.js format ━━━``)
    ("file finding", r"^[\w./@+-]*\w\.[A-Za-z]\w* [a-z][\w/]*(?:\s+FIXABLE)?\s+\x{2501}{3}"),
    ("stack frame", r"^\s+(?:at|\x{276F}) \S.*:\d+(?::\d+)?\)?\s*$"),
    # a debugger's backtrace: ``#0  0x5555 in load_items (json=0x0) at inventory.c:16``
    ("debugger frame", r"^#\d+\s+\S.* at \S+:\d+\s*$"),
)
"""Lines pointing into source code: protected unless the code is a library's
(:data:`LIBRARY_PATH`) — a failure's location in the project is a fact, the frames of pytest,
pluggy or node's own modules (``node:internal/…``, ``(node:async_hooks:206:9)``) it went through
are not."""

LIBRARY_PATH = (
    r"site-packages/|dist-packages/|/lib/python\d[\d.]*/|\bnode_modules/|\bnode:internal|\(node:[a-z_]"
    r"|<frozen |\(internal/|/rustc/[0-9a-f]{7,}/|/\.cargo/registry/|/usr/(?:local/)?go/src/"
    r"|/usr/lib/jvm/"
)
"""Paths of code the project does not own (installed packages, runtimes, toolchains)."""

QUOTED_RULES: tuple[tuple[str, str], ...] = (
    # a code frame quotes source: ``  12 |   throw new TypeError(x)``, ``> 8 | expect(a)``,
    # and bandit's numbered lines under a finding (``76<TAB>    assert major >= 1``)
    ("code frame", r"^\s*>?\s*\d+\s*[|│]|^\d+\t"),
    # pytest unfolding the values of an assertion, and its hints
    (
        "assertion unfolding",
        r"^E\s+\+\s+(?:where|and)\b|^E\s+(?:Use -v to get more diff|For further information visit)",
    ),
    # a passing test, named by its words (``✓ reports errors (2 ms)``, TAP's ``ok 3 - fails
    # on bad input``, node's ``# Subtest: warns``): not a skip (``# SKIP``), which is a fact
    (
        "passing test",
        r"^\s*(?:\x{2713}|\x{221A}|\x{2714})\s[^#]*(?:\(\d+(?:\.\d+)? ?ms\)|\s\d+ms)\s*$"
        r"|^\s*ok \d+ - [^#]*$|^\s*# Subtest: ",
    ),
    # a line of ``git blame``: a commit, an author, a date and a line number, then the
    # source line it quotes (``0ec7f713d (pgjones 2023-06-11 15:03:45 +0100 405)  raise …``)
    ("blamed line", r"^\^?[0-9a-f]{7,40} (?:\S+ +)?\([^()]*\d{4}-\d\d-\d\d[^()]* \d+\) "),
    # the call Python quotes under a warning it reports (``  warnings.warn(DeprecationWarning(
    # msg))``): the record above it is the fact, the call is the code that made it
    ("warning call", r"^\s+warnings\.warn(?:_explicit)?\("),
    # a link to documentation under a diagnostic, located like it (mypy's ``a.py:5: note:
    # See https://…``): the diagnostic above is the fact, the link is where to read more
    ("documentation link", r":\d+(?::\d+)?: note: (?:See|Use) <?https?://"),
    # a Python statement quoted by a traceback, indented as code: an assignment
    # (``        expected = '...'``) or an ``except ...:`` clause (not ``raise X(``: in a
    # traceback without pytest's ``>`` marker, it is the line that raised)
    (
        "quoted statement",
        r"^ {4,}(?:[a-z_][\w.]*(?:\[[^\]]*\])?(?:, *[a-z_]\w*)* *[-+*/|&]?= *[^=\s]"
        r"|except\b[^:]*:\s*(?:#.*)?$)",
    ),
    # the head of a Python function or class a traceback quotes, indented as code: its
    # decorators and its ``def`` line (``    @pytest.mark.parametrize("qty,expected", …)``,
    # ``    def test_price(qty, expected):``): the failing test's name is its block's heading
    (
        "quoted definition",
        r"^ {4,}(?:(?:async +)?def|class) +\w+ *[(:]|^ {4,}@[A-Za-z_][\w.]*(?:\(|\s*$)",
    ),
    # the arguments of a frame as pytest's long traceback prints them above its source, flush
    # left (``qty = 7, unit = 0.15, expected = 1.06``): values, not the failure's detail
    ("frame arguments", r"^[a-z_]\w* = [^=\s]"),
    # the frames of a Rust backtrace (``RUST_BACKTRACE=1``) under a panic: a numbered
    # symbol (``   4: inventory::tests::average_empty``, ``   3: core::result::unwrap_failed``)
    # then its place, indented by 13 (``             at ./src/lib.rs:80:50``). The panic
    # line names the failure's location (``panicked at src/lib.rs:47:9:``); the frames are
    # the path the run took to it, like the library frames of a Python traceback
    ("rust backtrace frame", r"^ {1,3}\d{1,3}: (?:<|[\w<>]+::)\S*|^ {13}at \S+:\d+:\d+$"),
)
"""Lines that quote source code or unfold values: never protected for the words they hold
(``TypeError`` in a quoted line of code is not an error)."""

LISTING_RULES: tuple[tuple[str, str], ...] = (
    # identifier lines of structured listings, and changed lines
    ("package in a tree", r"^\s*[│├└ ]*[├└]─+ @?[\w./-]+(?:==|@| )v?\d"),
    # the top level of a drawn tree (tree, npm ls, pnpm list, uv tree): what it holds
    ("tree root", r"^[├└]─[─┬]? \S"),
    ("package totals", r"^Packages: [+-]\d+"),
    ("status entry", r"^\t\S|^(?:[MADRCU?!][ MADRCU?!]|[ ][MADRCU]) \S"),
    ("commit", r"^commit [0-9a-f]{7,40}\b|^(?:[*|/\\ ]+ )?[0-9a-f]{7,12} \S"),
    ("changed line", r"^\s*(?:[-+~]|-/\+|\+/-)\s+\S"),
    # a name listed with where it is defined (``pytest --fixtures``: ``tmp_path [session
    # scope] -- src/conftest.py:12``)
    ("definition with its location", r"^[\w.-]+(?: \[[\w ]+\])? -- \S+:\d+\s*$"),
    # a package an installer set up or removed, one step a line (apt, dpkg:
    # ``Setting up curl (7.88.1-10) ...``, ``Removing vim (2:9.0) ...``); not the steps
    # before (``Unpacking``, ``Preparing to unpack``), which name the same packages
    ("package step", r"^(?:Setting up|Removing|Purging) \S+ \("),
    # a package in a state other than installed: dpkg's held, removed or half-installed rows,
    # a name then columns (``hi  figlet  2.2.5-3``, ``rc  logrotate  3.21.0-1``; not
    # ``ii``), apt's local or removable ones (``curl/now 7.88 amd64 [installed,local]``)
    (
        "package state",
        r"^(?:[hrpu][ncuihfwt]|i[ncuhfwt])[ R]? {1,2}[\w.+:-]+ {2,}\S"
        r"|\[installed,(?:local|auto-removable)\]",
    ),
    # an installed package with a newer version (apt: ``[installed,upgradable to: 8.0]``);
    # its own kind, so a long list of them does not lift the protection of the rarer states
    ("upgradable package", r"\[installed,upgradable to: "),
    # a test named with how long it took (pytest's ``--durations``: ``0.30s call
    # tests/test_a.py::test_slow``)
    ("test duration", r"^\s*\d+(?:\.\d+)?m?s\s+(?:\w+\s+)?\S+::\S"),
    # a test that failed or was skipped, one event a line (``go test -json``:
    # ``{"Action":"fail","Package":"example.com/m","Test":"TestParse","Elapsed":0}``): each
    # names its own test, which a repeated fact's template would mask as a quoted value
    ("test outcome event", r"\"Action\":\"(?:fail|skip)\",(?:\"Package\":\"[^\"]*\",)?\"Test\":\""),
)
"""Identifier lines of a listing (status entries, commits, package changes) and changed lines
(``+``/``-``/``~`` of a diff, a plan, an expected/received comparison): protected while an
output holds at most :data:`LISTING_LIMIT` of them. A longer listing is the subject of the
output, not a fact in it: it is folded with exact counts, its first and last lines kept."""

LISTING_LIMIT = 40
"""Listing and changed lines are protected while an output holds at most this many."""

CHANGED_BLOCK = 8
"""Changed lines in a block of more than this many (a created resource, an added file) are
not protected one by one."""
