"""Helpers for tests that put documents into a running Quire server through its HTTP API."""

from __future__ import annotations

import mimetypes
import time
from collections.abc import Callable
from typing import Any

import httpx

TERMINAL = {"SUCCESS", "ERROR", "CANCELLED", "MAX_RECOVERY_ATTEMPTS_EXCEEDED"}
# How long a test waits for a run by default: a bound against a hang, not a measure of speed. On a machine
# running several suites (load 24 on 2 cores) a sandbox worker's first start alone took 51 s, and eight
# one-line notes missed a 60-second wait.
RUN_WAIT_S = 300.0


def upload(api: httpx.Client, files: dict[str, bytes], category: str | None = None,
           on_conflict: str | None = None) -> httpx.Response:
    """POST the files (name -> content) to /api/documents; returns the raw response. `on_conflict`
    (ask | replace | keep_both) settles a name already taken in the category by other bytes."""
    parts = [("files", (name, data, mimetypes.guess_type(name)[0] or "application/octet-stream"))
             for name, data in files.items()]
    form = {"category": category} if category is not None else {}
    if on_conflict is not None:
        form["on_conflict"] = on_conflict
    return api.post("/api/documents", files=parts, data=form or None)


def wait_until(api: httpx.Client, workflow_id: str, ready: Callable[[dict[str, Any]], bool],
               timeout_s: float = 60.0) -> dict[str, Any]:
    """Poll the run's snapshot until `ready` says so (a state mid-run: extracting, embedding, piece #1)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        snapshot = api.get(f"/api/ingest/{workflow_id}").json()
        if ready(snapshot):
            return snapshot
        time.sleep(0.02)
    raise TimeoutError(f"condition not reached: {snapshot}")


def wait_for_run(api: httpx.Client, workflow_id: str, timeout_s: float = RUN_WAIT_S) -> dict[str, Any]:
    """Poll the ingestion run until DBOS reports it finished; returns the final snapshot.

    Asked often at first, then less (up to every half second): each snapshot is half a dozen queries, and
    polling a long run ten times a second took an eighth of the servers' CPU in the suite, from the run."""
    deadline = time.monotonic() + timeout_s
    pause = 0.05
    while True:
        snapshot = api.get(f"/api/ingest/{workflow_id}").json()
        if snapshot.get("status") in TERMINAL:
            return snapshot
        if time.monotonic() > deadline:
            raise TimeoutError(f"ingestion {workflow_id} still {snapshot.get('status')}: {snapshot}")
        time.sleep(pause)
        pause = min(pause * 1.5, 0.5)


def ingest(api: httpx.Client, files: dict[str, bytes], category: str | None = None,
           timeout_s: float = RUN_WAIT_S, on_conflict: str | None = None) -> dict[str, Any]:
    """Upload and wait until ready; asserts success and returns {filename: document} for the new files."""
    response = upload(api, files, category, on_conflict)
    assert response.status_code == 202, response.text
    body = response.json()
    snapshot = wait_for_run(api, body["workflow_id"], timeout_s)
    assert snapshot["status"] == "SUCCESS", snapshot
    return {doc["filename"]: doc for doc in body["documents"]}
