"""`/api/docs` in a real browser: Swagger UI renders the API's operations with every request staying on
this server (no CDN), under the app's strict Content-Security-Policy (a blocked script would be a
console error, which fails the test)."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Page, Request, expect

from tests.support.server import QuireServer


def test_api_docs_render_with_no_request_leaving_the_machine(page: Page, e2e_server: QuireServer) -> None:
    requests: list[str] = []

    def record(request: Request) -> None:
        requests.append(request.url)

    page.on("request", record)
    response = page.goto(e2e_server.url + "/api/docs")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Quire")
    expect(page.locator(".opblock").first).to_be_visible()
    operations = page.locator(".opblock-summary-path")
    expect(operations.filter(has_text="/api/documents/{document_id}/outline")).to_have_count(1)
    expect(operations.filter(has_text="/api/search")).to_have_count(1)
    assert operations.count() > 20
    page.wait_for_load_state("networkidle")

    hosts = {urlsplit(url).hostname for url in requests if not url.startswith(("data:", "blob:"))}
    assert hosts == {"127.0.0.1"}, requests
    assert any(url.endswith("/api-docs/swagger-ui-bundle.js") for url in requests)
