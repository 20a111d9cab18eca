"""Mind maps over real HTTP: depth honoured, branch and label limits, the retry, garbage; layouts and
positions; recorded exports and the Markdown outline. And a custom prompt picked up without a restart."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.server import REPO_ROOT, QuireServer
from tests.support.study import generate, mindmap_reply, quiz_reply, study_vault


@pytest.fixture(scope="module")
def vault(quire: QuireServer) -> dict[str, Any]:
    with quire.client() as client:
        return study_vault(client, ("plants", "genetics"))


def depth_of(node: dict[str, Any]) -> int:
    return 1 + max((depth_of(child) for child in node["children"]), default=0)


def labels(node: dict[str, Any]) -> list[str]:
    return [node["label"], *(label for child in node["children"] for label in labels(child))]


@pytest.mark.parametrize("depth", [2, 3])
def test_the_requested_depth_is_honoured(api: httpx.Client, fake_ollama: FakeOllama, vault: dict[str, Any],
                                         depth: int) -> None:
    job = generate(api, fake_ollama, "/api/study/mindmaps", {"scope": vault["scope"], "depth": depth},
                   mindmap_reply(4, depth=3))
    mindmap = api.get(job["result_url"]).json()
    assert depth_of(mindmap["root"]) == depth + 1  # the centre plus `depth` levels
    assert mindmap["depth"] == depth
    assert mindmap["root"]["id"] == "n0"
    assert [b["id"] for b in mindmap["root"]["children"]] == ["n1", "n2", "n3", "n4"]
    assert mindmap["root"]["children"][0]["children"][0]["id"] == "n1.1"
    assert all(b["sources"] for b in mindmap["root"]["children"])


def test_branches_and_labels_are_kept_within_limits(api: httpx.Client, fake_ollama: FakeOllama,
                                                    vault: dict[str, Any]) -> None:
    draft = json.loads(mindmap_reply(9))
    draft["branches"][0]["label"] = "A very long branch label describing photosynthesis and everything about it"
    draft["branches"][1]["children"].append({"label": "   "})
    job = generate(api, fake_ollama, "/api/study/mindmaps", {"scope": vault["scope"]}, json.dumps(draft))
    mindmap = api.get(job["result_url"]).json()
    assert len(mindmap["root"]["children"]) == 7
    assert all(len(label) <= 60 for label in labels(mindmap["root"]))
    assert mindmap["root"]["children"][0]["label"].endswith("…")
    assert len(mindmap["root"]["children"][1]["children"]) == 2  # the blank node was dropped


def test_too_few_branches_are_retried_and_garbage_fails(api: httpx.Client, fake_ollama: FakeOllama,
                                                        vault: dict[str, Any]) -> None:
    job = generate(api, fake_ollama, "/api/study/mindmaps", {"scope": vault["scope"]}, mindmap_reply(2),
                   mindmap_reply(3))
    assert job["status"] == "succeeded"
    assert len(fake_ollama.chat_requests) == 2
    # The schema sent states 3–7 branches; the re-ask says which rule the answer broke.
    assert "branches: List should have at least 3 items" in fake_ollama.chat_requests[1]["messages"][-1]["content"]
    failed = generate(api, fake_ollama, "/api/study/mindmaps", {"scope": vault["scope"]}, "a tree", "[1, 2]")
    assert failed["status"] == "failed"
    assert failed["error"]["code"] == "generation_failed"


def test_layout_positions_exports_and_markdown(api: httpx.Client, fake_ollama: FakeOllama,
                                               vault: dict[str, Any]) -> None:
    job = generate(api, fake_ollama, "/api/study/mindmaps", {"scope": vault["scope"]}, mindmap_reply(3))
    base = f"/api/study/mindmaps/{job['result_id']}"
    saved = api.put(f"{base}/layout", json={"layout": "TB", "positions": {"n0": {"x": 0, "y": 0},
                                                                          "n2.1": {"x": 12.5, "y": -40}}})
    assert saved.status_code == 200
    assert saved.json()["layout"] == "TB"
    assert saved.json()["positions"]["n2.1"] == {"x": 12.5, "y": -40.0}
    unknown = api.put(f"{base}/layout", json={"layout": "LR", "positions": {"n99": {"x": 1, "y": 1}}})
    assert unknown.status_code == 422
    assert unknown.json()["error"]["code"] == "unknown_nodes"
    assert api.put(f"{base}/layout", json={"layout": "RL"}).status_code == 422
    reset = api.delete(f"{base}/layout").json()
    assert reset["layout"] == "LR"
    assert reset["positions"] == {}

    exported = api.post(f"{base}/exports", json={"format": "png"})
    assert exported.status_code == 201
    assert exported.json()["format"] == "png"
    assert api.post(f"{base}/exports", json={"format": "svg"}).status_code == 422
    assert api.get(base).json()["exports"] == 1
    markdown = api.get(f"{base}/markdown")
    assert markdown.headers["content-type"].startswith("text/markdown")
    lines = markdown.text.splitlines()
    assert lines[0] == "# Biology"
    assert lines[2:5] == ["- Branch 1", "  - Branch 1.1", "  - Branch 1.2"]
    assert sum(line.startswith("- ") for line in lines) == 3


@pytest.mark.slow
def test_a_custom_prompt_is_used_on_the_next_request_without_restart(
        server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, tmp_path: Path) -> None:
    prompts = tmp_path / "prompts"
    shutil.copytree(REPO_ROOT / "prompts", prompts, ignore=shutil.ignore_patterns("custom"))
    (prompts / "custom").mkdir()
    server = server_factory(QUIRE_PROMPTS_DIR=str(prompts))
    with server.client() as client:
        material = study_vault(client, ("cells",))
        body = {"scope": material["scope"], "count": 5}
        assert generate(client, fake_ollama, "/api/study/quizzes", body, quiz_reply(5))["status"] == "succeeded"
        assert "MY OWN QUIZ RULES" not in fake_ollama.chat_requests[-1]["messages"][0]["content"]
        custom = prompts / "custom" / "quiz.md"
        custom.write_text("MY OWN QUIZ RULES: {{count}} questions ({{types}}, {{difficulty}}, {{focus}})\n"
                          "{{passages}}", encoding="utf-8")
        generate(client, fake_ollama, "/api/study/quizzes", body, quiz_reply(5))
        assert fake_ollama.chat_requests[-1]["messages"][0]["content"].startswith("MY OWN QUIZ RULES: 5 questions")
        custom.write_text("SECOND VERSION {{count}} {{passages}}", encoding="utf-8")
        generate(client, fake_ollama, "/api/study/quizzes", body, quiz_reply(5))
        assert fake_ollama.chat_requests[-1]["messages"][0]["content"].startswith("SECOND VERSION 5")
