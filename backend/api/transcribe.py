"""`POST /api/transcribe`: a short recording (multipart field `audio`, optional `language`) to text, on
this machine. The audio is held in memory (Starlette spools a part over 1 MB to an unnamed temporary
file that vanishes when the request ends) and never stored or sent anywhere."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from backend.api.deps import SettingsDep
from backend.errors import QuireError
from backend.voice.service import transcriber

router = APIRouter(prefix="/api", tags=["voice"])


class TranscriptOut(BaseModel):
    text: str
    language: str
    duration_s: float


_BODY: dict[str, Any] = {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["audio"],
    "properties": {"audio": {"type": "string", "format": "binary"},
                   "language": {"type": "string", "description": "e.g. en or de; omit to detect"}},
}}}}}


@router.post("/transcribe", response_model=TranscriptOut, openapi_extra=_BODY)
async def transcribe(request: Request, settings: SettingsDep) -> TranscriptOut:
    """Speech to text with the local Whisper model: 503 voice_unavailable when it is not installed, 413 over
    its size limit (`Settings.voice_max_mb`), 415 for what is not a recording, 422 for one longer than
    QUIRE_VOICE_MAX_SECONDS."""
    service = transcriber(settings)
    limit = settings.voice_max_mb * 1024 * 1024
    too_large = QuireError("audio_too_large", f"A recording is at most {settings.voice_max_mb} MB.", 413)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit + 64 * 1024:  # room for the multipart framing
        raise too_large
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise QuireError("invalid_request", "Send the recording as multipart/form-data, field `audio`.", 415)
    async with request.form(max_files=1, max_fields=2) as form:
        audio, language = form.get("audio"), form.get("language")
        if not isinstance(audio, UploadFile):
            raise QuireError("missing_audio", "The multipart field `audio` with the recording is missing.", 422)
        if audio.size is not None and audio.size > limit:
            raise too_large
        data = await audio.read(limit + 1)
    if len(data) > limit:
        raise too_large
    result = await run_in_threadpool(service.transcribe, data, language if isinstance(language, str) and language
                                     else None)
    return TranscriptOut(text=result.text, language=result.language, duration_s=round(result.duration_s, 2))
