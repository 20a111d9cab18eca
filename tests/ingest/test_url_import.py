"""URL import: only public addresses, checked at every redirect hop and pinned for the connection;
size limits; and a real import end to end (with private addresses allowed on a dedicated server)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pymupdf
import pytest

from backend.errors import QuireError
from backend.ingest.url_import import UrlFetcher, check_hop, is_public_address
from backend.store.db import Database
from tests.support.corpus import CORPUS
from tests.support.documents import tesseract_available
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer
from tests.support.vault import wait_for_run

ARTICLE = b"""<!doctype html><html><head><title>Plate Tectonics Explained</title></head><body>
<nav>Home | About</nav><article><h1>Plate Tectonics Explained</h1>
<p>The lithosphere is divided into tectonic plates that drift on the asthenosphere.</p>
<p>Subduction zones form where an oceanic plate sinks beneath a continental plate.</p></article>
<footer>Copyright</footer></body></html>"""


@pytest.mark.parametrize(("address", "public"), [
    ("93.184.216.34", True), ("2606:4700:4700::1111", True),
    ("127.0.0.1", False), ("10.1.2.3", False), ("172.16.0.1", False), ("192.168.1.1", False),
    ("169.254.169.254", False), ("100.64.0.1", False), ("0.0.0.0", False), ("224.0.0.1", False),
    ("240.0.0.1", False), ("255.255.255.255", False), ("::1", False), ("fd00::1", False), ("fe80::1", False),
    ("ff02::1", False), ("::ffff:127.0.0.1", False), ("::ffff:10.0.0.1", False), ("2002:7f00:1::", False),
    ("64:ff9b::a00:1", False), ("::127.0.0.1", False), ("2001:0:4136:e378:8000:63bf:f5ff:fffe", False),
])
def test_public_address_classification(address: str, public: bool) -> None:
    assert is_public_address(address) is public


def test_hop_checks_scheme_credentials_and_every_address() -> None:
    def resolve(host: str, port: int) -> list[str]:
        return {"mixed.example": ["93.184.216.34", "10.0.0.7"], "ok.example": ["93.184.216.34"]}[host]

    assert check_hop("https://ok.example/a", resolve, False).address == "93.184.216.34"
    for url, code in [("ftp://ok.example/", "url_scheme"), ("file:///etc/passwd", "url_scheme"),
                      ("http://user:pw@ok.example/", "url_invalid"), ("http://mixed.example/", "url_private")]:
        with pytest.raises(QuireError) as info:
            check_hop(url, resolve, False)
        assert info.value.code == code


@pytest.fixture(scope="module")
def database(postgres: ThrowawayPostgres) -> Iterator[Database]:
    with postgres.open_database(min_size=1, max_size=2) as db:
        yield db


def test_redirect_to_a_private_address_is_refused_and_connections_are_pinned(database: Database) -> None:
    seen: list[tuple[str, str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append((request.url.host, request.headers["host"]))
        return httpx.Response(302, headers={"location": "http://intranet.example/admin"})

    def resolve(host: str, port: int) -> list[str]:
        return {"news.example": ["93.184.216.34"], "intranet.example": ["192.168.0.10"]}[host]

    fetcher = UrlFetcher(database, max_bytes=10_000, timeout_s=5, allow_private=False, resolver=resolve,
                         transport=httpx.MockTransport(handler))
    with pytest.raises(QuireError) as info:
        fetcher.fetch("http://news.example/story")
    assert info.value.code == "url_private"
    assert seen == [("93.184.216.34", "news.example")]  # the checked address, with the name as Host


def test_oversize_page_is_refused(database: Database) -> None:
    transport = httpx.MockTransport(lambda _: httpx.Response(200, content=b"x" * 5000,
                                                            headers={"content-type": "text/html"}))
    fetcher = UrlFetcher(database, max_bytes=1000, timeout_s=5, allow_private=False,
                         resolver=lambda h, p: ["93.184.216.34"], transport=transport)
    with pytest.raises(QuireError) as info:
        fetcher.fetch("https://big.example/")
    assert info.value.code == "url_too_large"


def _scan_jpeg() -> bytes:
    with pymupdf.open(CORPUS / "huckleberry-finn-p22-scan.pdf") as document:
        return document[0].get_pixmap(dpi=150).tobytes("jpeg")


@pytest.fixture
def article_site() -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def do_GET(self) -> None:
            if self.path == "/scans/p22":
                photo = _scan_jpeg()
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.send_header("Content-Length", str(len(photo)))
                self.end_headers()
                self.wfile.write(photo)
                return
            if self.path == "/old":
                self.send_response(301)
                self.send_header("Location", "/article")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(ARTICLE)))
            self.end_headers()
            self.wfile.write(ARTICLE)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_private_urls_are_refused_by_default(api: httpx.Client, article_site: str) -> None:
    response = api.post("/api/documents/url", json={"url": f"{article_site}/article"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "url_private"


def test_url_import_end_to_end(server_factory: Callable[..., QuireServer], article_site: str) -> None:
    server = server_factory(QUIRE_URL_IMPORT_ALLOW_PRIVATE="true")
    with server.client() as api:
        response = api.post("/api/documents/url", json={"url": f"{article_site}/old", "category": "Geology"})
        assert response.status_code == 202, response.text
        body = response.json()
        assert body["documents"][0]["filename"] == "Plate Tectonics Explained.html"
        assert wait_for_run(api, body["workflow_id"])["status"] == "SUCCESS"
        document = api.get(f"/api/documents/{body['documents'][0]['id']}").json()
        assert document["source_url"] == f"{article_site}/article"
        hits = api.get("/api/search", params={"q": "subduction", "mode": "sparse"}).json()["hits"]
        assert "oceanic plate sinks" in hits[0]["text"]
        assert "Copyright" not in hits[0]["text"]  # boilerplate removed by trafilatura


@pytest.mark.skipif(not tesseract_available(), reason="tesseract is not installed")
def test_a_picture_imported_by_url_is_read_by_ocr(server_factory: Callable[..., QuireServer],
                                                  article_site: str) -> None:
    server = server_factory(QUIRE_URL_IMPORT_ALLOW_PRIVATE="true")
    with server.client() as api:
        response = api.post("/api/documents/url", json={"url": f"{article_site}/scans/p22"})
        assert response.status_code == 202, response.text
        accepted = response.json()["documents"][0]
        assert (accepted["filename"], accepted["kind"]) == ("p22.jpg", "image"), accepted
        assert wait_for_run(api, response.json()["workflow_id"], timeout_s=120)["status"] == "SUCCESS"
        hits = api.get("/api/search", params={"q": "scrouched down laid still", "mode": "sparse"}).json()["hits"]
        assert hits, "the picture's text was not read"
        assert (hits[0]["document_id"], hits[0]["page"]) == (accepted["id"], 1), hits[0]


def test_url_imports_are_keyed_by_url(server_factory: Callable[..., QuireServer], article_site: str) -> None:
    server = server_factory(QUIRE_URL_IMPORT_ALLOW_PRIVATE="true")
    with server.client() as api:
        first = api.post("/api/documents/url", json={"url": f"{article_site}/article", "category": "Geology"}).json()
        assert wait_for_run(api, first["workflow_id"])["status"] == "SUCCESS"
        doc_id = first["documents"][0]["id"]
        again = api.post("/api/documents/url", json={"url": f"{article_site}/article", "category": "Geology"}).json()
        snapshot = wait_for_run(api, again["workflow_id"])
        assert snapshot["documents"][0]["id"] == doc_id
        assert snapshot["documents"][0]["decision"] == "unchanged"
        # another page with the same title: another document, named apart in the category
        mirror = api.post("/api/documents/url", json={"url": f"{article_site}/mirror", "category": "Geology"}).json()
        assert wait_for_run(api, mirror["workflow_id"])["status"] == "SUCCESS"
        assert mirror["documents"][0]["id"] != doc_id
        assert mirror["documents"][0]["filename"] == "Plate Tectonics Explained (2).html"
        refused = api.post("/api/documents/url", json={"url": "ftp://example.org/notes"})
        assert refused.status_code == 422
        refusals = api.get("/api/refusals").json()["refusals"]
        assert [(r["filename"], r["code"]) for r in refusals] == [("ftp://example.org/notes", "url_scheme")]
