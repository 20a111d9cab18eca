"""Voice questions: a short recording to text, with the same model and sandbox as recordings read as
documents (backend/speech/). The recording is decoded, checked and transcribed in the transcription
sandbox's child process, never in the server's: voice-activity filtering gives silence and noise no text,
and the transcription's CPU time is bounded in proportion to the recording's length. Nothing is kept: the
audio waits in a private scratch folder only while it is transcribed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from backend.errors import QuireError
from backend.sandbox import JobCrashed, JobError, LimitBroken
from backend.scratch import scratch_folder
from backend.speech import jobs
from backend.speech.audio import CONTAINERS, container
from backend.speech.models import INSTALL_HINT, ModelFiles, VoiceModelName, find_model
from backend.speech.pool import cpu_budget, transcription_pool

LANGUAGE_CODES = frozenset({"en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "da", "no", "fi", "cs", "tr"})
# How a refusal from the sandbox reaches the client.
_STATUS = {"unreadable_audio": 415, "audio_too_long": 422, "voice_unavailable": 503}
_HEAD_BYTES = 64


@dataclass(frozen=True)
class VoiceStatus:
    available: bool
    model: str | None
    multilingual: bool
    hint: str | None


@dataclass(frozen=True)
class Transcript:
    text: str
    language: str
    duration_s: float
    seconds: float  # wall-clock time it took


class Transcriber:
    def __init__(self, wanted: VoiceModelName, max_seconds: float, languages: tuple[str, ...] = ("en", "de")) -> None:
        self.wanted = wanted
        self.files: ModelFiles | None = find_model(wanted)
        self.max_seconds = max_seconds
        self.languages = languages

    def status(self) -> VoiceStatus:
        if self.files is None:
            return VoiceStatus(False, None, False, INSTALL_HINT)
        return VoiceStatus(True, self.files.name, self.files.multilingual, None)

    def transcribe(self, data: bytes, language: str | None = None) -> Transcript:
        """The text of a recording (blocking: run it in a worker thread)."""
        if self.files is None:
            raise QuireError("voice_unavailable", f"Speech to text is not installed. {INSTALL_HINT}", 503)
        languages = self._languages(language)
        if container(data[:_HEAD_BYTES]) is None:
            raise QuireError("unsupported_audio", f"This is not an audio recording Quire can read ({CONTAINERS}).",
                             415)
        started = time.perf_counter()
        with scratch_folder("voice") as folder:
            path = folder / "question"
            path.write_bytes(data)
            try:
                plan = transcription_pool().run(jobs.plan, (str(path), self.wanted, languages, self.max_seconds),
                                                cpu_s=cpu_budget(self.max_seconds) // 4)
                if not plan.speech_s:  # silence or noise: nothing was said
                    return Transcript("", plan.language, plan.duration_s, time.perf_counter() - started)
                segments = transcription_pool().run(
                    jobs.piece, (str(path), plan.model, plan.language, 0.0, plan.duration_s, plan.duration_s),
                    cpu_s=cpu_budget(plan.duration_s))
            except JobError as exc:
                raise QuireError(exc.code, exc.message, _STATUS.get(exc.code, 422)) from None
            except (LimitBroken, JobCrashed) as exc:
                raise QuireError("audio_too_complex", f"This recording could not be transcribed: it {exc}.",
                                 422) from None
        text = " ".join(segment.text for segment in segments).strip()
        return Transcript(text, plan.language, plan.duration_s, time.perf_counter() - started)

    def _languages(self, language: str | None) -> tuple[str, ...]:
        """The languages to choose from: the one asked for, or the user's (English only for tiny.en)."""
        assert self.files is not None
        if language is not None and language not in LANGUAGE_CODES:
            raise QuireError("unsupported_language", f"Unknown language {language!r}; use a code like en or de.", 422)
        if not self.files.multilingual:
            if language not in (None, "en"):
                raise QuireError("unsupported_language", "The installed voice model understands only English; "
                                 "install the multilingual one (requirements-voice.txt) for other languages.", 422)
            return ("en",)
        return (language,) if language else self.languages
