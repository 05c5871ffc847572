r"""The tree-sitter walk: from a command string to segments, redirections and opaque reasons.

| construct                              | handling                                           |
| -------------------------------------- | -------------------------------------------------- |
| ``&& || ; | & |&``, newlines           | every simple command becomes a segment             |
| ``$(…)``, backticks                    | walked, origin ``substitution``                    |
| ``<(…)``, ``>(…)``                     | walked, origin ``process substitution``            |
| ``( … )``, functions                   | walked, origin ``subshell`` / ``function``         |
| ``{ …; }``, if/for/while/case          | walked, origin unchanged                           |
| ``for f in A B`` / ``select``          | ``f`` bound to each word, listed in ``assignments`` |
|                                        | (the body's ``$f`` is judged with them)            |
| ``xargs CMD <<< TEXT`` / ``<< EOF``    | also a segment ``CMD`` + the literal input's words |
| ``VAR=value cmd``                      | prefix removed; ``IFS=`` anywhere is opaque        |
| ``\<newline>`` outside quotes/comments | removed before parsing, as bash's reader does      |
|                                        | (``"$\<newline>(cmd)"`` is a substitution); with a |
|                                        | here-document both readings are walked             |
| ``${v@P}`` (prompt expansion)          | opaque: it runs the substitutions in ``v``'s value |
| wrappers, code carriers                | see :mod:`.wrappers` and :mod:`.carriers`          |
| ``export``/``declare``/``unset``…      | a segment with the keyword as command              |
| parse error (ERROR / MISSING node)     | opaque; what did parse is still walked             |
| NUL byte or lone surrogate (top level) | refused (:func:`.budget.refusal`): gates deny      |
| NUL byte in nested code; depth > 120   | opaque                                             |
| over the budget (:mod:`.budget`)       | opaque; what was walked before is kept             |
| ``/dev/tcp/…``, ``/dev/udp/…`` redirect | listed in ``network_redirects`` (a blocklist rule) |

Standard input of each command is worked out for the carriers: its own ``<<<``, ``<<`` or ``<``
redirection first (redirections after a list or pipeline bind to its last command), then a pipe
from the previous pipeline stage, then a redirection on an enclosing group.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator, Sequence

import attrs
import tree_sitter
from tree_sitter import Node

from tooldeck.shell_analysis.budget import MAX_COMMAND_CHARS, Budget, refusal
from tooldeck.shell_analysis.carriers import (
    NOTHING,
    Stdin,
    find_output,
    nested_code,
    stdin_program,
)
from tooldeck.shell_analysis.line_joins import split_joined_lines
from tooldeck.shell_analysis.model import (
    CommandAnalysis,
    Segment,
    StagedRun,
    Word,
    command_name,
)
from tooldeck.shell_analysis.normalize import node_text, words_from_nodes
from tooldeck.shell_analysis.paths import write_analysis
from tooldeck.shell_analysis.plain import PlainCommand, plain_commands
from tooldeck.shell_analysis.staged import (
    STAGING_OPERATORS,
    staged_key,
    staged_program,
    written_text,
)
from tooldeck.shell_analysis.toolchain_dirs import is_toolchain_program
from tooldeck.shell_analysis.wrappers import is_assignment, resolve

__all__ = ["MAX_COMMAND_CHARS", "MAX_DEPTH", "analyze", "parse_tree"]

MAX_DEPTH = 120
"""Nesting cap over syntax-tree depth and nested scripts combined; deeper is opaque."""

_FOUR_BYTE = re.compile(rb"[\xf0-\xf7][\x80-\xbf]{3}")
_LONE_SURROGATE = re.compile(rb"\xed[\xa0-\xbf][\x80-\xbf]")
_SOCKET_PREFIXES = ("/dev/tcp/", "/dev/udp/")
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_WRITE_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
_ORIGINS = {
    "command_substitution": "substitution",
    "process_substitution": "process substitution",
    "subshell": "subshell",
    "function_definition": "function",
}
_DECLARATIONS = frozenset({"declaration_command", "unset_command"})
_GROUP_BODIES = frozenset({"list", "pipeline", "negated_command"})
"""Nodes whose last named child is the command a trailing redirection belongs to
(``a && b > f``, ``a | b > f``, ``! b > f``)."""
_PIPE = Stdin("pipe")
_INHERITED = Stdin()
_DYNAMIC_BODY = frozenset(
    {"simple_expansion", "expansion", "command_substitution", "arithmetic_expansion"}
)


_MAX_REPARSES = 4
"""Most parses of one script while newlines the parser joined are written as ``;``
(:mod:`.line_joins`); each round splits every joined command it finds."""
_PROMPT_EXPANSION = re.compile(r"\$\{[^{}]*@P\}")
"""``${v@P}``: bash expands the value as a prompt string, running its ``$(…)`` (bash(1),
"Parameter transformation"; QwenLM/qwen-code#8582)."""
_WORD_BREAK = frozenset(" \t\n;&|()<>")


def _joined_lines(text: str) -> str:
    r"""The text with its line continuations removed, as bash's reader removes them.

    A backslash-newline outside single quotes and comments is removed before words are
    formed, inside double quotes too: ``"$\<newline>(cmd)"`` is the substitution ``$(cmd)``,
    which tree-sitter-bash reads as a literal ``$`` and a string.

    :param text: shell source.
    :returns: the source without its line continuations.
    """
    out: list[str] = []
    index, size = 0, len(text)
    double = False
    while index < size:
        char = text[index]
        if char == "\\" and index + 1 < size:
            if text[index + 1] != "\n":
                out.append(text[index : index + 2])
            index += 2
            continue
        if char == "'" and not double and out and out[-1] == "$":  # $'…': backslashes escape
            end = index + 1
            while end < size and text[end] != "'":
                end += 2 if text[end] == "\\" else 1
            out.append(text[index : end + 1])
            index = end + 1
            continue
        if char == "'" and not double:
            end = text.find("'", index + 1)
            end = size if end < 0 else end + 1
            out.append(text[index:end])
            index = end
            continue
        if char == "#" and not double and (not out or out[-1][-1:] in _WORD_BREAK):
            end = text.find("\n", index)
            end = size if end < 0 else end
            out.append(text[index:end])
            index = end
            continue
        if char == '"':
            double = not double
        out.append(char)
        index += 1
    return "".join(out)


def _sanitized(source: bytes) -> bytes:
    # tree-sitter-bash joins a line that starts with a backslash to the previous line, as if
    # the newline were escaped: "echo a\n\\sudo id" came out as one echo command, and sudo
    # ran unseen. Bash runs "\\sudo" as sudo; a space in the backslash's place parses the
    # same and keeps every offset (callers read words from the original bytes).
    source = source.replace(b"\n\\", b"\n ")
    if source.isascii():
        return source
    return _LONE_SURROGATE.sub(b"___", _FOUR_BYTE.sub(b"____", source))


def parse_tree(source: bytes, budget: Budget | None = None) -> tree_sitter.Tree | None:
    """Parse shell source with the shared tree-sitter-bash parser, within a budget.

    tree-sitter-bash 0.25 crashes the process on some characters outside the Basic
    Multilingual Plane (``{`` followed by U+2C711, found by the property tests). Every 4-byte
    UTF-8 sequence and every lone surrogate is therefore replaced by as many ``_`` bytes before
    parsing: byte offsets stay valid, word boundaries do not move (both are word characters),
    and callers read text from the original bytes.

    A backslash that starts a line is parsed as a space (see ``_sanitized``): the grammar
    would otherwise join that line to the one before.

    :param source: UTF-8 bytes (lone surrogates allowed, as produced by ``surrogatepass``).
    :param budget: the analysis budget to spend (default: a fresh one).
    :returns: the syntax tree (it may contain ERROR nodes), or ``None`` when the budget does
        not allow the parse (see :mod:`.budget`).
    """
    return (budget or Budget()).parse(_sanitized(source))


@attrs.frozen
class _Script:
    """One parsed script: its bytes and the redirections moved onto commands."""

    source: bytes
    moved: dict[int, list[Node]]


class _Walker:
    """Collects segments, opaque reasons and redirect targets over one command."""

    def __init__(self, extra_wrappers: frozenset[str], budget: Budget) -> None:
        self.extra = extra_wrappers
        self.budget = budget
        self.segments: list[Segment] = []
        self.reasons: list[str] = []
        self.redirects: list[str] = []
        self.inputs: list[str] = []
        self.dynamic_redirects: list[str] = []
        self.dynamic_inputs: list[str] = []
        self.sockets: list[str] = []
        self.runtime: list[str] = []
        self.assignments: list[tuple[str, Word]] = []
        self.functions: list[str] = []
        self.staged: dict[str, str] = {}
        """Text written to files so far, by :func:`.staged.staged_key` (see :mod:`.staged`)."""
        self.staged_runs: list[tuple[str, int, int, int]] = []
        """``(file, runner, start, stop)`` of each staged file run (:class:`.StagedRun`)."""
        self.write_counts: dict[str, int] = {}
        """How often each static file is written: writing redirections and ``tee`` operands."""
        self.known_writes: dict[str, int] = {}
        """How often each static file is written with text known statically, truncating it."""

    def stage(self, operator: str, target: Word, text: str | None) -> None:
        """Remember the text a segment writes to a static file (``echo x > run.sh``)."""
        if text is None or operator not in STAGING_OPERATORS or not target.stable:
            return
        key = staged_key(target.value)
        if operator != ">>":
            self.known_writes[key] = self.known_writes.get(key, 0) + 1
        self.staged[key] = (self.staged.get(key, "") if operator == ">>" else "") + text

    def count_write(self, target: Word) -> None:
        """Count one write of a static file, its text known or not (see :class:`.StagedRun`)."""
        if target.stable:
            key = staged_key(target.value)
            self.write_counts[key] = self.write_counts.get(key, 0) + 1

    def runs(self) -> tuple[StagedRun, ...]:
        """The staged runs, each told whether its file's one write is the judged text."""
        return tuple(
            StagedRun(key, runner, start, stop, self.write_counts.get(key) == 1
                      and self.known_writes.get(key) == 1)
            for key, runner, start, stop in self.staged_runs)

    def script(self, text: str, origin: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            self.reasons.append(f"nesting deeper than {MAX_DEPTH} levels")
            return
        if "\x00" in text:
            self.reasons.append(f"{origin}: NUL byte in the command")
        if "\\\n" in text:
            joined = _joined_lines(text)
            if joined != text and "<<" in text:  # a quoted here-document keeps them: walk both
                self.parsed(text, origin, depth)
            text = joined
        if _PROMPT_EXPANSION.search(text):
            self.reasons.append(f"{origin}: a prompt expansion (${{…@P}}) runs the "
                                "substitutions in a value")
        self.parsed(text, origin, depth)

    def parsed(self, text: str, origin: str, depth: int) -> None:
        """Parse one script's text and walk its tree.

        A newline the parser read inside a simple command is made a ``;`` and the text parsed
        again, as bash ends the command there (:mod:`.line_joins`).
        """
        source = text.encode("utf-8", "surrogatepass")
        tree = parse_tree(source, self.budget)
        for _ in range(_MAX_REPARSES):
            if tree is None:
                return
            split = split_joined_lines(tree.root_node, source) if b"\n" in source else None
            if split is None:
                break
            source = split
            tree = parse_tree(source, self.budget)
        else:
            self.reasons.append(f"{origin}: lines the parser keeps joining into one command")
        if tree is None:
            return
        root = tree.root_node
        if root.has_error:
            self.reasons.append(f"{origin}: text does not parse as bash")
        self.visit(root, origin, depth, _Script(source, {}), ())

    def visit(
        self, node: Node, origin: str, depth: int, script: _Script, outer: Sequence[Node]
    ) -> None:
        if depth > MAX_DEPTH:
            self.reasons.append(f"nesting deeper than {MAX_DEPTH} levels")
            return
        if not self.budget.visit(node.child_count):  # each child is read at most once here
            return
        kind = node.type
        if kind == "command":
            self.command(node, origin, depth, script, outer)
            return
        if kind == "redirected_statement":
            outer = self.redirected(node, script, outer)
        elif kind == "variable_assignment":
            parent = node.parent
            self.assignment(node, script, standalone=parent is None or parent.type != "command")
        elif kind == "file_redirect":
            self.file_redirect(node, script)
        elif kind in _DECLARATIONS:
            self.declaration(node, origin, script)
        elif kind == "function_definition":
            name = node.child_by_field_name("name")
            if name is not None:
                self.functions.append(node_text(name, script.source))
        elif kind == "for_statement":
            self.loop(node, script)
        origin = _ORIGINS.get(kind, origin)
        for child in node.children:
            if child.child_count:
                self.visit(child, origin, depth + 1, script, outer)
        if kind == "redirected_statement":
            self.assigned_command(node, origin, depth, script, outer)

    def redirected(self, node: Node, script: _Script, outer: Sequence[Node]) -> Sequence[Node]:
        redirects = [c for c in node.children if c.type in _REDIRECTS]
        body = node.child_by_field_name("body")
        while body is not None and body.type in _GROUP_BODIES and body.named_child_count:
            body = body.named_children[-1]
        if body is not None and body.type == "command":
            script.moved.setdefault(body.id, []).extend(redirects)
            return outer
        return (*outer, *redirects)

    def assigned_command(self, node: Node, origin: str, depth: int, script: _Script,
                         outer: Sequence[Node]) -> None:
        """The command tree-sitter hangs on a redirection after a lone assignment or none.

        In ``ls | X=1 2>&1 rm -rf ~`` the grammar reads ``X=1`` as the pipeline's last
        element and ``rm -rf ~`` as more destinations of ``2>&1``; in ``<<<w >f rm -rf ~ > x``
        it reads a statement of redirections only, ``rm -rf ~`` again as destinations. Bash
        runs ``rm -rf ~`` in both. The words are judged as that command.
        """
        body = node.child_by_field_name("body")
        while body is not None and body.type in _GROUP_BODIES and body.named_child_count:
            body = body.named_children[-1]
        if body is not None and body.type != "variable_assignment":
            return
        redirects = [c for c in node.children if c.type in _REDIRECTS]
        word_nodes = [w for r in redirects for w in _redirect_arguments(r)]
        if not word_nodes:
            return
        words = words_from_nodes(word_nodes, script.source)
        while words and is_assignment(words[0].value):  # ! Y=2 2>/dev/null x=1 a: x=1 sets
            words = words[1:]
        if not words:
            return
        start = node if body is None else body
        text = script.source[start.start_byte : node.end_byte].decode("utf-8", "replace")
        self.emit(words, text, origin, self.stdin(start, redirects, outer, script), depth)

    def assignment(self, node: Node, script: _Script, *, standalone: bool = False) -> None:
        name = node.child_by_field_name("name")
        if name is None:
            return
        text = node_text(name, script.source)
        if text == "IFS":
            self.reasons.append("IFS reassigned: word splitting can no longer be predicted")
        if standalone:
            value = node.child_by_field_name("value")
            word = words_from_nodes([value], script.source)[0] if value is not None else Word(
                "", "")
            self.assignments.append((text, word))

    def loop(self, node: Node, script: _Script) -> None:
        """``for f in A B``/``select f in A B``: ``f`` is set to each word, as ``f=A`` would."""
        name = node.child_by_field_name("variable")
        values = node.children_by_field_name("value")
        if name is None or not values:
            return
        text = node_text(name, script.source)
        self.assignments.extend((text, word) for word in words_from_nodes(values, script.source))

    def file_redirect(self, node: Node, script: _Script) -> None:
        operator = ""
        targets: list[Node] = []
        for child in node.children:
            if not child.is_named:
                operator = child.type
            elif child.type not in ("file_descriptor", "ERROR"):
                targets.append(child)
        if targets:
            self.redirect(operator, words_from_nodes(targets, script.source)[0])

    def redirect(self, operator: str, target: Word) -> None:
        if target.value.startswith(_SOCKET_PREFIXES):
            self.sockets.append(target.value)
        writes = operator in _WRITE_OPERATORS or (
            operator == ">&" and not target.value.isdigit() and target.value != "-"
        )
        if writes and target.stable:
            self.redirects.append(target.value)
            self.count_write(target)
        elif writes and target.dynamic:
            self.dynamic_redirects.append(target.source)
        elif operator == "<" and target.stable:
            self.inputs.append(target.value)
        elif operator == "<" and target.dynamic:
            self.dynamic_inputs.append(target.source)

    def plain(self, commands: Sequence[PlainCommand]) -> None:
        """Take the simple commands of the cheap first look (:mod:`.plain`) as the walk would."""
        for index, found in enumerate(commands):
            stdin = _PIPE if found.piped else _INHERITED
            if found.piped and "xargs" in found.text and index:  # echo ARGS | xargs CMD
                feeder = commands[index - 1]
                if not feeder.redirects:
                    stdin = Stdin("pipe", piped_text=_echo_text(feeder.words))
            for redirect in found.redirects:
                if redirect.operator == "<":
                    stdin = Stdin("file", redirect.target.value, False)
            self.emit(list(found.words), found.text, "top", stdin, 2)
            for redirect in found.redirects:
                self.redirect(redirect.operator, redirect.target)
                if redirect.operator in STAGING_OPERATORS:
                    self.stage(redirect.operator, redirect.target,
                               written_text(found.words, stdin))

    def declaration(self, node: Node, origin: str, script: _Script) -> None:
        keyword = node.children[0]
        rest = [c for c in node.children[1:] if c.type != "comment"]
        name = node_text(keyword, script.source)
        words = [Word(name, name)]
        words += words_from_nodes(rest, script.source) if rest else []
        self.segments.append(Segment(node_text(node, script.source), origin, tuple(words), (0,)))

    def command(
        self, node: Node, origin: str, depth: int, script: _Script, outer: Sequence[Node]
    ) -> None:
        word_nodes: list[Node] = []
        redirects: list[Node] = []
        named = False
        if not self.budget.visit(node.descendant_count):  # the words are read in one go
            return
        for child in node.children:
            kind = child.type
            if kind == "command_name":
                named = True
                word_nodes.extend(child.children)
            elif kind == "variable_assignment" and not named:
                self.assignment(child, script)
            elif kind in _REDIRECTS:
                redirects.append(child)
                if named:
                    word_nodes.extend(_redirect_arguments(child))
            elif named and kind != "comment":
                word_nodes.append(child)
        moved = script.moved.get(node.id, ())
        if named:
            for redirect in moved:
                word_nodes.extend(_redirect_arguments(redirect))
        if redirects or moved:
            word_nodes = _without_descriptors(word_nodes, [*redirects, *moved])
        if word_nodes:
            words = words_from_nodes(word_nodes, script.source)
            redirects.extend(moved)
            stdin = self.stdin(node, redirects, outer, script)
            self.emit(words, node_text(node, script.source), origin, stdin, depth)
            self.stage_redirects(words, stdin, redirects, script)
        for child in node.children:
            if child.child_count:
                self.visit(child, origin, depth + 1, script, outer)

    def stage_redirects(self, words: Sequence[Word], stdin: Stdin, redirects: Sequence[Node],
                        script: _Script) -> None:
        """Remember what a writer segment puts in the files it redirects its output to."""
        text = written_text(words, stdin)
        if command_name(words[0].value) == "tee":  # tee FILE <<EOF: its operands get the text
            options = [w.value for w in words[1:] if w.value.startswith("-")]
            appends = "--append" in options or any(
                not o.startswith("--") and "a" in o for o in options)
            for word in words[1:]:
                if not word.value.startswith("-"):
                    self.count_write(word)
                    self.stage(">>" if appends else ">", word, text)
        if not redirects or text is None:
            return
        for redirect in _file_redirects(redirects):
            if any(c.type == "file_descriptor" for c in redirect.children):
                continue  # 2> err.txt: what is written there is not the text
            operator = next((c.type for c in redirect.children if not c.is_named), "")
            targets = [c for c in redirect.children if c.is_named and c.type != "ERROR"]
            if targets:
                self.stage(operator, words_from_nodes(targets, script.source)[0], text)

    def stdin(
        self, node: Node, redirects: list[Node], outer: Sequence[Node], script: _Script
    ) -> Stdin:
        own = _stdin_from(redirects, script)
        if own is not None:
            return own
        if _is_piped(node):
            if b"xargs" in script.source[node.start_byte : node.end_byte]:  # echo … | xargs
                return Stdin("pipe", piped_text=_echoed_text(node, script))
            return Stdin("pipe")
        return _stdin_from(outer, script) or Stdin()

    def emit(self, words: list[Word], text: str, origin: str, stdin: Stdin, depth: int) -> None:
        if not self.budget.segment():
            return
        resolution = resolve(words, self.extra)
        positions = resolution.positions
        read = stdin.text if stdin.kind == "file" and not stdin.dynamic else ""
        runner = len(self.segments)
        self.segments.append(
            Segment(text, origin, resolution.words, positions, stdin.kind, read))
        if resolution.reasons:
            self.reasons.extend(resolution.reasons)
        for code, code_origin in resolution.scripts:
            self.script(code, code_origin, depth + 1)
        final = resolution.words[positions[-1] :]
        if resolution.reasons or not (final[0].stable or is_toolchain_program(final[0].source)):
            return
        literal = stdin.text if stdin.kind in _LITERAL_INPUTS else stdin.piped_text
        if resolution.input_args and literal and not stdin.dynamic:
            # xargs cat <<< ~/.ssh/id_rsa: the literal input becomes the command's arguments
            extra = [Word(t, t, globbed=any(c in t for c in "*?["))  # find's -name glob
                     for t in _input_words(literal)]
            if extra:
                self.emit([*final, *extra], " ".join(w.source for w in [*final, *extra]),
                          origin, _INHERITED, depth + 1)
        elif resolution.replace and literal and not stdin.dynamic:
            # xargs -I{} cat {} <<< ~/.ssh/id_rsa: each input line takes the marker's place
            for line in literal.splitlines()[:_MAX_REPLACED_LINES]:
                replaced = _replaced(final, resolution.replace, line.strip())
                self.emit(replaced, " ".join(w.source for w in replaced), origin, _INHERITED,
                          depth + 1)
        program = stdin_program(final, stdin)
        if program is not None:  # python3 - <<'EOF' … EOF: judged as python3 -c '…'
            self.emit(program, " ".join(w.source for w in program[:2]) + " <stdin>", origin,
                      _INHERITED, depth + 1)
        if self.staged:  # printf 'rm -rf ~' > run.sh && sh run.sh: what run.sh holds
            staged = staged_program(final, self.staged)
            if staged is not None:
                key, text, one_liner = staged
                start = len(self.segments)
                if one_liner is None:
                    self.script(text, "shell -c", depth + 1)
                else:
                    self.emit(one_liner, " ".join(w.source for w in one_liner[:2]) + " <file>",
                              origin, _INHERITED, depth + 1)
                self.staged_runs.append((key, runner, start, len(self.segments)))
        if len(positions) > 1 and any(command_name(resolution.words[i].value) == "xargs"
                                      for i in positions[:-1]):
            stdin = _INHERITED  # xargs gives the command /dev/null as its standard input
        found = nested_code(final, stdin, input_args=resolution.input_args)
        if found is NOTHING:
            return
        self.reasons.extend(found.reasons)
        self.runtime.extend(found.runtime)
        for code, code_origin in found.scripts:
            self.script(code, code_origin, depth + 1)
        for sub_words, sub_origin in found.commands:
            text = " ".join(w.source for w in sub_words)
            self.emit(sub_words, text, sub_origin, stdin, depth + 1)


def _redirect_arguments(redirect: Node) -> list[Node]:
    """Words tree-sitter-bash hangs on a redirection that bash gives the command.

    In ``ls 2>/dev/null /etc/shadow`` the grammar reads ``/etc/shadow`` as a second
    destination of ``2>``; bash takes the first word as the target and the rest as
    arguments of the command. Words after a here-document's delimiter on its line
    (``rm <<EOF -rf ~``) are the command's arguments too, as are those hung on a redirection
    that follows the delimiter (``cat <<EOF 2>&1 ~/.ssh/id_rsa``).
    """
    if redirect.type == "heredoc_redirect":
        words = list(redirect.children_by_field_name("argument"))
        for inner in redirect.children_by_field_name("redirect"):
            words.extend(_redirect_arguments(inner))
        return words
    if redirect.type != "file_redirect":
        return []
    targets = [c for c in redirect.children
               if c.is_named and c.type not in ("file_descriptor", "ERROR")]
    return targets[1:]


def _without_descriptors(words: list[Node], redirects: Sequence[Node]) -> list[Node]:
    """Drop a number glued to a redirection: bash's file descriptor, not an argument.

    tree-sitter-bash reads the ``0`` of ``sh 0<&1`` or ``echo 0> f`` as an argument (it only
    knows descriptors 1 to 9 there); bash redirects descriptor 0.
    """
    starts = {r.start_byte for r in redirects
              if not any(c.type == "file_descriptor" for c in r.children)}
    return [w for w in words if not (w.type == "number" and w.end_byte in starts)]


_PIPE_CONTAINERS = frozenset({"redirected_statement", "negated_command", "pipeline", "list"})


def _is_piped(node: Node) -> bool:
    """Whether a pipe feeds the command's standard input.

    Climbs while the node opens its container: tree-sitter-bash reads ``a | b | c && d`` as
    ``a | (b | c && d)``, where bash runs ``(a | b | c) && d``; ``b`` is fed by ``a`` either way.
    """
    current = node
    while True:
        previous = current.prev_sibling
        if previous is not None and previous.type != "!":
            return previous.type in ("|", "|&")
        parent = current.parent
        if parent is None or parent.type not in _PIPE_CONTAINERS:
            return False
        current = parent


def _echoed_text(node: Node, script: _Script) -> str:
    """What ``echo`` with static words pipes into ``node`` (empty for anything else)."""
    current = node
    while current.prev_sibling is None and current.parent is not None and (
            current.parent.type in _PIPE_CONTAINERS):
        current = current.parent
    pipe = current.prev_sibling
    feeder = pipe.prev_sibling if pipe is not None and pipe.type == "|" else None
    if feeder is None or feeder.type != "command" or feeder.children[0].type != "command_name":
        return ""
    parts = [*feeder.children[0].children, *feeder.children[1:]]
    if any(not p.is_named or p.type in _REDIRECTS or p.type == "variable_assignment"
           for p in parts):
        return ""
    return _echo_text(words_from_nodes(parts, script.source))


def _echo_text(words: Sequence[Word]) -> str:
    """The text ``echo`` (or ``find … -name N``) prints for these words.

    Empty for another command or a run-time word.
    """
    if words and words[0].value == "find":
        return find_output(words)  # find . -name .env | xargs cat
    if not words or words[0].value != "echo" or not all(w.stable for w in words):
        return ""
    args = [w.value for w in words[1:]]
    return " ".join(args[1:] if args[:1] == ["-n"] else args)


def _stdin_from(redirects: Iterable[Node], script: _Script) -> Stdin | None:
    found: Stdin | None = None
    for redirect in redirects:
        kind = redirect.type
        if kind == "herestring_redirect":
            parts = [c for c in redirect.children if c.is_named]
            if parts:
                word = words_from_nodes(parts, script.source)[0]
                found = Stdin("here-string", word.value + "\n", word.dynamic)
        elif kind == "heredoc_redirect":
            found = _heredoc(redirect, script)
        elif kind == "file_redirect" and any(c.type == "<" for c in redirect.children):
            targets = [c for c in redirect.children if c.is_named and c.type != "file_descriptor"]
            if targets:
                word = words_from_nodes(targets, script.source)[0]
                found = Stdin("file", word.value, not word.stable)
    return found


def _file_redirects(redirects: Iterable[Node]) -> Iterator[Node]:
    """The file redirections among ``redirects``, those inside a heredoc's too.

    ``cat <<EOF > r.py`` holds ``> r.py`` inside the heredoc redirection node.
    """
    for redirect in redirects:
        if redirect.type == "file_redirect":
            yield redirect
        elif redirect.type == "heredoc_redirect":
            yield from (c for c in redirect.children if c.type == "file_redirect")


def _misread_body(redirect: Node, source: bytes) -> bool:
    r"""Whether tree-sitter-bash took body lines for arguments of the redirection.

    It reads a body line starting with a backslash (``\sudo id``) as arguments of the
    ``<<`` redirection and leaves the body without it: an argument reaching past the end of the
    ``<<`` line. What it shows is then not what bash reads, so the body is not static.
    """
    start = next((c for c in redirect.children if c.type == "heredoc_start"), None)
    if start is None:
        return False
    line_end = source.find(b"\n", start.end_byte)
    arguments = redirect.children_by_field_name("argument")
    return line_end >= 0 and any(a.end_byte > line_end for a in arguments)


def _heredoc(redirect: Node, script: _Script) -> Stdin:
    strip_tabs = any(c.type == "<<-" for c in redirect.children)
    misread = _misread_body(redirect, script.source)
    for child in redirect.children:
        if child.type == "heredoc_body":
            dynamic = misread or any(c.type in _DYNAMIC_BODY for c in child.named_children)
            text = node_text(child, script.source)
            if strip_tabs:
                text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
            return Stdin("heredoc", text, dynamic)
    return Stdin("heredoc", "")


_LITERAL_INPUTS = frozenset({"here-string", "heredoc"})
_MAX_REPLACED_LINES = 16


def _replaced(words: Sequence[Word], marker: str, line: str) -> list[Word]:
    """The words xargs -I runs for one input line (the marker replaced, words static again)."""
    found: list[Word] = []
    for word in words:
        if marker in word.value:
            value = word.value.replace(marker, line)
            found.append(Word(value, word.source.replace(marker, line),
                              dynamic="$" in word.source or "`" in word.source,
                              globbed=word.globbed))
        else:
            found.append(word)
    return found


def _input_words(text: str) -> list[str]:
    """The words xargs makes of a literal input (blank-separated, quotes removed)."""
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _dedupe(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items)) if items else ()


def _analyze(command: str, extra_wrappers: frozenset[str], *,
             first_look: bool = True) -> CommandAnalysis:
    """The analysis; ``first_look=False`` always parses (the fast path's differential tests)."""
    refused = refusal(command)
    if refused is not None:
        return CommandAnalysis(command, (), (refused,), (), (), True, refusal=refused)
    walker = _Walker(extra_wrappers, Budget())
    if len(command) > MAX_COMMAND_CHARS:
        walker.reasons.append(f"command longer than {MAX_COMMAND_CHARS} characters")
    else:
        plain = plain_commands(command) if first_look else None
        if plain is None:
            walker.script(command, "top", 0)
        else:
            walker.plain(plain)
    if walker.budget.exhausted is not None:
        walker.reasons.append(walker.budget.exhausted)
    segments = tuple(walker.segments)
    redirects = _dedupe(walker.redirects)
    targets, writes = write_analysis(segments, redirects)
    reasons, sockets = _dedupe(walker.reasons), _dedupe(walker.sockets)
    dynamic = _dedupe(walker.dynamic_redirects)
    return CommandAnalysis(command, segments, reasons, redirects, targets, writes or bool(dynamic),
                           sockets, input_sources=_dedupe(walker.inputs),
                           runtime_code=_dedupe(walker.runtime),
                           assignments=tuple(walker.assignments),
                           functions=_dedupe(walker.functions), dynamic_redirects=dynamic,
                           dynamic_inputs=_dedupe(walker.dynamic_inputs),
                           staged_runs=walker.runs())


def analyze(command: str, *, extra_wrappers: Iterable[str] = ()) -> CommandAnalysis:
    """Analyse a shell command without running it; never raises.

    :param command: the command text as the agent sent it.
    :param extra_wrappers: operator-declared transparent wrappers (command names).
    :returns: the segments, opaque reasons and write targets. Any internal failure yields an
        opaque analysis (fail closed), never an exception.
    """
    try:
        return _analyze(command, frozenset(command_name(w) for w in extra_wrappers))
    except Exception as error:  # the analyzer fails closed, never raises
        reason = f"analyzer failure: {type(error).__name__}"
        return CommandAnalysis(command, (), (reason,), (), (), True)
