"""Recordings (a lecture, a talk, a voice memo) as documents: the worked example of a format module.

Recognised by their bytes (MP3, M4A/AAC, WAV, FLAC, Ogg/Opus, WebM, MP4/MOV: the container's signature),
checked at upload (an audio track that decodes, no longer than MAX_RECORDING_S by what the file says),
transcribed on this machine by faster-whisper in the transcription sandbox (backend/speech/) piece by
piece — each piece a DBOS step (backend/ingest/recording_steps.py), so a crash costs at most the piece in
progress — and cut into passages at pauses. A passage's place is its time span ("at 12:34", stored as the
section "12:34–13:02", backend/places.py); the web app's viewer plays the recording from there.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from backend.ingest.formats import checks
from backend.ingest.formats.base import Format
from backend.ingest.types import ExtractedUnit, RejectedFile
from backend.places import span_section
from backend.sandbox import JobError
from backend.speech import audio
from backend.speech.pool import MAX_RECORDING_S
from backend.store.staging import Segment

# A pause this long ends a passage that has reached a third of its length (a new thought, a new slide).
_PAUSE_S = 1.5
_MIN_SHARE = 3


def passages(segments: Sequence[Segment], size: int) -> list[ExtractedUnit]:
    """The transcript's segments joined into passages of up to `size` characters, each ended at a pause
    between segments (never in a sentence Whisper heard as one) and carrying its time span."""
    units: list[ExtractedUnit] = []
    run: list[Segment] = []

    def close() -> None:
        if run:
            text = " ".join(segment.text for segment in run)
            units.append(ExtractedUnit(text, section=span_section(run[0].start_s, run[-1].end_s)))
            run.clear()

    for segment in segments:
        length = sum(len(s.text) + 1 for s in run)
        paused = bool(run) and segment.start_s - run[-1].end_s >= _PAUSE_S and length * _MIN_SHARE >= size
        if run and (length + len(segment.text) > size or paused):
            close()
        run.append(segment)
    close()
    return units


def _check(path: Path, extension: str, signed: bool) -> None:
    if not signed:
        raise checks.mismatch(extension)
    try:
        stated = audio.probe(path)
    except JobError as exc:
        raise RejectedFile(exc.code, exc.message, 422) from exc
    if stated is not None and stated > MAX_RECORDING_S:
        error = audio.too_long(MAX_RECORDING_S)
        raise RejectedFile(error.code, error.message, 413)


def nothing_heard(_length: int | None) -> str:
    return ("No speech could be heard in this recording (only silence, music or noise); check that it is the "
            "right file and that its sound is not muted.")


FORMAT = Format(
    kind="audio", label="a recording", name="recordings (MP3, M4A, WAV, FLAC, Ogg, WebM, MP4/MOV)",
    extensions=("mp3", "m4a", "m4b", "aac", "mp4", "mov", "wav", "flac", "ogg", "oga", "opus", "webm", "weba"),
    mime="application/octet-stream", viewer="recording", unit="second", read=None, pieces=True,
    signature=lambda head, _path: audio.container(head) is not None, check=_check, nothing_found=nothing_heard,
)
