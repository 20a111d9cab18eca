"""What a model can do, as the model server itself says: Ollama's `/api/show` read once per model.

`capabilities` names what the model's template and weights support (`tools`, `thinking`, `vision`,
`completion`, `embedding`); `model_info` holds the trained context length under
`<architecture>.context_length`. Quire adapts to them: no `think` for a model that cannot think, no tool
schemas for one without tools (Quire's own search still grounds every answer), images only to a model
that sees, and a context (`num_ctx`) no larger than the model's.

An older Ollama reports no capabilities: then they are `assumed` and corrected by the first refusal
("… does not support thinking", read by `refused_capability`) for the rest of the process. Listed
capabilities are trusted: a refusal of one of them costs that call only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

Capability = Literal["tools", "thinking", "vision"]
CAPABILITIES: tuple[Capability, ...] = ("tools", "thinking", "vision")


@dataclass(frozen=True)
class ModelFacts:
    name: str
    context_length: int | None  # trained maximum; None when the server does not say
    tools: bool
    thinking: bool
    vision: bool
    assumed: bool = False  # the server listed no capabilities: tools and thinking are tried, not known
    embedding: bool = False  # makes embeddings (assumed from an "embed" in the name when not listed)

    def without(self, capability: Capability) -> ModelFacts:
        """These facts after the server refused `capability` for this model."""
        return replace(self, tools=self.tools and capability != "tools",
                       thinking=self.thinking and capability != "thinking",
                       vision=self.vision and capability != "vision")


def facts_from_show(name: str, capabilities: list[str] | None, model_info: Mapping[str, Any] | None) -> ModelFacts:
    """Facts from `/api/show`'s `capabilities` and `model_info`."""
    info = dict(model_info or {})
    architecture = info.get("general.architecture")
    length = info.get(f"{architecture}.context_length") if architecture else None
    if length is None:  # an architecture key the server did not name: any `*.context_length`
        length = next((value for key, value in info.items() if key.endswith(".context_length")), None)
    context_length = int(length) if isinstance(length, int | float) and length > 0 else None
    if capabilities is None:
        return ModelFacts(name, context_length, tools=True, thinking=True, vision=False, assumed=True,
                          embedding="embed" in name.lower())
    listed = set(capabilities)
    return ModelFacts(name, context_length, tools="tools" in listed, thinking="thinking" in listed,
                      vision="vision" in listed, embedding="embedding" in listed)


def refused_capability(message: str) -> Capability | None:
    """The capability an Ollama 400 refuses ("registry.ollama.ai/library/x:1b does not support thinking")."""
    lowered = message.lower()
    if "does not support" not in lowered:
        return None
    tail = lowered.split("does not support", 1)[1]
    return next((cap for cap in CAPABILITIES if cap in tail or (cap == "vision" and "image" in tail)), None)
