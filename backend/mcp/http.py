"""The MCP server over streamable HTTP at `/mcp`, inside the Quire app.

It sits behind the app's `RequestGuard` like the API: the same Host allow-list, the same refusal of
cross-site requests and the same API token (`Authorization: Bearer …`), so the SDK's own Host/Origin
check is switched off rather than configured twice. The transport is stateless with JSON responses: no
session lives in one process's memory, so any Quire process on the database can answer any request.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from backend.config import Settings
from backend.mcp.server import build_server

PATH = "/mcp"


class _Endpoint:
    """An ASGI endpoint (a class, so Starlette hands it the raw request) for the SDK's session manager."""

    def __init__(self, manager: StreamableHTTPSessionManager) -> None:
        self.manager = manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.manager.handle_request(scope, receive, send)


def mount(app: FastAPI, settings: Settings) -> None:
    """Serve MCP at `/mcp` and run the SDK's session manager for as long as the app runs."""
    server = build_server(settings, lambda: app.state.services)
    server.streamable_http_app(  # builds the session manager; its own Starlette app is not used
        stateless_http=True, json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    manager = server.session_manager
    route = Route(PATH, _Endpoint(manager), methods=["GET", "POST", "DELETE"], include_in_schema=False)
    app.router.routes.append(route)
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(instance: Any) -> AsyncIterator[Any]:
        async with manager.run(), inner(instance) as state:
            yield state

    app.router.lifespan_context = lifespan
