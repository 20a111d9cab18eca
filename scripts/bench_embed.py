"""The built-in embedder's speed beside raw sentence-transformers (fp32, the runtime it replaced), in one run.

    python scripts/bench_embed.py [--passages N] [--queries N] [--rounds N] [--model NAME] [--smoke]

Both embed the same passages (Cranfield's documents, title + text, from ../shared/eval/cranfield) in the
same process, in alternating rounds (A B A B …), so a load that comes and goes on a shared machine falls
on both alike; both use every core. Printed per runtime: passages/s (wall), CPU seconds per passage,
query latency (one short query at a time: p50 / p95 over `--queries` of Cranfield's queries), and the
ratios. The cosine between the two runtimes' vectors of each passage (min / mean) says how close the
8-bit export stays to the model. Without sentence-transformers and the weights (requirements-local-
weights.txt) only Quire's runtime is measured, and the script says so; without the built-in model it
says what to install and exits 2. `--smoke` is a small run for the test suite (tests/scripts).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load onnxruntime (OpenMP)

from backend.llm.errors import ModelUnavailable
from backend.llm.local_embedder import LocalEmbedder
from backend.llm.local_models import DEFAULT_LOCAL_MODEL, LOCAL_MODELS, LocalModelName, model_folder
from scripts.shared_data import CRANFIELD

Embed = Callable[[Sequence[str]], np.ndarray]


def _read(name: str, field: str, limit: int) -> list[str]:
    rows = [json.loads(line) for line in (CRANFIELD / name).read_text().splitlines() if line.strip()]
    return [" ".join(filter(None, (row.get("title"), row[field]))) for row in rows][:limit]


def _sentence_transformers(name: LocalModelName, models_dir: Path) -> Embed | None:
    """Raw sentence-transformers over the fp32 weights, or None (said on stderr) when not installed."""
    try:
        import torch
        from sentence_transformers import SentenceTransformer

        folder = model_folder(LOCAL_MODELS[name], models_dir)
    except (ImportError, ModelUnavailable) as exc:
        print(f"sentence-transformers side skipped: {exc}", file=sys.stderr)
        return None
    torch.set_num_threads(os.cpu_count() or 1)
    model = SentenceTransformer(str(folder), device="cpu", local_files_only=True)

    def embed(texts: Sequence[str]) -> np.ndarray:
        vectors: np.ndarray = model.encode(list(texts), batch_size=32, normalize_embeddings=True,
                                           convert_to_numpy=True, show_progress_bar=False)
        return vectors

    return embed


def _timed(embed: Embed, texts: Sequence[str]) -> tuple[np.ndarray, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    vectors = embed(texts)
    return vectors, time.perf_counter() - wall, time.process_time() - cpu


def _latencies(embed: Embed, queries: Sequence[str]) -> list[float]:
    out = []
    for query in queries:
        start = time.perf_counter()
        embed([query])
        out.append((time.perf_counter() - start) * 1000)
    return out


def measure(runtimes: dict[str, Embed], passages: list[str], queries: list[str], rounds: int) -> dict[str, Any]:
    """Alternating rounds over slices of `passages`; every runtime embeds every passage once."""
    totals = {name: {"wall": 0.0, "cpu": 0.0, "ms": [], "vectors": []} for name in runtimes}
    size = -(-len(passages) // rounds)
    for start in range(0, len(passages), size):
        chunk = passages[start:start + size]
        for name, embed in runtimes.items():
            vectors, wall, cpu = _timed(embed, chunk)
            totals[name]["wall"] += wall
            totals[name]["cpu"] += cpu
            totals[name]["vectors"].append(vectors)
    for name, embed in runtimes.items():
        embed(queries[:1])  # a first call may set things up; not a query's latency
        totals[name]["ms"] = _latencies(embed, queries)
    return totals


def report(totals: dict[str, Any], passages: int) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for name, t in totals.items():
        ms = sorted(t["ms"])
        rows[name] = {"passages_per_s": passages / t["wall"], "cpu_s_per_passage": t["cpu"] / passages,
                      "query_p50_ms": statistics.median(ms), "query_p95_ms": ms[max(0, int(len(ms) * 0.95) - 1)]}
    names = list(rows)
    if len(names) == 2:
        base, quire = (rows[n] for n in names)
        a, b = (np.concatenate(totals[n]["vectors"]) for n in names)
        cosines = (a * b).sum(axis=1)
        rows["ratio"] = {"speed": quire["passages_per_s"] / base["passages_per_s"],
                         "cpu": base["cpu_s_per_passage"] / quire["cpu_s_per_passage"],
                         "query_p50": base["query_p50_ms"] / quire["query_p50_ms"],
                         "cosine_min": float(cosines.min()), "cosine_mean": float(cosines.mean())}
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passages", type=int, default=400)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--model", choices=sorted(LOCAL_MODELS), default=DEFAULT_LOCAL_MODEL)
    parser.add_argument("--smoke", action="store_true", help="8 passages, 5 queries, 2 rounds")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.smoke:
        args.passages, args.queries, args.rounds = 8, 5, 2
    quire = LocalEmbedder(args.model)
    try:
        quire.load()
    except ModelUnavailable as exc:
        print(f"{exc.message} Install it with `{exc.hint}`.", file=sys.stderr)
        return 2
    passages, queries = _read("corpus.jsonl", "text", args.passages), _read("queries.jsonl", "text", args.queries)
    with tempfile.TemporaryDirectory(prefix="quire-bench-embed-") as tmp:
        baseline = _sentence_transformers(args.model, Path(tmp))
        runtimes: dict[str, Embed] = {"sentence-transformers fp32": baseline} if baseline else {}
        runtimes[f"Quire {quire.model}"] = quire.embed
        rows = report(measure(runtimes, passages, queries, args.rounds), len(passages))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{len(passages)} passages, {len(queries)} queries, {args.rounds} alternating rounds, {os.cpu_count()} cores")
    for name, row in rows.items():
        print(f"  {name}: " + ", ".join(f"{key} {value:.4g}" for key, value in row.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
