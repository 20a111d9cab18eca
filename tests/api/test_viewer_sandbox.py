"""PDF pages are drawn in the viewer's sandboxed child processes, not in the server, over real HTTP to a
real server: corpus pages come back at the right size while the drawing's CPU time shows up in a child;
a page that takes half a minute to draw is refused within the viewer's limits while the server answers
other requests at once; a drawing child that crashes (SIGSEGV, as a MuPDF bug would) costs one refusal,
and the server keeps drawing pages."""

from __future__ import annotations

import io
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
from PIL import Image

from backend.viewer.page_workers import VIEWER_LIMITS
from scripts.shared_data import CORPUS
from tests.support.fake_ollama import FakeOllama
from tests.support.hostile import tangled_lines_pdf, tree_cpu_seconds
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer, serve
from tests.support.vault import ingest

FEDERAL_REGISTER = "federal-register-2020-17221.pdf"  # 15 US Letter pages with a text layer
VIEWER_CPU_S = VIEWER_LIMITS.cpu_s


@pytest.fixture(scope="module")
def server(postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[QuireServer]:
    """A server of its own: the CPU time of its process and children is measured."""
    yield from serve(postgres, fake_ollama_server, tmp_path_factory.mktemp("quire-viewer"))


@pytest.fixture(scope="module")
def docs(server: QuireServer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("tangled")
    files = {FEDERAL_REGISTER: (CORPUS / FEDERAL_REGISTER).read_bytes(),
             "tangled-1.pdf": tangled_lines_pdf(folder / "t1.pdf", seed=1).read_bytes(),
             "tangled-2.pdf": tangled_lines_pdf(folder / "t2.pdf", seed=2).read_bytes()}
    with server.client() as client:
        return ingest(client, files, timeout_s=120)


@pytest.fixture
def api(server: QuireServer) -> Iterator[httpx.Client]:
    with server.client(timeout=60.0) as client:
        yield client


def _own_cpu(server: QuireServer) -> float:
    assert server.process is not None
    times = psutil.Process(server.process.pid).cpu_times()
    return float(times.user + times.system)


def _children_cpu(server: QuireServer) -> dict[int, float]:
    assert server.process is not None
    used = tree_cpu_seconds(server.process.pid)
    used.pop(server.process.pid)
    return used


def _alive(server: QuireServer) -> bool:
    return server.process is not None and server.process.poll() is None


def _size(png: bytes) -> tuple[int, int]:
    size: tuple[int, int] = Image.open(io.BytesIO(png)).size
    return size


def _normal_page_renders(api: httpx.Client, doc: dict[str, Any], number: int) -> None:
    """Page `number` (not asked for before: no cache answers it) comes back drawn."""
    page = api.get(f"/api/documents/{doc['id']}/pages/{number}.png", params={"scale": 1})
    assert page.status_code == 200, page.text
    assert _size(page.content) == (612, 792)


def test_corpus_pages_are_drawn_in_a_child_process(server: QuireServer, api: httpx.Client,
                                                   docs: dict[str, dict[str, Any]]) -> None:
    # Before: PyMuPDF drew the page in the server's own process; its children did no work for a view.
    doc = docs[FEDERAL_REGISTER]
    own, children = _own_cpu(server), _children_cpu(server)
    first = api.get(f"/api/documents/{doc['id']}/pages/6.png", params={"scale": 1})
    assert first.status_code == 200
    assert first.headers["content-type"] == "image/png"
    assert _size(first.content) == (612, 792)  # US Letter at 1 pixel per point
    for number in range(1, 10):  # at the largest size (about 4 megapixels): a few hundred ms each to draw
        page = api.get(f"/api/documents/{doc['id']}/pages/{number}.png", params={"scale": 3})
        width, height = _size(page.content)
        assert width * height <= 4_000_000
        assert width > 1700
        assert abs(width / height - 612 / 792) < 0.01
    drawing = sum(used - children.get(pid, 0.0) for pid, used in _children_cpu(server).items())
    serving = _own_cpu(server) - own
    assert drawing > 0.5, (drawing, serving)
    # The server's own CPU covers HTTP, the PNGs' way through it and its background chores, not drawing.
    assert drawing > serving, (drawing, serving)

    # Asked again without the browser's ETag (another tab): answered from this process's cache, no drawing.
    children = _children_cpu(server)
    again = api.get(f"/api/documents/{doc['id']}/pages/6.png", params={"scale": 1})
    assert again.content == first.content
    assert sum(used - children.get(pid, 0.0) for pid, used in _children_cpu(server).items()) < 0.05


def test_a_page_too_complex_to_draw_is_refused_while_the_server_answers(server: QuireServer, api: httpx.Client,
                                                                        docs: dict[str, dict[str, Any]]) -> None:
    # Before: drawing this page took 30+ s of the server's own CPU (per view), so the request timed out.
    tangled = docs["tangled-1.pdf"]
    own = _own_cpu(server)
    answer: dict[str, Any] = {}

    def view() -> None:
        started = time.monotonic()
        answer["response"] = api.get(f"/api/documents/{tangled['id']}/pages/1.png")
        answer["seconds"] = time.monotonic() - started

    viewing = threading.Thread(target=view)
    viewing.start()
    health: list[float] = []
    with server.client(timeout=5.0) as other:
        while viewing.is_alive():
            started = time.monotonic()
            assert other.get("/api/health").status_code == 200
            health.append(time.monotonic() - started)
            time.sleep(0.2)
    viewing.join()
    response = answer["response"]
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "page_too_complex"
    assert error["message"] == "Page 1 is too complex to show; download the original."
    # Refused for its CPU time (about 11 s to draw), which the machine's load does not change; there is no
    # wall-clock limit that a busy machine could break instead.
    assert error["details"]["reason"] == f"needed more than {VIEWER_CPU_S} seconds of CPU time"
    assert len(health) >= 5
    assert max(health) < 1.0, health
    # The drawing's CPU was not the server's: drawn in-process, the page would have cost the server its
    # full ~11 s. What the server did use grows with the wall time of the view (the health requests above,
    # its background chores), which a loaded machine stretches: bounded by the drawing's own limit.
    assert _own_cpu(server) - own < VIEWER_CPU_S
    assert _alive(server)

    # The next page of another document is drawn; the refused page is refused again without drawing it.
    _normal_page_renders(api, docs[FEDERAL_REGISTER], 10)
    started = time.monotonic()
    assert api.get(f"/api/documents/{tangled['id']}/pages/1.png").json()["error"]["code"] == "page_too_complex"
    assert time.monotonic() - started < 1.0
    # Its passage boxes (a quick job in the same workers) still come back.
    boxes = api.get(f"/api/documents/{tangled['id']}/pages/1/highlights", params={"q": "a great many crossing lines"})
    assert boxes.json()["matched_words"] == 5


def _busy_child(server: QuireServer, timeout_s: float = 6.0) -> int:
    """The child process drawing a page: the one using the most CPU now (on a busy machine a drawing
    child may get a fifth of a core)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        before = _children_cpu(server)
        time.sleep(1.0)
        used = {pid: cpu - before.get(pid, 0.0) for pid, cpu in _children_cpu(server).items()}
        busiest = max(used, key=lambda pid: used[pid], default=None)
        if busiest is not None and used[busiest] > 0.05:
            return busiest
    raise AssertionError("no child process of the server is drawing the page")


def test_a_crash_while_drawing_costs_one_refusal_not_the_server(server: QuireServer, api: httpx.Client,
                                                                docs: dict[str, dict[str, Any]],
                                                                tmp_path: Path) -> None:
    # Before: the page was drawn in the server's process, so a MuPDF crash would have ended the server;
    # there was no child to crash.
    tangled = docs["tangled-2.pdf"]
    answer: dict[str, httpx.Response] = {}
    viewing = threading.Thread(target=lambda: answer.update(
        response=api.get(f"/api/documents/{tangled['id']}/pages/1.png")))
    viewing.start()
    try:
        psutil.Process(_busy_child(server)).send_signal(signal.SIGSEGV)
    finally:
        viewing.join()
    response = answer["response"]
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "page_too_complex"
    assert response.json()["error"]["details"]["reason"].startswith("crashed")
    assert _alive(server)
    _normal_page_renders(api, docs[FEDERAL_REGISTER], 11)
