"""Every numeric query parameter has an upper bound, and a value beyond it (or absurdly large) is a clean
422 in the error shape — never a 500 from a number Postgres cannot hold. The parameters come from the
running server's OpenAPI schema, so a new one without a bound fails here the day it is added."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.server import QuireServer, operations

HUGE = 10**30  # beyond bigint, where an unbounded OFFSET used to fail inside Postgres


def _numeric_query_params(quire: QuireServer) -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for method, path, spec in operations(quire):
        for param in spec.get("parameters", []):
            variants = param["schema"].get("anyOf", [param["schema"]])
            numeric = [v for v in variants if v.get("type") in ("integer", "number")]
            if param["in"] == "query" and numeric:
                found.append((method, path, {**numeric[0], "name": param["name"]}))
    return found


def test_every_numeric_query_parameter_is_bounded(quire: QuireServer) -> None:
    params = _numeric_query_params(quire)
    assert any(p["name"] == "offset" and path == "/api/chat/sessions" for _, path, p in params)
    unbounded = [(method, path, p["name"]) for method, path, p in params if "maximum" not in p]
    assert not unbounded


def test_values_beyond_the_bound_are_a_clean_422(api: httpx.Client, quire: QuireServer) -> None:
    for method, path, param in _numeric_query_params(quire):
        if "{" in path:
            continue  # needs an existing object; the bound itself is checked above
        for value in (param["maximum"] + 1, HUGE, -HUGE):
            response = api.request(method, path, params={param["name"]: value, "q": "x"})
            assert response.status_code == 422, (method, path, param["name"], value, response.text[:200])
            body = response.json()
            assert body["error"]["code"] == "invalid_request"
            assert param["name"] in body["error"]["message"]


def test_the_largest_allowed_offset_is_an_empty_page(api: httpx.Client) -> None:
    response = api.get("/api/chat/sessions", params={"offset": 1_000_000})
    assert response.status_code == 200
    assert response.json() == []
