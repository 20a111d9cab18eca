"""Speaking an audio overview's script, durably: one DBOS step per line, then one that joins them.

Runs in the study job's workflow once the script is stored (`jobs.py` hands the overview's id here). Each
line is spoken in the speaking sandbox (backend/speech/pool.py: its own process, memory bounded, CPU time
bounded in proportion to the line's length, no wall-clock limit) and its samples are kept in Postgres at
once, so after a crash (`kill -9`) DBOS resumes at the first line not yet kept and no finished line is
spoken again; a replayed step finds its clip and returns. The join step puts the lines one after the
other with a short pause, records where each is heard, encodes Ogg/Opus and stores it in one transaction.
Deleting an overview stops the work after the line in progress (each step finds it gone). Failures (a
voice missing, a limit broken) end the overview as `failed` with the reason.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from dbos import DBOS

from backend.durable import RETRY_WHEN_DATABASE_LOST
from backend.sandbox import JobCrashed, JobError, LimitBroken
from backend.speech import tts
from backend.speech.pool import SPEAK_CPU_BASE_S, SPEAK_CPU_PER_CHAR_S, speaking_pool
from backend.store import audio_overviews as store
from backend.store.db import Database

PAUSE_S = 0.4  # between two lines: a breath, and the turn between hosts heard as one


class OverviewSpeech:
    """Speaks overviews into the database. Built once per process before `DBOS.launch()`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def speak(self, overview_id: str) -> None:
        """The workflow's part after the script: every line, then the join (plain code between steps)."""
        for n in range(self.count_step(overview_id)):
            if not self.line_step(overview_id, n):
                return
        self.join_step(overview_id)

    @DBOS.step(name="overview_count_step", **RETRY_WHEN_DATABASE_LOST)
    def count_step(self, overview_id: str) -> int:
        row = store.get(self.db, overview_id)
        return len(row["lines"]) if row is not None and row["state"] == "synthesizing" else 0

    @DBOS.step(name="overview_line_step", **RETRY_WHEN_DATABASE_LOST)
    def line_step(self, overview_id: str, n: int) -> bool:
        """Speak line `n` and keep it; False when the overview is gone, failed or failing now."""
        row = store.get(self.db, overview_id)
        if row is None or row["state"] != "synthesizing":
            return False
        if store.clip_exists(self.db, overview_id, n):
            return True  # spoken before a crash
        line = row["lines"][n]
        voice = tts.VOICES[row["language"]][line["speaker"]]
        cpu_s = SPEAK_CPU_BASE_S + int(SPEAK_CPU_PER_CHAR_S * len(line["text"]))
        try:
            pcm = speaking_pool().run(tts.speak, (voice, line["text"]), cpu_s=cpu_s)
        except JobError as exc:
            store.fail(self.db, overview_id, exc.code, exc.message)
            return False
        except (LimitBroken, JobCrashed) as exc:
            store.fail(self.db, overview_id, "internal_error", f"Line {n + 1} could not be spoken: {exc}.")
            return False
        store.add_clip(self.db, overview_id, n, pcm, tts.RATE)
        return True

    @DBOS.step(name="overview_join_step", **RETRY_WHEN_DATABASE_LOST)
    def join_step(self, overview_id: str) -> None:
        row = store.get(self.db, overview_id)
        clips = store.clips(self.db, overview_id)
        if row is None or row["state"] != "synthesizing" or len(clips) != len(row["lines"]):
            return  # deleted meanwhile (its clips went with it), or already joined by a replay
        pause = np.zeros(int(PAUSE_S * tts.RATE), np.int16).tobytes()
        parts: list[bytes] = []
        lines: list[dict[str, Any]] = []
        at = 0.0
        for line, clip in zip(row["lines"], clips, strict=True):
            length = len(clip["pcm"]) / 2 / clip["rate"]
            lines.append({**line, "start_s": round(at, 3), "end_s": round(at + length, 3)})
            parts += [clip["pcm"], pause]
            at += length + PAUSE_S
        pcm = b"".join(parts[:-1])
        try:
            audio = speaking_pool().run(tts.encode, (pcm, tts.RATE), cpu_s=SPEAK_CPU_BASE_S + int(at))
        except (JobError, LimitBroken, JobCrashed) as exc:
            store.fail(self.db, overview_id, "internal_error", f"The overview's audio could not be encoded: {exc}.")
            return
        store.finish(self.db, overview_id, lines, audio, "audio/ogg", round(len(pcm) / 2 / tts.RATE, 3))
