"""An agent in 40 lines: any OpenAI-compatible server, tooldeck's governed tools, one loop.

    OPENAI_BASE_URL=http://127.0.0.1:8080/v1 MODEL=qwen2.5 python agent_in_40_lines.py "hi"

OPENAI_API_KEY is sent when set. The tools and their policy come from tooldeck.toml (the
usual lookup order); calls a rule asks about are refused unless you answer y.
"""

from __future__ import annotations

import asyncio
import os
import sys

from tooldeck.adapters import adapter_for
from tooldeck.deck import Deck
from tooldeck.loop import ToolLoop
from tooldeck.model_clients import openai_chat_client


def ask_user(call, decision) -> bool:
    answer = input(f"run {call.tool_id} {dict(call.params)}? ({decision.reason}) [y/N] ")
    return answer.strip().lower() == "y"


async def main(prompt: str, confirm=ask_user) -> str:
    deck = Deck.from_config()
    client = openai_chat_client(os.environ["OPENAI_BASE_URL"],
                                os.environ.get("MODEL", "gpt-4o-mini"),
                                api_key=os.environ.get("OPENAI_API_KEY"))
    loop = ToolLoop(deck, adapter_for("openai_chat"), client, caller_id="example",
                    confirm=confirm, context_window=int(os.environ.get("CONTEXT", "32000")))
    try:
        outcome = await loop.run([
            {"role": "system", "content": "You are a careful assistant with shell tools."},
            {"role": "user", "content": prompt},
        ])
    finally:
        await deck.aclose()
    print(f"[{outcome.reason.value} after {outcome.iterations} tool rounds]", file=sys.stderr)
    return outcome.text


if __name__ == "__main__":
    print(asyncio.run(main(" ".join(sys.argv[1:]) or "What is in this directory?")))
