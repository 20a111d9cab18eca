"""scripts/bench_embed.py runs as a user runs it, at its --smoke size, so the benchmark behind the built-in
model's speed figures cannot rot. It needs the built-in model (`./scripts/setup.sh --local`): CI installs
only `--dev`, so there it is skipped, saying why; with sentence-transformers and the weights installed as
well, the two runtimes' vectors must agree (the 8-bit export stays close to the model)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.local_model import SKIP_REASON, built_in_model_installed

ROOT = Path(__file__).resolve().parents[2]




@pytest.mark.skipif(not built_in_model_installed(), reason=SKIP_REASON)
def test_the_smoke_benchmark_measures_the_built_in_model_beside_sentence_transformers() -> None:
    done = subprocess.run([sys.executable, "scripts/bench_embed.py", "--smoke", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900, check=True)
    rows = json.loads(done.stdout)
    quire = rows["Quire local:all-mpnet-base-v2-int8"]
    assert quire["passages_per_s"] > 0
    assert quire["query_p50_ms"] > 0
    if importlib.util.find_spec("sentence_transformers") is None:
        assert "sentence-transformers side skipped" in done.stderr
        return
    assert rows["ratio"]["cosine_min"] > 0.98, rows["ratio"]  # the same model, in 8-bit products
    assert rows["ratio"]["speed"] > 0

