"""The compose file is valid for Docker Compose itself and runs two app processes and a worker on one
Postgres, each with its own executor id, publishing ports on loopback only."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import yaml

from tests.support.server import REPO_ROOT


def _compose_config() -> dict:
    if shutil.which("docker-compose"):
        command = ["docker-compose", "-f", str(REPO_ROOT / "docker-compose.yaml"), "config"]
    elif shutil.which("docker"):
        command = ["docker", "compose", "-f", str(REPO_ROOT / "docker-compose.yaml"), "config", "--format", "json"]
    else:
        pytest.fail("docker-compose is missing: run ./scripts/setup.sh --dev (it installs Debian's docker-compose)")
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)  # YAML (compose 1.x) or JSON (v2): YAML parses both


def test_compose_runs_two_apps_and_a_worker_on_one_database() -> None:
    config = _compose_config()
    services = config["services"]
    assert {"db", "app-1", "app-2", "worker"} <= set(services)
    quire = {name: services[name] for name in ("app-1", "app-2", "worker")}
    ids = [svc["environment"]["QUIRE_EXECUTOR_ID"] for svc in quire.values()]
    assert len(set(ids)) == 3
    assert {svc["environment"]["DATABASE_URL"] for svc in quire.values()} == {"postgresql://quire:quire@db:5432/quire"}
    assert "backend.worker" in " ".join(quire["worker"]["command"])
    assert "ports" not in quire["worker"]
    published = [json.dumps(port) for name in ("app-1", "app-2", "db") for port in services[name].get("ports", [])]
    assert published
    assert all("127.0.0.1" in port for port in published), published
