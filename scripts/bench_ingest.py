"""Ingestion benchmark: pages/second for extract + chunk + store, seconds to re-scan 1,000 unchanged
files, and DBOS ledger bytes per ingested page.

It generates its own corpus (a 500-page text PDF, 200 mixed small files, 1,000 small notes), starts a
throwaway embedded Postgres, a zero-latency fake Ollama and the real Quire server, and measures through
the public API and the DBOS step timestamps. Usage: .venv/bin/python scripts/bench_ingest.py
Targets on the 2-core dev machine: >= 100 pages/s, <= 2 s re-scan, <= 2 KB ledger per page.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.store.db import sibling_database_url
from tests.support.documents import Para, make_docx, make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

WORDS = [
    "energy", "system", "model", "data", "analysis", "theory", "process", "structure", "function", "method",
    "result", "student", "lecture", "exam", "chapter", "definition", "example", "proof", "value", "network",
    "protocol", "reaction", "cell", "market",
]


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 18))).capitalize() + "."


def page_text(rng: random.Random, chars: int = 2400) -> str:
    text = []
    while sum(map(len, text)) < chars:
        text.append(sentence(rng))
    return " ".join(text)


def small_files(rng: random.Random, count: int, tmp: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for i in range(count):
        kind = ("md", "txt", "csv", "html", "docx")[i % 5]
        body = page_text(rng, 900)
        if kind == "md":
            data = f"# Note {i}\n\n{body}\n\n## Details\n\n{sentence(rng)}".encode()
        elif kind == "txt":
            data = body.encode()
        elif kind == "csv":
            data = ("term,definition\n" + "\n".join(f"t{j},{sentence(rng)}" for j in range(12))).encode()
        elif kind == "html":
            data = f"<html><body><article><h1>Page {i}</h1><p>{body}</p></article></body></html>".encode()
        else:
            data = make_docx(tmp / f"d{i}.docx", [Para(body)]).read_bytes()
        files[f"small-{i:04d}.{kind}"] = data
    return files


def step_times(snapshot: dict, name: str) -> list[tuple[datetime, datetime]]:
    return [(datetime.fromisoformat(s["started_at"]), datetime.fromisoformat(s["finished_at"]))
            for s in snapshot["steps"] if s["name"] == name]


def ledger_bytes(server: QuireServer, workflow_id: str) -> int:
    query = """
        SELECT coalesce((SELECT sum(pg_column_size(t.*)) FROM dbos.operation_outputs t WHERE workflow_uuid = %(w)s), 0)
             + coalesce((SELECT sum(pg_column_size(t.*)) FROM dbos.workflow_status t WHERE workflow_uuid = %(w)s), 0)
             + coalesce((SELECT sum(pg_column_size(t.*)) FROM dbos.workflow_input t WHERE workflow_uuid = %(w)s), 0)
             + coalesce((SELECT sum(pg_column_size(t.*)) FROM dbos.workflow_output t WHERE workflow_uuid = %(w)s), 0)
    """
    with psycopg.connect(sibling_database_url(server.database_url, "_dbos")) as conn:
        return int(conn.execute(query, {"w": workflow_id}).fetchone()[0])


def ingest(api: httpx.Client, files: dict[str, bytes]) -> tuple[dict, float]:
    started = time.perf_counter()
    response = upload(api, files)
    response.raise_for_status()
    snapshot = wait_for_run(api, response.json()["workflow_id"], timeout_s=900)
    assert snapshot["status"] == "SUCCESS", snapshot
    return snapshot, time.perf_counter() - started


def bench_pdf(api: httpx.Client, server: QuireServer, tmp: Path, pages: int) -> dict[str, float]:
    rng = random.Random(7)
    pdf = make_pdf(tmp / "book.pdf", [page_text(rng) for _ in range(pages)], fontsize=8).read_bytes()
    snapshot, wall = ingest(api, {"book.pdf": pdf})
    (extract_start, _), = step_times(snapshot, "extract_step")
    (_, store_end), = step_times(snapshot, "store_step")
    seconds = (store_end - extract_start).total_seconds()
    ledger = ledger_bytes(server, snapshot["workflow_id"])
    return {"pages": pages, "extract_chunk_store_s": seconds, "pages_per_s": pages / seconds,
            "wall_s_with_embedding": wall, "ledger_bytes_per_page": ledger / pages}


def bench_rescan(api: httpx.Client, tmp: Path, count: int) -> dict[str, float]:
    rng = random.Random(11)
    files = {f"note-{i:04d}.md": f"# Note {i}\n\n{page_text(rng, 600)}".encode() for i in range(count)}
    ingest(api, files)
    snapshot, wall = ingest(api, files)
    assert all(doc["decision"] == "unchanged" for doc in snapshot["documents"])
    (scan_start, scan_end), = step_times(snapshot, "scan_step")
    return {"files": count, "scan_step_s": (scan_end - scan_start).total_seconds(), "upload_to_done_s": wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--small-files", type=int, default=200)
    parser.add_argument("--rescan-files", type=int, default=1000)
    args = parser.parse_args()
    postgres, fake = ThrowawayPostgres(), FakeOllama().start()
    with tempfile.TemporaryDirectory(prefix="quire-bench-") as tmp_name:
        tmp = Path(tmp_name)
        server = QuireServer(postgres.fresh_database(), tmp / "data", fake.url, QUIRE_MAX_UPLOAD_MB="200").start()
        try:
            with server.client(timeout=600) as api:
                pdf = bench_pdf(api, server, tmp, args.pages)
                _, small_wall = ingest(api, small_files(random.Random(3), args.small_files, tmp))
                rescan = bench_rescan(api, tmp, args.rescan_files)
        finally:
            server.stop()
            fake.stop()
            postgres.close()
    print(f"\nQuire ingestion benchmark ({args.pages}-page PDF, {args.small_files} mixed files, "
          f"{args.rescan_files}-file re-scan; zero-latency fake embedder)\n")
    print(f"{'measure':<48}{'value':>12}  target")
    print(f"{'extract + chunk + store, pages/s':<48}{pdf['pages_per_s']:>12.1f}  >= 100")
    print(f"{'  (seconds for the PDF, excluding embedding)':<48}{pdf['extract_chunk_store_s']:>12.2f}")
    print(f"{'  (whole PDF upload to ready, incl. embedding)':<48}{pdf['wall_s_with_embedding']:>12.2f}")
    print(f"{'DBOS ledger bytes per page':<48}{pdf['ledger_bytes_per_page']:>12.1f}  <= 2048")
    print(f"{f'{args.small_files} mixed small files, upload to ready (s)':<48}{small_wall:>12.2f}")
    print(f"{f're-scan {args.rescan_files} unchanged files: scan step (s)':<48}{rescan['scan_step_s']:>12.2f}  <= 2")
    print(f"{'  (upload request to run finished, s)':<48}{rescan['upload_to_done_s']:>12.2f}")


if __name__ == "__main__":
    main()
