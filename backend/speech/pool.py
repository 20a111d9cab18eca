"""The transcription sandbox: faster-whisper and FFmpeg's decoders in child processes of their own pool
(backend/sandbox.py), so a hostile recording cannot hurt the server and every job is bounded.

- **One worker** per Quire process: a transcription already uses every core (CTranslate2's threads), two
  at once would only both be slower, and a second worker would hold a second copy of the model.
- **CPU time in proportion to the audio**: each job may use CPU_BASE_S plus CPU_PER_AUDIO_S for every
  second of the audio it is given (measured: tiny.en needs about 0.15 CPU-seconds per second of speech and
  base about 0.25, on 2 cores; docs/benchmarks.md). Bounding CPU time rather than wall-clock time keeps
  a busy machine from failing good recordings, and noise that makes Whisper babble cannot keep a core busy
  for long: 100 s of white noise is bounded by 230 CPU-seconds whatever the load.
- **Memory**: MEMORY_MB bounds the worker's address space, which is far more than what it keeps in RAM:
  with the multilingual model loaded and a piece of speech transcribed, a worker forked from the
  sandboxes' shared forkserver reserved 2.1 GB of address space (CTranslate2's and glibc's per-thread
  reservations) for 0.73 GB resident. A worker keeps its model between jobs (it is not recycled for the
  model's size): a voice question does not pay for loading it again.
- **No wall-clock limit**: a worker that uses no CPU at all for a minute is stuck, replaced and its job
  run again (backend/sandbox.py); a busy machine only makes transcription slower.
"""

from __future__ import annotations

import threading

from backend.sandbox import ProcessLimits, ProcessPool, preload

preload(["backend.speech.jobs"])
CPU_BASE_S = 30
CPU_PER_AUDIO_S = 2.0
MEMORY_MB = 3072
MAX_RECORDING_S = 4 * 3600.0  # the longest recording read as a document (a long lecture day)


def cpu_budget(audio_s: float) -> int:
    """The CPU seconds a job over `audio_s` seconds of audio may use."""
    return CPU_BASE_S + int(CPU_PER_AUDIO_S * audio_s)


class _Shared:
    pool: ProcessPool | None = None
    lock = threading.Lock()


def transcription_pool() -> ProcessPool:
    """The process's one transcription pool, made on first use."""
    with _Shared.lock:
        if _Shared.pool is None:
            budget = cpu_budget(MAX_RECORDING_S)
            limits = ProcessLimits(memory_mb=MEMORY_MB, cpu_s=budget)
            _Shared.pool = ProcessPool(1, limits, name="quire-transcribe", recycle_rss_mb=MEMORY_MB)
        return _Shared.pool


# The speaking pool (audio overviews, backend/speech/tts.py): one worker keeping its voice loaded (Piper's
# ONNX model takes about 200 MB). The cap is on address space, which onnxruntime's and FFmpeg's threads
# reserve generously: 1 GB failed to encode a 50-second overview in the worker that had spoken it. A line
# may use SPEAK_CPU_BASE_S plus SPEAK_CPU_PER_CHAR_S for each of its characters (measured: about 0.25
# CPU-seconds per second of speech, a second of speech being ~15 characters: a wide margin).
preload(["backend.speech.tts"])
SPEAK_MEMORY_MB = 2048
SPEAK_CPU_BASE_S = 30
SPEAK_CPU_PER_CHAR_S = 0.2


class _Speaking:
    pool: ProcessPool | None = None


def speaking_pool() -> ProcessPool:
    """The process's one speaking pool, made on first use."""
    with _Shared.lock:
        if _Speaking.pool is None:
            limits = ProcessLimits(memory_mb=SPEAK_MEMORY_MB, cpu_s=SPEAK_CPU_BASE_S + 3600)
            _Speaking.pool = ProcessPool(1, limits, name="quire-speak", recycle_rss_mb=SPEAK_MEMORY_MB)
        return _Speaking.pool
