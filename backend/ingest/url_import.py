"""Explicit URL import — the only outbound request Quire makes.

Every hop (the URL and each redirect) is resolved first and refused unless all its addresses are
public; the request then goes to the checked address itself (Host header and TLS SNI carry the name),
so a DNS answer that changes between check and connect cannot reach a private service. Size and time
are bounded, and every request is recorded for the vault panel.
"""

from __future__ import annotations

import hashlib
import ipaddress
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

import httpx
import trafilatura

from backend.errors import QuireError
from backend.ingest import files
from backend.ingest.uploads import Candidate, UploadOutcome, Uploads
from backend.store import outbound, refusals
from backend.store.db import Database

Resolver = Callable[[str, int], list[str]]
MAX_REDIRECTS = 5
MAX_IMPORT_BYTES = 10 * 1024 * 1024  # the largest page (or file) an import downloads
IMPORT_TIMEOUT_S = 20.0  # the whole import, redirects included
_SPECIAL_NETS = [ipaddress.ip_network(n) for n in ("100.64.0.0/10", "64:ff9b::/96", "64:ff9b:1::/48", "2001::/23")]


def system_resolver(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise QuireError("url_unresolvable", f"The host {host!r} could not be resolved.", 422) from exc
    return sorted({str(info[4][0]) for info in infos})


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped:
        return ip.ipv4_mapped
    if ip.sixtofour:
        return ip.sixtofour
    if ip.teredo:
        return ip.teredo[1]
    if int(ip) >> 32 == 0 and int(ip) > 1:  # deprecated IPv4-compatible ::a.b.c.d
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def is_public_address(address: str) -> bool:
    """True only for globally routable unicast addresses (IPv4 inside IPv6 is judged as IPv4)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_ipv4(ip)
        if inner is not None:
            return is_public_address(str(inner))
    if any(ip in net for net in _SPECIAL_NETS if net.version == ip.version):
        return False
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_link_local or ip.is_private)


@dataclass(frozen=True)
class Hop:
    url: str
    host: str
    port: int
    address: str


def check_hop(url: str, resolver: Resolver, allow_private: bool) -> Hop:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise QuireError("url_scheme", "Only http and https URLs can be imported.", 422)
    if not parts.hostname or parts.username or parts.password:
        raise QuireError("url_invalid", "The URL needs a host name and must not contain credentials.", 422)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    addresses = resolver(parts.hostname, port)
    if not addresses:
        raise QuireError("url_unresolvable", f"The host {parts.hostname!r} has no address.", 422)
    if not allow_private and not all(is_public_address(a) for a in addresses):
        raise QuireError("url_private", "That address is on a private or local network; it cannot be imported.", 422)
    return Hop(url, parts.hostname, port, addresses[0])


@dataclass(frozen=True)
class FetchedPage:
    url: str
    content_type: str
    body: bytes


class UrlFetcher:
    def __init__(self, db: Database, *, max_bytes: int, timeout_s: float, allow_private: bool,
                 resolver: Resolver = system_resolver, transport: httpx.BaseTransport | None = None) -> None:
        self.db = db
        self.transport = transport
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s
        self.allow_private = allow_private
        self.resolver = resolver

    def fetch(self, url: str) -> FetchedPage:
        deadline = time.monotonic() + self.timeout_s
        for _ in range(MAX_REDIRECTS + 1):
            hop = check_hop(url, self.resolver, self.allow_private)
            response_url, location, page = self._request(hop, deadline)
            if location is None:
                assert page is not None
                return page
            url = urljoin(response_url, location)
        raise QuireError("url_redirects", f"More than {MAX_REDIRECTS} redirects.", 422)

    def _request(self, hop: Hop, deadline: float) -> tuple[str, str | None, FetchedPage | None]:
        parts = urlsplit(hop.url)
        literal = f"[{hop.address}]" if ":" in hop.address else hop.address
        pinned = urlunsplit(parts._replace(netloc=f"{literal}:{hop.port}"))
        remaining = max(deadline - time.monotonic(), 0.1)
        headers = {"Host": parts.netloc.rsplit("@", 1)[-1], "User-Agent": "Quire/1 (study vault URL import)",
                   "Accept": "text/html,application/xhtml+xml,application/pdf;q=0.9,*/*;q=0.5"}
        status, received, error = None, 0, None
        try:
            with httpx.Client(timeout=httpx.Timeout(remaining), follow_redirects=False, trust_env=False,
                              transport=self.transport) as client, \
                    client.stream("GET", pinned, headers=headers, extensions={"sni_hostname": hop.host}) as resp:
                status = resp.status_code
                if resp.is_redirect:
                    return hop.url, resp.headers.get("location", ""), None
                if status >= 400:
                    raise QuireError("url_http_error", f"The server answered HTTP {status}.", 422)
                body = self._read_body(resp, deadline)
                received = len(body)
                return hop.url, None, FetchedPage(hop.url, resp.headers.get("content-type", ""), body)
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}"
            raise QuireError("url_unreachable", f"The page could not be fetched ({error}).", 422) from exc
        except QuireError as exc:
            error = exc.code
            raise
        finally:
            outbound.record(self.db, hop.url, hop.host, status, received, error is None and status is not None, error)

    def _read_body(self, resp: httpx.Response, deadline: float) -> bytes:
        declared = resp.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > self.max_bytes:
            raise QuireError("url_too_large", "The page is larger than the URL import limit.", 413)
        body = bytearray()
        for piece in resp.iter_bytes():
            body += piece
            if len(body) > self.max_bytes:
                raise QuireError("url_too_large", "The page is larger than the URL import limit.", 413)
            if time.monotonic() > deadline:
                raise QuireError("url_timeout", "The page took too long to download.", 422)
        return bytes(body)


_EXTENSION_BY_TYPE = {
    "application/pdf": ".pdf",
    "text/csv": ".csv",
    "text/markdown": ".md",
    "text/plain": ".txt",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/tiff": ".tiff",
    "image/gif": ".gif",
    "image/bmp": ".bmp",
}


def is_html(page: FetchedPage) -> bool:
    return "html" in page.content_type or not page.content_type


def filename_for(page: FetchedPage, title: str | None) -> str:
    """A readable file name: the page title for HTML, else the last path segment with a fitting extension."""
    parts = urlsplit(page.url)
    if is_html(page):
        base = title or f"{parts.hostname}{parts.path}".rstrip("/").replace("/", " - ")
        return f"{base[:150]}.html"
    name = Path(unquote(parts.path)).name or str(parts.hostname)
    extension = _EXTENSION_BY_TYPE.get(page.content_type.split(";")[0].strip().lower(), "")
    if extension and not name.lower().endswith(extension):
        name += extension
    return name


class UrlImporter:
    """Imports URLs into the vault through `uploads`, under the fetch limits (size, time, private addresses)."""

    def __init__(self, uploads: Uploads, *, allow_private: bool, max_bytes: int = MAX_IMPORT_BYTES,
                 timeout_s: float = IMPORT_TIMEOUT_S) -> None:
        self.uploads = uploads
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s
        self.allow_private = allow_private

    def import_url(self, url: str, category: str | None) -> UploadOutcome:
        """Fetch `url` under the guards above and ingest what came back like an uploaded file.

        The document is keyed by the URL it came from (after redirects): importing it again is change
        detection on that document (unchanged or a new version), whatever the page's title says now. A
        refused import is recorded."""
        db = self.uploads.db
        url = url.strip()
        fetcher = UrlFetcher(db, max_bytes=self.max_bytes, timeout_s=self.timeout_s, allow_private=self.allow_private)
        try:
            page = fetcher.fetch(url)
        except QuireError as exc:
            refusals.record(db, [refusals.NewRefusal(url, exc.code, exc.message)], category)
            raise
        title = None
        if is_html(page):
            metadata = trafilatura.extract_metadata(page.body.decode("utf-8", "replace"))
            title = metadata.title if metadata is not None else None
        path = files.new_pending_path(self.uploads.docs_dir)
        path.write_bytes(page.body)
        candidate = Candidate(filename_for(page, title), path, len(page.body), hashlib.sha256(page.body).hexdigest())
        return self.uploads.accept([candidate], category, source="url", source_url=page.url)
