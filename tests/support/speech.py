"""Test speech: a sentence spoken by espeak-ng (a Debian package) as WAV, re-encoded with PyAV into the
containers browsers record (WebM/Opus, Ogg/Opus, MP4/AAC). Tests that need it skip with the reason when
espeak-ng or the voice requirements are missing (scripts/setup.sh --dev installs both)."""

from __future__ import annotations

import importlib.util
import io
import shutil
import subprocess
from pathlib import Path

import pytest

CODECS = {"webm": "libopus", "ogg": "libopus", "mp4": "aac"}


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

    out = io.BytesIO()
    with av.open(out, "w", format=container) as target, av.open(io.BytesIO(wav)) as source:
        stream = target.add_stream(CODECS[container], rate=48000)
        stream.layout = "mono"
        resampler = av.AudioResampler(format=stream.format.name, layout="mono", rate=48000)
        for frame in source.decode(audio=0):
            for resampled in resampler.resample(frame):
                for packet in stream.encode(resampled):
                    target.mux(packet)
        for packet in stream.encode(None):
            target.mux(packet)
    return out.getvalue()
