"""faster-whisper, loaded once per sandbox child and used the same way for voice questions and recordings.

Every transcription filters voice activity first (Silero VAD, shipped with faster-whisper): silence and
noise give no text instead of Whisper's hallucinations ("you you you" for digital silence). Greedy
decoding without conditioning on the previous text: long recordings never get stuck repeating a phrase,
and a piece of a recording reads the same whichever process transcribes it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from backend.sandbox import JobError
from backend.speech.audio import SAMPLE_RATE, as_float
from backend.speech.models import INSTALL_HINT, ModelFiles, VoiceModelName, find_model

# Speech shorter than this is noise to Whisper; a pause this long ends a passage's sentence.
_MIN_SPEECH_MS = 250
_LANGUAGE_PROBE_S = 30
# Language detection this sure is taken as it is; below, the languages are compared by reading the probe.
_SURE = 0.8


@dataclass(frozen=True)
class Segment:
    start_s: float
    end_s: float
    text: str


def model_files(wanted: VoiceModelName) -> ModelFiles:
    files = find_model(wanted)
    if files is None:
        raise JobError("voice_unavailable", f"Speech to text is not installed. {INSTALL_HINT}")
    return files


@functools.cache
def _threads() -> int:
    """The threads CTranslate2 uses: every core of this process. Called before faster_whisper is imported.

    The sandbox caps OpenMP at one thread for tesseract's sake (backend/sandbox.py); CTranslate2's decoder
    deadlocks when told to use more threads than that cap allows. The transcription pool's children run
    nothing else, so the cap is lifted to the cores they use, before OpenMP is loaded with the library."""
    threads = len(os.sched_getaffinity(0)) or 1
    os.environ["OMP_THREAD_LIMIT"] = str(threads)
    return threads


def load(wanted: VoiceModelName) -> tuple[Any, ModelFiles]:
    """The model (kept for the child's life); its weights are joined in memory when shipped in parts."""
    files = model_files(wanted)
    return _loaded(files), files


@functools.cache
def _loaded(files: ModelFiles) -> Any:
    """One model per installed model, whatever name asked for it: a recording's plan asks for "auto" and
    its pieces for the model the plan chose ("base"), and caching by that name held two copies (1.6 GB
    more address space, past the worker's limit)."""
    threads = _threads()
    from faster_whisper import WhisperModel

    directory = str(files.directory)
    memory = None
    if len(files.weights) > 1:
        memory = {name: (files.directory / name).read_bytes() for name in ("config.json", "tokenizer.json",
                                                                          "vocabulary.txt")}
        memory["model.bin"] = b"".join(part.read_bytes() for part in files.weights)
    return WhisperModel(directory, device="cpu", compute_type="int8", cpu_threads=threads, files=memory)


def speech_spans(samples: np.ndarray) -> list[tuple[float, float]]:
    """Where someone speaks in `samples` (int16, 16 kHz), in seconds from its start."""
    _threads()
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    spans = get_speech_timestamps(as_float(samples), VadOptions(min_speech_duration_ms=_MIN_SPEECH_MS))
    return [(span["start"] / SAMPLE_RATE, span["end"] / SAMPLE_RATE) for span in spans]


def likeliest_language(model: Any, files: ModelFiles, samples: np.ndarray, languages: tuple[str, ...]) -> str:
    """The most probable of the user's languages in the first half minute of speech.

    Whisper's language detection looks at one window and misjudges a few seconds of speech too often
    (a short German memo heard as English, German as Dutch). When it is not sure, the probe is transcribed
    in each of the user's languages and the one the model reads most fluently (highest mean token
    log-probability) wins: a German sentence forced into English comes out as improbable gibberish."""
    if not files.multilingual:
        return "en"
    if len(languages) == 1:
        return languages[0]
    spans = speech_spans(samples[: 10 * 60 * SAMPLE_RATE])
    parts = [samples[int(a * SAMPLE_RATE):int(b * SAMPLE_RATE)] for a, b in spans]
    probe = as_float((np.concatenate(parts) if parts else samples)[: _LANGUAGE_PROBE_S * SAMPLE_RATE])
    _best, _probability, ranked = model.detect_language(probe)
    scores = dict(ranked)
    likeliest = max(languages, key=lambda code: scores.get(code, 0.0))
    if scores.get(likeliest, 0.0) >= _SURE:
        return likeliest
    return max(languages, key=lambda code: _fluency(model, probe, code))


def _fluency(model: Any, probe: np.ndarray, language: str) -> float:
    """The mean log-probability of the tokens Whisper writes for `probe` when told it is `language`."""
    segments, _info = model.transcribe(probe, language=language, beam_size=1, condition_on_previous_text=False,
                                       without_timestamps=True)
    weighted = [(segment.avg_logprob, len(segment.tokens)) for segment in segments]
    tokens = sum(count for _logprob, count in weighted)
    return sum(logprob * count for logprob, count in weighted) / tokens if tokens else float("-inf")


def transcribe(model: Any, samples: np.ndarray, language: str, offset_s: float = 0.0,
               on_segment: Callable[[Segment], None] | None = None) -> list[Segment]:
    """The speech in `samples` as timed segments (times from `offset_s`), silence and noise left out."""
    segments, _info = model.transcribe(as_float(samples), language=language, beam_size=1,
                                       condition_on_previous_text=False, vad_filter=True,
                                       vad_parameters={"min_speech_duration_ms": _MIN_SPEECH_MS})
    found = []
    for segment in segments:
        text = segment.text.strip()
        if not text:
            continue
        found.append(Segment(round(offset_s + segment.start, 2), round(offset_s + segment.end, 2), text))
        if on_segment is not None:
            on_segment(found[-1])
    return found
