"""Scale-out benchmark: an OCR-heavy batch ingested by 1, 2 and 3 Quire processes sharing one Postgres,
then (full size) once more with 3 processes and one of them SIGKILLed halfway through.

It generates scanned single-page PDFs (text rendered to images, so every page needs OCR), starts a
throwaway embedded Postgres, a zero-latency fake Ollama and real Quire processes: a server
(`backend.main`) that receives every upload, then one worker (`backend.worker`) more before each next
batch. Each batch is a fresh set of documents (the same shape, other text), timed from the upload request
to the run's end; its line is printed as soon as it is done. Each process reads one document at a time
(`QUIRE_INGEST_CONCURRENCY=1`), so a process stands for one machine's worth of ingestion; on a 2-core
machine three such processes can at most double the throughput of one.

Made for a busy machine: a process may take minutes to start (the limit is 15 minutes) and a batch as
long as it needs (60 minutes); nothing is judged by the clock, the figures are what it measured. The kill
run checks the takeover bound: done by the kill + the silence after which the dead process is taken over
+ the documents unread at the kill at the 3-process rate (a sum that assumes nothing overlaps).

For figures that say something about Quire rather than about the machine's other work, run it at a higher
CPU priority. Nice values alone do not do that on Linux with autogroup scheduling (each session is one
group); as root, raise the session's group: `bash -c 'echo -19 > /proc/$$/autogroup; exec .venv/bin/python
scripts/bench_scale.py'`.

Usage: .venv/bin/python scripts/bench_scale.py [--documents 12] [--takeover-after 10] [--smoke]
  --smoke: 2 documents per batch, no kill run (the test suite runs it: tests/scripts/test_bench_scale.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.store.db import sibling_database_url
from tests.support.documents import make_scanned_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run
from tests.support.worker import QuireWorker

START_TIMEOUT_S = 900.0
BATCH_TIMEOUT_S = 3600.0
SENTENCES = [
    "Glaciers carve valleys over thousands of years",
    "Photosynthesis turns light into chemical energy",
    "The treaty was signed after months of negotiation",
    "Enzymes lower the activation energy of reactions",
]


def scanned_batch(folder: Path, label: str, count: int) -> dict[str, bytes]:
    files = {}
    for n in range(count):
        text = f"Batch {label} document {n}. " + ". ".join(SENTENCES[(n + i) % len(SENTENCES)] for i in range(6)) + "."
        name = f"scan-{label}-{n:02d}.pdf"
        files[name] = make_scanned_pdf(folder / name, text).read_bytes()
    return files


def block_check(url: str, names: list[str]) -> tuple[int, int]:
    """(documents of the batch with live blocks, of them those whose live blocks have duplicate ordinals)."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT d.id, count(*), count(DISTINCT b.ordinal) FROM blocks b JOIN documents d"
                            " ON d.id = b.document_id WHERE b.is_live AND d.filename = ANY(%s) GROUP BY d.id",
                            (names,)).fetchall()
    return len(rows), sum(1 for _, total, distinct in rows if total != distinct)


def executors_of(url: str, workflow_id: str) -> dict[str, int]:
    with psycopg.connect(sibling_database_url(url, "_dbos")) as conn:
        rows = conn.execute("SELECT executor_id, count(*) FROM dbos.workflow_status WHERE workflow_uuid LIKE %s"
                            " GROUP BY executor_id", (f"{workflow_id}-doc-%",)).fetchall()
    return dict(rows)


