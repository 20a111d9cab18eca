"""Transcription speed of recordings: the real-time factor (wall-clock seconds per second of audio) of
each installed Whisper model, through Quire's path (the transcription sandbox's `plan` job, then one
`piece` job per ~5 minutes, as the ingestion workflow runs them) and through raw faster-whisper on the
same audio with the same options (greedy, VAD), measured side by side in one run, alternating.

The lecture is espeak-ng speech (English sentences with pauses, repeated to the length asked for), a WAV
file. Each model is loaded and warmed first on both sides (load times are printed apart): a worker of the
sandbox keeps its model between jobs as the server's does. Goals on 2 cores: tiny.en RTF ≤ 0.3, base
≤ 1.0, Quire's path ≤ 1.15× raw faster-whisper.

    python scripts/bench_transcribe.py [--minutes 10] [--rounds 2] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.process import configure_process

configure_process()  # OMP_WAIT_POLICY before anything loads OpenMP

from backend.speech import jobs, whisper
from backend.speech.audio import decode
from backend.speech.models import find_model
from backend.speech.pool import cpu_budget, transcription_pool
from tests.support.speech import lecture

SENTENCES = ["The mitochondria is the powerhouse of the cell.",
             "Photosynthesis turns sunlight into sugar inside the chloroplast.",
             "Entropy in a closed system never decreases over time.",
             "The French Revolution began in seventeen eighty nine."]


def quire(path: Path, model: str) -> tuple[float, int]:
    """Quire's path: plan, then each piece, in the sandbox. (seconds, words)."""
    started = time.perf_counter()
    pool = transcription_pool()
    plan = pool.run(jobs.plan, (str(path), model, ("en",), 4 * 3600.0))
    words = 0
    for start, end in plan.pieces:
        segments = pool.run(jobs.piece, (str(path), plan.model, plan.language, start, end, plan.duration_s),
                            cpu_s=cpu_budget(end - start))
        words += sum(len(s.text.split()) for s in segments)
    return time.perf_counter() - started, words


def raw(path: Path, loaded: Any) -> tuple[float, int]:
    """faster-whisper alone, in this process, on the same file with the same options (its own decoder, one
    call, no pieces, no sandbox)."""
    from faster_whisper import decode_audio

    started = time.perf_counter()
    segments, _info = loaded.transcribe(decode_audio(str(path)), language="en", beam_size=1,
                                        condition_on_previous_text=False, vad_filter=True,
                                        vad_parameters={"min_speech_duration_ms": 250})
    words = sum(len(segment.text.split()) for segment in segments)
    return time.perf_counter() - started, words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--smoke", action="store_true", help="30 s of audio, one round, tiny.en only")
    args = parser.parse_args()
    minutes, rounds = (0.5, 1) if args.smoke else (args.minutes, args.rounds)
    wav, _starts = lecture(SENTENCES, pause_s=1.5)
    one = len(wav) / (22050 * 2)
    with tempfile.TemporaryDirectory() as folder:
        path, warm = Path(folder) / "lecture.wav", Path(folder) / "warm.wav"
        repeats = max(1, int(minutes * 60 / one))
        path.write_bytes(lecture(SENTENCES * repeats, pause_s=1.5)[0])
        warm.write_bytes(wav)
        audio_s = decode(path).size / 16000
        print(f"cores: {len(os.sched_getaffinity(0))}, load average: {os.getloadavg()[0]:.1f}, "
              f"audio: {audio_s:.0f} s, rounds: {rounds}")
        for name in ("tiny.en",) if args.smoke else ("tiny.en", "base"):
            files = find_model(name)  # type: ignore[arg-type]
            if files is None or files.name != name:
                print(f"{name}: not installed")
                continue
            started = time.perf_counter()
            loaded, _files = whisper.load(name)  # type: ignore[arg-type]
            print(f"{name}: load {time.perf_counter() - started:.1f} s (raw)")
            raw(warm, loaded)  # warm both sides: the sandbox's worker loads its model once, as the server's does
            quire(warm, name)
            times = {"quire": 0.0, "raw": 0.0}
            for _round in range(rounds):
                for side in ("raw", "quire"):
                    seconds, words = raw(path, loaded) if side == "raw" else quire(path, name)
                    times[side] += seconds
                    print(f"  {side}: {seconds:.1f} s, {words} words")
            quire_rtf, raw_rtf = times["quire"] / (audio_s * rounds), times["raw"] / (audio_s * rounds)
            print(f"{name}: RTF quire {quire_rtf:.3f}, raw faster-whisper {raw_rtf:.3f}, "
                  f"overhead {quire_rtf / raw_rtf:.2f}x (load average now {os.getloadavg()[0]:.1f})")
        transcription_pool().close()


if __name__ == "__main__":
    main()
