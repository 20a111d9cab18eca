"""The jobs a transcription sandbox child runs (backend/speech/pool.py hands them over by reference).

A recording is read in two kinds of job: `plan` decodes it once, measures it, picks its language and cuts
it into pieces of about PIECE_S at pauses (so no word is cut in two); `piece` transcribes one of them. Each
piece is its own job (and, for a document, its own DBOS step), so a long lecture is checkpointed piece by
piece and a crash costs at most the piece in progress. A voice question is a recording of one piece.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from backend.places import clock
from backend.speech import whisper
from backend.speech.audio import SAMPLE_RATE, decode
from backend.speech.models import VoiceModelName

PIECE_S = 300.0
_CUT_WINDOW_S = 30.0  # a piece ends at the longest pause within this much of its nominal end


@dataclass(frozen=True)
class Progress:
    """How far a job has got (the sandbox passes it on to whoever waits: `done` and `total` in seconds)."""

    done: int
    total: int
    detail: str


Report = Callable[[Progress], None]


@dataclass(frozen=True)
class Plan:
    duration_s: float
    language: str
    model: str  # the model that will transcribe it ("base", "tiny.en")
    pieces: tuple[tuple[float, float], ...]
    speech_s: float  # how much of it is speech (0: nothing to transcribe)


def plan(path: str, wanted: VoiceModelName, languages: tuple[str, ...], max_seconds: float,
         report: Report) -> Plan:
    """Decode the recording, find its language and where to cut it."""
    samples = decode(Path(path), max_seconds=max_seconds)
    duration = samples.size / SAMPLE_RATE
    report(Progress(0, max(1, int(duration)), f"listening to {clock(duration)} of audio"))
    cuts = [0.0]
    while duration - cuts[-1] > PIECE_S * 1.2:  # the last piece takes up to a fifth more, not a sliver of its own
        cuts.append(_pause_near(samples, cuts[-1] + PIECE_S))
    cuts.append(duration)
    speech = whisper.speech_spans(samples)
    model, files = whisper.load(wanted)
    language = whisper.likeliest_language(model, files, samples, languages) if speech else languages[0]
    pieces = tuple((round(a, 2), round(b, 2)) for a, b in itertools.pairwise(cuts))
    return Plan(round(duration, 2), language, files.name, pieces, round(sum(b - a for a, b in speech), 2))


def _pause_near(samples: object, nominal: float) -> float:
    """The middle of the longest pause within _CUT_WINDOW_S of `nominal` (the nominal time without one)."""
    import numpy as np

    assert isinstance(samples, np.ndarray)
    start = max(0.0, nominal - _CUT_WINDOW_S)
    window = samples[int(start * SAMPLE_RATE):int((nominal + _CUT_WINDOW_S) * SAMPLE_RATE)]
    spans = whisper.speech_spans(window)
    edges = [0.0, *(t for span in spans for t in span), window.size / SAMPLE_RATE]
    gaps = [(edges[i + 1] - edges[i], (edges[i] + edges[i + 1]) / 2) for i in range(0, len(edges) - 1, 2)]
    inner = [gap for gap in gaps if 0 < gap[1] < window.size / SAMPLE_RATE]
    if not inner or not spans:
        return nominal
    return round(start + max(inner)[1], 2)


def piece(path: str, wanted: VoiceModelName, language: str, start_s: float, end_s: float, duration_s: float,
          report: Report) -> list[whisper.Segment]:
    """The speech between `start_s` and `end_s` as timed segments; progress says where it has got to."""
    samples = decode(Path(path), start_s=start_s, end_s=end_s)
    model, _files = whisper.load(wanted)
    total = max(1, int(duration_s))

    def heard(segment: whisper.Segment) -> None:
        report(Progress(int(segment.end_s), total, f"transcribing {clock(segment.end_s)} of {clock(duration_s)}"))

    report(Progress(int(start_s), total, f"transcribing {clock(start_s)} of {clock(duration_s)}"))
    return whisper.transcribe(model, samples, language, start_s, heard)
