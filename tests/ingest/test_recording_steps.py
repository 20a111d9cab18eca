"""A recording is transcribed piece by piece, one DBOS step each: the real server is SIGKILLed while the
second piece of a seven-minute lecture is transcribed, restarted, and finishes the same workflow without
transcribing the finished piece again (pieces done twice: 0), with every sentence searchable at its time;
and a cancel stops the transcription within 2 s."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable

import psutil
import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.hostile import tree_cpu_seconds
from tests.support.server import QuireServer
from tests.support.speech import lecture, require_voice
from tests.support.vault import upload, wait_for_run, wait_until

pytestmark = pytest.mark.slow
SENTENCES = ["The mitochondria is the powerhouse of the cell.",
             "Photosynthesis turns sunlight into sugar inside the chloroplast.",
             "Entropy in a closed system never decreases over time."]


def _seven_minutes() -> bytes:
    require_voice()
    wav, _starts = lecture(SENTENCES * 28, pause_s=1.0)  # about 7 minutes: two pieces
    return wav


def test_kill_mid_recording_resumes_from_the_last_finished_piece(
        server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama) -> None:
    server = server_factory(QUIRE_VOICE_MODEL="tiny.en")
    with server.client() as api:
        workflow_id = upload(api, {"lecture.wav": _seven_minutes()}).json()["workflow_id"]
        second = wait_until(api, workflow_id, lambda s: any(k.endswith("#1") for k in s["executions"]), 600)
        detail = second["documents"][0]["progress"]["detail"]
        assert detail.startswith("transcribing "), detail
        assert re.search(r" of 7:\d\d$", detail), detail
        server.kill()
    server.start()
    with server.client() as api:
        snapshot = wait_for_run(api, workflow_id, timeout_s=600)
        assert snapshot["status"] == "SUCCESS", snapshot
        runs = {key.split(":")[0] + key[-2:]: n for key, n in snapshot["executions"].items()}
        assert runs["transcribe#0"] == 1, snapshot["executions"]  # the finished piece was not done again
        assert runs["transcribe#1"] == 2, snapshot["executions"]  # the one in flight at the kill
        assert server.starts == 2
        (document,) = snapshot["documents"]
        assert document["status"] == "ready", document
        for word in ("mitochondria", "chloroplast", "entropy"):
            hits = api.get("/api/search", params={"q": word, "k": 50, "mode": "sparse",
                                                  "documents": document["id"]}).json()["hits"]
            sections = {hit["section"] for hit in hits}
            late = [s for s in sections if int(s.split("\u2013")[0].split(":")[0]) >= 5]
            assert late, (word, sections)  # found in the second piece too, at its time


def test_cancel_stops_transcription_within_two_seconds(
        server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama) -> None:
    """Not only the run's status: the process transcribing (the busiest of the server's children) is gone
    within 2 s of the cancel, so no core stays busy with a recording nobody waits for."""
    server = server_factory(QUIRE_VOICE_MODEL="tiny.en")
    assert server.process is not None
    with server.client() as api:
        workflow_id = upload(api, {"lecture.wav": _seven_minutes()}).json()["workflow_id"]
        # Into the first piece's transcription: Whisper has heard something of it.
        wait_until(api, workflow_id, lambda s: any("#0" in k for k in s["executions"])
                    and re.match(r"transcribing (?!0:00 )", s["documents"][0]["progress"]["detail"]), 300)
        used = tree_cpu_seconds(server.process.pid)
        transcriber = psutil.Process(max((pid for pid in used if pid != server.process.pid), key=used.__getitem__))
        started = time.monotonic()
        assert api.post(f"/api/ingest/{workflow_id}/cancel").status_code in (200, 202)
        snapshot = wait_for_run(api, workflow_id, timeout_s=30)
        assert snapshot["documents"][0]["status"] in ("failed", "cancelled"), snapshot
        with contextlib.suppress(psutil.Error):
            transcriber.wait(timeout=max(0.0, 2.0 - (time.monotonic() - started)))
        assert not _alive(transcriber), "the transcription went on after the cancel"


def _alive(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
