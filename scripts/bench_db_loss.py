"""Database-loss figures: how Quire answers while its embedded Postgres is SIGKILLed, and how soon it is back.

It starts a fake Ollama and the real Quire server on its own embedded Postgres (no DATABASE_URL), starts
an ingestion whose embedding the fake holds, then kills the postmaster `--kills` times. Throughout, two
clients poll `/api/health` and `/api/documents` (a database read) every 50 ms. Printed: the worst and p99
latency of each, how many answers were 503, the time from the kill until health reports the database up
again and until `/api/documents` answers 200, and whether the ingestion then finished with every block.
Usage: .venv/bin/python scripts/bench_db_loss.py [--kills 3] [--smoke]
  --smoke: one kill, to prove the benchmark runs.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from pgserver.utils import PostmasterInfo

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import upload, wait_for_run

NOTES = {f"lecture-{i}.md": (f"# Lecture {i}\n\n" + f"Entropy and the second law, part {i}. " * 150).encode()
         for i in range(3)}


@dataclass
class Poller:
    path: str
    answers: list[tuple[float, float, int]] = field(default_factory=list)  # (sent at, latency, status)
    errors: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self, url: str) -> None:
        with httpx.Client(base_url=url, timeout=30.0) as client:
            while not self.stop.is_set():
                sent = time.monotonic()
                try:
                    response = client.get(self.path)
                    status = response.status_code
                    if self.path == "/api/health" and not response.json()["postgres"]["ok"]:
                        status = 503  # answered, saying the database is down
                except httpx.HTTPError:
                    self.errors += 1
                    status = 0
                self.answers.append((sent, time.monotonic() - sent, status))
                time.sleep(0.05)


def _postmaster(pgdata: Path) -> int:
    return int((pgdata / "postmaster.pid").read_text().splitlines()[0])


def _health_ok(url: str) -> bool:
    try:
        return bool(httpx.get(f"{url}/api/health", timeout=5).json()["postgres"]["ok"])
    except (httpx.HTTPError, ValueError, KeyError):
        return False


def _back_after(answers: list[tuple[float, float, int]], killed_at: float, ok: int) -> float | None:
    """Seconds from the kill to the first answer sent after it, following a failure, that was `ok` again."""
    failed = False
    for sent, latency, status in answers:
        if sent < killed_at:
            continue
        if status != ok:
            failed = True
        elif failed:
            return sent + latency - killed_at
    return None


def _blocks(pgdata: Path) -> list[tuple[str, int, int, int]]:
    info = PostmasterInfo.read_from_pgdata(pgdata)
    assert info is not None
    with psycopg.connect(info.get_uri(database="quire")) as conn:
        return conn.execute(
            "SELECT d.filename, count(b.id), count(DISTINCT b.ordinal), count(b.embedding) FROM documents d"
            " JOIN blocks b ON b.document_id = d.id AND b.is_live GROUP BY d.filename ORDER BY 1").fetchall()


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="one kill: proves the script works")
    args = parser.parse_args()
    if args.smoke:
        args.kills = 1
    return args


def main() -> None:
    args = _arguments()
    fake = FakeOllama().start()
    with tempfile.TemporaryDirectory(prefix="qdbloss", dir="/tmp") as tmp:
        vault = Path(tmp) / "vault"
        pgdata = vault / "postgres"
        server = QuireServer("", vault, fake.url, DATABASE_URL="").start(timeout_s=180)
        health, documents = Poller("/api/health"), Poller("/api/documents")
        threads = [threading.Thread(target=p.run, args=(server.url,), daemon=True) for p in (health, documents)]
        try:
            with server.client() as api:
                fake.hold_embeddings()
                workflow_id = upload(api, NOTES).json()["workflow_id"]
                while not fake.embed_requests:
                    time.sleep(0.05)
                for thread in threads:
                    thread.start()
                time.sleep(1)
                recoveries: list[tuple[float | None, float | None]] = []
                kills: list[float] = []
                for _ in range(args.kills):
                    old = _postmaster(pgdata)
                    killed_at = time.monotonic()
                    os.kill(old, signal.SIGKILL)
                    while not (pgdata.joinpath("postmaster.pid").exists() and _postmaster(pgdata) != old
                               and _health_ok(server.url)):
                        time.sleep(0.05)
                    time.sleep(2)
                    kills.append(killed_at)
                    recoveries.append((_back_after(health.answers, killed_at, 200),
                                       _back_after(documents.answers, killed_at, 200)))
                fake.release_embeddings()
                snapshot = wait_for_run(api, workflow_id, timeout_s=180)
            for poller in (health, documents):
                poller.stop.set()
            for thread in threads:
                thread.join(timeout=35)
            assert server.process is not None
            alive = server.process.poll() is None
            blocks = _blocks(pgdata)
        finally:
            fake.release_embeddings()
            server.stop()
            fake.stop()

    print(f"kills: {args.kills}; Quire process still the same: {alive}; run: {snapshot['status']}")
    for poller in (health, documents):
        latencies = sorted(lat for _, lat, _ in poller.answers)
        unavailable = sum(1 for *_, status in poller.answers if status == 503)
        p99 = latencies[int(len(latencies) * 0.99) - 1]
        label = "database down" if poller.path == "/api/health" else "503"
        print(f"{poller.path}: {len(latencies)} answers, worst {max(latencies) * 1000:.0f} ms, "
              f"p99 {p99 * 1000:.0f} ms, median {statistics.median(latencies) * 1000:.1f} ms, "
              f"{unavailable} x {label}, {poller.errors} transport errors")
        slowest = sorted(poller.answers, key=lambda answer: -answer[1])[:3]
        print("  slowest (seconds after the last kill, latency ms, status): " + ", ".join(
            f"({sent - max([k for k in kills if k <= sent], default=sent):.1f}, {lat * 1000:.0f}, {st})"
            for sent, lat, st in slowest))
    for n, (health_back, docs_back) in enumerate(recoveries, start=1):
        print(f"kill {n}: health says up after {health_back or float('nan'):.1f} s, "
              f"/api/documents 200 after {docs_back or float('nan'):.1f} s")
    for name, total, ordinals, embedded in blocks:
        print(f"{name}: {total} live blocks, {ordinals} distinct, {embedded} embedded")


if __name__ == "__main__":
    main()
