"""Helpers for study tests against a running server: study material, scripted model answers for each
generator, and waiting for a generation job."""

from __future__ import annotations

import json
import random
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fsrs import Card, Rating, Scheduler

from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.vault import ingest

TOPICS = {
    "cells": ["Mitochondria release energy from glucose by cellular respiration and make ATP.",
              "Ribosomes translate messenger RNA into proteins using transfer RNA adaptors.",
              "The cell membrane is a phospholipid bilayer that controls what enters the cell."],
    "plants": ["Photosynthesis in chloroplasts turns light energy into chemical energy stored in glucose.",
               "Stomata on the leaf surface open and close to exchange carbon dioxide and oxygen.",
               "Xylem vessels carry water from the roots upward while phloem moves sugars around."],
    "genetics": ["DNA is a double helix of nucleotides paired adenine with thymine and guanine with cytosine.",
                 "Mendel's pea experiments showed dominant and recessive alleles segregate independently.",
                 "Mutations change the DNA sequence and can alter the protein a gene encodes."],
}


def material(topic: str, paragraphs: int = 12) -> bytes:
    """A Markdown document long enough to be split into several blocks."""
    sentences = TOPICS[topic]
    body = [f"## Part {i + 1}\n\n" + " ".join(sentences[(i + j) % 3] for j in range(4)) for i in range(paragraphs)]
    return (f"# {topic.title()}\n\n" + "\n\n".join(body)).encode()


TERMINAL = {"succeeded", "failed"}


def wait_job(api: httpx.Client, job_id: str, timeout_s: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        job = api.get(f"/api/study/jobs/{job_id}").json()
        if job["status"] in TERMINAL:
            return job
        if time.monotonic() > deadline:
            raise TimeoutError(f"study job {job_id} still {job['status']}")
        time.sleep(0.1)


def generate(api: httpx.Client, fake: FakeOllama, path: str, body: dict[str, Any],
             *replies: str | Reply) -> dict[str, Any]:
    """Script the model's answers, POST the generation request, wait for its job to end."""
    fake.script(*(r if isinstance(r, Reply) else Reply(content=r) for r in replies))
    response = api.post(path, json=body)
    assert response.status_code == 202, response.text
    return wait_job(api, response.json()["job_id"])


def mcq(n: int, ids: list[str] | None = None, correct: int = 1) -> dict[str, Any]:
    return {"type": "mcq", "question": f"Question number {n} about mitochondria?",
            "options": [f"option {n}.{k}" for k in range(4)], "correct_index": correct,
            "explanation": f"Explanation {n}: the material says so.", "source_block_ids": ids or ["P1"]}


def true_false(n: int) -> dict[str, Any]:
    return {"type": "true_false", "question": f"Statement {n}: chloroplasts make glucose.",
            "options": ["True", "False"], "correct_index": 0, "explanation": "Photosynthesis does.",
            "source_block_ids": ["P2"]}


def quiz_reply(count: int) -> str:
    return json.dumps({"questions": [mcq(i) if i % 2 else true_false(i) for i in range(1, count + 1)]})


def card(n: int) -> dict[str, Any]:
    return {"front": f"What does part {n} say?", "back": f"Answer {n}.", "tags": ["biology"],
            "source_block_ids": ["P1"]}


def outline_reply(lessons: int) -> str:
    return json.dumps({
        "title": "Energy and life", "summary": "How cells and plants handle energy.",
        "objectives": ["Explain respiration", "Explain photosynthesis"], "key_points": ["ATP", "Chloroplasts"],
        "lessons": [{"title": f"Lesson {n}: mitochondria and energy", "estimated_minutes": 15,
                     "summary": f"What lesson {n} is about."} for n in range(1, lessons + 1)],
        "source_block_ids": ["P1", "P2"],
    })


def mindmap_reply(branches: int, depth: int = 2) -> str:
    def node(label: str, level: int) -> dict[str, Any]:
        children = [node(f"{label}.{k}", level + 1) for k in range(1, 3)] if level < depth else []
        return {"label": label, "source_block_ids": ["P1"], "children": children}

    return json.dumps({"central": "Biology", "branches": [node(f"Branch {b}", 1) for b in range(1, branches + 1)]})


def study_vault(client: httpx.Client, topics: tuple[str, ...] = ("cells", "plants", "genetics")) -> dict[str, Any]:
    """Ingest one document per topic under fresh unique names; returns their ids, names and category."""
    token = uuid.uuid4().hex[:6]
    category = f"study-{token}"
    docs = ingest(client, {f"{topic}-{token}.md": material(topic) for topic in topics}, category=category)
    return {"category": category, "ids": [d["id"] for d in docs.values()], "names": sorted(docs),
            "scope": {"document_ids": [d["id"] for d in docs.values()]}}


def simulated_review_log(cards: int, days: int, seed: int = 7) -> list[tuple[int, int, datetime]]:
    """The review log of a learner who forgets faster than FSRS's defaults assume (initial stabilities a
    third of theirs): each card is learnt on a day of the first weeks and reviewed whenever the default
    scheduler says, recalled with the probability the *learner's* memory gives. Returns (card, rating, when)."""
    truth = list(Scheduler().parameters)
    truth[:4] = [p / 3 for p in truth[:4]]
    learner, scheduler = Scheduler(parameters=tuple(truth)), Scheduler(enable_fuzzing=False, learning_steps=())
    rng = random.Random(seed)
    start = datetime(2026, 1, 5, 9, tzinfo=UTC)
    log: list[tuple[int, int, datetime]] = []
    for card_id in range(cards):
        card = Card(card_id=card_id + 1, due=start + timedelta(days=rng.randrange(21)))
        memory = Card(card_id=card_id + 1)
        while card.due < start + timedelta(days=days):
            at = card.due.replace(hour=9) + timedelta(minutes=rng.randrange(600))
            recalled = memory.last_review is not None and rng.random() < learner.get_card_retrievability(memory, at)
            rating = rng.choice([Rating.Good, Rating.Good, Rating.Good, Rating.Easy, Rating.Hard]) if recalled \
                else Rating.Again
            if memory.last_review is None:
                rating = Rating.Good
            card, _ = scheduler.review_card(card, rating, at)
            memory, _ = learner.review_card(memory, rating, at)
            log.append((card_id, int(rating), at))
    return log
