"""The dashboard's processes panel in a real browser, as the operator of several processes meets it: a
worker that hangs (SIGSTOP) shows as silent, then fenced with its work taken over; a server that dies
(SIGKILL) as gone, its work taken over; both appear under recent takeovers. Real processes on the page's
database; screenshots in test-artifacts/ for a person to look at."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.worker import QuireWorker

pytestmark = pytest.mark.slow

# Silent after 10 s; a hung process is fenced after 20 s: a window wide enough to see it silent.
TIMING = {"QUIRE_TAKEOVER_AFTER_S": "10"}  # a heartbeat every 0.83 s
SERVER_ENV = TIMING


@pytest.fixture
def others(e2e_server: QuireServer, fake_ollama: FakeOllama,
           tmp_path: Path) -> Iterator[tuple[QuireServer, QuireWorker]]:
    server = QuireServer(e2e_server.database_url, tmp_path / "doomed", fake_ollama.url, **TIMING).start(600)
    worker = QuireWorker(e2e_server.database_url, tmp_path / "hung", fake_ollama.url, **TIMING).start(600)
    yield server, worker
    if worker.process is not None and worker.process.poll() is None:
        os.kill(worker.process.pid, signal.SIGCONT)
    worker.stop()
    server.stop()


def _row(page: Page, executor_id: str):  # type: ignore[no-untyped-def]
    return page.get_by_test_id("worker-row").filter(has_text=executor_id)


def _reload_until(page: Page, executor_id: str, state: str, timeout_s: float = 120) -> None:
    """The dashboard polls health every 30 s; an operator waiting for a change reloads it."""
    for _ in range(int(timeout_s)):
        page.reload()
        row = _row(page, executor_id)
        row.wait_for(timeout=30_000)
        if row.get_attribute("data-state") == state:
            return
        page.wait_for_timeout(1000)
    raise AssertionError(f"{executor_id} never showed as {state}")


def test_the_panel_shows_a_hung_worker_fenced_and_a_dead_server_taken_over(
        page: Page, e2e_server: QuireServer, others: tuple[QuireServer, QuireWorker]) -> None:
    doomed, hung = others
    with doomed.client() as api:
        doomed_id = api.get("/api/health").json()["dbos"]["executor_id"]
    page.goto(e2e_server.url + "/dashboard")
    panel = page.get_by_test_id("workers-panel")
    expect(panel).to_contain_text("3 processes alive on this database", timeout=30_000)
    hung_id = (hung.data_dir / "executor-id").read_text(encoding="utf-8").strip()  # generated at its start
    assert hung.process is not None
    assert doomed.process is not None
    os.kill(hung.process.pid, signal.SIGSTOP)
    doomed.kill()

    _reload_until(page, hung_id, "silent")
    row = _row(page, hung_id)
    expect(row).to_contain_text("silent")
    expect(row).to_contain_text("its unfinished work waits to be taken over")
    expect(panel).to_contain_text("silent one")
    ARTIFACTS.mkdir(exist_ok=True)
    panel.scroll_into_view_if_needed()
    panel.screenshot(path=str(ARTIFACTS / "processes-panel-silent.png"))

    _reload_until(page, hung_id, "fenced")
    _reload_until(page, doomed_id, "taken_over")
    expect(_row(page, hung_id)).to_contain_text("fenced, work taken over")
    expect(_row(page, hung_id)).to_contain_text("after ending its")
    expect(_row(page, doomed_id)).to_contain_text("gone, work taken over")
    takeovers = page.get_by_test_id("takeovers")
    expect(takeovers.get_by_test_id("takeover-row")).to_have_count(2)
    expect(takeovers.get_by_test_id("takeover-row").filter(has_text=hung_id)).to_contain_text("fenced")
    expect(takeovers.get_by_test_id("takeover-row").filter(has_text=doomed_id)).to_contain_text("gone")
    panel.scroll_into_view_if_needed()
    panel.screenshot(path=str(ARTIFACTS / "processes-panel-fenced.png"))
    os.kill(hung.process.pid, signal.SIGCONT)
    assert hung.process.wait(timeout=120) == 75  # woken, it learns it was fenced and exits
