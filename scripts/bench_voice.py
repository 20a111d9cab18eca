"""Speech-to-text speed: the real-time factor (seconds of compute per second of audio) of each installed
Whisper model, through the same `Transcriber` that serves `POST /api/transcribe`.

Test speech is made with espeak-ng (English and German sentences, ~3-6 s each) and encoded as
WebM/Opus, the format Chromium's MediaRecorder sends. Each model is loaded once (the load time is
printed apart), warmed with one clip, then every clip is transcribed `--rounds` times; the RTF is the
sum of compute time over the sum of audio duration (target ≤ 0.5 for tiny.en on this machine).

    python scripts/bench_voice.py [--rounds 3] [--smoke]

`--smoke`: one English clip, one round, tiny.en only, to prove the benchmark runs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.voice.transcriber import Transcriber
from tests.support.speech import encode, speak

CLIPS = [
    ("en", "What is the capital of France?"),
    ("en", "Explain how mitochondria produce energy for the cell, step by step."),
    ("en", "Summarise chapter three of my lecture notes on thermodynamics."),
    ("de", "Was ist die Hauptstadt von Frankreich?"),
    ("de", "Erkläre mir bitte den Unterschied zwischen Mitose und Meiose."),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="one English clip, one round, tiny.en only")
    args = parser.parse_args()
    chosen = CLIPS[:1] if args.smoke else CLIPS
    if args.smoke:
        args.rounds = 1
    clips = [(lang, text, encode(speak(text, voice=lang), "webm")) for lang, text in chosen]
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}, clips: {len(clips)}, "
          f"rounds: {args.rounds}")
    for name in ("tiny.en",) if args.smoke else ("tiny.en", "base"):
        transcriber = Transcriber(name, 120.0, ("en", "de"))  # type: ignore[arg-type]
        if transcriber.files is None or transcriber.files.name != name:
            print(f"{name}: not installed")
            continue
        usable = [c for c in clips if transcriber.files.multilingual or c[0] == "en"]
        started = time.perf_counter()
        transcriber.transcribe(usable[0][2])  # loads the model
        first = time.perf_counter() - started
        audio = compute = 0.0
        for _round in range(args.rounds):
            for _lang, _text, data in usable:
                result = transcriber.transcribe(data)
                audio += result.duration_s
                compute += result.seconds
        print(f"{name}: RTF {compute / audio:.3f} ({compute:.1f} s compute for {audio:.1f} s of audio, "
              f"{len(usable)} clips × {args.rounds}); first call incl. model load {first:.1f} s")
        for lang, text, data in usable:
            print(f"  [{lang}] {text!r} -> {transcriber.transcribe(data).text!r}")


if __name__ == "__main__":
    main()
