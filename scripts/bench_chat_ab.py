"""Chat overhead of two checkouts side by side: `bench_chat.py`'s measure, with the machine's drift removed.

This machine's speed drifts by up to a third over minutes, more than most single changes are worth, so
two benchmark runs one after the other cannot tell a 1 ms gain from the drift. Here server A runs the
code of `--baseline` (another checkout, e.g. a `git worktree` of main) and server B this checkout, both on
one fake model and one Postgres; whole sessions alternate between them, so both see the same machine.
`--env-a`/`--env-b` set environment variables for one side (compare configurations of one checkout by
giving this checkout as the baseline). Two identical sides differed by 0.2–0.4 ms.

    git worktree add /tmp/quire-main main
    python scripts/bench_chat_ab.py --baseline /tmp/quire-main [--rounds 25] [--env-b QUIRE_X=1] [--smoke]

`--smoke`: one note per topic, 2 rounds of 3-turn sessions, to prove the benchmark runs (its times mean
nothing); without `--baseline` both sides run this checkout.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from bench_chat import TimedFake, Turn, ingest_vault, model, percentile, run_session

from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer

TURNS_PER_SESSION = 10


def environment(pairs: list[str]) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in pairs)


def summary(name: str, turns: list[Turn], fake: TimedFake) -> tuple[float, str]:
    overhead = [(t.total_s - fake.by_turn[t.tag]) * 1000 for t in turns]
    p50 = statistics.median(overhead)
    start = statistics.median(t.start_s * 1000 for t in turns)
    line = (f"{name}: {len(turns)} turns, overhead p50 {p50:.2f} ms, p95 {percentile(overhead, 0.95):.2f} ms, "
            f"start p50 {start:.2f} ms, failed {sum(not t.ok for t in turns)}")
    return p50, line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, default=ROOT, help="checkout whose code server A runs")
    parser.add_argument("--rounds", type=int, default=25, help="sessions per server (10 turns each)")
    parser.add_argument("--env-a", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--env-b", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--smoke", action="store_true", help="a small vault, 2 rounds of 3 turns: proves it works")
    args = parser.parse_args()
    rounds, per_session = (2, 3) if args.smoke else (args.rounds, TURNS_PER_SESSION)

    postgres = ThrowawayPostgres()
    fake = TimedFake().start()
    sides = [QuireServer(postgres.fresh_database(), Path(tempfile.mkdtemp(prefix="quire-ab-")), fake.url,
                         checkout=checkout, QUIRE_LOG_LEVEL="WARNING", **environment(env))
             for checkout, env in ((args.baseline.resolve(), args.env_a), (ROOT, args.env_b))]
    turns: list[list[Turn]] = [[], []]
    try:
        for server in sides:
            server.start()
            ingest_vault(server, 1 if args.smoke else 4)
        fake.respond_with(model)
        for i, server in enumerate(sides):
            run_session(server, 900_000 + i * TURNS_PER_SESSION, per_session)  # warm-up
        for round_number in range(rounds):
            order = (0, 1) if round_number % 2 == 0 else (1, 0)  # neither side always goes first
            for i in order:
                tag = (round_number * 2 + i) * TURNS_PER_SESSION
                turns[i] += run_session(sides[i], tag, per_session)
    finally:
        for server in sides:
            server.stop()
        fake.stop()
        postgres.close()

    a, line_a = summary(f"A {args.baseline} {' '.join(args.env_a)}".rstrip(), turns[0], fake)
    b, line_b = summary(f"B {ROOT} {' '.join(args.env_b)}".rstrip(), turns[1], fake)
    print(line_a)
    print(line_b)
    print(f"B - A overhead p50: {b - a:+.2f} ms")


if __name__ == "__main__":
    main()
