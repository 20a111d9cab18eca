"""Speech to text with faster-whisper, loaded on first use and shared by the process.

The model is loaded lazily (a second or two), so Quire starts as fast without voice as with it, and
kept for the process's life. Transcriptions run one at a time: each already uses every core, and two
at once would only both be slower. Nothing is written anywhere: audio in, text out.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from backend.errors import QuireError
from backend.voice.audio import SAMPLE_RATE, decode
from backend.voice.models import INSTALL_HINT, ModelFiles, VoiceModelName, find_model

LANGUAGE_CODES = frozenset({"en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "da", "no", "fi", "cs", "tr"})


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
    seconds: float  # compute time


class Transcriber:
    def __init__(self, wanted: VoiceModelName, max_seconds: float, languages: tuple[str, ...] = ("en", "de"),
                 threads: int = 0) -> None:
        self.files: ModelFiles | None = find_model(wanted)
        self.max_seconds = max_seconds
        self.languages = languages
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()

    def status(self) -> VoiceStatus:
        if self.files is None:
            return VoiceStatus(False, None, False, INSTALL_HINT)
        return VoiceStatus(True, self.files.name, self.files.multilingual, None)

    def _loaded(self) -> Any:
        """The model (call with the lock held); its weights are joined in memory when shipped in parts."""
        if self._model is None:
            from faster_whisper import WhisperModel

            files = self.files
            assert files is not None
            directory = str(files.directory)
            if len(files.weights) == 1:
                self._model = WhisperModel(directory, device="cpu", compute_type="int8", cpu_threads=self.threads)
            else:
                memory = {name: (files.directory / name).read_bytes()
                          for name in ("config.json", "tokenizer.json", "vocabulary.txt")}
                memory["model.bin"] = b"".join(part.read_bytes() for part in files.weights)
                self._model = WhisperModel(directory, device="cpu", compute_type="int8", cpu_threads=self.threads,
                                           files=memory)
        return self._model

    def transcribe(self, data: bytes, language: str | None = None) -> Transcript:
        """The text of a recording (blocking: run it in a worker thread)."""
        if self.files is None:
            raise QuireError("voice_unavailable", f"Speech to text is not installed. {INSTALL_HINT}", 503)
        if language is not None and language not in LANGUAGE_CODES:
            raise QuireError("unsupported_language", f"Unknown language {language!r}; use a code like en or de.", 422)
        if not self.files.multilingual:
            if language not in (None, "en"):
                raise QuireError("unsupported_language", "The installed voice model understands only English; "
                                 "install the multilingual one (requirements-voice.txt) for other languages.", 422)
            language = "en"
        samples = decode(data, self.max_seconds)
        with self._lock:
            started = time.perf_counter()
            model = self._loaded()
            language = language or self._likeliest_language(model, samples)
            segments, _info = model.transcribe(samples, language=language, beam_size=1,
                                               condition_on_previous_text=False)
            text = " ".join(segment.text.strip() for segment in segments).strip()
            seconds = time.perf_counter() - started
        return Transcript(text=text, language=language, duration_s=samples.size / SAMPLE_RATE, seconds=seconds)

    def _likeliest_language(self, model: Any, samples: Any) -> str:
        """The most probable of the configured languages. Whisper's open detection misjudges a few seconds
        of speech too often (German heard as Dutch, or worse); the users' languages are known."""
        if len(self.languages) == 1:
            return self.languages[0]
        _best, _probability, ranked = model.detect_language(samples)
        scores = dict(ranked)
        return max(self.languages, key=lambda code: scores.get(code, 0.0))
