"""What leaves this machine: the classification of hosts, the flags of settings naming another machine,
and the count of this process tree's connections to other machines, read from its own sockets.

No traffic leaves the machine: a connected UDP socket sends nothing until data is written (connect only
records the peer), and the server is pointed at a multicast address, to which the kernel refuses a TCP
connection before sending any packet (ENETUNREACH), so Ollama simply counts as not reachable."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
import psutil

from backend.progress.privacy import ConnectionWatch, is_this_machine, settings_flags
from tests.support.server import QuireServer

ELSEWHERE = "192.0.2.1"  # TEST-NET-1: documentation only, never a real host


def test_loopback_localhost_and_own_addresses_are_this_machine_anything_else_is_not() -> None:
    own = {a.address for addrs in psutil.net_if_addrs().values() for a in addrs if a.family == socket.AF_INET}
    assert all(is_this_machine(host) for host in ("127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost",
                                                   "LOCALHOST", "0.0.0.0", "::ffff:127.0.0.1", *own))
    assert not any(is_this_machine(host) for host in (ELSEWHERE, "2001:db8::1", "8.8.8.8", "10.1.2.3",
                                                       "ollama", "db.example.org", "::ffff:192.0.2.1"))


def test_settings_naming_another_machine_are_flagged_and_local_ones_are_not() -> None:
    assert settings_flags("http://127.0.0.1:11434", None) == []
    assert settings_flags("http://localhost:11434", "postgresql://quire@127.0.0.1:5432/quire") == []
    flags = settings_flags(f"http://{ELSEWHERE}:11434", "postgresql://quire:secret@db.example.org/quire")
    assert [(f.setting, f.host) for f in flags] == [("OLLAMA_HOST", ELSEWHERE), ("DATABASE_URL", "db.example.org")]
    assert "another machine" in flags[0].message
    assert "secret" not in flags[1].message  # the password of DATABASE_URL is never repeated
    assert [f.host for f in settings_flags(f"{ELSEWHERE}:11434", None)] == [ELSEWHERE]  # host:port without a scheme


@contextmanager
def _udp_to(host: str, port: int) -> Iterator[socket.socket]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect((host, port))  # records the peer; nothing is sent
        yield sock
    finally:
        sock.close()


def test_connections_to_other_machines_are_counted_once_each_per_destination_children_included() -> None:
    watch = ConnectionWatch(interval_s=3600)
    with _udp_to(ELSEWHERE, 9), _udp_to(ELSEWHERE, 9), _udp_to("127.0.0.1", 9):
        watch.run_once()
        watch.run_once()  # the same sockets seen again are not new connections
        child = subprocess.Popen([sys.executable, "-c", (
            "import socket, sys; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
            f"s.connect(('{ELSEWHERE}', 53)); print('ready', flush=True); sys.stdin.read()")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready"
            watch.run_once()
        finally:
            child.communicate("")
    seen = {d.address: d.connections for d in watch.destinations()}
    assert seen == {f"{ELSEWHERE}:9": 2, f"{ELSEWHERE}:53": 1}  # the loopback one is not listed


def test_a_server_on_this_machine_only_is_local_only(api: httpx.Client) -> None:
    privacy = api.get("/api/health").json()["privacy"]
    assert privacy["flags"] == []
    assert privacy["destinations"] == []
    assert privacy["local_only"]


def test_a_server_pointed_at_another_machine_says_so_in_health_the_hints_and_the_vault_panel(
        server_factory: Callable[..., QuireServer]) -> None:
    server = server_factory(OLLAMA_HOST="http://224.0.0.1:11434")
    with server.client() as api:
        health = api.get("/api/health").json()
        stats = api.get("/api/vault/stats").json()
    assert [(f["setting"], f["host"]) for f in health["privacy"]["flags"]] == [("OLLAMA_HOST", "224.0.0.1")]
    assert not health["privacy"]["local_only"]
    assert any("224.0.0.1, another machine" in hint for hint in health["hints"])
    assert stats["privacy"]["flags"] == health["privacy"]["flags"]
