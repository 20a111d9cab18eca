"""The vault panel's embedding model chooser in Chromium: switching to another model shows the switch's
progress ("Re-embedding with nomic-embed-text: 0 of 3 passages; search uses embeddinggemma until done")
while the new model's vectors are held back, a switch can be cancelled, and once the new vectors cover
every passage the panel names the new model as the one in use; with Ollama stopped, the chooser says why it
lists none of Ollama's models."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import ingest

DOCS = {
    "garage.md": b"# Garage\n\nThe automobile needs new tyres and an oil change before winter.",
    "baking.md": b"# Baking\n\nKnead the dough, let it rise for an hour, then bake the loaf.",
    "garden.md": b"# Garden\n\nWater the tomatoes daily and prune the roses in spring.",
}


def test_choosing_a_model_shows_the_switch_and_then_the_new_model_in_use(
        page: Page, server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama, tmp_path: Path) -> None:
    fake_ollama.add_embedding_model("nomic-embed-text:latest", 48)
    fake_ollama.add_embedding_model("other-embed:latest", 32)
    server = server_factory()
    with server.client() as api:
        ingest(api, DOCS)
    fake_ollama.hold_model("nomic-embed-text")
    fake_ollama.hold_model("other-embed")
    page.goto(server.url + "/dashboard")
    chooser = page.get_by_test_id("embedding-chooser")
    model = chooser.get_by_label("Embedding model")
    # The chooser appears once the models are listed (Ollama asked about each): slow on a loaded machine.
    expect(model).to_have_value("ollama:embeddinggemma", timeout=60_000)
    expect(chooser.get_by_role("button", name="Switch")).to_be_disabled()

    model.select_option("ollama:other-embed")
    chooser.get_by_role("button", name="Switch").click()
    expect(page.get_by_test_id("embedding-switch")).to_contain_text("Re-embedding with other-embed")
    chooser.get_by_role("button", name="Cancel switch").click()
    expect(page.get_by_test_id("embedding-switch")).to_have_count(0)
    expect(model).to_have_value("ollama:embeddinggemma")

    model.select_option("ollama:nomic-embed-text")
    chooser.get_by_role("button", name="Switch").click()
    progress = page.get_by_test_id("embedding-switch")
    expect(progress).to_have_text(
        "Re-embedding with nomic-embed-text: 0 of 3 passages; search uses embeddinggemma until done.",
        use_inner_text=True)
    expect(progress.get_by_role("progressbar")).to_have_attribute("aria-valuenow", "0")
    page.get_by_test_id("vault-panel").screenshot(path=str(tmp_path / "embedding-switch.png"))

    fake_ollama.release_model("nomic-embed-text")
    expect(progress).to_have_count(0, timeout=60_000)
    expect(model).to_have_value("ollama:nomic-embed-text")
    expect(chooser.get_by_role("option", name="nomic-embed-text (Ollama) · in use")).to_have_count(1)
    expect(page.get_by_test_id("vault-panel")).to_contain_text("vectors recorded as ollama:nomic-embed-text")
    page.get_by_test_id("vault-panel").screenshot(path=str(tmp_path / "embedding-switched.png"))

    fake_ollama.stop()  # Ollama not running: the chooser says why it offers none of Ollama's models
    page.reload()
    expect(page.get_by_test_id("embedding-offer-note")).to_have_text(
        "Ollama isn't running, so its embedding models aren't listed. Start it with ollama serve.", timeout=60_000)
    expect(chooser.get_by_role("option")).to_have_count(1)
    # Whether Ollama has the models is not known while it cannot be asked: not "not installed".
    expect(page.get_by_test_id("vault-panel")).to_contain_text("unknown: Ollama not reachable")
    expect(page.get_by_test_id("vault-panel")).not_to_contain_text("not installed")
