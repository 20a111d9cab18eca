"""Whether `./scripts/setup.sh --local` exported the built-in embedding models into this environment
(CI installs only `--dev`: tests that need them skip there, saying why)."""

from __future__ import annotations

from backend.llm.errors import ModelUnavailable
from backend.llm.local_models import LOCAL_MODELS, LocalModelName, installed_model

SKIP_REASON = "needs the built-in model: ./scripts/setup.sh --local (not on CI)"


def built_in_model_installed(name: LocalModelName = "all-mpnet-base-v2") -> bool:
    try:
        installed_model(LOCAL_MODELS[name])
    except ModelUnavailable:
        return False
    return True
