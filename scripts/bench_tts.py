"""Speech synthesis speed for audio overviews: the real-time factor of each voice (wall-clock seconds and
CPU seconds per second of audio made), through `backend.speech.tts.speak` — the function the speaking
sandbox runs for every line of an overview — called in this process, so its CPU time can be read
(`time.process_time` counts every thread: onnxruntime's and, for espeak-ng, none, so the German voice's
CPU is its child's, read from RUSAGE_CHILDREN). The voice is loaded and warmed first; load time is printed
apart. The load average is printed too: on a shared machine wall time depends on it, CPU time hardly.

    python scripts/bench_tts.py [--lines 12] [--rounds 2] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.process import configure_process

configure_process()

from backend.speech import tts

LINES = {
    "en": ["Welcome back. Today we look at how cells turn sugar into energy.",
           "So where does that happen, exactly?",
           "In the mitochondria, which break glucose down and store the energy as ATP.",
           "And the plant cells make their own sugar first, by photosynthesis in the chloroplasts."],
    "de": ["Willkommen zurück. Heute geht es um das Hochschulrahmengesetz.",
           "Was regelt dieses Gesetz eigentlich?",
           "Es beschreibt die Aufgaben der Hochschulen und die Freiheit von Forschung und Lehre."],
}


def cpu_now() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(voice: tts.Voice, texts: list[str]) -> tuple[float, float, float]:
    """(seconds of audio, wall seconds, CPU seconds) for speaking `texts` one line at a time."""
    audio = 0.0
    wall, cpu = time.perf_counter(), cpu_now()
    for text in texts:
        audio += len(tts.speak(voice, text, lambda _progress: None)) / 2 / tts.RATE
    return audio, time.perf_counter() - wall, cpu_now() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=12, help="lines per voice and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--smoke", action="store_true", help="one line, one round: checks the bench runs")
    args = parser.parse_args()
    lines, rounds = (1, 1) if args.smoke else (args.lines, args.rounds)
    print(f"cores {len(os.sched_getaffinity(0))}, load average {os.getloadavg()[0]:.1f}")
    for language, voices in tts.VOICES.items():
        missing = tts.missing_voices(language)
        if missing:
            print(f"{language}: skipped ({missing})")
            continue
        texts = [LINES[language][i % len(LINES[language])] for i in range(lines)]
        started = time.perf_counter()
        measure(voices["A"], texts[:1])  # load (Piper: the ONNX model) and warm
        print(f"{language}: voice loaded and warmed in {time.perf_counter() - started:.1f} s")
        for speaker, voice in voices.items():
            audio = wall = cpu = 0.0
            for _ in range(rounds):
                a, w, c = measure(voice, texts)
                audio, wall, cpu = audio + a, wall + w, cpu + c
            print(f"{language} {speaker} ({voice.label}): {audio:.1f} s of audio in {wall:.2f} s wall, "
                  f"{cpu:.2f} s CPU: RTF wall {wall / audio:.3f}, CPU {cpu / audio:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
