"""Chat latency with a zero-latency fake model: time to the `start` line and Quire's own overhead per turn.

Starts everything it needs and removes it afterwards: a throwaway embedded Postgres, the fake Ollama
from tests/support, and a real Quire server process (tests/support/server.py). A small vault is
ingested, then each turn runs the full two-phase path — thinking call, a `search_knowledge_base` tool
round (embedding + hybrid search), the answer with a citation — and is measured from the client:

- start: request sent → `start` line received (target ≤ 50 ms);
- total: request sent → `done` line received;
- overhead: total minus the time the fake model spent serving this turn's requests (target p50 ≤ 20 ms);
- server CPU/turn: CPU time of the Quire process (all its threads, DBOS included) divided by turns.

Turns are tagged so the fake can attribute its own time to the turn that caused it. Scenarios: 200
turns one after another (20 sessions × 10 turns), and 200 turns as 20 concurrent streams.

    python scripts/bench_chat.py [--turns-per-session 10] [--sessions 20] [--smoke]

`--smoke`: one note per topic, 2 sessions of 3 turns (both scenarios), to prove the benchmark runs; its
times mean nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from tests.support.fake_ollama import FakeOllama, Reply, _Handler
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import ingest

TAG = re.compile(r"turntag(\d+)")
TOPICS = ["enzymes", "respiration", "photosynthesis", "osmosis", "mitosis", "genetics", "ecology", "immunity"]


class TimedFake(FakeOllama):
    """The fake Ollama, additionally attributing the seconds it spends per request to the turn tag in it."""

    def __init__(self) -> None:
        super().__init__()
        self.by_turn: dict[int, float] = defaultdict(float)

    def start(self, port: int = 0) -> TimedFake:
        fake = self

        class Handler(_Handler):
            """Times each whole request from its request line on — parsing the headers, reading and decoding
            the body included (a model server's work) — and charges it to the turn tag found in the body."""

            def parse_request(self) -> bool:
                self.started = time.perf_counter()  # the request line has just been read
                return super().parse_request()

            def do_POST(self) -> None:
                started, self.tag, self.tagging_s = self.started, None, 0.0
                try:
                    super().do_POST()
                finally:
                    if self.tag is not None:  # the bench's own tag lookup is not the model's time
                        with fake._lock:
                            fake.by_turn[self.tag] += time.perf_counter() - started - self.tagging_s

            def _chat(self, body: dict[str, Any]) -> None:
                self._tagged(body)
                super()._chat(body)

            def _embed(self, body: dict[str, Any]) -> None:
                self._tagged(body)
                super()._embed(body)

            def _tagged(self, body: dict[str, Any]) -> None:
                """The newest turn tag in the request: its current question, tool result or embedded query.
                Scanned from the end message by message, not by re-serialising a 30 KB body: the bench's
                own CPU shares the machine with the server it measures."""
                started = time.perf_counter()
                texts = [m.get("content") or "" for m in body.get("messages", [])] or list(body.get("input") or [])
                tags = next((found for text in reversed(texts) if (found := TAG.findall(text))), [])
                self.tag = int(tags[-1]) if tags else None
                self.tagging_s = time.perf_counter() - started

        Handler.fake = self
        self._server = ThreadingHTTPServer(("127.0.0.1", port or self._port), Handler)
        self._port = self._server.server_address[1]  # what `url` reports
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="fake-ollama")
        self._thread.start()
        return self


def model(request: dict[str, Any]) -> Reply:
    """Think, then search for the question's topic (carrying the turn tag), then answer citing [1]."""
    if request.get("think"):
        return Reply(thinking="The user asks about a topic in their notes; I will search for it.")
    last = request["messages"][-1]
    if last["role"] == "user":
        tag = TAG.findall(last["content"])[-1]
        topic = TOPICS[int(tag) % len(TOPICS)]
        return Reply(tool_calls=[("search_knowledge_base", {"query": f"{topic} key facts turntag{tag}"})])
    return Reply(content="According to your notes, the key point is explained in the first passage [1].")


@dataclass
class Turn:
    tag: int
    start_s: float
    total_s: float
    citations: int
    ok: bool
    problem: str = ""  # why a failed turn failed: its error line, or what was missing


def run_turn(client: httpx.Client, tag: int, session_id: str | None) -> tuple[Turn, str]:
    topic = TOPICS[tag % len(TOPICS)]
    body: dict[str, Any] = {"message": f"What do my notes say about {topic}? (turntag{tag})"}
    if session_id:
        body["session_id"] = session_id
    sent = time.perf_counter()
    start_s, citations, kinds, error = 0.0, 0, [], ""
    with client.stream("POST", "/api/chat", json=body) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            event = json.loads(line)
            kinds.append(event["type"])
            if event["type"] == "start":
                start_s = time.perf_counter() - sent
                session_id = event["data"]["session_id"]
            citations += event["type"] == "metadata"
            if event["type"] == "error":
                error = f"{event['data']['code']}: {event['data']['message']}"
    total = time.perf_counter() - sent
    ok = kinds[0] == "start" and kinds[-1] == "done" and not error and citations > 0
    problem = error or ("no citation" if not citations else "" if ok else f"stream {kinds[0]}..{kinds[-1]}")
    assert session_id is not None
    return Turn(tag, start_s, total, citations, ok, problem), session_id