class Cluster:
    """One server and the workers added to it, on one fresh database."""

    def __init__(self, pg: ThrowawayPostgres, fake: FakeOllama, root: Path, takeover_after: float) -> None:
        self.url = pg.fresh_database()
        self.fake, self.root = fake, root
        self.env = {"QUIRE_INGEST_CONCURRENCY": "1", "QUIRE_TAKEOVER_AFTER_S": str(takeover_after)}
        self.server = self._start(QuireServer(self.url, Path(tempfile.mkdtemp(dir=root)), fake.url, **self.env))
        self.workers: list[QuireWorker] = []

    @staticmethod
    def _start(process: QuireServer) -> QuireServer:
        started = time.perf_counter()
        process.start(timeout_s=START_TIMEOUT_S)
        print(f"  (a server started in {time.perf_counter() - started:.0f} s)", flush=True)
        return process

    def add_worker(self) -> None:
        started = time.perf_counter()
        worker = QuireWorker(self.url, Path(tempfile.mkdtemp(dir=self.root)), self.fake.url, **self.env)
        self.workers.append(worker.start(timeout_s=START_TIMEOUT_S))
        print(f"  (a worker started in {time.perf_counter() - started:.0f} s)", flush=True)

    @property
    def size(self) -> int:
        return 1 + len(self.workers)

    def run(self, files: dict[str, bytes], kill_halfway: bool = False) -> dict[str, object]:
        with self.server.client(timeout=300) as api:
            started = time.perf_counter()
            workflow_id = upload(api, files).json()["workflow_id"]
            killed_at, unread_at_kill = None, None
            if kill_halfway:
                killed_at, unread_at_kill = self._kill_halfway(api, workflow_id, len(files), started)
            snapshot = wait_for_run(api, workflow_id, timeout_s=BATCH_TIMEOUT_S)
            elapsed = time.perf_counter() - started
        with_blocks, duplicated = block_check(self.url, list(files))
        return {"seconds": elapsed, "status": snapshot["status"], "documents_with_blocks": with_blocks,
                "duplicated": duplicated, "killed_at": killed_at, "unread_at_kill": unread_at_kill,
                "by_executor": executors_of(self.url, workflow_id)}

    def _kill_halfway(self, api: httpx.Client, workflow_id: str, count: int, started: float) -> tuple[float, int]:
        while True:
            documents = api.get(f"/api/ingest/{workflow_id}").json()["documents"]
            read = sum(d["status"] in ("ready", "storing", "embedding") for d in documents)
            if read >= count // 2:
                break
            time.sleep(0.05)
        worker = self.workers[-1]
        assert worker.process is not None
        worker.process.kill()  # SIGKILL: a crash, no shutdown hooks
        worker.process.wait()
        return time.perf_counter() - started, count - read

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.server.stop()


def report(label: str, n: int, result: dict[str, object]) -> None:
    seconds = float(result["seconds"])  # type: ignore[arg-type]
    print(f"{label:>24}: {seconds:7.1f} s  {n / seconds:5.2f} pages/s  status {result['status']}, "
          f"{result['documents_with_blocks']}/{n} documents with blocks, {result['duplicated']} with duplicate "
          f"blocks, read by {sorted(result['by_executor'].values(), reverse=True)}", flush=True)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=12)
    parser.add_argument("--takeover-after", type=float, default=10.0)
    parser.add_argument("--smoke", action="store_true", help="2 documents per batch, no kill run")
    args = parser.parse_args()
    n = 2 if args.smoke else args.documents
    print(f"{n} scanned single-page documents per batch, OCR on each, one document at a time per process", flush=True)
    with tempfile.TemporaryDirectory(prefix="quire-bench-scale-") as tmp:
        root = Path(tmp)
        pg, fake = ThrowawayPostgres(), FakeOllama().start()
        cluster = None
        try:
            cluster = Cluster(pg, fake, root, args.takeover_after)
            seconds: dict[int, float] = {}
            for size in (1, 2, 3):
                while cluster.size < size:
                    cluster.add_worker()
                result = cluster.run(scanned_batch(root, f"p{size}", n))
                seconds[size] = float(result["seconds"])  # type: ignore[arg-type]
                report(f"{size} process{'es' if size > 1 else ''}", n, result)
            print(f"throughput ratio: 2 processes {seconds[1] / seconds[2]:.2f}x, 3 processes "
                  f"{seconds[1] / seconds[3]:.2f}x of 1", flush=True)
            if not args.smoke:
                crash = cluster.run(scanned_batch(root, "kill", n), kill_halfway=True)
                report("3, one killed halfway", n, crash)
                killed_at, unread = float(crash["killed_at"]), int(crash["unread_at_kill"])  # type: ignore[arg-type]
                bound = killed_at + args.takeover_after + unread * seconds[3] / n
                print(f"kill halfway: killed at {killed_at:.1f} s with {unread} documents unread, done at "
                      f"{float(crash['seconds']):.1f} s; bound {bound:.1f} s = kill + takeover after "  # type: ignore[arg-type]
                      f"{args.takeover_after:.0f} s of silence + {unread} documents at the 3-process rate", flush=True)
        finally:
            if cluster is not None:
                cluster.stop()
            fake.stop()
            pg.close()


if __name__ == "__main__":
    main()
