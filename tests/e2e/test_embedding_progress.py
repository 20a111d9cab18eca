"""While the built-in model embeds real corpus files, the status light, the library and the upload card
say what it is doing ("Embedding with the built-in model: 40 of 143 passages, about 2 min left"), a
search meanwhile says which passages are keyword-only, and the words go away once every passage has its
vector. Needs the built-in model (`./scripts/setup.sh --local`); CI installs only `--dev` and skips it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scripts.shared_data import CORPUS
from tests.support.local_model import SKIP_REASON, built_in_model_installed
from tests.support.server import QuireServer
from tests.support.vault import upload

FILES = ("rust-book-ch04-01-ownership.md", "hochschulrahmengesetz.md", "doj-chapter13-trustee-handbook.docx")
SENTENCE = re.compile(r"Embedding with the built-in model: [\d,]+ of [\d,]+ passages")




@pytest.mark.skipif(not built_in_model_installed(), reason=SKIP_REASON)
def test_the_light_library_and_upload_card_count_the_passages_down_while_the_built_in_model_embeds(
        page: Page, server_factory: Callable[..., QuireServer], tmp_path: Path) -> None:
    server = server_factory(QUIRE_EMBEDDER="local")
    page.goto(server.url + "/library")
    light = page.get_by_test_id("health-light")
    with server.client() as api:
        assert upload(api, {name: (CORPUS / name).read_bytes() for name in FILES}).status_code == 202
        expect(light).to_contain_text(SENTENCE, timeout=180_000)
        page.screenshot(path=str(tmp_path / "embedding-light.png"))
        note = page.get_by_test_id("embedding-note").first
        expect(note).to_contain_text(SENTENCE)
        expect(note).to_contain_text("finds the waiting passages by their words only")
        waiting = api.get("/api/health").json()["embedder"]["progress"]
        found = api.get("/api/search", params={"q": "ownership borrowing"}).json()
        if waiting and waiting["embedded"] < waiting["total"] and found["notice"]:
            assert re.match(r"Keyword search only for [\d,]+ passages? still being embedded", found["notice"])
    page.screenshot(path=str(Path("/tmp") / "quire-embedding-progress.png"))
    expect(light).not_to_contain_text("Embedding with", timeout=900_000)
    expect(page.get_by_test_id("embedding-note")).to_have_count(0)
