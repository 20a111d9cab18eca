"""Token budgets: how large a context (`num_ctx`) to ask for, and how many characters fit into it.

Ollama silently drops the oldest messages (and then the front of the prompt) of a prompt longer than
`num_ctx`, and uses 2–4k tokens when a request names none. So every call names `num_ctx`, and callers
fit what they send into it beforehand: trimming is Quire's decision (whole old turns, lower-ranked
passages), never the server's.

One context size per model for every call — chat, thinking, study — because Ollama reloads a model
whose `num_ctx` changes between calls (seconds to minutes on a CPU). It is the model's own maximum,
capped at `CONTEXT_CAP_TOKENS` (the key-value cache grows with it: ~1–2 GB at 12k for a 4–8B model).

Tokens are estimated without the model's tokenizer at `CHARS_PER_TOKEN` characters each: lower than
English text needs (about 4), so German, numbers and code (2.5–3.5) still fit. Overestimating costs a
few passages; underestimating would let the server cut the prompt.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from backend.llm.capabilities import ModelFacts

CHARS_PER_TOKEN = 3.0
CONTEXT_CAP_TOKENS = 12_288
UNKNOWN_CONTEXT_TOKENS = 4_096  # a model that does not say: what Ollama itself would use
MESSAGE_OVERHEAD_TOKENS = 8  # role markers and separators the chat template adds per message
IMAGE_TOKENS = 300  # a vision model's share per image (gemma3/llava: 256–576)


def context_tokens(facts: ModelFacts) -> int:
    """The `num_ctx` every call to this model names."""
    return min(facts.context_length or UNKNOWN_CONTEXT_TOKENS, CONTEXT_CAP_TOKENS)


def answer_tokens(context: int) -> int:
    """Tokens kept free for the model's answer within a context of `context` tokens."""
    return min(1_536, context // 4)


def tokens_of(chars: int) -> int:
    return math.ceil(chars / CHARS_PER_TOKEN)


def chars_of(tokens: int) -> int:
    return int(tokens * CHARS_PER_TOKEN)


def prompt_tokens(messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]] | None = None) -> int:
    """Estimated tokens of a chat request's prompt: every message's text and tool calls, images, tools."""
    chars = len(json.dumps(list(tools), ensure_ascii=False)) if tools else 0
    images = 0
    for message in messages:
        chars += len(message.get("content") or "")
        if message.get("tool_calls"):
            chars += len(json.dumps(message["tool_calls"], ensure_ascii=False, default=str))
        images += len(message.get("images") or [])
    return tokens_of(chars) + MESSAGE_OVERHEAD_TOKENS * len(messages) + IMAGE_TOKENS * images
