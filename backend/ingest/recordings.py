"""A recording's reading, outside the DBOS steps that call it: the plan (duration, language, pieces) and one
piece's transcription, each a job of the transcription sandbox (backend/speech/pool.py) bounded by CPU time
in proportion to the audio, stopped within CANCEL_POLL_S of a cancel. Refusals come back as ExtractionError
in the user's words, like any file's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict

from backend.config import Settings
from backend.ingest.extract.common import too_large
from backend.ingest.types import ExtractionError, ExtractProgress, ProgressCallback
from backend.places import clock
from backend.sandbox import JobCrashed, JobError, LimitBroken
from backend.speech import jobs
from backend.speech.pool import CPU_BASE_S, MAX_RECORDING_S, cpu_budget, transcription_pool
from backend.speech.whisper import Segment

# Decoding, finding pauses near each cut and the language take a small share of transcribing.
_PLAN_CPU_PER_AUDIO_S = 0.25
_LANGUAGE_NAMES = {"en": "English", "de": "German"}


def language_name(code: str) -> str:
    return _LANGUAGE_NAMES.get(code, code)


@contextmanager
def _refusals() -> Iterator[None]:
    """The sandbox's refusals as a file's: what the user reads as the document's error."""
    try:
        yield
    except ExtractionError:
        raise
    except JobError as exc:
        raise ExtractionError(exc.code, exc.message) from None
    except LimitBroken as exc:
        raise too_large(f"transcribing it {exc.reason}") from None
    except JobCrashed as exc:
        raise ExtractionError("extract_failed", f"The recording could not be read ({exc.name}).") from None


def _reporter(on_progress: ProgressCallback) -> Callable[[Any], None]:
    return lambda progress: on_progress(ExtractProgress(progress.done, progress.total, progress.detail))


class RecordingPlan(TypedDict):
    """A planned recording, as the extract step records it (small: DBOS keeps it as the step's output)."""

    duration_s: float
    language: str
    model: str
    pieces: list[tuple[float, float]]


def plan(path: Path, settings: Settings, on_progress: ProgressCallback,
         should_stop: Callable[[], bool]) -> RecordingPlan | None:
    """Measure the recording, pick its language (of the user's), and cut it into pieces at pauses; None
    when no one speaks in it."""
    with _refusals():
        result: jobs.Plan = transcription_pool().run(
            jobs.plan, (str(path), settings.voice_model, tuple(settings.voice_languages), MAX_RECORDING_S),
            should_stop=should_stop, on_progress=_reporter(on_progress),
            cpu_s=CPU_BASE_S + int(_PLAN_CPU_PER_AUDIO_S * MAX_RECORDING_S))
    if not result.speech_s:
        return None
    return RecordingPlan(duration_s=result.duration_s, language=result.language, model=result.model,
                         pieces=[(start, end) for start, end in result.pieces])


def transcribe(path: Path, recording: RecordingPlan, number: int, on_progress: ProgressCallback,
               should_stop: Callable[[], bool]) -> list[Segment]:
    """Piece `number`'s speech as timed segments, by the model and in the language the plan chose."""
    start, end = recording["pieces"][number]
    with _refusals():
        segments: list[Segment] = transcription_pool().run(
            jobs.piece, (str(path), recording["model"], recording["language"], start, end, recording["duration_s"]),
            should_stop=should_stop, on_progress=_reporter(on_progress), cpu_s=cpu_budget(end - start))
    return segments


def planned(recording: RecordingPlan) -> str:
    """What the library shows once a recording is planned: "English, 58:00 of audio"."""
    return f"{language_name(recording['language'])}, {clock(recording['duration_s'])} of audio"
