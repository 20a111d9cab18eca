"""`python -m backend.cluster.healthcheck`: the health check of one Quire process, server or worker, for a
container runtime (docker-compose.yaml and the Dockerfile run it).

A worker has no HTTP, so the signal both share is the heartbeat: every beat that reached Postgres
rewrites `<data dir>/heartbeat.json` (backend/cluster/membership.py). Healthy means that beat is more
recent than the takeover time — the same bound after which the other processes judge this one silent —
and, for a server, that `/api/health/ready` answers 200 on its own port. Exit status 0 or 1, one line.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request

from backend.cluster.membership import HEARTBEAT_FILE
from backend.config import Settings

_HTTP_TIMEOUT_S = 10


def check(settings: Settings) -> tuple[bool, str]:
    path = settings.data_dir / HEARTBEAT_FILE
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        age = time.time() - float(record["beat_at"])
    except (OSError, ValueError, KeyError, TypeError):
        return False, f"no heartbeat recorded in {path} (starting, or not a Quire process's data folder)"
    who = f"{record.get('mode', 'process')} {record.get('executor_id', '?')}"
    if age > float(record.get("silent_after_s", settings.takeover_after_s)):
        return False, f"{who}: last heartbeat reached the database {age:.0f} s ago"
    if record.get("mode") != "server":
        return True, f"{who}: heartbeat {age:.1f} s ago"
    # The address it serves, as recorded with the beat; one bound to every interface is asked on loopback.
    address = str(record.get("address") or f"http://127.0.0.1:{settings.port}")
    url = address.replace("//0.0.0.0:", "//127.0.0.1:").replace("//:::", "//[::1]:") + "/api/health/ready"
    try:
        with urllib.request.urlopen(url, timeout=_HTTP_TIMEOUT_S) as response:  # noqa: S310 - our own loopback URL
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except OSError as exc:
        return False, f"{who}: {url} did not answer ({exc})"
    if status != 200:
        return False, f"{who}: {url} answered {status}"
    return True, f"{who}: heartbeat {age:.1f} s ago, serving"


def main() -> None:
    healthy, line = check(Settings.load())
    print(line)
    sys.exit(0 if healthy else 1)


if __name__ == "__main__":
    main()
