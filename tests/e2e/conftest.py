"""Browser fixtures for the end-to-end tests: Debian's Chromium driven by Playwright against a real
Quire server (real Postgres, real DBOS, the built web app) and the fake Ollama.

`page` fails its test on any console error or uncaught page error (a test that expects some, such as a
server restart, says so with `console.allow(...)`), and saves a screenshot to `test-artifacts/` when the
test fails. Each test module gets its own server (`e2e_server`); a test that crashes one uses
`server_factory`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Error, Page, Playwright, sync_playwright

from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import REPO_ROOT, QuireServer

CHROMIUM = Path("/usr/bin/chromium")
DIST_INDEX = REPO_ROOT / "frontend" / "dist" / "index.html"
ARTIFACTS = REPO_ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """Remember each phase's report on the test item, so fixtures can tell whether the test failed."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


# Package scope: the sync API keeps an asyncio loop running in this thread, which must stop before
# later test packages call asyncio.run().
@pytest.fixture(scope="package")
def playwright_instance() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="package")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing at /usr/bin/chromium: run ./scripts/setup.sh --dev (it installs chromium).")
    browser = playwright_instance.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


def require_built_app() -> None:
    if not DIST_INDEX.is_file():
        pytest.fail(
            "frontend/dist is not built, so there is no web app to test. Run ./scripts/setup.sh "
            "(or: cd frontend && npm ci && npm run build).",
            pytrace=False,
        )


@pytest.fixture(scope="module")
def e2e_server(
    postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama, tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> Iterator[QuireServer]:
    """A Quire server of this test module's own (its own database and data folder), with the settings in
    the module's `SERVER_ENV` if it has one. When a test of the module failed, its log is kept in
    `test-artifacts/` next to the screenshots."""
    require_built_app()
    server = QuireServer(postgres.fresh_database(), tmp_path_factory.mktemp("quire-e2e"), fake_ollama_server.url,
                         **getattr(request.module, "SERVER_ENV", {}))
    failures_before = request.session.testsfailed
    server.start()
    yield server
    server.stop()
    if request.session.testsfailed > failures_before:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"{request.module.__name__.rsplit('.', 1)[-1]}-server.log").write_text(server.log_tail(400))


@dataclass
class ConsoleWatch:
    """Console errors and page errors seen during a test, minus the ones the test expects."""

    errors: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    def on_page_error(self, error: Error) -> None:
        self.errors.append(f"page error: {error.message}")

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


@pytest.fixture
def console() -> ConsoleWatch:
    return ConsoleWatch()


def _artifact_name(nodeid: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid.split("::", 1)[-1])[:120]


@pytest.fixture
def page(browser: Browser, console: ConsoleWatch, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh browser page (1280×800); fails the test on console errors, screenshots a failure."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="light")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.on("console", console.on_console)
    page.on("pageerror", console.on_page_error)
    yield page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        with contextlib.suppress(Error):  # the page may be gone (crashed browser); the failure is what matters
            page.screenshot(path=str(ARTIFACTS / f"{_artifact_name(request.node.nodeid)}.png"), full_page=True)
    context.close()
    unexpected = console.unexpected()
    if unexpected and (report is None or report.passed):
        pytest.fail("the page logged errors:\n" + "\n".join(unexpected), pytrace=False)


@pytest.fixture
def open_app(page: Page) -> Callable[[QuireServer, str], Page]:
    """Navigate the page to a path of a server's web app."""

    def go(server: QuireServer, path: str = "/") -> Page:
        page.goto(server.url + path)
        return page

    return go
