"""``[[examples.calls]]``: calls the whole policy must decide a given way, checked on every build.

Permission and overlay rules carry ``match``/``not_match`` examples of their own; an example
call tests the policy as a whole, whatever kind of rule decides: shell blocklists and
analyzer rules, overlays, egress domain lists, autonomy, permission rules. Each is judged
like a recorded call (:func:`tooldeck.judge.judge_recorded`: gates only, nothing runs) once
the runtime is configured, so a failing example refuses the configuration at start-up and
refuses a reload (the last good policy keeps deciding), naming the file, the line, the
example and the rule that decided instead.

Each example is judged as its own caller (``policy-example-<n>``), so gates with per-caller
history (the risk chain) never mix examples with each other or with real calls. An example
whose command names a host makes the egress gate resolve it while the policy loads.
"""

from __future__ import annotations

from tooldeck.config import ExamplesConfig
from tooldeck.errors import ConfigError
from tooldeck.judge import judge_recorded, recorded_params
from tooldeck.runtime import Runtime
from tooldeck.toml_lines import array_table_lines

__all__ = ["EXAMPLE_CALLER", "check_examples"]

EXAMPLE_CALLER = "policy-example"
"""The caller id prefix the examples are judged under."""


def check_examples(runtime: Runtime) -> int:
    """Judge every ``[[examples.calls]]`` under ``runtime``; how many there were.

    :param runtime: a configured runtime.
    :returns: the number of examples, all of which passed.
    :raises ConfigError: the first example the policy decides otherwise.
    """
    settings = runtime.settings
    calls = settings.get(ExamplesConfig).calls
    doc = settings.document
    lines = array_table_lines(doc.text, ("examples", "calls"), len(calls)) if calls else ()
    for index, example in enumerate(calls):
        tool = runtime.tools.get(example.tool)
        params = recorded_params(tool, example.input) if tool is not None else {}
        decision = judge_recorded(runtime, example.tool, params,
                                  caller_id=f"{EXAMPLE_CALLER}-{index}")
        wrong_rule = example.rule is not None and decision.rule != example.rule
        if decision.verdict.value == example.expect and not wrong_rule:
            continue
        key = f"examples.calls[{index}]"
        where = f"{doc.label}:{lines[index]}" if lines else doc.label
        wanted = example.expect + (f" by rule {example.rule}" if example.rule else "")
        found = decision.provenance()
        by = f"{found['gate']} rule {found.get('rule', '-')}"
        source = str(found["source"]) + (f":{found['line']}" if "line" in found else "")
        raise ConfigError(
            f"{where}: {key}: {example.tool} {example.input!r} should be {wanted} but is "
            f"{decision.verdict.value} by {by} ({source}): {decision.reason}",
            path=doc.label, key=key)
    return len(calls)
