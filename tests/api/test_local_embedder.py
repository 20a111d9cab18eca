"""The built-in embedder (QUIRE_EMBEDDER=local) through a real server: it starts loading at start, before
anything asks for a vector; `/api/health` and the vault panel say whether it is loading, ready or cannot
be loaded (and what to install); searches never wait for it, and run on keywords with a notice until it
is there. Which branch runs depends on what is installed: CI installs only `setup.sh --dev`, a developer
with QUIRE_EMBEDDER=local ran `setup.sh --local`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.support.local_model import built_in_model_installed
from tests.support.server import QuireServer
from tests.support.vault import ingest

HAVE_LOCAL = built_in_model_installed("all-MiniLM-L6-v2")
NOTE = b"# Tidal locking\n\nThe moon keeps one face towards the earth because its rotation is tidally locked.\n"


def _embedder_once_settled(api: httpx.Client, timeout_s: float = 120.0) -> dict[str, Any]:
    """Poll /api/health, without any search or upload, until the model has loaded or failed to."""
    deadline = time.monotonic() + timeout_s
    while True:
        health = api.get("/api/health").json()
        if health["embedder"]["state"] in ("ready", "unavailable") or time.monotonic() > deadline:
            return health
        time.sleep(0.2)


def test_the_built_in_model_loads_at_start_and_says_how_it_stands(
        server_factory: Callable[..., QuireServer]) -> None:
    server = server_factory(QUIRE_EMBEDDER="local", QUIRE_LOCAL_EMBED_MODEL="all-MiniLM-L6-v2")
    with server.client() as api:
        before = api.get("/api/health").json()["embedder"]
        assert before["kind"] == "local"
        assert before["name"] == "all-MiniLM-L6-v2"
        assert before["model"] == "local:all-MiniLM-L6-v2-int8"
        # Loading began at start: nothing has asked for a vector yet.
        assert before["state"] in ("loading", "ready", "unavailable")
        if before["state"] == "loading":
            searched = api.get("/api/search", params={"q": "moon"}).json()
            if api.get("/api/health").json()["embedder"]["state"] == "loading":  # loading throughout the search
                assert searched["notice"] == "Keyword search only for a moment: the embedding model is still loading."

        health = _embedder_once_settled(api)
        embedder = health["embedder"]
        stats = api.get("/api/vault/stats").json()["models"]["embedding"]
        assert stats["name"] == "all-MiniLM-L6-v2"
        assert stats["embedder"] == "local"
        ingest(api, {"tidal.md": NOTE})
        if HAVE_LOCAL:
            assert embedder["state"] == "ready"
            assert embedder["ready"]
            assert embedder["error"] is None
            assert stats["present"]
            assert stats["state"] == "ready"
            assert not any("setup.sh --local" in hint for hint in health["hints"])
            found = api.get("/api/search", params={"q": "why do we always see the same side of the moon",
                                                   "mode": "dense"}).json()
            assert found["notice"] is None
            assert found["hits"]
            assert found["hits"][0]["filename"] == "tidal.md"
        else:
            assert embedder["state"] == "unavailable"
            assert not embedder["ready"]
            assert "not installed" in embedder["error"]
            assert health["status"] == "degraded"
            assert any("./scripts/setup.sh --local" in hint and "keywords only" in hint
                       for hint in health["hints"])
            assert not stats["present"]
            assert stats["state"] == "unavailable"
            found = api.get("/api/search", params={"q": "tidally locked moon"}).json()
            assert found["notice"].startswith("Keyword search only: the embedding model is unavailable")
            assert found["hits"]
            assert found["hits"][0]["filename"] == "tidal.md"
