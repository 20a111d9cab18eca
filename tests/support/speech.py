"""Test speech: a sentence spoken by espeak-ng (a Debian package) as WAV, re-encoded with PyAV into the
containers browsers and recorders make (WebM/Opus, Ogg/Opus, MP4/AAC, M4A, MOV, MP3, FLAC, raw
AAC), and lectures: sentences with pauses between them, each sentence's start known to the sample.
Tests that need it skip with the reason when espeak-ng or the voice requirements
are missing (scripts/setup.sh --dev installs both)."""

from __future__ import annotations

import importlib.util
import io
import shutil
import subprocess
from pathlib import Path

import pytest

# container → (PyAV format, codec, sample rate)
CODECS = {"webm": ("webm", "libopus", 48000), "ogg": ("ogg", "libopus", 48000), "mp4": ("mp4", "aac", 48000),
          "m4a": ("ipod", "aac", 44100), "mov": ("mov", "aac", 44100), "mp3": ("mp3", "libmp3lame", 44100),
          "flac": ("flac", "flac", 22050), "aac": ("adts", "aac", 44100)}
RATE = 22050  # espeak-ng's


def require_voice() -> None:
    if importlib.util.find_spec("faster_whisper") is None:
        pytest.skip("voice requirements not installed (pip install -r requirements-voice.txt)")
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng not installed (apt-get install espeak-ng; scripts/setup.sh --dev does it)")


def speak(text: str, voice: str = "en", path: Path | None = None) -> bytes:
    """`text` spoken slowly and clearly as a WAV file's bytes (also written to `path` if given)."""
    wav = subprocess.run(["espeak-ng", "-v", voice, "-s", "140", "--stdout", text], check=True,
                         capture_output=True).stdout
    if path is not None:
        path.write_bytes(wav)
    return wav


def encode(wav: bytes, container: str) -> bytes:
    """The WAV re-encoded the way a browser's MediaRecorder would deliver it."""
    import av

    fmt, codec, rate = CODECS[container]
    out = io.BytesIO()
    with av.open(out, "w", format=fmt) as target, av.open(io.BytesIO(wav)) as source:
        stream = target.add_stream(codec, rate=rate)
        stream.layout = "mono"
        resampler = av.AudioResampler(format=stream.format.name, layout="mono", rate=rate)
        for frame in source.decode(audio=0):
            for resampled in resampler.resample(frame):
                for packet in stream.encode(resampled):
                    target.mux(packet)
        for packet in stream.encode(None):
            target.mux(packet)
    return out.getvalue()


def lecture(sentences: list[str], pause_s: float = 2.0, voice: str = "en") -> tuple[bytes, list[float]]:
    """The sentences spoken one after another with `pause_s` of silence between them, as WAV bytes, and the
    second at which each sentence starts."""
    import wave

    frames, starts, at = [], [], 0
    for sentence in sentences:
        with wave.open(io.BytesIO(speak(sentence, voice))) as spoken:
            data = spoken.readframes(spoken.getnframes())
        starts.append(at / RATE)
        frames.append(data + bytes(int(pause_s * RATE) * 2))
        at += len(frames[-1]) // 2
    out = io.BytesIO()
    with wave.open(out, "wb") as target:
        target.setnchannels(1)
        target.setsampwidth(2)
        target.setframerate(RATE)
        target.writeframes(b"".join(frames))
    return out.getvalue(), starts
