"""The process's one `Transcriber`, built from the settings on first use (so the model files are looked up
once and the model, once loaded, is shared by every request)."""

from __future__ import annotations

import functools

from backend.config import Settings
from backend.voice.transcriber import Transcriber


@functools.cache
def _transcriber(model: str, max_seconds: float, languages: tuple[str, ...]) -> Transcriber:
    return Transcriber(model, max_seconds, languages)  # type: ignore[arg-type]  # validated by Settings


def transcriber(settings: Settings) -> Transcriber:
    return _transcriber(settings.voice_model, settings.tuning.voice_max_seconds, tuple(settings.voice_languages))
