"""Big documents in the server: the server process's own resident memory (idle, peak, after) while a
Markdown file of 25 MB (26 million characters of prose) and a 20,000-page text PDF are read,
chunked and stored, and how long Cancel takes in each phase of such a document — the request's answer, and
the document leaving "ingesting" — with what the document ends as.

It writes both files (seeded, real-looking prose: chapters and sections of varied sentences; one text
paragraph a page), starts a throwaway Postgres, a fake Ollama and the real server (or measures a server
already running: `--url` and `--pid`), and goes through the public API as the web app does: upload
(`POST /api/documents`), the run's snapshot (`GET /api/ingest/{id}`) and Cancel
(`POST /api/ingest/{id}/cancel`). Per file it cancels once in each phase — reading (the sandbox has the
file), storing (the first batches inserted), making live (every passage stored, the version swap next),
embedding (the fake model holds its answer), each under a name of its own — then uploads a cancelled one
again (as a user would: no conflict to settle) and ingests it to the end, sampling the server's RSS every
50 ms.
The sandbox refuses text beyond 30 million characters (`Limits.max_chars`): a 25 MB Markdown file is
read, a 30 MiB text file is not.
Usage: .venv/bin/python scripts/bench_big_documents.py [--smoke] [--url URL --pid PID]
`--smoke` uses a 300,000-character file, a 600-page PDF and 200-character passages: it proves the script works.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.process import configure_process

configure_process()  # process-wide settings first

from tests.support.fake_ollama import FakeOllama
from tests.support.long_documents import make_long_pdf, prose_markdown
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import TERMINAL, upload

MB = 1024 * 1024
POLL_S = 0.05
SETTLE_S = 10.0  # how long after a run the server is left alone before "after" is read
# Where a cancel lands: (label, the document's state in the run, what its progress line must say).
PHASES = (("reading", "extracting", ""), ("storing", "storing", "passages stored"),
          ("making live", "storing", "all"), ("embedding", "embedding", ""))

class RssMeter:
    """The highest resident memory of one process (not its children), sampled every 50 ms on a thread."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> int:
        return int(self.process.memory_info().rss)

    def __enter__(self) -> RssMeter:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.now())
            self._stop.wait(0.05)


@dataclass
class Cancelled:
    phase: str
    reached: bool = False  # False: the phase went by before a poll saw it (no cancel sent)
    answered_s: float = 0.0
    settled_s: float = 0.0  # from the answer until the document left queued/ingesting
    status: str = ""
    blocks: int = 0
    run_status: str = ""
    detail: dict[str, Any] = field(default_factory=dict)


def _upload(api: httpx.Client, name: str, data: bytes) -> tuple[str, str]:
    response = upload(api, {name: data})  # as a user uploads it again after a cancel: no conflict to settle
    assert response.status_code == 202, response.text
    body = response.json()
    return body["workflow_id"], body["documents"][0]["id"]


def _at(item: dict[str, Any], state: str, says: str, total: int | None) -> bool:
    if item["status"] != state:
        return False
    detail = item["progress"]["detail"]
    if says == "all":  # every passage inserted: "25,013 passages stored" of "25,013 passages"
        return total is not None and detail == f"{total:,} passages stored"
    return says in detail


def _passages(detail: str) -> int | None:
    """The staged count in the extract step's "25,013 passages" line."""
    words = detail.split()
    return int(words[0].replace(",", "")) if len(words) == 2 and words[1] == "passages" else None


def cancel_in(api: httpx.Client, fake: FakeOllama | None, name: str, data: bytes, label: str, state: str,
              says: str, timeout_s: float = 1800) -> Cancelled:
    """Upload, wait for the phase, press Cancel; how long it took to answer and the document to settle."""
    if fake is not None and state == "embedding":
        fake.hold_embeddings()  # the embedding phase lasts until released
    try:
        workflow_id, document_id = _upload(api, name, data)
        result, total, deadline = Cancelled(label), None, time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            snapshot = api.get(f"/api/ingest/{workflow_id}").json()
            item = snapshot["documents"][0]
            total = total or _passages(item["progress"]["detail"])
            if _at(item, state, says, total):
                started = time.monotonic()
                response = api.post(f"/api/ingest/{workflow_id}/cancel")
                result.answered_s, result.reached = time.monotonic() - started, True
                assert response.status_code == 200, response.text
                break
            if snapshot["status"] in TERMINAL:
                break
            time.sleep(POLL_S)
    finally:
        if fake is not None:
            fake.release_embeddings()
    answered = time.monotonic()
    while True:
        document = api.get(f"/api/documents/{document_id}").json()
        run = api.get(f"/api/ingest/{workflow_id}").json()
        if document["status"] not in ("queued", "ingesting") and run["status"] in TERMINAL:
            break
        time.sleep(POLL_S)
    result.settled_s = time.monotonic() - answered
    result.status, result.blocks, result.run_status = document["status"], document["blocks"], run["status"]
    result.detail = {"error": document["error"], "warnings": document["warnings"][-1:]}
    return result


