"""Screenshots of the real app for the README: the library, its passage search, a chat answer with its
sources, and a PDF page in the viewer with the passage boxed.

It runs what a user runs — a real Quire server (`tests/support/server.py`) on a throwaway Postgres, the
built web app, Debian's Chromium through Playwright — with the stand-in model server
(`tests/support/fake_ollama.py`, a simulating model: it searches and answers from the passages it is
given, so the answer's words are the documents' own, not a real model's). Three documents of
`../shared/corpus` are uploaded over HTTP. The PNGs go to docs/images/ (or `--out DIR`).

    .venv/bin/python scripts/docs_screenshots.py [--out DIR]

Needs `frontend/dist` (`cd frontend && npm run build`) and /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from backend.process import configure_process

configure_process()

from playwright.sync_api import Page, expect, sync_playwright

from tests.support.corpus import CORPUS
from tests.support.fake_model import MODES
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import ingest

FILES = {  # category → corpus documents
    "Lectures": ["geotopo-lecture-notes-de.pdf", "py4e-02-expressions.pptx"],
    "Reading": ["federal-register-2020-17221.pdf", "rust-book-ch04-01-ownership.md"],
}
QUESTION = "What are the rules of ownership in Rust?"
SEARCH = "ownership"
PDF_QUERY, PDF_NAME = "Boeing", "federal-register-2020-17221.pdf"
CHROMIUM = "/usr/bin/chromium"


def shoot(page: Page, out: Path, name: str) -> None:
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(out / f"{name}.png"))
    print(f"{out / name}.png")


def take(server: QuireServer, out: Path) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(server.url + "/library")
            expect(page.get_by_text(FILES["Reading"][1]).first).to_be_visible(timeout=30_000)
            shoot(page, out, "readme-library")

            page.get_by_label("Search documents and passages").fill(SEARCH)
            results = page.get_by_test_id("passage-results")
            expect(results).to_contain_text(re.compile(r"Best \d+ passages?"), timeout=30_000)
            shoot(page, out, "readme-search")

            page.goto(server.url + "/chat")
            box = page.get_by_role("textbox", name="Message")
            box.fill(QUESTION)
            box.press("Enter")
            turn = page.get_by_test_id("turn").last
            expect(turn.get_by_test_id("source-card").first).to_be_visible(timeout=120_000)
            shoot(page, out, "readme-chat")

            page.goto(server.url + "/library")
            page.get_by_label("Search documents and passages").fill(PDF_QUERY)
            group = page.get_by_test_id("passage-group").filter(has_text=PDF_NAME)
            group.get_by_test_id("passage-hit").first.click(timeout=30_000)
            expect(page.get_by_test_id("pdf-highlight").first).to_be_visible(timeout=60_000)
            shoot(page, out, "readme-viewer")
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    postgres = ThrowawayPostgres()
    fake = FakeOllama().start()
    fake.add_model("gemma4:e4b", MODES["capable"])
    try:
        with tempfile.TemporaryDirectory(prefix="quire-shots") as data:
            server = QuireServer(postgres.fresh_database(), Path(data), fake.url)
            server.start()
            try:
                with server.client() as api:
                    for category, names in FILES.items():
                        ingest(api, {n: (CORPUS / n).read_bytes() for n in names}, category=category, timeout_s=300)
                take(server, args.out)
            finally:
                server.stop()
    finally:
        fake.stop()
        postgres.close()


if __name__ == "__main__":
    main()
