"""The compose file, rendered by Docker Compose itself with the services scaled, runs any number of app
processes and workers on one Postgres: no executor id pinned, a data folder per container, a health
check for each, ports on loopback only, connections within the server's max_connections. The build
context, as Docker's own matcher reads `.dockerignore`, holds the sources and never the user's data,
secrets or environments."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from backend.cluster.identity import resolve_executor_id
from backend.config import Tuning
from tests.support.server import REPO_ROOT

APPS, WORKERS = 3, 4
SYSTEM_PYTHON = Path("/usr/bin/python3")  # Debian's docker-compose and its docker library live there


def _compose_config(**env: str) -> dict[str, Any]:
    if shutil.which("docker-compose"):
        command = ["docker-compose", "-f", str(REPO_ROOT / "docker-compose.yaml"), "config"]
    elif shutil.which("docker"):
        command = ["docker", "compose", "-f", str(REPO_ROOT / "docker-compose.yaml"), "config", "--format", "json"]
    else:
        pytest.fail("docker-compose is missing: run ./scripts/setup.sh --dev (it installs Debian's docker-compose)")
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False,
                            env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)  # YAML (compose 1.x) or JSON (v2): YAML parses both


def test_the_scaled_compose_config_runs_apps_and_workers_without_pinned_ids() -> None:
    config = _compose_config(QUIRE_APPS=str(APPS), QUIRE_WORKERS=str(WORKERS), QUIRE_EMBEDDER="local",
                             QUIRE_VOICE="true")
    services = config["services"]
    quire = {name: services[name] for name in ("app", "worker")}
    assert (quire["app"]["scale"], quire["worker"]["scale"]) == (APPS, WORKERS)
    for name, service in quire.items():
        assert "QUIRE_EXECUTOR_ID" not in service["environment"], name
        assert "container_name" not in service, name  # a fixed name allows one container
        assert service["environment"]["DATABASE_URL"] == "postgresql://quire:quire@db:5432/quire"
        # Only an anonymous volume at the data folder: each replica gets its own, so its own id file.
        assert service["volumes"] == ["/data"], service["volumes"]
        assert service["healthcheck"]["test"][-2:] == ["-m", "backend.cluster.healthcheck"]
        assert service["restart"] == "unless-stopped"  # a fenced process exits; it comes back
        assert service["build"]["args"] == {"QUIRE_EMBEDDER": "local", "QUIRE_VOICE": "true"}
    assert "backend.worker" in " ".join(quire["worker"]["command"])
    assert "ports" not in quire["worker"]
    (port,) = quire["app"]["ports"]
    spec = json.dumps(port)
    assert "127.0.0.1" in spec
    first, last = (int(n) for n in (port["published"] if isinstance(port, dict) else port.split(":")[1]).split("-"))
    assert last - first + 1 >= APPS, port  # a host port for each replica
    assert "ports" not in services["db"]
    # Sessions: every process at most QUIRE_DB_CONNECTIONS, within the server's limit (3 kept for superusers).
    max_connections = int(next(arg.split("=")[1] for arg in services["db"]["command"] if "max_connections" in arg))
    per_process = Tuning.model_fields["db_connections"].default
    assert (APPS + WORKERS) * per_process + 3 <= max_connections


def test_each_container_generates_its_own_id_from_its_hostname(tmp_path: Path) -> None:
    """What a replica does at its first start: an id from its hostname, kept in its own data folder."""
    ids = {resolve_executor_id(None, tmp_path / f"container-{n}") for n in range(WORKERS)}
    assert len(ids) == WORKERS
    assert resolve_executor_id(None, tmp_path / "container-0") in ids  # a restart keeps it


def test_the_build_context_holds_the_sources_and_nothing_of_the_users(tmp_path: Path) -> None:
    if not SYSTEM_PYTHON.exists():
        pytest.fail("Debian's python3 (with docker-compose's docker library) is missing: ./scripts/setup.sh --dev")
    context = tmp_path / "context"
    for path in ("backend/app.py", "prompts/chat.md", "requirements.txt", "requirements-local.txt", "Dockerfile",
                 "frontend/package.json", "frontend/src/main.tsx", "data/postgres/PG_VERSION", "data/docs/x.pdf",
                 ".env", ".venv/bin/python", "frontend/node_modules/react/index.js", "frontend/dist/index.html",
                 ".git/HEAD", "backend/__pycache__/app.cpython-311.pyc", "test-artifacts/shot.png"):
        (context / path).parent.mkdir(parents=True, exist_ok=True)
        (context / path).write_text("x")
    shutil.copy(REPO_ROOT / ".dockerignore", context / ".dockerignore")
    script = ("import sys, json; from docker.utils.build import exclude_paths; "
              "patterns = [l.strip() for l in open(sys.argv[1] + '/.dockerignore') if l.strip() and l[0] != '#']; "
              "print(json.dumps(sorted(exclude_paths(sys.argv[1], patterns))))")
    result = subprocess.run([str(SYSTEM_PYTHON), "-c", script, str(context)], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    sent = set(json.loads(result.stdout))
    assert {"backend/app.py", "prompts/chat.md", "requirements.txt", "requirements-local.txt", "Dockerfile",
            "frontend/package.json", "frontend/src/main.tsx"} <= sent, sent
    assert not [path for path in sent if path.startswith(("data/", ".venv/", ".git/", "frontend/node_modules/",
                                                          "frontend/dist/", "test-artifacts/"))], sent
    assert ".env" not in sent
    assert not [path for path in sent if path.endswith(".pyc")]