def ingest_whole(api: httpx.Client, meter: RssMeter, name: str, data: bytes,
                 timeout_s: float = 3600) -> dict[str, float]:
    """Upload and ingest to the end; the server's RSS idle before, at its peak, and SETTLE_S after."""
    idle = meter.now()
    meter.peak = idle
    started = time.monotonic()
    workflow_id, document_id = _upload(api, name, data)
    while (run := api.get(f"/api/ingest/{workflow_id}").json())["status"] not in TERMINAL:
        assert time.monotonic() < started + timeout_s, run
        time.sleep(0.5)
    took = time.monotonic() - started
    time.sleep(SETTLE_S)
    document = api.get(f"/api/documents/{document_id}").json()
    assert document["status"] == "ready", document
    return {"idle": idle / MB, "peak": meter.peak / MB, "after": meter.now() / MB, "seconds": took,
            "blocks": document["blocks"]}


def measure(api: httpx.Client, pid: int, fake: FakeOllama | None, files: dict[str, bytes]) -> None:
    """Per file: a cancel in each phase (a document of its own each: one kept by a late cancel would make
    the next upload "unchanged"), then a cancelled one uploaded again and ingested to the end."""
    with RssMeter(pid) as meter:
        for name, data in files.items():
            print(f"\n{name} ({len(data) / MB:.1f} MB)", flush=True)
            stem, extension = name.rsplit(".", 1)
            again: str | None = None  # the first document a cancel left out: uploaded again, to the end
            for label, state, says in PHASES:
                copy = f"{stem}-{label.replace(' ', '-')}.{extension}"
                result = cancel_in(api, fake, copy, data, label, state, says)
                if not result.reached:
                    print(f"  cancel while {label:<12} phase went by before it was seen; run {result.run_status}")
                    continue
                if result.status != "ready" and again is None:
                    again = copy
                print(f"  cancel while {label:<12} answered in {result.answered_s:6.2f} s; document {result.status}"
                      f" {result.settled_s:5.2f} s later, {result.blocks} live blocks, run {result.run_status}"
                      f" {result.detail}", flush=True)
            again = again or f"{stem}-whole.{extension}"
            whole = ingest_whole(api, meter, again, data)
            print(f"  whole ingestion ({again}): {whole['blocks']} blocks in {whole['seconds']:.0f} s; server RSS"
                  f" idle {whole['idle']:.0f} MB, peak {whole['peak']:.0f} MB (+{whole['peak'] - whole['idle']:.0f}),"
                  f" after {whole['after']:.0f} MB (+{whole['after'] - whole['idle']:.0f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=26_000_000, help="characters of the Markdown file")
    parser.add_argument("--pages", type=int, default=20_000, help="pages of the PDF")
    parser.add_argument("--url", help="measure this running server instead of starting one (needs --pid)")
    parser.add_argument("--pid", type=int, help="the running server's process id")
    parser.add_argument("--smoke", action="store_true", help="small files, short passages: proves the script works")
    args = parser.parse_args()
    env = {"QUIRE_MAX_UPLOAD_MB": "200"}
    if args.smoke:
        args.chars, args.pages = 300_000, 600
        env |= {"QUIRE_CHUNK_SIZE": "200", "QUIRE_CHUNK_OVERLAP": "20"}
    with tempfile.TemporaryDirectory(prefix="quire-bench-big-") as tmp_name:
        tmp = Path(tmp_name)
        print(f"writing a {args.chars:,}-character Markdown file and a {args.pages:,}-page PDF", flush=True)
        files = {"big-notes.md": prose_markdown(args.chars),
                 "big-book.pdf": make_long_pdf(tmp / "big.pdf", args.pages).read_bytes()}
        if args.url:
            assert args.pid, "--url needs --pid"
            with httpx.Client(base_url=args.url, timeout=3600) as api:
                measure(api, args.pid, None, files)
            return
        postgres, fake = ThrowawayPostgres(), FakeOllama().start()
        server = QuireServer(postgres.fresh_database(), tmp / "data", fake.url, **env).start()
        try:
            assert server.process is not None
            with server.client(timeout=3600) as api:
                measure(api, server.process.pid, fake, files)
        finally:
            server.stop()
            fake.stop()
            postgres.close()


if __name__ == "__main__":
    main()
