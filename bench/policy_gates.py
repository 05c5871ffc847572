"""Cost per call of the policy enforcer (256 rules) and of the four verifiers.

Each gate is built the way a runtime builds it and asked about the same calls repeatedly:
the enforcer with 256 rules (every condition kind, the worst case the limit allows) on a
shell command naming three paths, and the verifiers (all four on) on an MCP-style tool with
a command, a path and a URL.

    python bench/policy_gates.py [--calls N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import pydantic

from tooldeck.config import embedded_default_text, parse_document
from tooldeck.deck import Deck
from tooldeck.models import ToolCall, ToolDef
from tooldeck.plugins.policy_enforcer.gate import PolicyGate
from tooldeck.plugins.policy_enforcer.rules import compile_policy
from tooldeck.plugins.policy_enforcer.settings import PolicyRule
from tooldeck.plugins.verifiers.gate import VerifierGate


class Params(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="allow")


def rules() -> list[PolicyRule]:
    out = []
    for i in range(256):
        kind = i % 4
        if kind == 0:
            out.append(PolicyRule(effect="deny", tool=f"tool_{i}*", paths=[f"/srv/{i}/*"]))
        elif kind == 1:
            out.append(PolicyRule(effect="deny", tool="*", args_match=f"secret_{i}\\b"))
        elif kind == 2:
            out.append(PolicyRule(effect="allow", tool="shell", paths=[f"/home/{i}/*"],
                                  trust_level="verified"))
        else:
            out.append(PolicyRule(effect="deny", tool="mcp_*", capabilities=["network"]))
    return out


def per_call_us(check: object, call: ToolCall, tool: ToolDef, runtime: object, n: int) -> float:
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(n):
            check(call, tool, runtime)  # type: ignore[operator]
        samples.append((time.perf_counter() - start) / n * 1e6)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "tooldeck.toml"
        config.write_text(embedded_default_text() + f'\n[tools.audit]\npath = "{tmp}/a.jsonl"\n'
                          "[tools.verifiers]\ncheck_own_tools = true\n"
                          "[tools.verifiers.url_grounding]\nenabled = true\n")
        deck = Deck.from_config(parse_document(config.read_text(), config, "bench"))
        runtime = deck.runtime
        deck.note_user_message("look at https://example.com/docs please")
        bash = runtime.tools["bash"]
        call = ToolCall("bash", {"command": "cp /home/3/a.txt /tmp/b.txt && cat /srv/7/x"})
        gate = PolicyGate(compile_policy(rules(), "bench", "rules"), "deny", "bench")
        print(f"policy enforcer, 256 rules, 3 paths: "
              f"{per_call_us(gate.tooldeck_check_call, call, bash, runtime, args.calls):.1f} "
              "µs/call")
        verifiers = next(p for p in runtime.pm.get_plugins() if isinstance(p, VerifierGate))
        mcp = ToolDef(id="mcp_box__run", description="", params=Params, executor="x")
        call = ToolCall("mcp_box__run", {"command": "ls -la src/", "path": "src/app.py",
                                         "url": "https://example.com/docs/a"})
        print(f"verifiers, all four, 3 fields: "
              f"{per_call_us(verifiers.tooldeck_check_call, call, mcp, runtime, args.calls):.1f}"
              " µs/call")
        deck.close()


if __name__ == "__main__":
    main()
