"""Phase 1: a separate streamed model call with thinking on, over the same system prompt, history,
question and Quire's search result as the answer, so the user watches the model reason within a blink.
Its answer text is discarded, its output is capped, and any model error only costs the thinking, never
the answer. Greetings and other trivial inputs skip it, and so does a model that cannot think (the
caller says so: "this model does not show its reasoning").
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Sequence
from contextlib import aclosing

from backend.agent.memory import Message
from backend.agent.model import ChatModel
from backend.agent.stream import EventChannel
from backend.llm.errors import CapabilityMissing, ModelError, ModelUnavailable

log = logging.getLogger(__name__)

THINKING_MAX_TOKENS = 512

# Words of greetings, thanks and acknowledgements (English, German and a few common others).
_SMALL_TALK = frozenset({
    "hi", "hello", "hey", "hiya", "howdy", "yo", "hallo", "servus", "moin", "salut", "bonjour", "ciao",
    "hola", "thanks", "thank", "thx", "ty", "danke", "merci", "cheers", "ok", "okay", "k", "kk", "cool",
    "nice", "great", "good", "fine", "perfect", "super", "awesome", "yes", "yeah", "yep", "no", "nope",
    "sure", "bye", "goodbye", "tschuess", "tschüss", "morning", "evening", "night", "there", "you", "u",
    "all", "again", "a", "lot", "much", "very", "so", "guten", "tag", "abend", "morgen", "vielen",
    "dank", "gut", "alles", "klar", "wow", "lol", "haha",
})
_WORD = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)
MAX_TRIVIAL_WORDS = 4


def is_trivial(message: str) -> bool:
    """True for greetings, thanks, acknowledgements and inputs with no words at all (emoji, "?")."""
    text = unicodedata.normalize("NFKC", message).lower()
    words = _WORD.findall(text)
    if not words:
        return True
    return len(words) <= MAX_TRIVIAL_WORDS and all(word in _SMALL_TALK for word in words)


async def think(model: ChatModel, messages: Sequence[Message], channel: EventChannel) -> str | None:
    """Stream the model's reasoning as `thinking` lines; returns it, or None when the model refused to think
    (an Ollama that did not list capabilities). ModelUnavailable propagates (the caller answers without
    the model); any other failure is logged and costs only the thinking."""
    parts: list[str] = []
    try:
        stream = model.stream(channel, messages, think=True, num_predict=THINKING_MAX_TOKENS)
        async with aclosing(stream) as deltas:
            async for delta in deltas:
                if delta.thinking:
                    parts.append(delta.thinking)
                    channel.thinking(delta.thinking)
                elif delta.content.strip():
                    break  # reasoning is over; the answer itself is phase 2's job
    except ModelUnavailable:
        raise
    except CapabilityMissing:
        return None
    except ModelError as exc:
        log.info("thinking phase skipped: %s", exc.message)
    except Exception:  # a malformed reply the client could not parse, say: it costs only the reasoning
        log.warning("thinking phase failed; answering without it", exc_info=True)
    return "".join(parts)
