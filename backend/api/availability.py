"""Requests while the database is gone: a 503 within a second, never a hang.

`DatabaseGate` answers every `/api/` request except health and the API docs with `database_unavailable` (503)
while the liveness flag says the database is down — before any handler can block on the pool or on
DBOS, which waits for its database for as long as it takes — and marks the rest of the request as
"fail fast", so a database lost halfway through a request also ends it with a 503 at once. A connection
error that still escapes a handler is rendered as the same 503 instead of a 500.
"""

from __future__ import annotations

import json

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from backend.errors import error_response
from backend.store.liveness import CONNECTION_ERRORS, DatabaseUnavailable, failing_fast

_UNGATED = {"/api/health", "/api/openapi.json", "/api/docs"}  # none of them needs the database


class DatabaseGate:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/"):
            await self.app(scope, receive, send)
            return
        services = getattr(scope["app"].state, "services", None)
        if services is not None and path not in _UNGATED and not services.db.liveness.is_up():
            await _send_unavailable(send)
            return
        with failing_fast():
            await self.app(scope, receive, send)


async def _send_unavailable(send: Send) -> None:
    error = DatabaseUnavailable()
    body = json.dumps({"error": {"code": error.code, "message": error.message}}).encode()
    await send({"type": "http.response.start", "status": error.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"retry-after", b"2")]})
    await send({"type": "http.response.body", "body": body})


async def _connection_error(request: Request, exc: Exception) -> JSONResponse:
    services = getattr(request.app.state, "services", None)
    if services is not None:
        services.db.liveness.suspect()
    error = DatabaseUnavailable()
    return error_response(error.status, error.code, error.message)


def install(app: FastAPI) -> None:
    for error_type in CONNECTION_ERRORS:
        app.add_exception_handler(error_type, _connection_error)
    app.add_middleware(DatabaseGate)
