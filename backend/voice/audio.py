"""Recorded audio to 16 kHz mono samples, in memory, with PyAV (its wheels bundle FFmpeg's decoders, so
no system service or binary is needed). The container is checked by its first bytes before decoding, and
decoding stops as soon as the recording is longer than allowed."""

from __future__ import annotations

import io

import numpy as np

from backend.errors import QuireError

SAMPLE_RATE = 16_000
# What browsers' MediaRecorder and common recorders produce: WebM/Matroska (Chrome, Firefox: opus),
# Ogg (Firefox), MP4/M4A (Safari), WAV, MP3, FLAC.
_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"\x1a\x45\xdf\xa3", "webm"), (0, b"OggS", "ogg"), (0, b"fLaC", "flac"), (0, b"ID3", "mp3"),
    (4, b"ftyp", "mp4"),
)


def audio_format(data: bytes) -> str:
    """The container named by the file's first bytes; 415 when it is not a recording we decode."""
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return "wav"
    for offset, magic, name in _SIGNATURES:
        if data[offset:offset + len(magic)] == magic:
            return name
    if len(data) > 1 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0:  # an MPEG audio frame header
        return "mp3"
    raise QuireError("unsupported_audio", "This is not an audio recording Quire can read "
                     "(WebM/Opus, Ogg, MP4/M4A, WAV, MP3 or FLAC).", 415)


def decode(data: bytes, max_seconds: float) -> np.ndarray:
    """float32 samples in [-1, 1] at 16 kHz mono; 422 if longer than `max_seconds` or silent-empty."""
    import av  # installed with faster-whisper (requirements-voice.txt)

    audio_format(data)
    resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
    limit = int(max_seconds * SAMPLE_RATE)
    chunks: list[np.ndarray] = []
    total = 0
    try:
        with av.open(io.BytesIO(data), mode="r", metadata_errors="ignore") as container:
            if not container.streams.audio:
                raise QuireError("unsupported_audio", "The file has no audio track.", 415)
            for frame in container.decode(audio=0):
                for out in resampler.resample(frame):
                    samples = out.to_ndarray().reshape(-1)
                    total += samples.size
                    if total > limit:
                        raise QuireError("audio_too_long", f"A recording is at most {max_seconds:.0f} seconds.", 422)
                    chunks.append(samples)
            chunks += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]  # the resampler's tail
            total = sum(chunk.size for chunk in chunks)
    except av.FFmpegError as exc:
        if not chunks:
            raise QuireError("unreadable_audio", "The recording could not be decoded.", 415) from exc
        # A recording cut off at the end (the browser stopped mid-frame) still has its beginning.
    if not total:
        raise QuireError("empty_audio", "The recording is empty.", 422)
    return np.concatenate(chunks).astype(np.float32) / 32768.0