def run_session(server: QuireServer, first_tag: int, turns: int) -> list[Turn]:
    results, session_id = [], None
    with server.client(timeout=120) as client:
        for offset in range(turns):
            turn, session_id = run_turn(client, first_tag + offset, session_id)
            results.append(turn)
    return results


def ingest_vault(server: QuireServer, notes_per_topic: int = 4) -> None:
    """The benchmark's vault: 32 Markdown notes on eight topics, four parts each (160 blocks); a smoke run
    takes one note per topic."""
    files = {f"{topic}-{i}.md": (f"# {topic.title()} notes {i}\n\n" + "\n\n".join(
        f"## Part {p}\n\nKey facts about {topic}, part {p}: " + f"{topic} matters because of detail {p}. " * 8
        for p in range(4))).encode() for topic in TOPICS for i in range(notes_per_topic)}
    with server.client(timeout=120) as client:
        ingest(client, files, timeout_s=300)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(name: str, turns: list[Turn], fake: TimedFake, wall_s: float, cpu_s: float) -> str:
    starts = [t.start_s * 1000 for t in turns]
    totals = [t.total_s * 1000 for t in turns]
    in_fake = [fake.by_turn[t.tag] * 1000 for t in turns]
    overhead = [total - spent for total, spent in zip(totals, in_fake, strict=True)]
    failed = sum(not t.ok for t in turns)
    cells = [name, str(len(turns)), *(f"{v:8.1f}" for v in (
        statistics.median(starts), percentile(starts, 0.95), statistics.median(totals), percentile(totals, 0.95),
        statistics.median(in_fake), statistics.median(overhead), percentile(overhead, 0.95))),
        f"{len(turns) / wall_s:6.1f}", f"{cpu_s / len(turns) * 1000:6.1f}", str(failed)]
    return " | ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--turns-per-session", type=int, default=10)
    parser.add_argument("--smoke", action="store_true", help="a small vault, 2 sessions of 3 turns: proves it works")
    args = parser.parse_args()
    if args.smoke:
        args.sessions, args.turns_per_session = 2, 3

    postgres = ThrowawayPostgres()
    fake = TimedFake().start()
    data_dir = Path(tempfile.mkdtemp(prefix="quire-bench-chat-"))
    server = QuireServer(postgres.fresh_database(), data_dir, fake.url, QUIRE_LOG_LEVEL="WARNING")
    try:
        server.start()
        ingest_vault(server, 1 if args.smoke else 4)
        fake.respond_with(model)
        run_session(server, 10_000, 10)  # warm-up: connection pools, prompt cache, first queries

        per, n = args.turns_per_session, args.sessions
        assert server.process is not None
        pid = server.process.pid
        started, cpu = time.perf_counter(), cpu_seconds(pid)
        sequential = [t for s in range(n) for t in run_session(server, s * per, per)]
        sequential_wall, sequential_cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu

        started, cpu = time.perf_counter(), cpu_seconds(pid)
        with ThreadPoolExecutor(n) as pool:
            batches = list(pool.map(lambda s: run_session(server, 50_000 + s * per, per), range(n)))
        concurrent = [t for batch in batches for t in batch]
        concurrent_wall, concurrent_cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu
    finally:
        server.stop()
        fake.stop()
        postgres.close()

    header = ["scenario", "turns", "start p50", "start p95", "total p50", "total p95", "in fake p50",
              "overhead p50", "overhead p95", "turns/s", "server CPU/turn", "failed"]
    print("\nChat turns (thinking + one search tool round + answer), zero-latency fake model; times in ms")
    print(" | ".join(header))
    print(report("sequential", sequential, fake, sequential_wall, sequential_cpu))
    print(report(f"{args.sessions} concurrent", concurrent, fake, concurrent_wall, concurrent_cpu))
    problems = Counter(t.problem for t in sequential + concurrent if not t.ok)
    for problem, count in problems.most_common():
        print(f"failed turns: {count} x {problem}")
    print(f"targets: start p50 <= 50 ms; overhead p50 <= 20 ms. CPU cores: {os.cpu_count()}, "
          f"load average at the end: {os.getloadavg()[0]:.1f} (other work on the machine inflates wall times)")


if __name__ == "__main__":
    main()
