"""Uploads a demanding user or an attacker sends, over real HTTP to a real server: files made by real
tools with odd traits, and names and multipart encodings that are legal but unusual. Each ends as a
proper document or a clear refusal, quickly, with nothing lost."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.support.hostile import workbook_spanning_every_cell
from tests.support.vault import ingest

Unique = Callable[[str], str]


def test_a_workbook_declaring_every_cell_is_read_in_seconds(api: httpx.Client, unique: Unique,
                                                            tmp_path: Path) -> None:
    # Before: the sheet's declared A1:XFD1048576 was padded out cell by cell, tying an extraction worker
    # up until its CPU limit (minutes) for a 5 KB file.
    name = unique("glossary.xlsx")
    started = time.monotonic()
    doc = ingest(api, {name: workbook_spanning_every_cell(tmp_path / "g.xlsx").read_bytes()}, timeout_s=30)[name]
    assert time.monotonic() - started < 30
    text = "\n".join(b["text"] for b in api.get(f"/api/documents/{doc['id']}/blocks").json()["blocks"])
    assert "| osmosis | water crossing a semipermeable membrane |" in text
    assert "last row note" in text
