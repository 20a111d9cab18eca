"""Secure defaults over real HTTP: Host allow-list (DNS rebinding), no cross-site writes, security
headers, the API token when one is configured, and refusing to bind elsewhere without one."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from backend.config import Settings
from tests.support.server import QuireServer

UNKNOWN = "/api/documents/00000000-0000-0000-0000-000000000000"


def test_foreign_host_header_is_refused(api: httpx.Client) -> None:
    response = api.get("/api/health", headers={"Host": "attacker.example:8000"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "host_not_allowed"


@pytest.mark.parametrize("headers", [
    {"Origin": "https://attacker.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
])
def test_cross_site_writes_are_refused(api: httpx.Client, headers: dict[str, str]) -> None:
    response = api.patch(UNKNOWN, json={"category": "x"}, headers=headers)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "cross_site_request"


def test_same_origin_writes_pass_the_guard(api: httpx.Client, quire: QuireServer) -> None:
    response = api.patch(UNKNOWN, json={"category": "x"}, headers={"Origin": quire.url})
    assert response.status_code == 404  # reached the handler


def test_security_headers_on_every_response(api: httpx.Client) -> None:
    for response in (api.get("/api/health"), api.get("/api/nope")):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["referrer-policy"] == "no-referrer"


def test_unknown_api_path_is_json_404_even_for_browsers(api: httpx.Client) -> None:
    response = api.get("/api/definitely/not/here", headers={"Accept": "text/html"})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_api_token_is_required_when_configured(server_factory: Callable[..., QuireServer]) -> None:
    server = server_factory(QUIRE_API_TOKEN="s3cret-token")
    with server.client() as api:
        assert api.get("/api/health").status_code == 200
        refused = api.get("/api/documents")
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "unauthorized"
        assert api.get("/api/documents", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert api.get("/api/documents", headers={"Authorization": "Bearer s3cret-token"}).status_code == 200
        assert api.get("/api/documents", cookies={"quire_token": "s3cret-token"}).status_code == 200


def test_binding_beyond_loopback_needs_a_token() -> None:
    from backend.app import create_app  # the whole backend: imported by this test, not when collecting

    with pytest.raises(SystemExit, match="QUIRE_API_TOKEN"):
        create_app(Settings(QUIRE_HOST="0.0.0.0"))
    assert create_app(Settings(QUIRE_HOST="0.0.0.0", QUIRE_API_TOKEN="t")) is not None


def test_oversized_json_bodies_are_refused_before_parsing(api: httpx.Client) -> None:
    response = api.post("/api/documents/url", content=b"{" + b" " * (2 * 1024 * 1024) + b"}",
                        headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


def test_a_method_an_address_does_not_take_is_named_with_those_it_takes(api: httpx.Client) -> None:
    response = api.request("PUT", "/api/categories")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET"  # RFC 9110: a 405 lists the methods that work
    error = response.json()["error"]
    assert (error["code"], error["message"]) == (
        "method_not_allowed", "PUT is not allowed at /api/categories; it takes GET.")
