"""Study guides over real HTTP: each of the four types generated as a job from the chosen sources, every
entry grounded on the passages it names (and only those shown), bad entries dropped, a briefing's points
grouped by section; the Markdown export numbers the citations and lists the sources."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.study import generate, study_vault

ENTRIES = {
    "briefing": [{"section": "Energy", "point": "Mitochondria make ATP by respiration.", "source_block_ids": ["P1"]},
                 {"section": "Plants", "point": "Chloroplasts store light energy in glucose.",
                  "source_block_ids": ["P2", "P99"]},
                 {"section": "Energy", "point": "ATP is the currency the cell spends.", "source_block_ids": ["P1"]},
                 {"section": "Broken"}],
    "faq": [{"question": "What makes ATP?", "answer": "Mitochondria, by respiration.", "source_block_ids": ["P1"]}],
    "glossary": [{"term": "Stomata", "definition": "Pores that exchange gases.", "source_block_ids": ["P2"]}],
    "timeline": [{"when": "Step 1", "event": "Light is captured by chlorophyll.", "source_block_ids": ["P2"]}],
}


@pytest.fixture(scope="module")
def vault(quire: QuireServer) -> dict[str, Any]:
    with quire.client() as client:
        return study_vault(client, ("cells", "plants"))


@pytest.mark.parametrize("guide_type", list(ENTRIES))
def test_each_guide_type_is_generated_with_citations(api: httpx.Client, fake_ollama: FakeOllama,
                                                       vault: dict[str, Any], guide_type: str) -> None:
    job = generate(api, fake_ollama, "/api/study/guides", {"scope": vault["scope"], "guide_type": guide_type},
                   json.dumps({"entries": ENTRIES[guide_type]}))
    assert job["status"] == "succeeded", job
    assert job["kind"] == "guide"
    request = fake_ollama.chat_requests[-1]
    assert request["format"]["properties"]["entries"]["type"] == "array"
    guide = api.get(job["result_url"]).json()
    assert guide["guide_type"] == guide_type
    assert guide["title"].startswith({"briefing": "Briefing", "faq": "FAQ", "glossary": "Glossary",
                                      "timeline": "Timeline"}[guide_type] + ": ")
    valid = [e for e in ENTRIES[guide_type] if len(e) > 1]
    assert guide["entry_count"] == len(valid) == len(guide["entries"])
    prompt = request["messages"][0]["content"]
    for entry in guide["entries"]:
        assert entry["sources"], entry
        for source in entry["sources"]:
            assert source["filename"] in vault["names"]
            assert f'source="{source["filename"]}' in prompt  # grounded on a passage the model was shown
    if guide_type == "briefing":
        assert [e["heading"] for e in guide["entries"]] == ["Energy", "Energy", "Plants"]
        assert len(guide["entries"][2]["sources"]) == 1  # P99 was never shown: dropped
        title, text = guide["title"], api.get(f"{job['result_url']}/export")
        assert text.headers["content-type"].startswith("text/markdown")
        lines = text.text.splitlines()
        assert lines[0] == f"# {title}"
        assert "## Energy" in lines
        assert lines[lines.index("## Energy") + 2] == "- Mitochondria make ATP by respiration. [1]"
        assert lines[lines.index("## Sources") + 2].startswith("1. ")
        assert any(line.startswith("- Chloroplasts store light energy in glucose. [") for line in lines)
    assert job["result_id"] in [g["id"] for g in api.get("/api/study/guides").json()]
    assert api.delete(job["result_url"]).status_code == 204
    assert api.get(job["result_url"]).status_code == 404


def test_a_useless_answer_fails_the_job_with_a_reason(api: httpx.Client, fake_ollama: FakeOllama,
                                                       vault: dict[str, Any]) -> None:
    job = generate(api, fake_ollama, "/api/study/guides", {"scope": vault["scope"], "guide_type": "faq"},
                   "Sure! Here is your FAQ: nothing.")
    assert job["status"] == "failed"
    assert job["error"]["code"] == "generation_failed"
    assert api.post("/api/study/guides", json={"guide_type": "novel"}).status_code == 422
