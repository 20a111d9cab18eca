"""scripts/smoke_model.py runs as a user runs it — against a model server named by OLLAMA_HOST, here the fake
with two misbehaving small models — and reports what worked: so it cannot rot between real-model runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.support.fake_model import MODES
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import REPO_ROOT

pytestmark = pytest.mark.slow  # the script starts a Quire server of its own


def test_smoke_model_reports_chat_and_study(fake_ollama: FakeOllama, postgres: ThrowawayPostgres) -> None:
    fake_ollama.add_model("small-text:1b", MODES["tool_call_as_text"])
    fake_ollama.add_model("small-loose:1b", MODES["loose_schemas"])
    env = {**os.environ, "OLLAMA_HOST": fake_ollama.url, "DATABASE_URL": postgres.fresh_database()}
    done = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "smoke_model.py"), "--smoke",
                           "--answer-timeout", "120", "small-text:1b", "small-loose:1b"],
                          capture_output=True, text=True, env=env, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    text_part, loose_part = out.split("== small-loose:1b")
    assert "== small-text:1b" in text_part
    assert "can: tools=True thinking=True" in text_part
    # The call the model printed as text was run as a search of its own, and the answer is cited.
    assert re.search(r"grounding cited\s+model calls \['search_knowledge_base'\]", text_part)
    assert "can: tools=True thinking=False" in loose_part
    assert loose_part.count("succeeded") == 4
    quiz = loose_part.split("quiz", 1)[1].split("deck", 1)[0]
    assert "repeated option removed" in quiz
    assert re.search(r"asked 5 kept 5 re-asked [1-5] ", quiz)  # the dropped and the missing ones, once
