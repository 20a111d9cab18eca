"""Does an answer stand on the user's documents? Judged after the answer, said in the stream (`grounding`)
and stored with it, so an answer that cites no relevant passage is never passed off as a cited one.

"Relevant" is the retrieval layer's judgement (backend/retrieval/relevance.py, carried on each citation's
source); an answer is `cited` when one of its `[n]` markers names a relevant passage. Otherwise it is
`uncited` (relevant passages were found, the answer uses none), `not_covered` (nothing found was
relevant: what the model says comes from itself), or `passages` (the model could not answer and Quire
shows the passages instead). Small talk, which searches nothing, has no grounding.
"""

from __future__ import annotations

import re

from backend.agent.citations import Citation
from backend.store.chat import Grounding
from backend.wording import plural

_MARKER = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()")

MESSAGES: dict[Grounding, str] = {
    "uncited": "Not from your documents: this answer cites none of the passages found to cover your question. "
               "Check it against them.",
    "not_covered": "Not from your documents: nothing in them covers this question, so this answer comes from "
                   "the model alone.",
    "passages": "The model did not answer, so these are the passages of your documents that match.",
}


def cited_numbers(text: str) -> set[int]:
    return {int(n) for match in _MARKER.finditer(text) for n in match.group(1).split(",")}


def judge(answer: str, citations: list[Citation], fell_back: bool) -> Grounding:
    """How `answer` stands on `citations` (every passage found for the question)."""
    relevant = {c.n for c in citations if c.source.relevant}
    if relevant & cited_numbers(answer):
        return "cited"
    if fell_back:
        return "passages"
    return "uncited" if relevant else "not_covered"


def message(grounding: Grounding, answer: str, citations: list[Citation]) -> str:
    if grounding != "cited":
        return MESSAGES[grounding]
    relevant = {c.n for c in citations if c.source.relevant} & cited_numbers(answer)
    return f"From your documents: cites {plural(len(relevant), 'relevant passage')}."
