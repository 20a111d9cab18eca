"""Identical uploads in parallel (issue #15's race): N clients POST the same file at the same moment.

Starts everything it needs and removes it afterwards: a throwaway embedded Postgres, the fake Ollama
from tests/support (embedding held for a second, so the run is still in flight while requests arrive)
and a real Quire server process. Prints how many requests got which status, how many distinct
workflows and documents they produced, what was left in the upload area, and request latency.

    python scripts/bench_parallel_uploads.py [--clients 200] [--smoke]

`--smoke`: 8 clients, to prove the benchmark runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--smoke", action="store_true", help="8 clients: proves the script works")
    args = parser.parse_args()
    if args.smoke:
        args.clients = 8
    postgres, fake = ThrowawayPostgres(), FakeOllama().start()
    data_dir = Path(tempfile.mkdtemp(prefix="quire-bench-uploads-"))
    server = QuireServer(postgres.fresh_database(), data_dir, fake.url)
    try:
        server.start()
        fake.embed_delay_s = 1.0
        files = {"syllabus.md": b"# Syllabus\n\nWeek 1: kinematics. Week 2: Newton's laws of motion.\n"}
        start = threading.Barrier(args.clients)

        def send(_: int) -> tuple[int, str | None, str | None, float]:
            with server.client(timeout=120.0) as api:
                start.wait()
                began = time.perf_counter()
                response = upload(api, files)
                elapsed = time.perf_counter() - began
            body = response.json() if response.status_code == 202 else {}
            document = body.get("documents", [{}])[0].get("id") if body else None
            return response.status_code, body.get("workflow_id"), document, elapsed

        with ThreadPoolExecutor(args.clients) as pool:
            results = list(pool.map(send, range(args.clients)))
        with server.client() as api:
            workflow = next(r[1] for r in results if r[1])
            final = wait_for_run(api, workflow, timeout_s=120)["status"]
            documents = len(api.get("/api/documents").json())
        leftovers = list((data_dir / "docs" / ".pending").iterdir())
        latencies = sorted(r[3] * 1000 for r in results)
        print(f"clients: {args.clients}")
        print(f"statuses: {dict(Counter(r[0] for r in results))}")
        print(f"distinct workflows: {len({r[1] for r in results if r[1]})}, run ended {final}")
        print(f"distinct documents in answers: {len({r[2] for r in results if r[2]})}, in the library: {documents}")
        print(f"files left in docs/.pending: {len(leftovers)}")
        print(f"latency ms: p50 {statistics.median(latencies):.0f}, max {latencies[-1]:.0f}")
    finally:
        server.stop()
        fake.stop()
        postgres.close()


if __name__ == "__main__":
    main()
