"""Chat requests over HTTP: a body over QUIRE_MAX_CHAT_BODY_MB is refused with a 413 while it streams in
(the rest is never read), and attached documents are read after the stream's `start` line — a scanned
PDF's OCR does not hold it up, and a document that cannot be read ends the answer with an `error` line."""

from __future__ import annotations

import base64
import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.agent.chatting import chat
from tests.support.documents import make_pdf, tesseract_available
from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer

CHUNK = 64 * 1024


def _attachment(name: str, data: bytes, mime: str) -> dict[str, str]:
    return {"name": name, "mime_type": mime, "data": base64.b64encode(data).decode()}


def _send_chunked_until_answered(server: QuireServer, total: int) -> tuple[int, bytes]:
    """POST a chunked body (no Content-Length) of `total` bytes to /api/chat, stopping as soon as the server
    answers; returns the bytes of body sent and the response."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.setblocking(False)
    head = (f"POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n\r\n").encode()
    sock.sendall(head)  # small: fits the socket buffer
    prefix = f"{CHUNK:x}\r\n".encode()
    # One JSON string that never ends: the body is only ever too long, never malformed early.
    chunks = [prefix + b'{"message": "' + b"a" * (CHUNK - 13) + b"\r\n", prefix + b"a" * CHUNK + b"\r\n"]
    pending, sent, response = b"", 0, b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            readable, writable, _ = select.select([sock], [sock] if sent < total else [], [], 1.0)
            if readable:
                break
            if writable:
                pending = pending or chunks[min(sent, CHUNK) // CHUNK]
                pending = pending[sock.send(pending):]
                if not pending:
                    sent += CHUNK
        sock.setblocking(True)
        sock.settimeout(10)
        while b"\r\n\r\n" not in response or len(response.partition(b"\r\n\r\n")[2]) < _length(response):
            piece = sock.recv(65536)
            if not piece:
                break
            response += piece
    finally:
        sock.close()
    return sent, response


def _length(response: bytes) -> int:
    for line in response.partition(b"\r\n\r\n")[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 0


@pytest.fixture(scope="module")
def small_chat_server(postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama,
                      tmp_path_factory: pytest.TempPathFactory) -> Iterator[QuireServer]:
    server = QuireServer(postgres.fresh_database(), tmp_path_factory.mktemp("quire-chat-limit"),
                         fake_ollama_server.url, QUIRE_MAX_CHAT_BODY_MB="1").start()
    yield server
    server.stop()


def test_a_chat_body_over_the_limit_is_refused_while_it_streams_in(small_chat_server: QuireServer) -> None:
    total = 32 * 1024 * 1024
    sent, response = _send_chunked_until_answered(small_chat_server, total)
    status_line = response.split(b"\r\n", 1)[0]
    assert b" 413 " in status_line, response[:300]
    body = json.loads(response.partition(b"\r\n\r\n")[2])
    assert body["error"]["code"] == "too_large"
    assert "1 MB" in body["error"]["message"]
    assert sent < total // 2, sent  # answered long before the client got through its body


def test_a_declared_oversized_chat_body_is_refused_without_reading_it(small_chat_server: QuireServer) -> None:
    with small_chat_server.client() as api:
        response = api.post("/api/chat", content=b"{" + b" " * (2 * 1024 * 1024) + b"}",
                            headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


def test_a_body_under_the_limit_still_chats(small_chat_server: QuireServer, fake_ollama: FakeOllama) -> None:
    with small_chat_server.client() as api:
        stream = chat(api, "hello " * 1000)
    assert stream.types[0] == "start"
    assert stream.of("error") == []


@pytest.mark.skipif(not tesseract_available(), reason="needs tesseract for OCR")
def test_start_comes_before_a_scanned_attachment_is_read(
        api: httpx.Client, fake_ollama: FakeOllama, tmp_path: Path) -> None:
    pages = [f"Page {n}: the mitochondria is the powerhouse of the cell, chapter {n}." for n in range(1, 7)]
    scan = make_pdf(tmp_path / "scan.pdf", pages, scanned=set(range(1, 7))).read_bytes()
    body = {"message": "What do my scanned notes say?",
            "attachments": [_attachment("scan.pdf", scan, "application/pdf")]}
    with api.stream("POST", "/api/chat", json=body, timeout=120) as response:
        assert response.status_code == 200
        lines = response.iter_lines()
        first = json.loads(next(lines))
        assert first["type"] == "start"
        # Still reading the scan: the stored question lists it as being extracted, the model not yet asked.
        session = api.get(f"/api/chat/sessions/{first['data']['session_id']}").json()
        asked = next(m for m in session["messages"] if m["role"] == "user")
        assert asked["attachments"][0]["extracting"] is True
        assert fake_ollama.chat_requests == []
        rest = [json.loads(line) for line in lines]
    assert rest[-1]["type"] == "done"
    assert not [e for e in rest if e["type"] == "error"], rest
    sent = " ".join(m["content"] for r in fake_ollama.chat_requests for m in r["messages"] if m["role"] == "user")
    assert "mitochondria" in sent.lower()  # the OCR'd text reached the model
    stored = api.get(f"/api/chat/sessions/{first['data']['session_id']}").json()
    attachment = next(m for m in stored["messages"] if m["role"] == "user")["attachments"][0]
    assert attachment["pages"] == 6
    assert "extracting" not in attachment


def test_an_unreadable_attachment_ends_the_stream_with_an_error_line(
        api: httpx.Client, fake_ollama: FakeOllama, tmp_path: Path) -> None:
    blank = make_pdf(tmp_path / "blank.pdf", [""]).read_bytes()
    stream = chat(api, "Summarise this.", attachments=[_attachment("blank.pdf", blank, "application/pdf")])
    error = stream.one("error")
    assert error["code"] == "attachment_unreadable"
    assert "blank.pdf" in error["message"]
    assert fake_ollama.chat_requests == []  # nothing was asked of the model
    session = api.get(f"/api/chat/sessions/{stream.session_id}").json()
    final = session["messages"][-1]
    assert final["status"] == "error"
    assert final["error"]["code"] == "attachment_unreadable"
