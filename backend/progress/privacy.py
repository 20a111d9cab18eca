"""What leaves this machine, measured: the destinations off this machine that Quire's own processes
connected to, and the settings that send data elsewhere.

Two sources, both shown by the vault panel and the first also by `/api/health` and the status light:
- **Settings**: OLLAMA_HOST and DATABASE_URL name a host. One that is not this machine (a loopback
  address, `localhost`, or an address of one of this machine's interfaces) is flagged: every passage
  and question goes to that model server, every document to that database. A host given by name is
  not looked up (that lookup would itself go out): a name other than `localhost` counts as elsewhere.
- **Sockets**: `ConnectionWatch` looks at the open internet sockets of this process and its children
  (`psutil.Process.net_connections`) every `WATCH_S` seconds and counts each connection to a remote
  address once, per destination, since the process started. A connection opened and closed between two
  looks is not seen; URL imports, which are, are also logged one by one (backend/store/outbound.py).
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import ClassVar, Literal
from urllib.parse import urlsplit

import psutil
from pydantic import BaseModel

from backend.periodic import Periodic

log = logging.getLogger(__name__)

# Each look parses the machine's whole socket tables (/proc/net/tcp and the like) once per process of the
# tree that holds a socket: with a busy browser or test run beside Quire that is thousands of lines, and at
# 2 s it was a fifth of an idle server's CPU. Five seconds still sees every connection an HTTP client keeps
# for reuse (httpx keeps an idle one 5 s) and every pooled database connection.
WATCH_S = 5.0
_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


class RemoteDestination(BaseModel):
    address: str  # host:port as the socket saw it
    connections: int  # distinct connections seen since this process started
    first_seen: datetime
    last_seen: datetime


class PrivacyFlag(BaseModel):
    setting: Literal["OLLAMA_HOST", "DATABASE_URL"]
    host: str
    message: str


class PrivacyOut(BaseModel):
    local_only: bool  # no flag and no remote destination seen
    flags: list[PrivacyFlag]
    destinations: list[RemoteDestination]
    watching_since: datetime


def _own_addresses() -> set[str]:
    return {addr.address.split("%")[0] for addrs in psutil.net_if_addrs().values() for addr in addrs
            if addr.family.name in ("AF_INET", "AF_INET6")}


def is_this_machine(host: str, own: set[str] | None = None) -> bool:
    """Whether `host` (an address, or a name, which is not looked up) is this machine."""
    host = host.strip("[]").lower()
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False  # a name: only a lookup could tell, and it would go out (module docstring)
    if address.is_loopback or address.is_unspecified:
        return True
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return is_this_machine(str(address.ipv4_mapped), own)
    return str(address) in (own if own is not None else _own_addresses())


def _host_of(url: str) -> str | None:
    parts = urlsplit(url if "://" in url else f"http://{url}")
    return parts.hostname


def settings_flags(ollama_host: str, database_url: str | None) -> list[PrivacyFlag]:
    """The settings that name another machine (DATABASE_URL unset: the bundled database, local)."""
    flags = []
    host = _host_of(ollama_host)
    if host is not None and not is_this_machine(host):
        flags.append(PrivacyFlag(setting="OLLAMA_HOST", host=host, message=(
            f"OLLAMA_HOST points at {host}, another machine: your questions and passages are sent there.")))
    host = _host_of(database_url) if database_url else None
    if host is not None and not is_this_machine(host):
        flags.append(PrivacyFlag(setting="DATABASE_URL", host=host, message=(
            f"DATABASE_URL points at {host}, another machine: your documents are stored there.")))
    return flags


@dataclass
class _Seen:
    connections: set[tuple[str, int, str, int]]  # (local ip, local port, remote ip, remote port)
    first: datetime
    last: datetime


class ConnectionWatch(Periodic):
    """Counts this process tree's connections to addresses off this machine (module docstring)."""

    thread_name: ClassVar[str] = "quire-connection-watch"
    failure: ClassVar[str] = "reading this process's sockets"
    retry_on: ClassVar[tuple[type[Exception], ...]] = (psutil.Error, OSError)

    def __init__(self, interval_s: float = WATCH_S, pid: int | None = None) -> None:
        super().__init__(interval_s)
        self._process = psutil.Process(pid)
        self._seen: dict[str, _Seen] = {}
        self._lock = threading.Lock()
        self.since = datetime.now(UTC)

    def run_once(self) -> None:
        own = _own_addresses()
        now = datetime.now(UTC)
        found: list[tuple[str, tuple[str, int, str, int]]] = []
        for process in [self._process, *self._process.children(recursive=True)]:
            try:
                connections = process.net_connections(kind="inet")
            except psutil.NoSuchProcess:  # a child that ended between the listing and this look
                continue
            for conn in connections:
                if not conn.raddr or is_this_machine(conn.raddr.ip, own):
                    continue
                key = (conn.laddr.ip, conn.laddr.port, conn.raddr.ip, conn.raddr.port)
                found.append((_address(conn.raddr.ip, conn.raddr.port), key))
        with self._lock:
            for destination, key in found:
                seen = self._seen.setdefault(destination, _Seen(set(), now, now))
                seen.connections.add(key)
                seen.last = now

    def destinations(self) -> list[RemoteDestination]:
        with self._lock:
            return [RemoteDestination(address=name, connections=len(seen.connections), first_seen=seen.first,
                                      last_seen=seen.last) for name, seen in sorted(self._seen.items())]


def _address(ip: str, port: int) -> str:
    return f"[{ip}]:{port}" if ":" in ip else f"{ip}:{port}"


def privacy_report(watch: ConnectionWatch | None, ollama_host: str, database_url: str | None) -> PrivacyOut:
    flags = settings_flags(ollama_host, database_url)
    destinations = watch.destinations() if watch is not None else []
    return PrivacyOut(local_only=not flags and not destinations, flags=flags, destinations=destinations,
                      watching_since=watch.since if watch is not None else datetime.now(UTC))
