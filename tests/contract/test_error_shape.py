"""Every endpoint answers malformed or hostile input with a 4xx and the one error shape
`{"error": {"code", "message"}}` — never a 500, never a stack trace. The endpoints are enumerated from
the running server's OpenAPI schema, so a new router is covered the day it is added."""

from __future__ import annotations

import re

import httpx
import pytest

from backend.errors import ERROR_CODES
from tests.support.server import QuireServer, operations

HOSTILE_SEGMENTS = ["not-a-uuid", "00000000-0000-0000-0000-000000000000", "..%2F..%2Fetc%2Fpasswd", "%00", "x" * 300]


def _fill(path: str, value: str) -> str:
    return re.sub(r"\{[^}]+\}", value, path)


def _assert_error(response: httpx.Response) -> None:
    assert 400 <= response.status_code < 500, (response.request.method, response.request.url, response.status_code,
                                               response.text[:300])
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["code"] in ERROR_CODES, body  # the closed set the OpenAPI document lists
    assert isinstance(body["error"]["message"], str)
    assert body["error"]["message"]
    assert "Traceback" not in response.text


def test_openapi_lists_every_router(quire: QuireServer) -> None:
    paths = {path for _, path, _ in operations(quire)}
    for prefix in ("/api/documents", "/api/ingest", "/api/search", "/api/chat", "/api/study", "/api/progress",
                   "/api/vault", "/api/health"):
        assert any(p.startswith(prefix) for p in paths), prefix


def test_hostile_path_parameters(api: httpx.Client, quire: QuireServer) -> None:
    for method, path, _ in operations(quire):
        if "{" not in path:
            continue
        for segment in HOSTILE_SEGMENTS:
            response = api.request(method, _fill(path, segment), json={})
            if response.status_code == 200 and method == "GET" and segment == HOSTILE_SEGMENTS[1]:
                continue  # a valid-looking id may legitimately exist nowhere yet answer a listing
            _assert_error(response)


def test_malformed_json_bodies(api: httpx.Client, quire: QuireServer) -> None:
    for method, path, spec in operations(quire):
        content = spec.get("requestBody", {}).get("content", {})
        if "application/json" not in content:
            continue
        url = _fill(path, "00000000-0000-0000-0000-000000000000")
        for body in (b"{not json", b"[]", b'"a string"', b"[1]", b"null"):
            response = api.request(method, url, content=body, headers={"content-type": "application/json"})
            if response.status_code < 400:
                pytest.fail(f"{method} {path} accepted {body!r}: {response.status_code}")
            _assert_error(response)


def test_wrongly_typed_query_parameters(api: httpx.Client, quire: QuireServer) -> None:
    for method, path, spec in operations(quire):
        if method != "GET" or "{" in path:
            continue
        for param in spec.get("parameters", []):
            kind = param.get("schema", {}).get("type")
            if param["in"] == "query" and kind in ("integer", "number"):
                params = {"q": "x"} if path == "/api/search" else {}
                response = api.get(path, params={**params, param["name"]: "not-a-number"})
                _assert_error(response)
