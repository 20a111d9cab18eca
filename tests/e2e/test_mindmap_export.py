"""Mind-map exports in a real browser: the PNG and the PDF show the connecting lines, not only the
boxes. Between the columns of a left-to-right map only edges are drawn, so every pixel column from the
first box to the last must hold some ink; without edges the gaps between columns are bare background."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pymupdf
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.study import generate, mindmap_reply, study_vault

# Gaps between node columns are ~80 px wide at 1x; a run this long of background-only columns means a gap
# with no edge across it (edges join each column to the next, so with them no column is empty).
BARE_RUN = 12


@pytest.fixture(scope="module")
def mindmap_id(e2e_server: QuireServer, fake_ollama_server: FakeOllama) -> str:
    with e2e_server.client() as api:
        vault = study_vault(api, ("cells",))
        job = generate(api, fake_ollama_server, "/api/study/mindmaps", {"scope": vault["scope"], "depth": 2},
                       mindmap_reply(3))
    assert job["status"] == "succeeded", job
    return str(job["result_id"])


def _longest_bare_run(image: Image.Image) -> tuple[int, int]:
    """(longest run of background-only pixel columns between the first and last inked column, inked columns)."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    background = rgb.getpixel((1, 1))
    pixels = rgb.load()
    assert pixels is not None

    def inked(x: int) -> bool:
        return any(sum(abs(a - b) for a, b in zip(pixels[x, y], background, strict=True)) > 24  # type: ignore[arg-type]
                   for y in range(0, height, 1))

    columns = [inked(x) for x in range(width)]
    first, last = columns.index(True), width - 1 - columns[::-1].index(True)
    longest = run = 0
    for x in range(first, last + 1):
        run = 0 if columns[x] else run + 1
        longest = max(longest, run)
    return longest, sum(columns)


def _export(page: Page, label: str) -> bytes:
    page.get_by_role("button", name="Export").click()
    with page.expect_download() as download:
        page.get_by_role("button", name=re.compile(f"^{label}")).click()
    return Path(download.value.path()).read_bytes()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_png_and_pdf_exports_draw_the_edges(page: Page, e2e_server: QuireServer, mindmap_id: str, theme: str) -> None:
    page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
    page.goto(e2e_server.url + f"/study/mindmaps/{mindmap_id}")
    canvas = page.get_by_test_id("mindmap-canvas")
    expect(canvas.locator(".react-flow__edge")).to_have_count(3 + 6)
    expect(canvas).to_have_attribute("data-layout", "LR")

    png = Image.open(io.BytesIO(_export(page, "PNG image")))
    ARTIFACTS.mkdir(exist_ok=True)
    png.save(ARTIFACTS / f"mindmap-export-{theme}.png")
    bare, inked = _longest_bare_run(png)
    assert inked > png.width // 2
    assert bare < BARE_RUN, f"a {bare}-pixel-wide gap with no edge across it"

    pdf = pymupdf.open(stream=_export(page, "PDF"), filetype="pdf")
    pixmap = pdf[0].get_pixmap(dpi=72)
    rendered = Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)
    bare, _ = _longest_bare_run(rendered)
    assert bare < BARE_RUN * pixmap.width / png.width + 2
