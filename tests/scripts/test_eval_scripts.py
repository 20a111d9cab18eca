"""The evaluation scripts run as a user runs them (a subprocess on a collection folder) and report what the
collection makes certain: every query's one relevant document found first, every off-topic question refused.

They are where the retrieval figures of docs/benchmarks.md come from and what a held-out collection is run through, so a
change to a function they call (as once broke `eval_relevance.py` before its first line of output) must
fail here, not on the held-out run. `--embedder none` keeps them model-free and writes no embedding cache.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from tests.support.scripts import run_script, script_output

# Each query's words occur in its own document only, so BM25 ranks that document first for every query.
DOCS = {
    "d1": "Glacier moraine\nA moraine is gravel and clay a glacier leaves where it stood.",
    "d2": "Supersonic nozzle\nA convergent divergent nozzle accelerates gas past the speed of sound.",
    "d3": "Photosynthesis\nChlorophyll absorbs light so plants turn carbon dioxide into sugar.",
    "d4": "Cathedral vaults\nGothic builders spread the weight of stone vaults over flying buttresses.",
}
QUERIES = {"1": "what does a glacier leave where it stood as moraine",
           "2": "how does a divergent nozzle accelerate gas", "3": "how does chlorophyll absorb light",
           "4": "how did gothic builders spread the weight of vaults"}
HAVE_LOCAL_MODEL = importlib.util.find_spec("sentence_transformers") is not None
RELEVANT = {"1": "d1", "2": "d2", "3": "d3", "4": "d4"}
OFF_TOPIC = ["# one question per line", "Who won the football world cup in 2018?",
             "What is the capital city of Australia?"]


def write_collection(folder: Path, *, beir: bool = False) -> Path:
    """`beir`: as a collection converted from BEIR comes: a header row in qrels.tsv, a blank line at the end."""
    folder.mkdir()
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"id": doc, "title": text.split("\n")[0], "text": text.split("\n")[1]}) + "\n"
        for doc, text in DOCS.items()))
    (folder / "queries.jsonl").write_text("".join(json.dumps({"id": q, "text": t}) + "\n"
                                                  for q, t in QUERIES.items()) + ("\n" if beir else ""))
    header = "query-id\tcorpus-id\tscore\n" if beir else ""
    (folder / "qrels.tsv").write_text(header + "".join(f"{q}\t{d}\t1\n" for q, d in RELEVANT.items()))
    return folder


def row(output: str, label: str) -> list[float]:
    line = next(line for line in output.splitlines() if line.startswith(label))
    return [float(x) for x in re.findall(r"\d+\.\d+", line[len(label):])]


@pytest.mark.parametrize("beir", [False, True], ids=["cranfield-layout", "beir-layout"])
def test_eval_retrieval_reports_both_halves_of_a_collection(tmp_path: Path, beir: bool) -> None:
    out = script_output("eval_retrieval.py", "--collection", str(write_collection(tmp_path / "c", beir=beir)),
                        "--embedder", "none")
    assert "4 docs, 4 judged queries: 2 tuning, 2 test" in out
    # nDCG@10, R@10, R@100, MRR@10 on the tuning half, then the same on the test half: all perfect.
    for label in ("sparse (BM25)", "hybrid (shipped)", "baseline rank_bm25"):
        assert row(out, label) == [1.0] * 8, label


def test_eval_relevance_keeps_the_collection_questions_and_refuses_off_topic_ones(tmp_path: Path) -> None:
    off_topic = tmp_path / "off.txt"
    off_topic.write_text("\n".join(OFF_TOPIC) + "\n")
    out = script_output("eval_relevance.py", "--collection", str(write_collection(tmp_path / "c")),
                        "--embedder", "none", "--off-topic", str(off_topic), "--sets", "cranfield")
    assert "cranfield: on-topic 2 tuning / 2 test, off-topic 1 / 1" in out
    at_threshold = out.split("\nat threshold ")[1]
    for half in ("tuning", "test"):
        # on-topic kept, off-topic refused
        assert row(at_threshold, f"{'cranfield':<14}keyword only  {half}") == [100.0, 100.0], half


@pytest.mark.skipif(HAVE_LOCAL_MODEL, reason="a local model is installed here (its run writes data/cache)")
def test_eval_retrieval_without_a_local_model_says_what_to_install(tmp_path: Path) -> None:
    done = run_script("eval_retrieval.py", "--collection", str(write_collection(tmp_path / "c")), "--embedder", "local")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "No local embedding model can be loaded" in done.stderr
    assert "./scripts/setup.sh --local" in done.stderr
    assert "Traceback" not in done.stderr


def test_eval_retrieval_on_a_folder_that_is_no_collection_says_so(tmp_path: Path) -> None:
    done = run_script("eval_retrieval.py", "--collection", str(tmp_path), "--embedder", "none")
    assert done.returncode == 1
    assert "is not a collection: it has no corpus.jsonl, queries.jsonl, qrels.tsv" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # Quire and raw faster-whisper transcribe: about 15 s (fast tier under 5 min)
def test_bench_transcribe_smoke_measures_both_sides() -> None:
    """scripts/bench_transcribe.py --smoke: Quire's transcription path and raw faster-whisper side by side."""
    if importlib.util.find_spec("faster_whisper") is None:
        pytest.skip("voice requirements not installed (pip install -r requirements-voice.txt)")
    out = script_output("bench_transcribe.py", "--smoke", timeout=900)
    figures = re.search(r"tiny\.en: RTF quire ([\d.]+), raw faster-whisper ([\d.]+), overhead ([\d.]+)x", out)
    assert figures, out
    assert re.search(r"quire: [\d.]+ s, [1-9]\d* words", out), out  # speech was heard
