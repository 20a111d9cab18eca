"""Quire is SIGKILLed while it OCRs an uploaded photo, whose pages it keeps as a PDF in a scratch folder of
the system's temp folder. The folder, a copy of the user's page, must not stay there for good: the next
start of Quire removes it, leaves the scratch folders of processes still alive alone, and finishes
reading the photo."""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.corpus import scan_image
from tests.support.documents import tesseract_available
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")]


def _tiff_of(pages: int) -> bytes:
    """The corpus's scanned page `pages` times, one frame each: long enough to OCR to be killed midway."""
    page = scan_image()
    buffer = io.BytesIO()
    page.save(buffer, "TIFF", save_all=True, append_images=[page] * (pages - 1), compression="tiff_lzw")
    return buffer.getvalue()


def _scratch_of(pid: int) -> list[Path]:
    """The scratch folders of process `pid` that hold the PDF made of a photo's pages."""
    return [folder for folder in Path(tempfile.gettempdir()).glob(f"quire-image-{pid}-*")
            if (folder / "pages.pdf").exists()]


def test_a_restart_removes_what_a_killed_process_left_in_the_temp_folder(
        server_factory: Callable[..., QuireServer]) -> None:
    server = server_factory()
    live = Path(tempfile.mkdtemp(prefix=f"quire-attachment-{os.getpid()}-"))  # this test's own: alive
    try:
        with server.client() as api:
            accepted = upload(api, {"scanned-chapter.tiff": _tiff_of(6)})
            assert accepted.status_code == 202, accepted.text
            assert server.process is not None
            killed_pid = server.process.pid
            deadline = time.monotonic() + 60
            while not _scratch_of(killed_pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            left = _scratch_of(killed_pid)
            assert left, "the photo's pages were never put in a scratch folder"
            server.kill()
            assert left[0].exists()  # a killed process cannot clean up after itself

        server.restart()
        assert not left[0].exists()
        assert live.exists()
        with server.client() as api:
            run = wait_for_run(api, accepted.json()["workflow_id"], timeout_s=240)
            assert run["status"] == "SUCCESS", run
            document = next(d for d in api.get("/api/documents").json() if d["filename"] == "scanned-chapter.tiff")
            assert (document["status"], document["pages"]) == ("ready", 6), document
    finally:
        shutil.rmtree(live, ignore_errors=True)
