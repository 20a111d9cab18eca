"""Connection budget benchmark: how many Postgres sessions Quire processes hold, with N processes on one
server at its default `max_connections` (100).

It starts a throwaway embedded Postgres (pgserver, PostgreSQL 16, its defaults), a fake Ollama, one
server and N-1 workers with the default `QUIRE_DB_CONNECTIONS`, all at once, then uploads a batch of
PDFs and searches from the server while the batch is read by every process. Every 0.1 s it counts the
sessions in `pg_stat_activity` per process (each session is named `quire:<instance>`), and reports the
peak per process, the peak in all and the server's limit, line by line as each phase ends. A start may
take minutes on a busy machine (the limit is 15 minutes); nothing is judged by the clock.

Usage: .venv/bin/python scripts/bench_connections.py [--processes 10] [--documents 20] [--smoke]
  --smoke: 2 processes, 2 documents.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.config import Tuning
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run
from tests.support.worker import QuireWorker

START_TIMEOUT_S = 900.0


class Sampler:
    """Peak sessions per process instance and in all, from pg_stat_activity, on a thread of its own."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self.per_process: dict[str, int] = {}
        self.total = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Sampler:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            while not self._stop.wait(0.1):
                rows = conn.execute("SELECT application_name, count(*) FROM pg_stat_activity"
                                    " WHERE application_name LIKE 'quire:%' GROUP BY 1").fetchall()
                for name, count in rows:
                    self.per_process[name] = max(self.per_process.get(name, 0), count)
                self.total = max(self.total, sum(count for _, count in rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, default=10)
    parser.add_argument("--documents", type=int, default=20)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    processes, documents = (2, 2) if args.smoke else (args.processes, args.documents)
    budget = Tuning.model_fields["db_connections"].default
    with tempfile.TemporaryDirectory(prefix="quire-bench-conn-") as tmp:
        root = Path(tmp)
        pg, fake = ThrowawayPostgres(), FakeOllama().start()
        started: list[QuireServer | QuireWorker] = []
        try:
            with psycopg.connect(pg.admin_url) as conn:
                limit = conn.execute("SHOW max_connections").fetchone()
            print(f"Postgres max_connections {limit[0] if limit else '?'}; {processes} Quire processes with "
                  f"QUIRE_DB_CONNECTIONS={budget} (the default)", flush=True)
            url = pg.fresh_database()
            sampler = Sampler(pg.admin_url).start()
            server = QuireServer(url, root / "server", fake.url)
            workers = [QuireWorker(url, root / f"worker-{n}", fake.url) for n in range(processes - 1)]
            started.extend([server, *workers])
            begun = time.perf_counter()
            with ThreadPoolExecutor(max_workers=processes) as pool:
                list(pool.map(lambda p: p.start(timeout_s=START_TIMEOUT_S), started))
            print(f"started: {processes} processes in {time.perf_counter() - begun:.0f} s; peak sessions so far "
                  f"{sampler.total}, per process at most {max(sampler.per_process.values())}", flush=True)
            files = {f"conn-{n}.pdf": make_pdf(root / f"conn-{n}.pdf", [
                f"Document {n} page {p}. Entropy measures the dispersal of energy. " * 10 for p in range(1, 6)
            ]).read_bytes() for n in range(documents)}
            with server.client(timeout=300) as api:
                workflow_id = upload(api, files).json()["workflow_id"]
                while api.get(f"/api/ingest/{workflow_id}").json()["status"] == "PENDING":
                    api.get("/api/search", params={"q": "entropy dispersal"})
                snapshot = wait_for_run(api, workflow_id, timeout_s=3600)
            sampler.stop()
            print(f"batch of {documents} documents: {snapshot['status']}; sessions per process peak "
                  f"{max(sampler.per_process.values())} (budget {budget}), all processes peak {sampler.total} "
                  f"of max_connections {limit[0] if limit else '?'}", flush=True)
            print("per process peaks:", sorted(sampler.per_process.values(), reverse=True), flush=True)
        finally:
            for process in started:
                process.stop()
            fake.stop()
            pg.close()


if __name__ == "__main__":
    main()
