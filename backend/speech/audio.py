"""Recorded audio to 16 kHz mono samples with PyAV (its wheels bundle FFmpeg's decoders, so no system
service or binary is needed). The container is known by its first bytes before anything is decoded;
decoding can start and stop at given times (a piece of a long recording) and stops as soon as a recording
is longer than allowed. Runs in the transcription sandbox's children (backend/speech/pool.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from backend.sandbox import JobError

SAMPLE_RATE = 16_000
# What recorders and browsers' MediaRecorder produce: WebM/Matroska (Chrome, Firefox: Opus), Ogg (Opus,
# Vorbis), MP4/M4A/MOV (AAC: phones, Safari), WAV, MP3, FLAC.
_SIGNATURES: tuple[tuple[int, bytes, str], ...] = (
    (0, b"\x1a\x45\xdf\xa3", "webm"), (0, b"OggS", "ogg"), (0, b"fLaC", "flac"), (0, b"ID3", "mp3"),
)
# MP4's brands of audio and video files; a HEIC or AVIF picture is an MP4-like "ftyp" file too, and is not
# a recording.
_MP4_BRANDS = frozenset({b"M4A ", b"M4B ", b"M4P ", b"mp41", b"mp42", b"isom", b"iso2", b"iso4", b"iso5", b"iso6",
                         b"qt  ", b"avc1", b"dash", b"3gp4", b"3gp5", b"3gp6", b"3g2a", b"MSNV", b"M4V ", b"f4a "})
CONTAINERS = "MP3, M4A/AAC, WAV, FLAC, Ogg/Opus, WebM or MP4/MOV"


def container(head: bytes) -> str | None:
    """The recording container named by a file's first bytes, or None."""
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if head[4:8] == b"ftyp":
        return "mp4" if head[8:12] in _MP4_BRANDS else None
    for offset, magic, name in _SIGNATURES:
        if head[offset:offset + len(magic)] == magic:
            return name
    if len(head) > 1 and head[0] == 0xFF and head[1] & 0xF6 == 0xF0:  # an ADTS frame: raw AAC
        return "aac"
    # An MPEG audio frame header (an MP3 without ID3 tag): sync bits, layer III, a valid bitrate and rate.
    if len(head) > 3 and head[0] == 0xFF and head[1] & 0xE6 == 0xE2 and head[2] & 0xF0 not in (0, 0xF0) \
            and head[2] & 0x0C != 0x0C:
        return "mp3"
    return None


def unreadable(detail: str = "it could not be decoded") -> JobError:
    return JobError("unreadable_audio", f"This recording cannot be used: {detail}. Quire reads {CONTAINERS} "
                    "files with an audio track; convert it to MP3 or M4A and upload that.")


def too_long(max_seconds: float) -> JobError:
    return JobError("audio_too_long", f"This recording is longer than {max_seconds / 60:g} minutes, the most "
                    "Quire transcribes at once; cut it into parts and upload them.")


def decode(path: Path, *, start_s: float = 0.0, end_s: float | None = None,
           max_seconds: float | None = None) -> np.ndarray:
    """int16 samples at 16 kHz mono from `start_s` to `end_s` (the end of the file when None); JobError when
    the file holds no decodable audio or is longer than `max_seconds`. Decodes from the start (seeking in
    compressed audio is only approximate) but resamples only what is kept."""
    import av  # installed with faster-whisper (requirements-voice.txt)

    resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
    first, last = int(start_s * SAMPLE_RATE), None if end_s is None else int(end_s * SAMPLE_RATE)
    limit = None if max_seconds is None else int(max_seconds * SAMPLE_RATE)
    chunks: list[np.ndarray] = []
    position = 0  # samples at 16 kHz decoded so far, kept or not
    try:
        with av.open(str(path), mode="r", metadata_errors="ignore") as source:
            if not source.streams.audio:
                raise unreadable("it has no audio track")
            for frame in source.decode(audio=0):
                length = int(frame.samples * SAMPLE_RATE / (frame.sample_rate or SAMPLE_RATE))
                if position + length < first:
                    position += length  # before the piece: counted, not resampled
                    continue
                for out in resampler.resample(frame):
                    chunks.append(out.to_ndarray().reshape(-1))
                    position += chunks[-1].size
                if limit is not None and position > limit:
                    raise too_long(max_seconds or 0)
                if last is not None and position >= last:
                    break
            else:
                chunks += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    except av.FFmpegError as exc:
        if not chunks:
            raise unreadable() from exc
        # A recording cut off at the end (a recorder stopped mid-frame) still has its beginning.
    samples = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int16)
    kept_from = max(0, samples.size - (position - first)) if position > first else samples.size
    samples = samples[kept_from:]
    if last is not None:
        samples = samples[: max(0, last - first)]
    return samples.astype(np.int16, copy=False)


def as_float(samples: np.ndarray) -> np.ndarray:
    """int16 samples as Whisper takes them: float32 in [-1, 1]."""
    return samples.astype(np.float32) / 32768.0


def probe(path: Path) -> float | None:
    """Open the recording and decode its first frame (in the caller's process: at upload, so that a file
    without usable audio is refused at once); its duration as the container states it, if it does."""
    import av

    try:
        with av.open(str(path), mode="r", metadata_errors="ignore") as source:
            if not source.streams.audio:
                raise unreadable("it has no audio track")
            if next(iter(source.decode(source.streams.audio[0])), None) is None:
                raise unreadable("its audio track is empty")
            if source.duration is not None:
                return float(source.duration / av.time_base)
            return None
    except av.FFmpegError as exc:
        raise unreadable() from exc
