"""Smoke-test Quire's chat and study flows against a real model server: what works with a given model.

For each model named, a Quire server (a real process) is started on a throwaway database with that model
as its chat model, talking to the Ollama at OLLAMA_HOST. Documents of `shared/corpus` are read in, then:

- chat: questions whose answers the corpus manifest places in those documents — what the model can do
  (the `model` line), tool calls the model made itself, citations, whether the answer is grounded (the
  `grounding` line), the first line's and the whole answer's time, and any error;
- study: a quiz, a deck, a workshop outline and a mind map — the job's outcome, its time, and how well the
  model filled the schema (asked, kept, repaired, re-asked, dropped).

    OLLAMA_HOST=http://127.0.0.1:11434 python scripts/smoke_model.py qwen2.5:0.5b llama3.2:1b
    python scripts/smoke_model.py --smoke MODEL   # one document, one question

A cold model on a CPU takes minutes per answer; the limits here are generous (`--answer-timeout`).
Set DATABASE_URL to use an existing Postgres (a fresh database is made in it) instead of a throwaway one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first, as at every entry point (backend/process.py)

from tests.support.corpus import CORPUS
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.study import wait_job
from tests.support.vault import ingest

DOCUMENTS = ("rust-book-ch04-01-ownership.md", "v8-blog-standalone-wasm.html", "hochschulrahmengesetz.md")
QUESTIONS = ("How many owners can a value have at a time in Rust?",
             "Where does a String's memory come from at runtime?",
             "What is nice about standalone Wasm?",
             "Who won the football world cup in 2018?")  # not in the documents: a notice, not an answer
JOBS = (("quiz", "/api/study/quizzes", {"count": 5}), ("deck", "/api/study/decks", {"count": 10}),
        ("workshop", "/api/study/workshops", {"lessons": 3}), ("mind map", "/api/study/mindmaps", {"depth": 2}))


@dataclass
class Answer:
    question: str
    first_line_s: float | None = None
    total_s: float = 0.0
    lines: list[dict[str, Any]] = field(default_factory=list)

    def of(self, kind: str) -> list[Any]:
        return [line["data"] for line in self.lines if line["type"] == kind]

    def summary(self) -> str:
        text = "".join(self.of("text"))
        grounding = (self.of("grounding") or [{"status": "-"}])[0]["status"]
        calls = [t["name"] for t in self.of("tool") if t.get("by") == "model" and t["status"] == "finished"]
        relevant = sum(1 for c in self.of("metadata") if c.get("relevant"))
        error = (self.of("error") or [{}])[0].get("code", "")
        first = f"{self.first_line_s:.1f}s" if self.first_line_s is not None else "-"
        return (f"  {self.question[:52]:<52} first {first:>7}  total {self.total_s:6.1f}s  grounding {grounding:<11}"
                f" model calls {calls or '-'}  passages {len(self.of('metadata'))} ({relevant} relevant)"
                f"  {error}\n      {' '.join(text.split())[:150]!r}")


def ask(api: httpx.Client, question: str, timeout_s: float) -> Answer:
    answer = Answer(question)
    started = time.monotonic()
    with api.stream("POST", "/api/chat", json={"message": question}, timeout=timeout_s) as response:
        response.raise_for_status()
        for raw in response.iter_lines():
            line = json.loads(raw)
            if answer.first_line_s is None and line["type"] in ("thinking", "text"):
                answer.first_line_s = time.monotonic() - started
            answer.lines.append(line)
    answer.total_s = time.monotonic() - started
    return answer


def study(api: httpx.Client, name: str, path: str, body: dict[str, Any], timeout_s: float) -> str:
    started = time.monotonic()
    response = api.post(path, json=body)
    if response.status_code != 202:
        return f"  {name:<9} refused: {response.json()['error']['message']}"
    job = wait_job(api, response.json()["job_id"], timeout_s=timeout_s)
    took = time.monotonic() - started
    report = job.get("report") or {}
    error = (job["error"] or {}).get("message")
    outcome = job["status"] if job["status"] == "succeeded" else f"{job['status']}: {error}"
    return (f"  {name:<9} {took:6.1f}s  {outcome}\n      asked {report.get('asked', '-')}"
            f" kept {report.get('kept', '-')} re-asked {report.get('reasked', 0)}"
            f" repaired {report.get('repaired', {})} dropped {report.get('dropped', {})}")


def run_model(model: str, database_url: str, host: str, args: argparse.Namespace) -> None:
    data = Path(tempfile.mkdtemp(prefix="quire-smoke-"))
    server = QuireServer(database_url, data, host, QUIRE_CHAT_MODEL=model, QUIRE_LOG_LEVEL="WARNING").start()
    try:
        with server.client(timeout=args.answer_timeout) as api:
            documents = DOCUMENTS[:1] if args.smoke else DOCUMENTS
            started = time.monotonic()
            ingest(api, {name: (CORPUS / name).read_bytes() for name in documents}, timeout_s=args.answer_timeout)
            print(f"\n== {model} (documents read in {time.monotonic() - started:.1f}s)")
            answers = [ask(api, q, args.answer_timeout) for q in (QUESTIONS[:1] if args.smoke else QUESTIONS)]
            facts = (answers[0].of("model") or [{}])[0]
            print(f"  can: tools={facts.get('tools')} thinking={facts.get('thinking')} vision={facts.get('vision')}"
                  f"  context {facts.get('context_length')} tokens, sent num_ctx {facts.get('context_tokens')}")
            print("chat:")
            for answer in answers:
                print(answer.summary())
            print("study:")
            for name, path, body in JOBS:  # already the smallest each generator takes
                print(study(api, name, path, body, args.answer_timeout * 4))
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", help="chat models to try, as Ollama names them")
    parser.add_argument("--smoke", action="store_true", help="one document, one question")
    parser.add_argument("--answer-timeout", type=float, default=1800.0, help="seconds one answer may take")
    args = parser.parse_args()
    host = os.environ.get("OLLAMA_HOST", "http://127.0.0.1:11434")
    owned = None if os.environ.get("DATABASE_URL") else ThrowawayPostgres()
    try:
        for model in args.models:
            database_url = owned.fresh_database() if owned is not None else os.environ["DATABASE_URL"]
            run_model(model, database_url, host, args)
    finally:
        if owned is not None:
            owned.close()


if __name__ == "__main__":
    main()
