"""The extraction sandbox's limits, each broken by a real file in a real child process: memory, CPU time,
wall time, a cancel, and the text cap; after each the pool still reads the next file."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from backend.ingest.extract.common import TOO_LARGE
from backend.ingest.sandbox import ExtractionCancelled, Limits, SandboxPool, extract_sandboxed
from backend.ingest.types import ExtractionError
from tests.support.hostile import huge_xml_docx


@pytest.fixture(scope="module")
def heavy_docx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DOCX whose 60 MB of XML takes python-docx several CPU seconds and several hundred MB to read."""
    return huge_xml_docx(tmp_path_factory.mktemp("docx") / "heavy.docx", xml_megabytes=60)


@pytest.fixture
def small_note(tmp_path: Path) -> Path:
    path = tmp_path / "note"  # stored without an extension, as uploads are
    path.write_text("# Note\n\nThe pool still reads files after a child was lost.")
    return path


@contextlib.contextmanager
def _pool(**limits: float) -> Iterator[SandboxPool]:
    pool = SandboxPool(1, Limits(**limits))  # type: ignore[arg-type]
    yield pool
    pool.close()


def _refusal(pool: SandboxPool, path: Path) -> str:
    with pytest.raises(ExtractionError) as caught:
        extract_sandboxed(pool, path, "docx", ocr_languages="eng")
    assert caught.value.code == "too_large"
    assert caught.value.message.startswith(TOO_LARGE)
    return caught.value.message


def _still_reads(pool: SandboxPool, note: Path) -> None:
    result = extract_sandboxed(pool, note, "md", ocr_languages="eng")
    assert "still reads files" in result.units[0].text


def test_memory_cap(heavy_docx: Path, small_note: Path) -> None:
    with _pool(memory_mb=300) as pool:
        assert _refusal(pool, heavy_docx).endswith("reading it needed more than 300 MB of memory.")
        _still_reads(pool, small_note)


def test_cpu_cap(heavy_docx: Path, small_note: Path) -> None:
    with _pool(cpu_s=1, memory_mb=4096) as pool:
        assert _refusal(pool, heavy_docx).endswith("reading it needed more than 1 seconds of CPU time.")
        _still_reads(pool, small_note)


def test_wall_clock_cap(heavy_docx: Path, small_note: Path) -> None:
    with _pool(wall_s=0.5, memory_mb=4096) as pool:
        started = time.monotonic()
        assert _refusal(pool, heavy_docx).endswith("reading it took longer than 0.5 seconds.")
        assert time.monotonic() - started < 3
    with _pool(memory_mb=4096) as pool:
        _still_reads(pool, small_note)


def test_cancel_kills_the_child_at_once(heavy_docx: Path, small_note: Path) -> None:
    with _pool(memory_mb=4096) as pool:
        cancel_at = time.monotonic() + 0.5
        with pytest.raises(ExtractionCancelled):
            extract_sandboxed(pool, heavy_docx, "docx", ocr_languages="eng",
                              should_stop=lambda: time.monotonic() > cancel_at)
        assert time.monotonic() - cancel_at < 1.0
        _still_reads(pool, small_note)


def test_text_cap(tmp_path: Path) -> None:
    path = tmp_path / "long"
    path.write_text("word " * 50_000)
    with _pool(max_chars=100_000) as pool:
        with pytest.raises(ExtractionError) as caught:
            extract_sandboxed(pool, path, "txt", ocr_languages="eng")
        assert caught.value.message == f"{TOO_LARGE}: it holds more than 100,000 characters of text."
